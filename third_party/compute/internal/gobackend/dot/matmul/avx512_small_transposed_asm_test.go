// Tests of the attention-in-go course's patch: the AVX-512 small transposed
// float32 products in assembly give avx512SmallFloat32TransposedCols4 bit for bit.

//go:build amd64 && goexperiment.simd

package matmul

import (
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

func TestAVX512SmallFloat32TransposedAsm(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512 on this CPU")
	}
	r := rand.New(rand.NewPCG(21, 22))
	// Mostly ordinary numbers, special values in a third of the trials.
	const sentinel = 12345.5 // in the output wherever neither should write
	const guard = 64         // room after each operand; the output's keeps its sentinels
	saved := avx512SmallFloat32TransposedKernel
	defer func() { avx512SmallFloat32TransposedKernel = saved }()
	// avx512SmallFloat32TransposedCols4 must hand every product to the kernel.
	calls := 0
	counted := func(lhs, rhs []float32, batchStart, batchCount, n, m, k int, out []float32) {
		calls++
		saved(lhs, rhs, batchStart, batchCount, n, m, k, out)
	}
	for trial := range 3000 {
		// Every remainder of 2 rows, of 4 columns and of 16 contracting
		// steps, and the course's sizes.
		n := 1 + r.IntN(20)
		m := 1 + r.IntN(20)
		k := 1 + r.IntN(100)
		if trial%7 == 0 {
			n, m, k = []int{16, 64, 256}[r.IntN(3)], []int{16, 64, 256}[r.IntN(3)], []int{16, 32, 64, 192}[r.IntN(4)]
		}
		batchSize := 1 + r.IntN(3)
		batchStart := r.IntN(batchSize)
		batchCount := 1 + r.IntN(batchSize-batchStart)
		specials := trial%3 == 0
		lhs := make([]float32, batchSize*n*k+guard)[:batchSize*n*k]
		rhs := make([]float32, batchSize*m*k+guard)[:batchSize*m*k]
		for i := range lhs {
			lhs[i] = randomFloat32(r, specials)
		}
		for i := range rhs {
			rhs[i] = randomFloat32(r, specials)
		}
		want := make([]float32, batchSize*n*m+guard)
		got := make([]float32, batchSize*n*m+guard)
		for i := range want {
			want[i], got[i] = sentinel, sentinel
		}
		outLen := batchSize * n * m
		avx512SmallFloat32TransposedKernel = nil // the Go loop
		avx512SmallFloat32TransposedCols4(lhs, rhs, batchStart, batchCount, n, m, k, want[:outLen])
		avx512SmallFloat32TransposedKernel, calls = counted, 0
		avx512SmallFloat32TransposedCols4(lhs, rhs, batchStart, batchCount, n, m, k, got[:outLen])
		if calls != 1 {
			t.Fatalf("trial %d: avx512SmallFloat32TransposedCols4 called the assembly kernel %d times, want once", trial, calls)
		}
		if i := firstBitsDifference(got, want); i >= 0 {
			t.Fatalf("trial %d: matrices %d..%d of [%d, %d] × [%d, %d]ᵀ: output element %d (matrix %d, row %d, column %d) = %g (%#08x), want %g (%#08x)",
				trial, batchStart, batchStart+batchCount-1, n, k, m, k, i, i/(n*m), i%(n*m)/m, i%m,
				got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

func BenchmarkAVX512SmallFloat32TransposedAsm(b *testing.B) {
	if !archsimd.X86.AVX512() {
		b.Skip("no AVX-512 on this CPU")
	}
	for _, size := range []struct {
		name    string
		n, m, k int
	}{
		{"64x64x64", 64, 64, 64},
		{"scores-256x256x64", 256, 256, 64},
		{"linear-32x32x256", 32, 32, 256},
		{"scores-256x256x16", 256, 256, 16},
	} {
		lhs := make([]float32, size.n*size.k)
		rhs := make([]float32, size.m*size.k)
		for i := range lhs {
			lhs[i] = float32(i%7) - 3
		}
		for i := range rhs {
			rhs[i] = float32(i%5) - 2
		}
		out := make([]float32, size.n*size.m)
		flops := float64(2 * size.n * size.m * size.k)
		saved := avx512SmallFloat32TransposedKernel
		for _, kernel := range []struct {
			name string
			f    func(lhs, rhs []float32, batchStart, batchCount, n, m, k int, out []float32)
		}{{"cols4", nil}, {"asm", saved}} {
			b.Run(size.name+"/"+kernel.name, func(b *testing.B) {
				avx512SmallFloat32TransposedKernel = kernel.f
				defer func() { avx512SmallFloat32TransposedKernel = saved }()
				for b.Loop() {
					avx512SmallFloat32TransposedCols4(lhs, rhs, 0, 1, size.n, size.m, size.k, out)
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
