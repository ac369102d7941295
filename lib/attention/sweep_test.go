package attention

import (
	"math"
	"strings"
	"testing"
)

func TestVarianceSweep(t *testing.T) {
	s, err := VarianceSweep([]int{1, 64}, 4000, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, dk := range s.DK {
		if math.Abs(s.Unscaled[i]/dk-1) > 0.1 || math.Abs(s.Scaled[i]-1) > 0.1 {
			t.Errorf("d_k=%g: variance %.3f unscaled, %.3f scaled; want ≈ %g and ≈ 1", dk, s.Unscaled[i], s.Scaled[i], dk)
		}
	}
	if !strings.Contains(s.String(), "variance") || strings.Count(s.String(), "\n") != 3 {
		t.Errorf("table:\n%s\nwant a header and one line per d_k", s)
	}
	if _, err := VarianceSweep(nil, 10, 1); err == nil {
		t.Error("an empty sweep returned no error")
	}
}

func TestSaturationSweepGrowsWithoutScale(t *testing.T) {
	s, err := SaturationSweep([]int{4, 512}, 10, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !(s.Unscaled[1] > s.Unscaled[0]) || s.Unscaled[1] < 0.9 {
		t.Errorf("unscaled largest weight %.3f → %.3f, want it to grow towards 1", s.Unscaled[0], s.Unscaled[1])
	}
	if s.Scaled[1] > 0.7 {
		t.Errorf("scaled largest weight at d_k=512 is %.3f, want a spread softmax", s.Scaled[1])
	}
}

func TestSoftmaxAt(t *testing.T) {
	logits := []float64{2, 1, 0.1, -1}
	rows, err := SoftmaxAt(logits, []float64{0.5, 5})
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "T=0.5", [][]float64{rows[0]}, [][]float64{refSoftmax(logits, 0.5)}, tol)
	assertClose(t, "T=5", [][]float64{rows[1]}, [][]float64{refSoftmax(logits, 5)}, tol)
	if _, err := SoftmaxAt(logits, []float64{1, 0}); err == nil {
		t.Error("temperature 0 returned no error")
	}
}

func TestNaiveSoftmaxOverflows(t *testing.T) {
	got := NaiveSoftmax([]float64{1, 2, 3})
	want := refSoftmax([]float64{1, 2, 3}, 1)
	for i := range want {
		if math.Abs(float64(got[i])-want[i]) > 1e-6 {
			t.Errorf("small logits: NaiveSoftmax[%d] = %g, want %g", i, got[i], want[i])
		}
	}
	for i, w := range NaiveSoftmax([]float64{1000, 1001}) {
		if !math.IsNaN(float64(w)) {
			t.Errorf("large logits: NaiveSoftmax[%d] = %g, want NaN (Inf/Inf)", i, w)
		}
	}
}

func TestRowSums(t *testing.T) {
	got := RowSums([][]float64{{0.25, 0.75}, {1, 2}})
	if got[0] != 1 || got[1] != 3 {
		t.Errorf("RowSums = %v, want [1 3]", got)
	}
}
