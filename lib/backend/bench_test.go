package backend

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// multiplyAdd runs 12 independent chains a ← a·m + c for n rounds: 24
// floating-point operations a round, with no memory traffic and enough
// independent chains to keep the floating-point units busy rather than
// waiting on one chain's latency. It is the most a scalar float32 loop in
// Go can do — the pure-Go backend's kernels without GOEXPERIMENT=simd are
// such loops — and so the peak the other benchmarks are measured against.
//
//go:noinline
func multiplyAdd(n int, m, c float32) float32 {
	a0, a1, a2, a3, a4, a5 := float32(1), float32(2), float32(3), float32(4), float32(5), float32(6)
	a6, a7, a8, a9, a10, a11 := float32(7), float32(8), float32(9), float32(10), float32(11), float32(12)
	for range n {
		a0 = a0*m + c
		a1 = a1*m + c
		a2 = a2*m + c
		a3 = a3*m + c
		a4 = a4*m + c
		a5 = a5*m + c
		a6 = a6*m + c
		a7 = a7*m + c
		a8 = a8*m + c
		a9 = a9*m + c
		a10 = a10*m + c
		a11 = a11*m + c
	}
	return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11
}

const (
	peakRounds = 1 << 20
	peakFlops  = 24 * peakRounds // per call of multiplyAdd
)

var sink atomic.Uint32

// BenchmarkPeak measures the machine's float32 peak in GFLOP/s, on one
// core and on all of them (GOMAXPROCS goroutines): the scalar loop
// (Peak/cores=N) and the same chains on the vectors of the class the
// backend runs (Peak/AVX-512,cores=N, Peak/AVX2,cores=N in a SIMD build;
// Peak/SSE2,cores=N for the plain kernels on amd64), which is what its
// matrix kernels run on. `make bench` divides the other benchmarks'
// GFLOP/s by the highest all-cores figure.
func BenchmarkPeak(b *testing.B) {
	type kernel struct {
		name  string
		run   func(n int, m, c float32) float32
		flops float64 // per call
	}
	kernels := []kernel{{"", multiplyAdd, peakFlops}}
	if p, ok := peakOf(MatMulKernels()); ok {
		kernels = append(kernels, kernel{p.unit + ",", p.run, peakFlops * float64(p.lanes)})
	}
	for _, k := range kernels {
		b.Run(k.name+"cores=1", func(b *testing.B) {
			var s float32
			for b.Loop() {
				s += k.run(peakRounds, 0.999, 0.001)
			}
			sink.Store(uint32(s))
			b.ReportMetric(float64(b.N)*k.flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("%scores=%d", k.name, runtime.GOMAXPROCS(0)), func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				var s float32
				for pb.Next() {
					s += k.run(peakRounds, 0.999, 0.001)
				}
				sink.Store(uint32(s))
			})
			b.ReportMetric(float64(b.N)*k.flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkMatMul measures a square float32 matrix product on the course's
// backend, the operation that dominates training (2n³ operations), with the
// graph compiled outside the timed loop.
func BenchmarkMatMul(b *testing.B) {
	for _, n := range []int{64, 256, 512} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			flat := make([]float32, n*n)
			for i := range flat {
				flat[i] = float32(i%7) - 3
			}
			x := tensors.FromFlatDataAndDimensions(flat, n, n)
			exec := graph.MustNewExec(Default(), func(a, b *graph.Node) *graph.Node { return graph.MatMul(a, b) })
			exec.MustCall(x, x)[0].FinalizeAll() // compile outside the timer
			for b.Loop() {
				exec.MustCall(x, x)[0].FinalizeAll()
			}
			b.ReportMetric(float64(b.N)*2*float64(n*n*n)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
