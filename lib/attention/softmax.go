package attention

import (
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// Softmax returns softmax(x / T) over the last axis, computed stably:
//
//	softmax(x/T)_i = exp(x_i/T - m) / Σ_j exp(x_j/T - m),   m = max_j x_j/T
//
// Subtracting the row maximum m changes nothing mathematically (it cancels
// between numerator and denominator) but keeps exp from overflowing: the
// largest exponent is exp(0) = 1.
//
// The temperature T must be positive: T < 1 sharpens the distribution towards
// the largest logit, T > 1 flattens it towards uniform, T = 1 is the plain
// softmax.
//
// Typical shapes: logits [batch, seq_q, seq_k] → weights of the same shape,
// each row summing to 1.
//
// Introduced in lesson 01.
func Softmax(logits *graph.Node, temperature float64) *graph.Node {
	if !(temperature > 0) {
		exceptions.Panicf("attention.Softmax: temperature must be > 0, got %g", temperature)
	}
	x := logits
	if temperature != 1 {
		x = graph.DivScalar(x, temperature)
	}
	m := graph.StopGradient(graph.ReduceAndKeep(x, graph.ReduceMax, -1)) // Shape: [..., 1]
	e := graph.Exp(graph.Sub(x, m))                                      // largest entry per row is exp(0) = 1
	return graph.Div(e, graph.ReduceAndKeep(e, graph.ReduceSum, -1))     // Shape: [..., n] / [..., 1]
}
