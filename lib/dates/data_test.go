package dates

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

var months = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September",
	"October", "November", "December"}

// TestEveryFormatRoundTrips checks, for dates chosen to expose day/month
// confusions (day 1…12) and one-digit days, that the source parses back
// with its own layout to the same day, that the target is the ISO date
// written independently with Sprintf, and that the spans point at the
// year, month and day written out by hand.
func TestEveryFormatRoundTrips(t *testing.T) {
	dates := []time.Time{
		time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC),
		time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2004, 7, 8, 0, 0, 0, 0, time.UTC),
		time.Date(2049, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC),
		time.Date(1987, 9, 3, 0, 0, 0, 0, time.UTC),
	}
	for _, d := range dates {
		for _, f := range Formats {
			e := NewExample(d, f)
			name := fmt.Sprintf("%s/%s", d.Format("2006-01-02"), f)
			parsed, err := time.Parse(string(f), e.Source)
			if err != nil || !parsed.Equal(d) {
				t.Errorf("%s: source %q parses to %v, %v; want %v", name, e.Source, parsed, err, d)
			}
			if want := fmt.Sprintf("%04d-%02d-%02d", d.Year(), int(d.Month()), d.Day()); e.Target != want {
				t.Errorf("%s: target %q, want %q", name, e.Target, want)
			}
			if got, want := e.Source[e.Year.From:e.Year.To], fmt.Sprint(d.Year()); got != want {
				t.Errorf("%s: year span %v of %q is %q, want %q", name, e.Year, e.Source, got, want)
			}
			wantDay := fmt.Sprint(d.Day())
			if f == Numeric {
				wantDay = fmt.Sprintf("%02d", d.Day())
			}
			if got := e.Source[e.Day.From:e.Day.To]; got != wantDay {
				t.Errorf("%s: day span %v of %q is %q, want %q", name, e.Day, e.Source, got, wantDay)
			}
			m := months[d.Month()-1]
			wantMonth := map[Format]string{DayMonthYear: m, MonDayYear: m[:3], Numeric: fmt.Sprintf("%02d", int(d.Month())),
				WeekdayDayMonYear: m[:3], DayMonYear: m[:3]}[f]
			if got := e.Source[e.Month.From:e.Month.To]; got != wantMonth {
				t.Errorf("%s: month span %v of %q is %q, want %q", name, e.Month, e.Source, got, wantMonth)
			}
			if n := len(e.Source); n > SourceWidth {
				t.Errorf("%s: source %q has %d characters, more than SourceWidth %d", name, e.Source, n, SourceWidth)
			}
		}
	}
	if got := NewExample(dates[0], WeekdayDayMonYear).Source; got != "Sun, 22 Nov 2026" {
		t.Errorf("22 November 2026 with weekday: got %q, want %q", got, "Sun, 22 Nov 2026")
	}
	if got := NewExample(time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC), DayMonthYear).Source; len(got) != SourceWidth {
		t.Errorf("the longest source %q has %d characters, SourceWidth is %d", got, len(got), SourceWidth)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, err := Generate(300, 50, 0.2, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(300, 50, 0.2, 3)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two calls with seed 3 differ")
	}
	c, _ := Generate(300, 50, 0.2, 4)
	if reflect.DeepEqual(a.Train, c.Train) {
		t.Errorf("seeds 3 and 4 give the same training set")
	}
	if a.Train[0].Source == a.Train[1].Source && a.Train[1].Source == a.Train[2].Source {
		t.Errorf("the first examples are all %q", a.Train[0].Source)
	}
}

func TestSplitIsDisjointAndUsesEveryFormat(t *testing.T) {
	task, err := Generate(5000, 2000, 0.2, 1)
	if err != nil {
		t.Fatal(err)
	}
	train := map[string]bool{}
	formats := map[Format]int{}
	for _, e := range task.Train {
		train[e.Target] = true
		formats[e.Format]++
		if y := e.Date.Year(); y < firstYear || y > lastYear {
			t.Errorf("%q: year %d outside %d…%d", e.Source, y, firstYear, lastYear)
		}
	}
	for _, e := range task.Test {
		if train[e.Target] {
			t.Errorf("test date %s (%q) is also a training date", e.Target, e.Source)
		}
	}
	for _, f := range Formats {
		if n := formats[f]; n < 5000/len(Formats)*8/10 {
			t.Errorf("format %q drawn %d times in 5000, want about %d", f, n, 5000/len(Formats))
		}
	}
}

func TestGenerateRejectsBadSizes(t *testing.T) {
	for _, c := range []struct {
		train, test int
		frac        float64
	}{{0, 10, 0.2}, {10, 0, 0.2}, {10, 10, 0}, {10, 10, 1}} {
		if _, err := Generate(c.train, c.test, c.frac, 1); err == nil {
			t.Errorf("Generate(%d, %d, %g): no error", c.train, c.test, c.frac)
		}
	}
}

func TestVocabularies(t *testing.T) {
	ids, err := SourceVocab.Encode("Sun, 22 Nov 2026", SourceWidth)
	if err != nil {
		t.Fatal(err)
	}
	if got := SourceVocab.Decode(ids); got != "Sun, 22 Nov 2026" {
		t.Errorf("source round trip: got %q", got)
	}
	if ids[16] != Pad {
		t.Errorf("position 16 of a 16-character source: got id %d, want padding %d", ids[16], Pad)
	}
	if _, err := SourceVocab.Encode("22-11-2026", SourceWidth); err == nil || !strings.Contains(err.Error(), `'-'`) {
		t.Errorf(`"-" is not a source character: got error %v`, err)
	}
	if _, err := TargetVocab.Encode("2026-11-22x", TargetWidth); err == nil {
		t.Errorf("11 characters in a width of 10: no error")
	}
	// Target: pad, start, "-", digits.
	if got, want := TargetVocab.Size(), 13; got != want {
		t.Errorf("target vocabulary size %d, want %d", got, want)
	}
	if got := TargetVocab.Decode([]int32{1, 0, 0}); got != "" {
		t.Errorf("start and padding decode to %q, want nothing", got)
	}
	a, err := ToArrays([]Example{NewExample(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), Numeric)})
	if err != nil {
		t.Fatal(err)
	}
	if a.TgtIn[0][0] != TargetVocab.Start || !reflect.DeepEqual(a.TgtIn[0][1:], a.TgtOut[0][:TargetWidth-1]) {
		t.Errorf("decoder input %v is not start + target %v shifted right", a.TgtIn[0], a.TgtOut[0])
	}
}

// TestAligned checks the alignment mass on weight matrices worked out by
// hand for "22/11/2026" (day 0–2, month 3–5, year 6–10).
func TestAligned(t *testing.T) {
	e := NewExample(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), Numeric)
	w := make([][]float64, TargetWidth)
	for i := range w {
		w[i] = make([]float64, SourceWidth)
	}
	// Year rows: all on the year; month rows: half on "11", half on "/";
	// day rows: a quarter on the day, the rest on the year.
	for i := 0; i < 4; i++ {
		w[i][6+i] = 1
	}
	for i := 5; i < 7; i++ {
		w[i][3], w[i][2] = 0.5, 0.5
	}
	for i := 8; i < 10; i++ {
		w[i][1], w[i][7] = 0.25, 0.75
	}
	w[4][0], w[7][0] = 1, 1 // the dashes do not count
	got := Aligned([]Translation{{Example: e, Weights: w}})
	// With the next character: the month's "/" (position 5) is not hit,
	// but nothing moves either; put the day's 0.75 on "/" (position 2) in
	// a second matrix to see Next count it.
	want := Alignment{Year: 1, Month: 0.5, Day: 0.25, All: (4*1 + 2*0.5 + 2*0.25) / 8, Next: (4*1 + 2*0.5 + 2*0.25) / 8}
	if d, dn := got.All-want.All, got.Next-want.Next; got.Year != want.Year || got.Month != want.Month || got.Day != want.Day || d*d > 1e-20 || dn*dn > 1e-20 {
		t.Errorf("Aligned: got %+v, want %+v", got, want)
	}
	for i := 8; i < 10; i++ {
		w[i][7], w[i][2] = 0, 0.75
	}
	got = Aligned([]Translation{{Example: e, Weights: w}})
	want = Alignment{Year: 1, Month: 0.5, Day: 0.25, All: (4*1 + 2*0.5 + 2*0.25) / 8, Next: (4*1 + 2*0.5 + 2*1) / 8}
	if d, dn := got.All-want.All, got.Next-want.Next; got.Day != want.Day || d*d > 1e-20 || dn*dn > 1e-20 {
		t.Errorf("Aligned: got %+v, want %+v", got, want)
	}
}

func TestCheck(t *testing.T) {
	good := Result{Kind: "dot", Accuracy: 0.95, Alignment: Alignment{Year: 0.9, Next: 0.9}}
	bad := Result{Kind: "concat", Accuracy: 0.5, Alignment: Alignment{Year: 0.3, Next: 0.7}}
	if err := Check([]Result{good}, 0.9, 0.8, 0.8); err != nil {
		t.Errorf("Check(good): %v", err)
	}
	err := Check([]Result{good, bad}, 0.9, 0.8, 0.8)
	for _, want := range []string{"concat: accuracy 50.0%", "year 30.0%", "next character 70.0%"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(bad): got %v, want it to contain %q", err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), "dot") {
		t.Errorf("Check(bad) blames the good result: %v", err)
	}
}

func ExampleNewExample() {
	d := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for _, f := range Formats {
		e := NewExample(d, f)
		fmt.Printf("%-17q → %s  year %q\n", e.Source, e.Target, e.Source[e.Year.From:e.Year.To])
	}
	// Output:
	// "22 November 2026" → 2026-11-22  year "2026"
	// "Nov 22, 2026"    → 2026-11-22  year "2026"
	// "22/11/2026"      → 2026-11-22  year "2026"
	// "Sun, 22 Nov 2026" → 2026-11-22  year "2026"
	// "22 Nov 2026"     → 2026-11-22  year "2026"
}
