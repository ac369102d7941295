package backend

import (
	"math"
	"testing"
)

// vectorPeak is a vector kernel of BenchmarkPeak: [multiplyAdd]'s chains
// on vectors of lanes float32, on the vector unit of a kernel class.
type vectorPeak struct {
	class string // the kernel class: AVX512, AVX2 or Plain
	unit  string // its vector unit, as BenchmarkPeak names it: AVX-512, AVX2 or SSE2
	lanes int
	run   func(n int, m, c float32) float32
}

// peakOf returns the vector kernel of BenchmarkPeak for the kernel class
// the backend runs (MatMulKernels: what GOMLX_SIMD_AVX512 and
// GOMLX_SIMD_AVX2 leave on), so that each class's share of the peak is
// of its own vector unit; ok is false where the class has none (the plain
// kernels off amd64).
func peakOf(class string) (p vectorPeak, ok bool) {
	for _, p := range vectorPeaks {
		if p.class == class {
			return p, true
		}
	}
	return vectorPeak{}, false
}

// TestVectorMultiplyAdd checks that each vector peak's kernel does the
// work it is timed for: each of its lanes follows the scalar kernel's
// chains (fused for AVX2 and AVX-512, so up to rounding), and so it
// returns lanes times the scalar sum.
func TestVectorMultiplyAdd(t *testing.T) {
	if len(vectorPeaks) == 0 {
		t.Skip("no vector peak in this build (one on amd64: SSE2 always, AVX2 and AVX-512 with GOEXPERIMENT=simd)")
	}
	for _, p := range vectorPeaks {
		for _, n := range []int{0, 1, 7, 1000} {
			want := float64(p.lanes) * float64(multiplyAdd(n, 0.999, 0.001))
			got := float64(p.run(n, 0.999, 0.001))
			if math.Abs(got-want) > 1e-5*math.Abs(want) {
				t.Errorf("%s peak kernel(%d) = %g, want %g (%d lanes of multiplyAdd)", p.class, n, got, want, p.lanes)
			}
		}
	}
}
