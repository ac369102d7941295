package backend

import (
	"os"
	"testing"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// A graph of many independent batched matrix products, each large enough to
// split over the workers, finishes: with DefaultConfig (the backend's own
// schedule, "go": operations in parallel when one graph runs), with
// parallel execution forced and with sequential execution. GoMLX compute
// v0.1.6's products waited on each other for ever in the first two (they
// hang without third_party/compute's change to workerspool.Pool.Saturate).
func TestParallelProductsFinish(t *testing.T) {
	for _, config := range []string{"", "go:ops_parallel", "go:ops_sequential"} {
		t.Run("GOMLX_BACKEND="+config, func(t *testing.T) {
			t.Setenv(compute.ConfigEnvVar, config)
			if config == "" {
				os.Unsetenv(compute.ConfigEnvVar)
			}
			b, err := New()
			if err != nil {
				t.Fatal(err)
			}
			defer b.Finalize()
			done := make(chan error, 1)
			go func() {
				exec, err := graph.NewExec(b, func(x *graph.Node) *graph.Node {
					var sum *graph.Node
					for i := range 8 {
						y := graph.Einsum("bij,bjk->bik", graph.AddScalar(x, float64(i)), x) // Shape: [256, 16, 16]
						if sum == nil {
							sum = y
						} else {
							sum = graph.Add(sum, y)
						}
					}
					return graph.ReduceAllSum(sum)
				})
				if err != nil {
					done <- err
					return
				}
				for range 20 {
					x := tensors.FromFlatDataAndDimensions(make([]float32, 256*16*16), 256, 16, 16)
					if _, err := exec.Call(x); err != nil {
						done <- err
						return
					}
				}
				done <- nil
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(2 * time.Minute):
				t.Fatal("20 runs of 8 parallel matrix products did not finish in 2 minutes: the backend deadlocked")
			}
		})
	}
}
