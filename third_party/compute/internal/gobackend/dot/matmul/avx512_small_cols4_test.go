// Tests of the attention-in-go course's patch: four columns at a time give the
// release's small transposed product bit for bit. (The loop in Go, which
// is the reference of the assembly that replaces it: see
// avx512_small_transposed_asm_test.go.)

//go:build amd64 && goexperiment.simd

package matmul

import (
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

func TestAVX512SmallFloat32TransposedCols4(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512 on this CPU")
	}
	saved := avx512SmallFloat32TransposedKernel
	defer func() { avx512SmallFloat32TransposedKernel = saved }()
	avx512SmallFloat32TransposedKernel = nil // Cols4's loop in Go
	r := rand.New(rand.NewPCG(11, 12))
	for trial := range 2000 {
		batch, m, n, k := 1+r.IntN(3), 1+r.IntN(9), 1+r.IntN(11), 1+r.IntN(90)
		lhs := make([]float32, batch*m*k)
		rhs := make([]float32, batch*n*k)
		for i := range lhs {
			lhs[i] = float32(r.NormFloat64())
		}
		for i := range rhs {
			rhs[i] = float32(r.NormFloat64() * 100)
		}
		want := make([]float32, batch*m*n)
		got := make([]float32, batch*m*n)
		start := r.IntN(batch)
		avx512SmallFloat32Transposed(lhs, rhs, start, batch-start, m, n, k, want)
		avx512SmallFloat32TransposedCols4(lhs, rhs, start, batch-start, m, n, k, got)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("trial %d: [%d, %d, %d] x [%d, %d, %d]ᵀ from batch %d: element %d = %g, want %g",
					trial, batch, m, k, batch, n, k, start, i, got[i], want[i])
			}
		}
	}
}

func BenchmarkAVX512SmallFloat32Transposed(b *testing.B) {
	if !archsimd.X86.AVX512() {
		b.Skip("no AVX-512 on this CPU")
	}
	for _, s := range []struct {
		name           string
		batch, m, n, k int
	}{
		{"GRU-step-64x192x64", 1, 64, 192, 64},           // lesson 6: [64, 64] states by [192, 64]ᵀ weights
		{"attention-scores-64x64x64x16", 64, 64, 64, 16}, // lesson 10: Q·Kᵀ of 16 windows × 4 heads, d_k 16
		{"attention-grad-64x64x16x64", 64, 64, 16, 64},
	} {
		lhs, rhs, out := make([]float32, s.batch*s.m*s.k), make([]float32, s.batch*s.n*s.k), make([]float32, s.batch*s.m*s.n)
		for i := range lhs {
			lhs[i] = float32(i%7) - 3
		}
		for i := range rhs {
			rhs[i] = float32(i%5) - 2
		}
		b.Run(s.name+"/release", func(b *testing.B) {
			for b.Loop() {
				avx512SmallFloat32Transposed(lhs, rhs, 0, s.batch, s.m, s.n, s.k, out)
			}
		})
		saved := avx512SmallFloat32TransposedKernel
		for _, kernel := range []struct {
			name string
			f    func(lhs, rhs []float32, batchStart, batchCount, n, m, k int, out []float32)
		}{{"cols4", nil}, {"asm", saved}} {
			b.Run(s.name+"/"+kernel.name, func(b *testing.B) {
				avx512SmallFloat32TransposedKernel = kernel.f
				defer func() { avx512SmallFloat32TransposedKernel = saved }()
				for b.Loop() {
					avx512SmallFloat32TransposedCols4(lhs, rhs, 0, s.batch, s.m, s.n, s.k, out)
				}
			})
		}
	}
}
