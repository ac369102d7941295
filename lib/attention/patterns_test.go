package attention

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func identity(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		m[i][i] = 1
	}
	return m
}

func uniform(rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
		for j := range m[i] {
			m[i][j] = 1 / float64(cols)
		}
	}
	return m
}

// Every pattern below is worked out by hand in its comment.
func TestAnalyzePattern(t *testing.T) {
	tests := []struct {
		name      string
		weights   [][]float64
		threshold float64
		want      Pattern
	}{
		{
			// Each token attends only to itself: w_ii = 1, no neighbours,
			// 4 of 16 weights above 0.1, every row certain (entropy 0).
			"identity 4×4", identity(4), 0.1,
			Pattern{Diagonal: 1, Local: 0, SparseRatio: 0.25, Entropy: []float64{0, 0, 0, 0}, MeanEntropy: 0, MaxEntropy: math.Log(4)},
		},
		{
			// w_ij = 1/5. Rows 0 and 4 have one neighbour (0.2), rows 1–3
			// two (0.4): Local = (0.2 + 3·0.4 + 0.2)/5 = 0.32. Entropy ln 5.
			"uniform 5×5", uniform(5, 5), 0.1,
			Pattern{Diagonal: 0.2, Local: 0.32, SparseRatio: 1, Entropy: []float64{math.Log(5), math.Log(5), math.Log(5), math.Log(5), math.Log(5)},
				MeanEntropy: math.Log(5), MaxEntropy: math.Log(5)},
		},
		{
			// The same matrix with a threshold above 1/5: nothing is above it.
			"uniform 5×5, threshold 0.25", uniform(5, 5), 0.25,
			Pattern{Diagonal: 0.2, Local: 0.32, SparseRatio: 0, Entropy: []float64{math.Log(5), math.Log(5), math.Log(5), math.Log(5), math.Log(5)},
				MeanEntropy: math.Log(5), MaxEntropy: math.Log(5)},
		},
		{
			// A band |i−j| ≤ 1 with equal weights: rows 0 and 3 split
			// between 2 keys, rows 1 and 2 between 3.
			// Diagonal = (1/2 + 1/3 + 1/3 + 1/2)/4 = 5/12,
			// Local = (1/2 + 2/3 + 2/3 + 1/2)/4 = 7/12,
			// SparseRatio = 10 non-zero / 16, entropies ln 2, ln 3, ln 3, ln 2.
			"banded 4×4", [][]float64{
				{1. / 2, 1. / 2, 0, 0},
				{1. / 3, 1. / 3, 1. / 3, 0},
				{0, 1. / 3, 1. / 3, 1. / 3},
				{0, 0, 1. / 2, 1. / 2},
			}, 0.1,
			Pattern{Diagonal: 5. / 12, Local: 7. / 12, SparseRatio: 10. / 16,
				Entropy: []float64{math.Log(2), math.Log(3), math.Log(3), math.Log(2)}, MeanEntropy: math.Log(6) / 2, MaxEntropy: math.Log(4)},
		},
		{
			// Cross-attention, 2 queries over 3 keys. Diagonal (0.7 + 0.1)/2;
			// Local: row 0 has key 1 (0.2), row 1 keys 0 and 2 (0.9): 0.55.
			// Above 0.1 (strictly): 0.7, 0.2, 0.8, so 3/6. Entropies by hand:
			// 0.7·0.35667 + 0.2·1.60944 + 0.1·2.30259 = 0.80182,
			// 2·0.1·2.30259 + 0.8·0.22314 = 0.63903.
			"non-square 2×3", [][]float64{{0.7, 0.2, 0.1}, {0.1, 0.1, 0.8}}, 0.1,
			Pattern{Diagonal: 0.4, Local: 0.55, SparseRatio: 0.5, Entropy: []float64{0.80182, 0.63903},
				MeanEntropy: (0.80182 + 0.63903) / 2, MaxEntropy: math.Log(3)},
		},
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 2e-5 }
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AnalyzePattern(tc.weights, tc.threshold)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct {
				name      string
				got, want float64
			}{
				{"Diagonal", got.Diagonal, tc.want.Diagonal}, {"Local", got.Local, tc.want.Local},
				{"SparseRatio", got.SparseRatio, tc.want.SparseRatio}, {"MeanEntropy", got.MeanEntropy, tc.want.MeanEntropy},
				{"MaxEntropy", got.MaxEntropy, tc.want.MaxEntropy}, {"Threshold", got.Threshold, tc.threshold},
			} {
				if !near(f.got, f.want) {
					t.Errorf("%s = %.6f, want %.6f", f.name, f.got, f.want)
				}
			}
			if len(got.Entropy) != len(tc.want.Entropy) {
				t.Fatalf("got %d row entropies, want %d", len(got.Entropy), len(tc.want.Entropy))
			}
			for i := range got.Entropy {
				if !near(got.Entropy[i], tc.want.Entropy[i]) {
					t.Errorf("Entropy[%d] = %.6f, want %.6f", i, got.Entropy[i], tc.want.Entropy[i])
				}
			}
		})
	}
}

func TestAnalyzePatternErrors(t *testing.T) {
	tests := []struct {
		name    string
		weights [][]float64
		want    string
	}{
		{"empty", nil, "empty"},
		{"ragged", [][]float64{{0.5, 0.5}, {1}}, "row 1 has 1 columns, want 2"},
		{"negative: scores, not weights", [][]float64{{1.5, -0.5}}, "weight [0][1] is -0.5"},
		{"NaN", [][]float64{{math.NaN(), 1}}, "weight [0][0] is NaN"},
	}
	for _, tc := range tests {
		if _, err := AnalyzePattern(tc.weights, 0.1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
	if _, err := AnalyzeHeads([][][]float64{identity(2), {{-1, 2}, {0, 1}}}, 0.1); err == nil || !strings.Contains(err.Error(), "head 2") {
		t.Errorf("AnalyzeHeads with a bad second head: error %v, want it to name head 2", err)
	}
}

func TestMostAttended(t *testing.T) {
	tests := []struct {
		weights [][]float64
		want    []int
	}{
		{identity(3), []int{0, 1, 2}},
		{[][]float64{{0.1, 0.3, 0.6}, {0.5, 0.4, 0.1}}, []int{2, 0}},
		{[][]float64{{0.4, 0.4, 0.2}}, []int{0}}, // a tie: the first key
		{[][]float64{{0.2, 0.3, 0.5}, {0.3, 0.4, 0.3}}, []int{2, 1}},
	}
	for _, tc := range tests {
		if got := MostAttended(tc.weights); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("MostAttended(%v) = %v, want %v", tc.weights, got, tc.want)
		}
	}
}

func TestMeanHeads(t *testing.T) {
	heads := [][][]float64{
		{{1, 0, 0}, {0, 1, 0}},
		{{0, 0.5, 0.5}, {0.2, 0.2, 0.6}},
	}
	want := [][]float64{{0.5, 0.25, 0.25}, {0.1, 0.6, 0.3}}
	assertClose(t, "MeanHeads", MeanHeads(heads), want, 1e-12)
	if MeanHeads(nil) != nil {
		t.Error("MeanHeads(nil) is not nil")
	}
}

func TestFocusTable(t *testing.T) {
	got := FocusTable([][]float64{{0.1, 0.3, 0.6}, {0.5, 0.4, 0.1}}, []string{"le", "chat"}, []string{"the", "cat", "sat"})
	want := "" +
		"query  attends most to  weight  runner-up\n" +
		"le     sat              0.600   0.300\n" +
		"chat   the              0.500   0.400\n"
	if got != want {
		t.Errorf("FocusTable =\n%s\nwant\n%s", got, want)
	}
}

func TestPatternTable(t *testing.T) {
	a, _ := AnalyzePattern(identity(4), 0.1)
	b, _ := AnalyzePattern(uniform(4, 4), 0.1)
	got := PatternTable([]string{"self"}, []Pattern{a, b})
	want := "" +
		"        diagonal  local  > 0.10  entropy  (max 1.39)\n" +
		"self       1.000  0.000    0.25     0.00\n" +
		"head 2     0.250  0.375    1.00     1.39\n"
	if got != want {
		t.Errorf("PatternTable =\n%s\nwant\n%s", got, want)
	}
}

// An identity matrix — every token attends only to itself — and uniform
// weights are the two ends of the scale.
func ExampleAnalyzePattern() {
	self := [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	third := 1.0 / 3
	spread := [][]float64{{third, third, third}, {third, third, third}, {third, third, third}}
	for _, w := range [][][]float64{self, spread} {
		p, _ := AnalyzePattern(w, 0.1)
		fmt.Printf("diagonal %.2f  local %.2f  above 0.1 %.2f  entropy %.3f of %.3f\n",
			p.Diagonal, p.Local, p.SparseRatio, p.MeanEntropy, p.MaxEntropy)
	}
	// Output:
	// diagonal 1.00  local 0.00  above 0.1 0.33  entropy 0.000 of 1.099
	// diagonal 0.33  local 0.44  above 0.1 1.00  entropy 1.099 of 1.099
}

func TestRowEntropy(t *testing.T) {
	tests := []struct {
		name string
		w    []float64
		want float64
	}{
		{"uniform over 4", []float64{0.25, 0.25, 0.25, 0.25}, math.Log(4)},
		{"all on one key", []float64{0, 1, 0}, 0},
		{"half on two, a zero", []float64{0.5, 0, 0.5}, math.Log(2)},
		{"0.9 and 0.1", []float64{0.9, 0.1}, -0.9*math.Log(0.9) - 0.1*math.Log(0.1)},
	}
	for _, tt := range tests {
		if got := RowEntropy(tt.w); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: RowEntropy(%v) = %v, want %v", tt.name, tt.w, got, tt.want)
		}
	}
}
