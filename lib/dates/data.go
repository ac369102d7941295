package dates

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/attention-in-go/course/lib/random"
)

// Format is one of the human-readable ways a date is written, as a Go
// time layout (see [time.Time.Format]).
//
// Introduced in lesson 07.
type Format string

// The five input formats of the task. The longest, "22 September 2026",
// has 17 characters.
//
// Introduced in lesson 07.
const (
	DayMonthYear        Format = "2 January 2006"  // 22 November 2026
	MonDayYear          Format = "Jan 2, 2006"     // Nov 22, 2026
	Numeric             Format = "02/01/2006"      // 22/11/2026 (day first)
	WeekdayDayMonYear   Format = "Mon, 2 Jan 2006" // Sun, 22 Nov 2026
	DayMonYear          Format = "2 Jan 2006"      // 22 Nov 2026
	ISO                 Format = "2006-01-02"      // 2026-11-22, the target
	SourceWidth                = 17                // longest source, in characters
	TargetWidth                = 10                // len("2026-11-22")
	firstYear, lastYear        = 1950, 2049        // the dates drawn
)

// Formats lists the input formats in the order the generator draws them.
//
// Introduced in lesson 07.
var Formats = []Format{DayMonthYear, MonDayYear, Numeric, WeekdayDayMonYear, DayMonYear}

// Span is a range of character positions [From, To) of a string.
//
// Part of the library behind lesson 07; the lesson does not name it.
type Span struct{ From, To int }

// Len is the number of characters of the span.
func (s Span) Len() int { return s.To - s.From }

// Example is one source date and its ISO translation, with where the
// year, month and day are written in the source (the spans the attention
// of a trained model should look at).
//
// Introduced in lesson 07.
type Example struct {
	Date             time.Time
	Format           Format
	Source, Target   string
	Year, Month, Day Span // in Source
}

// NewExample writes date in format f and finds its fields in the text.
//
// Introduced in lesson 07.
func NewExample(date time.Time, f Format) Example {
	src := date.Format(string(f))
	e := Example{Date: date, Format: f, Source: src, Target: date.Format(string(ISO))}
	// Locate each field by formatting the layout with the field marked.
	e.Year = fieldSpan(date, f, "2006")
	if strings.Contains(string(f), "02/") {
		e.Day = fieldSpan(date, f, "02") // zero-padded day
	} else {
		e.Day = fieldSpan(date, f, "2")
	}
	for _, m := range []string{"January", "Jan", "01"} {
		if strings.Contains(string(f), m) {
			e.Month = fieldSpan(date, f, m)
			break
		}
	}
	return e
}

// fieldSpan returns where the layout element elem of f is written when f
// formats date: the text before it is the date formatted with the layout
// prefix.
func fieldSpan(date time.Time, f Format, elem string) Span {
	layout := string(f)
	i := indexElem(layout, elem)
	if i < 0 {
		return Span{}
	}
	from := len(date.Format(layout[:i]))
	if i == 0 {
		from = 0
	}
	return Span{from, from + len(date.Format(elem))}
}

// indexElem finds elem in a layout as a whole element: "2" must not be
// the 2 of "2006" or "02", nor "Jan" the start of "January".
func indexElem(layout, elem string) int {
	for i := 0; i+len(elem) <= len(layout); i++ {
		if layout[i:i+len(elem)] != elem {
			continue
		}
		next := i + len(elem)
		if elem == "2" && (next < len(layout) && layout[next] == '0' || i > 0 && layout[i-1] == '0') {
			continue
		}
		if elem == "Jan" && strings.HasPrefix(layout[i:], "January") {
			continue
		}
		return i
	}
	return -1
}

// Task is a generated data set: training and test examples drawn from two
// disjoint sets of calendar days between 1950 and 2049.
//
// Introduced in lesson 07.
type Task struct {
	Train, Test []Example
}

// Generate draws nTrain training and nTest test examples with lib/random
// seeded with seed: the days from 1 January 1950 to 31 December 2049 are
// shuffled, the first testFraction of them are kept for the test set, and
// each example picks a day of its set and one of the [Formats] uniformly.
// No test day appears in the training set, in any format.
//
// Typical shapes: nTrain 6000, nTest 500, testFraction 0.2.
//
// Introduced in lesson 07.
func Generate(nTrain, nTest int, testFraction float64, seed uint32) (*Task, error) {
	if nTrain < 1 || nTest < 1 || testFraction <= 0 || testFraction >= 1 {
		return nil, fmt.Errorf("dates.Generate: want nTrain, nTest ≥ 1 and 0 < testFraction < 1, got %d, %d, %g", nTrain, nTest, testFraction)
	}
	first := time.Date(firstYear, 1, 1, 0, 0, 0, 0, time.UTC)
	last := time.Date(lastYear, 12, 31, 0, 0, 0, 0, time.UTC)
	n := int(last.Sub(first).Hours()/24) + 1
	r := random.New(seed)
	days := make([]int, n)
	for i := range days {
		days[i] = i
	}
	for i := n - 1; i > 0; i-- { // Fisher–Yates
		j := int(r.Float64() * float64(i+1))
		days[i], days[j] = days[j], days[i]
	}
	nt := int(testFraction * float64(n))
	testDays, trainDays := days[:nt], days[nt:]
	draw := func(pool []int, k int) []Example {
		out := make([]Example, k)
		for i := range out {
			d := pool[min(int(r.Float64()*float64(len(pool))), len(pool)-1)]
			f := Formats[min(int(r.Float64()*float64(len(Formats))), len(Formats)-1)]
			out[i] = NewExample(first.AddDate(0, 0, d), f)
		}
		return out
	}
	return &Task{Train: draw(trainDays, nTrain), Test: draw(testDays, nTest)}, nil
}

// Vocab maps characters to ids and back. Id 0 is padding; a target
// vocabulary also has the start id 1 that the decoder reads first.
//
// Part of the library behind lesson 07; the lesson does not name it.
type Vocab struct {
	Chars []rune // Chars[id]; 0 and (target) 1 are placeholders
	ids   map[rune]int32
	Start int32 // 0 when there is none
}

// Pad is the padding id of both vocabularies.
//
// Part of the library behind lesson 07; the lesson does not name it.
const Pad = 0

func newVocab(chars string, withStart bool) *Vocab {
	set := map[rune]bool{}
	for _, c := range chars {
		set[c] = true
	}
	v := &Vocab{Chars: []rune{'·'}, ids: map[rune]int32{}}
	if withStart {
		v.Chars = append(v.Chars, '^')
		v.Start = 1
	}
	var sorted []rune
	for c := range set {
		sorted = append(sorted, c)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	for _, c := range sorted {
		v.ids[c] = int32(len(v.Chars))
		v.Chars = append(v.Chars, c)
	}
	return v
}

// SourceVocab is every character the source formats can write: digits,
// space, ",", "/" and the letters of the English month and weekday names.
//
// Introduced in lesson 07.
var SourceVocab = func() *Vocab {
	var b strings.Builder
	b.WriteString("0123456789 ,/")
	for m := time.January; m <= time.December; m++ {
		b.WriteString(m.String())
	}
	for d := time.Sunday; d <= time.Saturday; d++ {
		b.WriteString(d.String())
	}
	return newVocab(b.String(), false)
}()

// TargetVocab is the characters of ISO dates: digits and "-", plus
// padding and start.
//
// Introduced in lesson 07.
var TargetVocab = newVocab("0123456789-", true)

// Size is the number of ids, padding (and start) included.
func (v *Vocab) Size() int { return len(v.Chars) }

// Encode turns s into ids padded with [Pad] to width. It fails on a
// character outside the vocabulary or a string longer than width.
func (v *Vocab) Encode(s string, width int) ([]int32, error) {
	r := []rune(s)
	if len(r) > width {
		return nil, fmt.Errorf("dates: %q has %d characters, more than the width %d", s, len(r), width)
	}
	ids := make([]int32, width)
	for i, c := range r {
		id, ok := v.ids[c]
		if !ok {
			return nil, fmt.Errorf("dates: character %q of %q is not in the vocabulary", c, s)
		}
		ids[i] = id
	}
	return ids, nil
}

// Decode turns ids back into text, dropping padding and start ids.
func (v *Vocab) Decode(ids []int32) string {
	var b strings.Builder
	for _, id := range ids {
		if id == Pad || (v.Start != 0 && id == v.Start) || int(id) >= len(v.Chars) {
			continue
		}
		b.WriteRune(v.Chars[id])
	}
	return b.String()
}

// Arrays is a set of examples as padded id matrices for the model: the
// source, the decoder input under teacher forcing (start, then the target
// without its last character) and the target.
//
// Typical shapes: Src [n][17], TgtIn and TgtOut [n][10].
//
// Introduced in lesson 07.
type Arrays struct {
	Src, TgtIn, TgtOut [][]int32
}

// ToArrays encodes examples with [SourceVocab] and [TargetVocab].
//
// Introduced in lesson 07.
func ToArrays(examples []Example) (*Arrays, error) {
	a := &Arrays{}
	for _, e := range examples {
		src, err := SourceVocab.Encode(e.Source, SourceWidth)
		if err != nil {
			return nil, err
		}
		out, err := TargetVocab.Encode(e.Target, TargetWidth)
		if err != nil {
			return nil, err
		}
		in := make([]int32, TargetWidth)
		in[0] = TargetVocab.Start
		copy(in[1:], out[:TargetWidth-1])
		a.Src, a.TgtIn, a.TgtOut = append(a.Src, src), append(a.TgtIn, in), append(a.TgtOut, out)
	}
	return a, nil
}

func flat(m [][]int32) []int32 {
	v := make([]int32, 0, len(m)*max(len(m[0]), 1))
	for _, row := range m {
		v = append(v, row...)
	}
	return v
}
