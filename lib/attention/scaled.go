package attention

import (
	"math"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"
)

// ScaledDotProductBuilder configures one scaled dot-product attention; create
// it with [ScaledDotProduct], set options with the With… methods and finish
// with Done (or Steps, to also get the intermediate values).
type ScaledDotProductBuilder struct {
	q, k, v     *graph.Node
	mask        *graph.Node
	bias        *graph.Node
	temperature float64
	noScale     bool
	dropScope   *model.Scope
	dropRate    float64
}

// ScaledDotProduct starts building the attention of Vaswani et al., "Attention
// Is All You Need" (2017), eq. 1:
//
//	Attention(Q, K, V) = softmax(Q·Kᵀ / √d_k) · V
//
// Each query row of Q is compared with every key row of K by a dot product;
// the scores are divided by √d_k so that their variance stays near 1 whatever
// the dimension (for unit-variance q and k, Var(q·k) = d_k); the softmax over
// the keys turns each row of scores into weights that sum to 1; the output is
// the weighted average of the value rows.
//
// Typical shapes: q [batch, seq_q, d_k], k [batch, seq_k, d_k],
// v [batch, seq_k, d_v] → output [batch, seq_q, d_v] and weights
// [batch, seq_q, seq_k]. Any number of leading axes (batch, heads) works, as
// long as q, k and v share them.
//
// Introduced in lesson 01.
func ScaledDotProduct(q, k, v *graph.Node) *ScaledDotProductBuilder {
	return &ScaledDotProductBuilder{q: q, k: k, v: v, temperature: 1}
}

// WithMask sets a Bool mask, true where a query must not attend to a key (see
// [LookAheadMask] and [PaddingMask]). It must broadcast to
// [..., seq_q, seq_k]. Masked scores are set to -1e9 before the softmax, so
// their weights are exactly 0. A nil mask means no mask.
func (b *ScaledDotProductBuilder) WithMask(mask *graph.Node) *ScaledDotProductBuilder {
	b.mask = mask
	return b
}

// WithBias adds bias to the scaled scores, after the 1/√d_k and before the
// mask and the softmax:
//
//	weights = softmax(Q·Kᵀ/√d_k + bias)
//
// This is where ALiBi (Press et al., 2022; posenc.ALiBiOf in lib/posenc)
// puts its position penalties −m·(i − j). bias must broadcast to the scores
// [..., seq_q, seq_k], NumPy-style: missing leading axes are added on the
// left and axes of size 1 are expanded, so a [seq_q, seq_k] bias is shared
// by every batch row and head and a [heads, seq_q, seq_k] bias (ALiBi's)
// gives each head its own. It is converted to the scores' dtype. A masked
// score is -1e9 whatever its bias. A nil bias means no bias, and leaves the
// graph exactly as without WithBias.
func (b *ScaledDotProductBuilder) WithBias(bias *graph.Node) *ScaledDotProductBuilder {
	b.bias = bias
	return b
}

// WithTemperature divides the scaled scores by T > 0 before the softmax (see
// [Softmax]); the default is 1.
func (b *ScaledDotProductBuilder) WithTemperature(t float64) *ScaledDotProductBuilder {
	b.temperature = t
	return b
}

// WithoutScale drops the 1/√d_k factor. No model should do this: it exists to
// show, in lesson 01, how the softmax saturates without it.
func (b *ScaledDotProductBuilder) WithoutScale() *ScaledDotProductBuilder {
	b.noScale = true
	return b
}

// WithDropout applies [Dropout] at rate to the weights before they
// average the values, in training graphs of scope only. The weights that
// Done and Steps return are those before the dropout.
func (b *ScaledDotProductBuilder) WithDropout(scope *model.Scope, rate float64) *ScaledDotProductBuilder {
	b.dropScope, b.dropRate = scope, rate
	return b
}

// Done builds the attention and returns its output and weights.
func (b *ScaledDotProductBuilder) Done() (output, weights *graph.Node) {
	s := b.Steps()
	return s.Output, s.Weights
}

// StepNodes holds every intermediate value of one attention, in order.
type StepNodes struct {
	Scores  *graph.Node // Q·Kᵀ                          [..., seq_q, seq_k]
	Scaled  *graph.Node // Scores / √d_k (+ any bias)    [..., seq_q, seq_k]
	Masked  *graph.Node // Scaled with masked = -1e9     [..., seq_q, seq_k]
	Weights *graph.Node // softmax over the keys          [..., seq_q, seq_k]
	Output  *graph.Node // Weights·V (after any dropout)  [..., seq_q, d_v]
}

// Steps builds the attention and returns all of its intermediate values.
func (b *ScaledDotProductBuilder) Steps() StepNodes {
	q, k, v := b.q, b.k, b.v
	if q.Rank() < 2 || q.Rank() != k.Rank() || k.Rank() != v.Rank() {
		exceptions.Panicf("attention.ScaledDotProduct: q, k, v must have the same rank ≥ 2 "+
			"([..., seq, d]), got %s, %s, %s", q.Shape(), k.Shape(), v.Shape())
	}
	dk := q.Shape().Dim(-1)
	if k.Shape().Dim(-1) != dk {
		exceptions.Panicf("attention.ScaledDotProduct: q and k must have the same last dimension d_k, got %s and %s",
			q.Shape(), k.Shape())
	}
	if k.Shape().Dim(-2) != v.Shape().Dim(-2) {
		exceptions.Panicf("attention.ScaledDotProduct: k and v must have the same number of rows (keys), got %s and %s",
			k.Shape(), v.Shape())
	}
	var s StepNodes
	s.Scores = graph.MatMul(q, graph.Transpose(k, -1, -2)) // Shape: [..., seq_q, d_k] x [..., d_k, seq_k] → [..., seq_q, seq_k]
	s.Scaled = s.Scores
	if !b.noScale {
		s.Scaled = graph.DivScalar(s.Scores, math.Sqrt(float64(dk)))
	}
	if b.bias != nil {
		s.Scaled = addBias(s.Scaled, b.bias) // Scores/√d_k + bias (ALiBi, lesson 10)
	}
	s.Masked = s.Scaled
	if b.mask != nil {
		s.Masked = applyMask(s.Scaled, b.mask)
	}
	s.Weights = Softmax(s.Masked, b.temperature)
	s.Output = graph.MatMul(s.Weights, v) // Shape: [..., seq_q, seq_k] x [..., seq_k, d_v] → [..., seq_q, d_v]
	if b.dropRate != 0 && b.dropScope != nil && b.dropScope.IsTraining(v.Graph()) {
		// Attention dropout while training (lesson 11): the values are
		// averaged by the weights that survive. (The product above is then
		// unused, and the backend drops it.)
		s.Output = graph.MatMul(Dropout(b.dropScope, s.Weights, b.dropRate), v)
	}
	return s
}
