// Tests of the attention-in-go course's patch: small non-transposed products
// of at most 16 columns in vector lanes give the release's loop bit for bit.

//go:build amd64 && goexperiment.simd

package matmul

import (
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

func TestAVX512SmallNarrowFloat32(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512 on this CPU")
	}
	r := rand.New(rand.NewPCG(13, 14))
	// Mostly ordinary numbers; in some trials zeros of both signs,
	// infinities and NaNs with payloads too (the sums' order shows in the
	// sign of a zero). Where two NaNs meet in a sum, which one comes out
	// depends on the operand order the compiler picks for a commutative
	// add, in the release's loop as in the lanes: a NaN must give a NaN, of
	// any payload.
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		math.Float32frombits(0x7fc12345), math.Float32frombits(0xffc54321), 1e-40}
	value := func(scale float64, specials bool) float32 {
		if specials && r.IntN(8) == 0 {
			return special[r.IntN(len(special))]
		}
		return float32(r.NormFloat64() * scale)
	}
	for trial := range 3000 {
		batch, m, n, k := 1+r.IntN(3), 1+r.IntN(10), 1+r.IntN(16), 1+r.IntN(40)
		specials := trial%3 == 0
		lhs := make([]float32, batch*m*k)
		rhs := make([]float32, batch*k*n)
		for i := range lhs {
			lhs[i] = value(1, specials)
		}
		for i := range rhs {
			rhs[i] = value(100, specials)
		}
		want := make([]float32, batch*m*n)
		got := make([]float32, batch*m*n)
		start := r.IntN(batch)
		releaseSmallNoSIMD(lhs, rhs, start, batch-start, m, n, k, want)
		avx512SmallNarrowFloat32(lhs, rhs, start, batch-start, m, n, k, got)
		for i := range want {
			bothNaN := got[i] != got[i] && want[i] != want[i]
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !bothNaN {
				t.Fatalf("trial %d: [%d, %d, %d] x [%d, %d, %d] from batch %d: element %d = %g (%#08x), want %g (%#08x)",
					trial, batch, m, k, batch, k, n, start, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
}

func BenchmarkAVX512SmallNarrowFloat32(b *testing.B) {
	if !archsimd.X86.AVX512() {
		b.Skip("no AVX-512 on this CPU")
	}
	// Lesson 10's positions models: attention weights by the values of
	// 32 windows × 2 heads, [32, 32] × [32, 16].
	const batch, m, n, k = 64, 32, 16, 32
	lhs, rhs, out := make([]float32, batch*m*k), make([]float32, batch*k*n), make([]float32, batch*m*n)
	for i := range lhs {
		lhs[i] = float32(i%7) - 3
	}
	for i := range rhs {
		rhs[i] = float32(i%5) - 2
	}
	for _, kernel := range []struct {
		name string
		f    func(lhs, rhs []float32, batchStart, batchCount, m, n, k int, output []float32)
	}{{"release", releaseSmallNoSIMD}, {"lanes", avx512SmallNarrowFloat32}} {
		b.Run(kernel.name, func(b *testing.B) {
			for b.Loop() {
				kernel.f(lhs, rhs, 0, batch, m, n, k, out)
			}
		})
	}
}

// releaseSmallNoSIMD runs the release's smallNoSIMDGeneric loops for
// float32, without the SSE2 kernel they call since patch 0017.
func releaseSmallNoSIMD(lhs, rhs []float32, batchStart, batchCount, m, n, k int, output []float32) {
	saved := noSIMDSmallFloat32
	noSIMDSmallFloat32 = nil
	defer func() { noSIMDSmallFloat32 = saved }()
	smallNoSIMDGeneric(lhs, rhs, batchStart, batchCount, m, n, k, output)
}
