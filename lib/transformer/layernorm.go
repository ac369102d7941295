package transformer

import (
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// LayerNormEpsilon is the ε added to the variance before the square root
// in [LayerNorm], so that a row of equal values (variance 0) gives zeros
// instead of a division by zero. 1e-5 is PyTorch's default.
//
// Part of the library behind lesson 05; the lesson does not name it.
const LayerNormEpsilon = 1e-5

// LayerNormParams holds the parameters of one LayerNorm as graph nodes:
// Gamma (γ, the gain) and Beta (β, the bias), both [d_model]. Trained
// models start from γ = 1, β = 0, which leaves the normalised values as
// they are.
//
// Introduced in lesson 05.
type LayerNormParams struct {
	Gamma, Beta *graph.Node
}

// LayerNorm normalises every token vector on its own (Ba, Kiros and
// Hinton, "Layer Normalization", 2016): over the last axis, of d_model
// values,
//
//	μ = mean(x),  σ² = mean((x − μ)²)
//	LayerNorm(x) = (x − μ) / √(σ² + ε) · γ + β
//
// Before γ and β each row has mean 0 and variance 1 (up to ε), whatever
// the scale of its input; γ and β then let training choose another scale
// and offset per column. Unlike batch normalisation it needs no batch
// statistics: a token is normalised the same way at training and at
// inference, alone or in a batch. σ² is the biased variance (divided by
// d_model), as in PyTorch's nn.LayerNorm; ε is [LayerNormEpsilon].
//
// Typical shapes: x [batch, seq, d_model], γ and β [d_model] →
// [batch, seq, d_model]. Any rank works: the last axis is normalised.
//
// Introduced in lesson 05.
func LayerNorm(x *graph.Node, p LayerNormParams) *graph.Node {
	d := x.Shape().Dim(-1)
	for _, v := range []*graph.Node{p.Gamma, p.Beta} {
		if v == nil || v.Rank() != 1 || v.Shape().Dim(0) != d {
			exceptions.Panicf("transformer.LayerNorm: γ and β must be vectors of the last dimension of x (%d), x is %s", d, x.Shape())
		}
	}
	mean := graph.ReduceAndKeep(x, graph.ReduceMean, -1)                          // Shape: [..., 1]
	centered := graph.Sub(x, mean)                                                // Shape: [..., d_model]
	variance := graph.ReduceAndKeep(graph.Square(centered), graph.ReduceMean, -1) // Shape: [..., 1]
	// Divide by the square root rather than multiply by Rsqrt: GoMLX
	// v0.28.8 has no gradient for Rsqrt, and models train through here.
	normed := graph.Div(centered, graph.Sqrt(graph.AddScalar(variance, LayerNormEpsilon))) // Shape: [..., d_model]
	return graph.Add(graph.Mul(normed, lastAxis(p.Gamma, x.Rank())), lastAxis(p.Beta, x.Rank()))
}

// AddNorm is the "Add & Norm" step that follows every sublayer of the
// Transformer (Vaswani et al. 2017, §3.1): a residual connection, then
// LayerNorm,
//
//	AddNorm(x, Sublayer(x)) = LayerNorm(x + Sublayer(x))
//
// This is the paper's post-norm arrangement. The residual path lets the
// input (and, in training, the gradient) pass every layer unchanged, so
// a sublayer only has to learn a correction; the LayerNorm keeps the
// scale of the sum from growing layer after layer.
//
// Typical shapes: x and sublayer [batch, seq, d_model] → [batch, seq,
// d_model].
//
// Introduced in lesson 05.
func AddNorm(x, sublayer *graph.Node, p LayerNormParams) *graph.Node {
	if !x.Shape().Equal(sublayer.Shape()) {
		exceptions.Panicf("transformer.AddNorm: the sublayer's output %s must have the shape of its input %s", sublayer.Shape(), x.Shape())
	}
	return LayerNorm(graph.Add(x, sublayer), p)
}

// lastAxis reshapes the vector v [d] to rank ones and d: [1, ..., 1, d], so
// that it broadcasts along the last axis of a tensor of that rank.
func lastAxis(v *graph.Node, rank int) *graph.Node {
	dims := make([]int, rank)
	for i := range dims {
		dims[i] = 1
	}
	dims[rank-1] = v.Shape().Dim(0)
	return graph.Reshape(v, dims...) // Shape: [d] → [1, ..., 1, d]
}
