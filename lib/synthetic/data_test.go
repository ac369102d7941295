package synthetic

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		c    Config
		want []string // substrings of the error; none: valid
	}{
		{Config{Count: 3, VocabSize: 2, MaxLen: 1}, nil},
		{Config{Count: 0, VocabSize: 10, MaxLen: 5}, []string{"count must be at least 1 (got 0)"}},
		{Config{Count: -2, VocabSize: 10, MaxLen: 5}, []string{"count must be at least 1 (got -2)"}},
		{Config{Count: 3, VocabSize: 1, MaxLen: 5}, []string{"vocab size must be at least 2 (got 1)", "id 0 is padding"}},
		{Config{Count: 3, VocabSize: 10, MaxLen: 0}, []string{"max length must be at least 1 (got 0)"}},
		{Config{Count: 0, VocabSize: 0, MaxLen: -1}, []string{"count", "vocab size", "max length"}},
	}
	for _, tt := range tests {
		err := tt.c.Validate()
		if len(tt.want) == 0 {
			if err != nil {
				t.Errorf("%+v: got error %v, want none", tt.c, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%+v: got no error, want one mentioning %q", tt.c, tt.want)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: error %q does not mention %q", tt.c, err, w)
			}
		}
		if _, err := Sentences(tt.c); err == nil {
			t.Errorf("Sentences(%+v) drew data from invalid parameters", tt.c)
		}
	}
}

func TestSentencesRespectTheRules(t *testing.T) {
	c := Config{Count: 2000, VocabSize: 7, MaxLen: 5, Seed: 3}
	s, err := Sentences(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != c.Count {
		t.Fatalf("got %d sentences, want %d", len(s), c.Count)
	}
	if err := Check(s, c.VocabSize, c.MaxLen); err != nil {
		t.Fatal(err)
	}
	// Every length and every real id occurs, and the draws are roughly
	// uniform: 2000 sentences over 5 lengths is 400 each.
	lengths := LengthCounts(s, c.MaxLen)
	for i, n := range lengths {
		if n < 300 || n > 500 {
			t.Errorf("length %d occurs %v times in 2000 sentences, want about 400", i+1, n)
		}
	}
	seen := map[int]bool{}
	for _, row := range s {
		for _, id := range row {
			seen[id] = true
		}
	}
	if len(seen) != c.VocabSize-1 || seen[PadID] {
		t.Errorf("ids drawn: %v, want exactly 1 … %d", seen, c.VocabSize-1)
	}
	again, _ := Sentences(c)
	if !reflect.DeepEqual(s, again) {
		t.Error("the same seed gave different sentences")
	}
	c.Seed++
	other, _ := Sentences(c)
	if reflect.DeepEqual(s, other) {
		t.Error("another seed gave the same sentences")
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		s    [][]int
		want string
	}{
		{[][]int{{1, 2}, {3}}, ""},
		{nil, "no sentences"},
		{[][]int{{1}, {}}, "sentence 1 has 0 tokens, want 1 … 3"},
		{[][]int{{1, 2, 3, 1}}, "sentence 0 has 4 tokens, want 1 … 3"},
		{[][]int{{1, 0}}, "sentence 0, position 1: id 0 is outside 1 … 4"},
		{[][]int{{5}}, "id 5 is outside 1 … 4"},
	}
	for _, tt := range tests {
		err := Check(tt.s, 5, 3)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("Check(%v) = %v, want nil", tt.s, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("Check(%v) = %v, want an error containing %q", tt.s, err, tt.want)
		}
	}
}

func TestPad(t *testing.T) {
	b := Pad([][]int{{4, 2, 7}, {5}, {}})
	wantIDs := [][]int{{4, 2, 7}, {5, 0, 0}, {0, 0, 0}}
	wantMask := [][]float64{{0, 0, 0}, {0, 1, 1}, {1, 1, 1}}
	if !reflect.DeepEqual(b.IDs, wantIDs) || !reflect.DeepEqual(b.Mask, wantMask) || !reflect.DeepEqual(b.Lengths, []int{3, 1, 0}) {
		t.Errorf("Pad = %+v\nwant IDs %v, Mask %v, Lengths [3 1 0]", b, wantIDs, wantMask)
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want Stats
	}{
		// Worked by hand: n = 4, mean 2.5, Σ(x−x̄)² = 5, std = √(5/3);
		// h = q·3 gives 0.75 → 1.75, 1.5 → 2.5, 2.25 → 3.25.
		{"1 to 4, unsorted", []float64{3, 1, 4, 2}, Stats{4, 2.5, math.Sqrt(5.0 / 3), 1, 1.75, 2.5, 3.25, 4}},
		{"one value", []float64{7}, Stats{1, 7, 0, 7, 7, 7, 7, 7}},
		// n = 5: h = 1, 2, 3 fall on order statistics.
		{"odd count", []float64{10, 0, 5, 20, 15}, Stats{5, 10, math.Sqrt(250.0 / 4), 0, 5, 10, 15, 20}},
	}
	for _, tt := range tests {
		got, err := Describe(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		g := []float64{got.Mean, got.Std, got.Min, got.Q25, got.Median, got.Q75, got.Max}
		w := []float64{tt.want.Mean, tt.want.Std, tt.want.Min, tt.want.Q25, tt.want.Median, tt.want.Q75, tt.want.Max}
		for i := range g {
			if math.Abs(g[i]-w[i]) > 1e-12 || got.Count != tt.want.Count {
				t.Errorf("%s: Describe = %+v, want %+v", tt.name, got, tt.want)
				break
			}
		}
	}
	if _, err := Describe(nil); err == nil {
		t.Error("Describe(nil) gave no error")
	}
}

func TestSummarize(t *testing.T) {
	s, err := Summarize([][]int{{1, 2, 3}, {4}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Tokens.Count != 4 || s.Tokens.Mean != 2.5 || s.Lengths.Count != 2 || s.Lengths.Mean != 2 || s.Lengths.Max != 3 {
		t.Errorf("Summarize = %+v", s)
	}
	if _, err := Summarize([][]int{{}}); err == nil {
		t.Error("Summarize of an empty sentence gave no error")
	}
}
