package attention

import (
	"fmt"
	"math"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// DotProductVariance measures why attention divides by √d_k. It draws n
// pairs of vectors q, k of dimension dk with independent standard normal
// components and returns the sample variance of q·k and of q·k / √d_k.
//
// Each product q_i·k_i has mean 0 and variance 1, and the d_k products are
// independent, so
//
//	Var(q·k) = Σ_i Var(q_i k_i) = d_k,     Var(q·k / √d_k) = 1.
//
// Typical use: dk from 1 to 512, n in the thousands.
//
// Part of the library behind lesson 01; the lesson does not name it.
func DotProductVariance(dk, n int, seed uint32) (raw, scaled float64, err error) {
	if dk < 1 || n < 2 {
		return 0, 0, fmt.Errorf("attention.DotProductVariance: need dk ≥ 1 and n ≥ 2 samples, got dk=%d n=%d", dk, n)
	}
	r := random.New(seed)
	q, k := eager.Tensor(r.Normal(n, dk)), eager.Tensor(r.Normal(n, dk))
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		dots := graph.ReduceSum(graph.Mul(in[0], in[1]), -1) // Shape: [n]: one q·k per pair
		scaledDots := graph.DivScalar(dots, math.Sqrt(float64(dk)))
		return []*graph.Node{graph.ReduceVariance(dots), graph.ReduceVariance(scaledDots)}
	}, q, k)
	if err != nil {
		return 0, 0, err
	}
	return float64(tensors.ToScalar[float32](outs[0])), float64(tensors.ToScalar[float32](outs[1])), nil
}

// Saturation measures how peaked the attention weights get as d_k grows.
// For n random queries, each attending over the same `keys` random keys
// (components independent standard normal, dimension dk), it returns the mean
// over the queries of the largest attention weight — without the 1/√d_k scale
// and with it. A mean largest weight near 1 means a saturated softmax: almost
// one-hot, with vanishing gradients for every other key. With keys keys, a
// perfectly flat softmax would give 1/keys.
//
// Part of the library behind lesson 01; the lesson does not name it.
func Saturation(dk, keys, n int, seed uint32) (unscaled, scaled float64, err error) {
	if dk < 1 || keys < 2 || n < 1 {
		return 0, 0, fmt.Errorf("attention.Saturation: need dk ≥ 1, keys ≥ 2 and n ≥ 1, got dk=%d keys=%d n=%d", dk, keys, n)
	}
	r := random.New(seed)
	q, k := eager.Tensor(r.Normal(n, dk)), eager.Tensor(r.Normal(keys, dk))
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		q, k := in[0], in[1]
		_, wRaw := ScaledDotProduct(q, k, k).WithoutScale().Done() // Shape: [n, keys]
		_, wScaled := ScaledDotProduct(q, k, k).Done()             // Shape: [n, keys]
		meanMax := func(w *graph.Node) *graph.Node { return graph.ReduceMean(graph.ReduceMax(w, -1)) }
		return []*graph.Node{meanMax(wRaw), meanMax(wScaled)}
	}, q, k)
	if err != nil {
		return 0, 0, err
	}
	return float64(tensors.ToScalar[float32](outs[0])), float64(tensors.ToScalar[float32](outs[1])), nil
}
