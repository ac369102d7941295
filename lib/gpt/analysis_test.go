package gpt

import (
	"math"
	"testing"

	"github.com/attention-in-go/course/lib/corpus"
)

func TestParses(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"\tif x > 0 {\n\t\treturn x\n", true},                           // one brace owed
		{"func (b *Buffer) Len() int {\n\treturn len(b.buf)\n}\n", true}, // a declaration
		{"x := f(a, b)\ny = x[1:]\npartial li", true},                    // the last, unfinished line is cut
		{"x := f(a,\nb, c", true},                                        // a parenthesis owed, the unfinished line cut
		{"x := f(a, b\n", false},                                         // Go puts a semicolon after b
		{"}\nx := 1\n", false},                                           // a closer without opener
		{"x := )\n", false},                                              // not Go
		{"s := \"unterminated\n", false},                                 // string left open
		{"// a comment with { in it\nx := 1\n", true},                    // brackets in comments do not count
		{"if x {\n\ty := 2 3\n", false},                                  // a syntax error inside
		{"no newline at all", false},                                     // nothing whole
	} {
		if got := Parses([]byte(tc.text)); got != tc.want {
			t.Errorf("Parses(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	if got := CountParses([][]byte{[]byte("x := 1\n"), []byte("x := )\n")}).Share(); got != 0.5 {
		t.Errorf("CountParses(…).Share() = %v, want 0.5", got)
	}
}

func TestPatternsKeys(t *testing.T) {
	text := []byte("f(a, {b\nc})")
	line, open := Patterns[2].Key, Patterns[3].Key
	if got := line(text, 8); got != 7 {
		t.Errorf("start of line of byte 8 = %d, want 7", got)
	}
	if got := line(text, 3); got != -1 {
		t.Errorf("start of line of byte 3 = %d, want -1 (first line)", got)
	}
	// After reading byte i: once '}' is read, the innermost open bracket is '(' again.
	for _, tc := range []struct{ i, want int }{{2, 1}, {6, 5}, {8, 5}, {9, 1}, {10, -1}, {0, -1}} {
		if got := open(text, tc.i); got != tc.want {
			t.Errorf("open bracket at byte %d (%q) = %d, want %d", tc.i, text[tc.i], got, tc.want)
		}
	}
}

func TestBreakdown(t *testing.T) {
	text := []byte("if x {\n\treturn }\n")
	ng, err := corpus.NewNGram(text, 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	// A fake model that gives probability 1/2 to every byte and is right
	// on the closing brace only.
	s := &Scores{}
	for i := 1; i < len(text); i++ {
		s.Index = append(s.Index, i)
		s.Log2P = append(s.Log2P, -1)
		top := int32('?')
		if text[i] == '}' {
			top = '}'
		}
		s.Top = append(s.Top, top)
	}
	rs := Breakdown(text, s, ng, Classes)
	byName := map[string]ClassScore{}
	for _, r := range rs {
		byName[r.Class] = r
	}
	if r := byName["all bytes"]; r.Count != len(text)-1 || r.Bits != 1 || math.Abs(r.Accuracy-1/float64(len(text)-1)) > 1e-12 {
		t.Errorf("all bytes: %+v", r)
	}
	if r := byName["closing ) ] }"]; r.Count != 1 || r.Accuracy != 1 {
		t.Errorf("closers: %+v", r)
	}
	// "eturn" are the keyword letters after the first; "if": "f".
	if r := byName["keyword, after its 1st letter"]; r.Count != 6 {
		t.Errorf("keyword letters: %d, want 6", r.Count)
	}
	if r := byName["tab after a newline"]; r.Count != 1 {
		t.Errorf("tabs: %d, want 1", r.Count)
	}
	// The n-gram's bits on the closer: −log₂ P2('}' | ' ').
	want := -math.Log2(ng.Prob([]byte(" "), '}'))
	if r := byName["closing ) ] }"]; math.Abs(r.NGramBits-want) > 1e-12 {
		t.Errorf("n-gram bits on the closer = %v, want %v", r.NGramBits, want)
	}
}

// TestParseRateInterval checks the Wilson interval against the values of
// the usual tables (0 of 20: 0–16.1 %; 1 of 20: 0.9–23.6 %), against the
// roots of its defining equation, and that it holds the share.
func TestParseRateInterval(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 20, 0, 0.1611},
		{1, 20, 0.0089, 0.2361},
		{5, 100, 0.0215, 0.1118},
		{20, 20, 0.8389, 1},
	} {
		lo, hi := ParseRate{tc.k, tc.n}.Interval()
		if math.Abs(lo-tc.lo) > 5e-5 || math.Abs(hi-tc.hi) > 5e-5 {
			t.Errorf("%d of %d: interval %.4f–%.4f, want %.4f–%.4f", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
	// The textbook form: the roots p of (p̂ − p)² = z²·p(1−p)/n.
	const z = 1.959963984540054
	for n := 1; n <= 60; n++ {
		for k := 0; k <= n; k++ {
			lo, hi := ParseRate{k, n}.Interval()
			ph := float64(k) / float64(n)
			for _, p := range []float64{lo, hi} {
				if d := (ph-p)*(ph-p) - z*z*p*(1-p)/float64(n); math.Abs(d) > 1e-12 {
					t.Fatalf("%d of %d: %v is not a root (%g)", k, n, p, d)
				}
			}
			if lo > ph+1e-12 || hi < ph-1e-12 || lo < -1e-12 || hi > 1+1e-12 {
				t.Fatalf("%d of %d: interval %v–%v does not hold %v inside [0, 1]", k, n, lo, hi, ph)
			}
		}
	}
	if got := (ParseRate{5, 100}).String(); got != "  5% (95% interval 2–11%, 5 of 100)" {
		t.Errorf("String = %q", got)
	}
}

func TestParseRateWithoutSamples(t *testing.T) {
	if lo, hi := (ParseRate{}).Interval(); lo != 0 || hi != 1 || (ParseRate{}).Share() != 0 {
		t.Errorf("0 of 0: share %v, interval %v–%v; want 0 and 0–1", (ParseRate{}).Share(), lo, hi)
	}
}
