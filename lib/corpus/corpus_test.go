package corpus

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNGramByHand checks the smoothed probabilities on "abab" against
// values worked out on paper.
func TestNGramByHand(t *testing.T) {
	text := []byte("abab")
	uni, err := NewNGram(text, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	bi, err := NewNGram(text, 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		got  float64
		want float64
	}{
		{"P1(a)", uni.Prob(nil, 'a'), 3.0 / 260},
		{"P1(z)", uni.Prob(nil, 'z'), 1.0 / 260},
		// "a" was followed twice, both times by "b": (2 − 0.5)/2 + 0.5·1/2·P1(b).
		{"P2(b|a)", bi.Prob([]byte("a"), 'b'), 0.75 + 0.25*3.0/260},
		{"P2(a|a)", bi.Prob([]byte("a"), 'a'), 0.25 * 3.0 / 260},
		// "z" was never a history: the unigram.
		{"P2(a|z)", bi.Prob([]byte("z"), 'a'), 3.0 / 260},
		// At the start of a text there is no history.
		{"P2(a|)", bi.Prob(nil, 'a'), 3.0 / 260},
	} {
		if math.Abs(tc.got-tc.want) > 1e-12 {
			t.Errorf("%s = %.12f, want %.12f", tc.name, tc.got, tc.want)
		}
	}
	// Bits per character of "ab" under the bigram: −(log2 P1(a) + log2 P2(b|a))/2.
	want := -(math.Log2(3.0/260) + math.Log2(0.75+0.25*3.0/260)) / 2
	if got := bi.BitsPerChar([]byte("ab")); math.Abs(got-want) > 1e-12 {
		t.Errorf("bits per char = %.12f, want %.12f", got, want)
	}
}

// TestNGramSumsToOne: every order's distribution is a distribution, after
// seen, unseen and partly seen histories.
func TestNGramSumsToOne(t *testing.T) {
	text := []byte("func f() { return x }\nfunc g() { return y }\n")
	for order := 1; order <= 5; order++ {
		m, err := NewNGram(text, order, 0.75)
		if err != nil {
			t.Fatal(err)
		}
		for _, ctx := range []string{"", "f", "func", "retu", "zzzz", " { r"} {
			s := 0.0
			for _, p := range m.Dist([]byte(ctx)) {
				s += p
			}
			if math.Abs(s-1) > 1e-9 {
				t.Errorf("order %d, context %q: probabilities sum to %v", order, ctx, s)
			}
		}
	}
	// More history helps on text the model has seen.
	var prev float64 = 9
	for order := 1; order <= 4; order++ {
		m, _ := NewNGram(text, order, 0.75)
		b := m.BitsPerChar(text)
		if b >= prev {
			t.Errorf("order %d: %.3f bits per char, not below order %d's %.3f", order, b, order-1, prev)
		}
		prev = b
	}
}

func TestNGramErrors(t *testing.T) {
	if _, err := NewNGram(nil, 0, 0.5); err == nil {
		t.Error("order 0: no error")
	}
	if _, err := NewNGram(nil, 3, 1); err == nil {
		t.Error("discount 1: no error")
	}
}

func TestWindows(t *testing.T) {
	in, tg, n := Windows([]byte("abcdef"), 3, 2)
	if n != 2 {
		t.Fatalf("n = %d, want 2", n)
	}
	if want := []int32{'a', 'b', 'c', 'c', 'd', 'e'}; !slices.Equal(in, want) {
		t.Errorf("inputs = %v, want %v", in, want)
	}
	if want := []int32{'b', 'c', 'd', 'd', 'e', 'f'}; !slices.Equal(tg, want) {
		t.Errorf("targets = %v, want %v", tg, want)
	}
}

func TestLoadFrom(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadFrom(dir); err == nil {
		t.Fatal("empty folder: no error")
	}
	for _, f := range append(append([]string{}, TrainFiles...), TestFiles...) {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := LoadFrom(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Each file's text ends with a newline added where missing.
	if want := "bufio/scan.go\ncontainer/list/list.go\n"; string(s.Test[:len(want)]) != want {
		t.Errorf("test text starts %q, want %q", s.Test[:len(want)], want)
	}
	for _, f := range TestFiles {
		if slices.Contains(TrainFiles, f) {
			t.Errorf("%s is in both lists", f)
		}
	}
}

func TestLoadGOROOT(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Skip(err)
	}
	if len(s.Train) < 300_000 || len(s.Test) < 50_000 {
		t.Errorf("%v: smaller than the lesson expects", s)
	}
}
