package rnn_test

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/rnn"
)

// With every weight 0 except the update gate's bias, a GRU step keeps the
// fraction z = σ(b_z) of its state and adds (1 − z)·tanh(0) = 0: the update
// gate alone decides how much is remembered.
func ExampleGRUStep() {
	const in, hidden = 2, 3
	bz := make([]float32, 3*hidden)
	for j := hidden; j < 2*hidden; j++ {
		bz[j] = 2 // σ(2) ≈ 0.881
	}
	h := graph.MustExecOnce(backend.Default(), func(x, h, wx, wh, bx, bh *graph.Node) *graph.Node {
		return rnn.GRUStep(x, h, rnn.GRUParams{Wx: wx, Wh: wh, Bx: bx, Bh: bh})
	},
		[][]float32{{1, -1}},
		[][]float32{{1, 0.5, -2}},
		tensors.FromFlatDataAndDimensions(make([]float32, in*3*hidden), in, 3*hidden),
		tensors.FromFlatDataAndDimensions(make([]float32, hidden*3*hidden), hidden, 3*hidden),
		bz, make([]float32, 3*hidden))
	fmt.Printf("%.3f\n", h.Value())
	// Output:
	// [[0.881 0.440 -1.762]]
}
