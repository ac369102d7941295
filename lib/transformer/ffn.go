package transformer

import (
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// FFNParams holds the parameters of one position-wise feed-forward network
// as graph nodes. Matrices multiply on the right: x·W.
//
// Shapes: W1 [d_model, d_ff], B1 [d_ff], W2 [d_ff, d_model], B2 [d_model].
//
// Introduced in lesson 05.
type FFNParams struct {
	W1, B1, W2, B2 *graph.Node
}

// FFN is the position-wise feed-forward network of every Transformer layer
// (Vaswani et al. 2017, §3.3, eq. 2):
//
//	FFN(x) = max(0, x·W₁ + b₁)·W₂ + b₂
//
// Two linear maps with a ReLU between them: the first widens each token
// vector from d_model to d_ff (2048 = 4·512 in the paper), the ReLU zeroes
// the negative units, the second maps back to d_model. "Position-wise":
// the same weights are applied to every position separately, so no
// information moves between tokens here — that is attention's job; the
// FFN transforms what each token has gathered.
//
// Parameters: 2·d_model·d_ff + d_ff + d_model (see [FFNParamCount]).
//
// Typical shapes: x [batch, seq, d_model] → hidden [batch, seq, d_ff] →
// [batch, seq, d_model].
//
// Introduced in lesson 05.
func FFN(x *graph.Node, p FFNParams) *graph.Node {
	_, out := ffnSteps(x, p)
	return out
}

// ffnSteps returns the hidden layer after the ReLU and the output of FFN.
func ffnSteps(x *graph.Node, p FFNParams) (hidden, out *graph.Node) {
	if x.Rank() != 3 {
		exceptions.Panicf("transformer.FFN: x must be [batch, seq, d_model], got %s", x.Shape())
	}
	if p.W1 == nil || p.B1 == nil || p.W2 == nil || p.B2 == nil {
		exceptions.Panicf("transformer.FFN: W1, B1, W2 and B2 are all required")
	}
	d := x.Shape().Dim(-1)
	if p.W1.Rank() != 2 || p.W1.Shape().Dim(0) != d || p.W2.Rank() != 2 ||
		p.W2.Shape().Dim(0) != p.W1.Shape().Dim(1) || p.W2.Shape().Dim(1) != d {
		exceptions.Panicf("transformer.FFN: want W1 [d_model, d_ff] and W2 [d_ff, d_model] with d_model = %d, got %s and %s",
			d, p.W1.Shape(), p.W2.Shape())
	}
	hidden = linear(x, p.W1, p.B1)                                     // Shape: [batch, seq, d_ff]
	hidden = graph.Max(hidden, graph.ScalarZero(x.Graph(), x.DType())) // ReLU: max(0, ·)
	return hidden, linear(hidden, p.W2, p.B2)                          // Shape: [batch, seq, d_model]
}

// linear returns x·w + b. Shape: [batch, seq, d_in] x [d_in, d_out] → [batch, seq, d_out].
func linear(x, w, b *graph.Node) *graph.Node {
	y := graph.Einsum("bsi,io->bso", x, w) // Shape: [batch, seq, d_out]
	if b.Rank() != 1 || b.Shape().Dim(0) != w.Shape().Dim(1) {
		exceptions.Panicf("transformer: a bias of shape %s does not match a weight matrix of shape %s", b.Shape(), w.Shape())
	}
	return graph.Add(y, lastAxis(b, 3)) // bias [1, 1, d_out], broadcast over batch and seq
}
