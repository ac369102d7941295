package reviews

import (
	"math"
	"reflect"
	"testing"
)

func TestAllLabelsFollowTheLastClause(t *testing.T) {
	all := All()
	if len(all) != 144+3456 {
		t.Fatalf("All has %d reviews, want 3600", len(all))
	}
	tests := []struct {
		words string
		want  int
	}{
		{"the movie was good", 1},
		{"the movie was not good", 0},
		{"the plot was not awful", 1},
		{"the plot was good but not great", 0},
		{"the plot was not good but great", 1},
		{"the film was bad but not awful", 1},
		{"the film was not awful but bad", 0},
	}
	byText := map[string]int{}
	for _, r := range all {
		byText[r.String()] = r.Label
	}
	for _, tt := range tests {
		got, ok := byText[tt.words]
		if !ok || got != tt.want {
			t.Errorf("%q: label %d (present %v), want %d", tt.words, got, ok, tt.want)
		}
	}
	pos := 0
	for _, r := range all {
		pos += r.Label
		if len(r.Words) > MaxLen {
			t.Errorf("%q is longer than MaxLen %d", r, MaxLen)
		}
	}
	if pos*2 != len(all) {
		t.Errorf("%d of %d reviews positive, want exactly half", pos, len(all))
	}
}

func TestSplit(t *testing.T) {
	s, err := Split(0.2, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Test) != 720 || len(s.Train) != 2880 {
		t.Errorf("split %d/%d, want 2880/720", len(s.Train), len(s.Test))
	}
	seen := map[string]bool{}
	for _, r := range s.Train {
		seen[r.String()] = true
	}
	for _, r := range s.Test {
		if seen[r.String()] {
			t.Errorf("%q is in both parts", r)
		}
	}
	pos := 0
	for _, r := range s.Test {
		pos += r.Label
	}
	if f := float64(pos) / float64(len(s.Test)); math.Abs(f-0.5) > 0.06 {
		t.Errorf("test set %.2f positive, want about half", f)
	}
	again, _ := Split(0.2, 5)
	if !reflect.DeepEqual(s, again) {
		t.Error("the same seed gave another split")
	}
	other, _ := Split(0.2, 6)
	if reflect.DeepEqual(s.Test, other.Test) {
		t.Error("another seed gave the same split")
	}
	for _, bad := range []float64{0, 1, -0.5, math.NaN()} {
		if _, err := Split(bad, 1); err == nil {
			t.Errorf("Split(%g) gave no error", bad)
		}
	}
}

// TestAmbiguous counts by hand. A two-clause review over adjectives a1, a2
// with one "not" is always ambiguous: "not a1 but a2" (label pol(a2)) and
// "a1 but not a2" (label ¬pol(a2)) have the same words. With zero or two
// "not"s, swapping the clauses keeps the words and gives the other label
// exactly when a1 and a2 differ in polarity. Per subject: 12·12·2 = 288
// one-"not" reviews, plus 2·6·6 = 72 with no "not" and 72 with two; one-clause
// reviews are never ambiguous.
func TestAmbiguous(t *testing.T) {
	want := float64(len(Subjects)*(288+72+72)) / 3600
	if got := Ambiguous(All()); math.Abs(got-want) > 1e-12 {
		t.Errorf("Ambiguous(All) = %.4f, want %.4f", got, want)
	}
	for _, tt := range []struct {
		words string
		want  float64
	}{
		{"the movie was good", 0},
		{"the movie was good but great", 0},
		{"the movie was good but bad", 1},
		{"the movie was not good but good", 1},
	} {
		if got := Ambiguous([]Review{Parse(tt.words)}); got != tt.want {
			t.Errorf("Ambiguous(%q) = %g, want %g", tt.words, got, tt.want)
		}
		if got := IsAmbiguous(Parse(tt.words)); got != (tt.want == 1) {
			t.Errorf("IsAmbiguous(%q) = %v, want %v", tt.words, got, tt.want == 1)
		}
	}
}

func TestEncode(t *testing.T) {
	v := NewVocab()
	ids, labels, err := v.Encode([]Review{Parse("The movie was not good, but great."), {Words: []string{"the", "film", "was", "bad"}}})
	if err != nil {
		t.Fatal(err)
	}
	w := func(s string) int32 { return int32(v.ids[s]) }
	want := []int32{w("the"), w("movie"), w("was"), w("not"), w("good"), w("but"), w("great"), 0, 0,
		w("the"), w("film"), w("was"), w("bad"), 0, 0, 0, 0, 0}
	if !reflect.DeepEqual(ids, want) || !reflect.DeepEqual(labels, []int32{0, 0}) {
		t.Errorf("Encode = %v %v, want %v [0 0]", ids, labels, want)
	}
	if _, _, err := v.Encode([]Review{Parse("the movie was okay")}); err == nil {
		t.Error("an unknown word gave no error")
	}
}
