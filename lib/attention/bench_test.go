package attention

import (
	"fmt"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
)

// BenchmarkScaledDotProduct measures one masked attention on the pure-Go
// backend at the shapes of a small Transformer, [batch, heads, seq, d_k],
// with the graph compiled once outside the timed loop, and its rate in
// GFLOP/s.
func BenchmarkScaledDotProduct(b *testing.B) {
	for _, seq := range []int{16, 64, 256} {
		const batch, heads, dk = 2, 8, 64
		b.Run(fmt.Sprintf("batch=%d,heads=%d,seq=%d,dk=%d", batch, heads, seq, dk), func(b *testing.B) {
			r := random.New(1)
			mk := func() *tensors.Tensor {
				m := r.Normal(batch*heads*seq, dk)
				flat := make([]float32, 0, batch*heads*seq*dk)
				for _, row := range m {
					for _, x := range row {
						flat = append(flat, float32(x))
					}
				}
				return tensors.FromFlatDataAndDimensions(flat, batch, heads, seq, dk)
			}
			q, k, v := mk(), mk(), mk()
			exec := graph.MustNewExec(backend.Default(), func(q, k, v *graph.Node) *graph.Node {
				out, _ := ScaledDotProduct(q, k, v).WithMask(LookAheadMask(q.Graph(), seq)).Done()
				return out
			})
			exec.MustCall(q, k, v)[0].FinalizeAll() // compile outside the timer
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				exec.MustCall(q, k, v)[0].FinalizeAll()
			}
			// Q·Kᵀ and weights·V, 2·seq²·d_k operations each per head; the
			// softmax's seq² exponentials are not counted.
			flops := 4 * float64(batch*heads*seq*seq*dk)
			b.ReportMetric(float64(b.N)*flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkFullBlockedLinear runs lesson 11's float64 attentions on
// self-attention inputs of width 32: Full (the n² scores kept), Blocked
// (64×64 blocks, online softmax) and Linear (φ = elu + 1), reporting the
// MiB each allocates per call and, for the two exact ones, GFLOP/s of
// their 4·n²·d multiply-adds.
func BenchmarkFullBlockedLinear(b *testing.B) {
	const d = 32
	for _, n := range []int{256, 1024} {
		r := random.New(1)
		q, k, v := r.Normal(n, d), r.Normal(n, d), r.Normal(n, d)
		for _, m := range []struct {
			name  string
			f     func() ([][]float64, error)
			exact bool
		}{
			{"full", func() ([][]float64, error) { return Full(q, k, v) }, true},
			{"blocked", func() ([][]float64, error) { return Blocked(q, k, v, 64) }, true},
			{"linear", func() ([][]float64, error) { return Linear(q, k, v) }, false},
		} {
			b.Run(fmt.Sprintf("%s,n=%d,d=%d", m.name, n, d), func(b *testing.B) {
				var bytes uint64
				for b.Loop() {
					bytes = AllocatedBytes(func() {
						if _, err := m.f(); err != nil {
							b.Fatal(err)
						}
					})
				}
				b.ReportMetric(float64(bytes)/(1<<20), "MiB/op")
				if m.exact {
					b.ReportMetric(float64(b.N)*4*float64(n*n*d)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				}
			})
		}
	}
}
