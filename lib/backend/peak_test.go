package backend

import (
	"math"
	"testing"
)

// TestVectorMultiplyAdd checks that the vector peak's kernel does the
// work it is timed for: each of its 16 lanes follows the scalar kernel's
// chains (fused, so up to rounding), and so it returns 16 times the
// scalar sum.
func TestVectorMultiplyAdd(t *testing.T) {
	if vectorPeak == "" {
		t.Skip("no vector peak in this build (GOEXPERIMENT=simd on an AVX-512 CPU)")
	}
	for _, n := range []int{0, 1, 7, 1000} {
		want := vectorLanes * float64(multiplyAdd(n, 0.999, 0.001))
		got := float64(vectorMultiplyAdd(n, 0.999, 0.001))
		if math.Abs(got-want) > 1e-5*math.Abs(want) {
			t.Errorf("vectorMultiplyAdd(%d) = %g, want %g (16 lanes of multiplyAdd)", n, got, want)
		}
	}
}
