// Tests of the attention-in-go course's patch: the small float32 products
// in SSE2 lanes give the release's Go loops bit for bit.

package matmul

import (
	"math"
	"math/rand/v2"
	"testing"
)

// releaseSmallFloat32 runs the release's small loops, without the SSE2
// kernel they now call.
func releaseSmallFloat32(t *testing.T, lhs, rhs []float32, batchStart, batchCount, n, m, k int, out []float32, transposed bool) {
	t.Helper()
	saved := noSIMDSmallFloat32
	noSIMDSmallFloat32 = nil
	defer func() { noSIMDSmallFloat32 = saved }()
	if transposed {
		smallNoSIMDGenericTransposed(lhs, rhs, batchStart, batchCount, n, m, k, out)
	} else {
		smallNoSIMDGeneric(lhs, rhs, batchStart, batchCount, n, m, k, out)
	}
}

func TestSSE2SmallFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	// Mostly ordinary numbers, special values in a third of the trials.
	const sentinel = 12345.5 // in the output wherever neither should write
	const guard = 64         // elements after each operand, which none may touch
	ran := 0
	for trial := range 3000 {
		transposed := trial%2 == 1
		// Rows and columns across every remainder of 3, 4 and 8, and the
		// course's sizes (64, 80, 192); contracting sizes with every
		// remainder of 4.
		n := 1 + r.IntN(40)
		m := 1 + r.IntN(40)
		k := 1 + r.IntN(70)
		if trial%7 == 0 {
			n, m, k = []int{64, 192, 12}[r.IntN(3)], []int{64, 80, 192}[r.IntN(3)], []int{64, 80, 192}[r.IntN(3)]
		}
		batchSize := 1 + r.IntN(3)
		batchStart := r.IntN(batchSize)
		batchCount := 1 + r.IntN(batchSize-batchStart)
		specials := trial%3 == 0
		lhs := make([]float32, batchSize*n*k+guard)[:batchSize*n*k]
		rhs := make([]float32, batchSize*k*m+guard)[:batchSize*k*m]
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
		releaseSmallFloat32(t, lhs, rhs, batchStart, batchCount, n, m, k, want[:outLen], transposed)
		if !sse2SmallFloat32(lhs, rhs, batchStart, batchCount, n, m, k, got[:outLen], transposed) {
			if n >= sse2SmallMinRows && m >= sse2SmallMinCols {
				t.Fatalf("trial %d: [%d, %d] × [%d, %d] declined", trial, n, k, k, m)
			}
			continue
		}
		ran++
		if i := firstBitsDifference(got, want); i >= 0 {
			t.Fatalf("trial %d (transposed %v): matrices %d..%d of [%d, %d] × [%d, %d]: output element %d (matrix %d, row %d, column %d) = %g (%#08x), want %g (%#08x)",
				trial, transposed, batchStart, batchStart+batchCount-1, n, k, k, m, i, i/(n*m), i%(n*m)/m, i%m,
				got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
	if ran < 1500 {
		t.Errorf("only %d of 3000 trials ran the SSE2 kernels", ran)
	}
}

// TestSSE2SmallFloat32Dispatch checks that the release's loops call the
// kernel for float32 (the result is the kernel's, whose bits the test
// above ties to the release's): a kernel that writes a mark is seen.
func TestSSE2SmallFloat32Dispatch(t *testing.T) {
	saved := noSIMDSmallFloat32
	defer func() { noSIMDSmallFloat32 = saved }()
	calls := 0
	noSIMDSmallFloat32 = func(lhs, rhs []float32, batchStart, batchCount, n, m, k int, out []float32, transposed bool) bool {
		calls++
		out[0] = 42
		return true
	}
	const n, m, k = 8, 8, 8
	out := make([]float32, n*m)
	smallNoSIMDGeneric(make([]float32, n*k), make([]float32, k*m), 0, 1, n, m, k, out)
	smallNoSIMDGenericTransposed(make([]float32, n*k), make([]float32, k*m), 0, 1, n, m, k, out)
	if calls != 2 || out[0] != 42 {
		t.Fatalf("the release's small loops called the float32 kernel %d times (output %g), want 2 (42)", calls, out[0])
	}
	smallNoSIMDGeneric(make([]float64, n*k), make([]float64, k*m), 0, 1, n, m, k, make([]float64, n*m))
	if calls != 2 {
		t.Fatalf("a float64 product called the float32 kernel")
	}
}

func BenchmarkSSE2SmallFloat32(b *testing.B) {
	for _, size := range []struct {
		name       string
		n, m, k    int
		transposed bool
	}{
		{"lesson6-64x192x64", 64, 192, 64, false},
		{"lesson6-192x64x64-transposed", 192, 64, 64, true},
		{"lesson6-64x64x192-transposed", 64, 64, 192, true},
	} {
		lhs := make([]float32, size.n*size.k)
		rhs := make([]float32, size.k*size.m)
		for i := range lhs {
			lhs[i] = float32(i%7) - 3
		}
		for i := range rhs {
			rhs[i] = float32(i%5) - 2
		}
		out := make([]float32, size.n*size.m)
		flops := float64(2 * size.n * size.m * size.k)
		b.Run(size.name+"/release", func(b *testing.B) {
			saved := noSIMDSmallFloat32
			noSIMDSmallFloat32 = nil
			defer func() { noSIMDSmallFloat32 = saved }()
			for b.Loop() {
				if size.transposed {
					smallNoSIMDGenericTransposed(lhs, rhs, 0, 1, size.n, size.m, size.k, out)
				} else {
					smallNoSIMDGeneric(lhs, rhs, 0, 1, size.n, size.m, size.k, out)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(size.name+"/sse2", func(b *testing.B) {
			for b.Loop() {
				sse2SmallFloat32(lhs, rhs, 0, 1, size.n, size.m, size.k, out, size.transposed)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
