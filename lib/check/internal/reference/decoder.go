package reference

import (
	"math"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/transformer"
)

// This file holds the reference of lesson 05's decoder-layer exercise, in
// float64 loops written independently of lib/transformer's graphs.

// DecoderWeights are the weights of one post-norm decoder layer.
type DecoderWeights struct {
	Self, Cross         *attention.MultiHeadWeights
	FFN                 *transformer.FFNWeights
	Norm1, Norm2, Norm3 *transformer.LayerNormWeights
}

// DecoderVariant selects the reference (zero value) or one of the usual
// mistakes, for hint detection and tests.
type DecoderVariant struct {
	NoMask     bool // causal mask missing: the future leaks
	PreNorm    bool // x + Sublayer(LayerNorm(x)) instead of LayerNorm(x + Sublayer(x))
	NoResidual bool // LayerNorm(Sublayer(x)) without the residual
	// NoResidualAt drops the residual of one sublayer only: 1 the masked
	// self-attention, 2 the cross-attention, 3 the FFN (0: none).
	NoResidualAt int
	SelfCross    bool // the cross-attention attends over x instead of the encoder memory
	CrossOnX     bool // the cross-attention's queries come from x, not from the first sublayer's output
}

// DecoderLayer is one Transformer decoder layer (Vaswani et al., 2017,
// §3.1), post-norm: y = LN1(x + MaskedSelfAttention(x)), z = LN2(y +
// CrossAttention(y, memory)), out = LN3(z + FFN(z)).
func DecoderLayer(x, memory [][]float64, heads int, w *DecoderWeights, v DecoderVariant) [][]float64 {
	sub := func(at int, in [][]float64, norm *transformer.LayerNormWeights, f func([][]float64) [][]float64) [][]float64 {
		switch {
		case v.PreNorm:
			return Add(in, f(LayerNorm(in, norm)))
		case v.NoResidual || v.NoResidualAt == at:
			return LayerNorm(f(in), norm)
		default:
			return LayerNorm(Add(in, f(in)), norm)
		}
	}
	y := sub(1, x, w.Norm1, func(in [][]float64) [][]float64 {
		return MultiHeadLayer(in, in, w.Self, heads, !v.NoMask)
	})
	z := sub(2, y, w.Norm2, func(in [][]float64) [][]float64 {
		q, kv := in, memory
		if v.CrossOnX {
			q = x
		}
		if v.SelfCross {
			kv = in
		}
		return MultiHeadLayer(q, kv, w.Cross, heads, false)
	})
	return sub(3, z, w.Norm3, func(in [][]float64) [][]float64 { return FFN(in, w.FFN) })
}

// MultiHeadLayer is multi-head attention with its output projection.
func MultiHeadLayer(xq, xkv [][]float64, w *attention.MultiHeadWeights, heads int, causal bool) [][]float64 {
	concat, _ := MultiHead(xq, xkv, w.WQ, w.WK, w.WV, w.BQ, w.BK, w.BV, heads, causal)
	return AddBias(MatMul(concat, w.WO), w.BO)
}

// FFN is max(0, x·W1 + b1)·W2 + b2.
func FFN(x [][]float64, w *transformer.FFNWeights) [][]float64 {
	h := AddBias(MatMul(x, w.W1), w.B1)
	for i := range h {
		for j := range h[i] {
			h[i][j] = math.Max(0, h[i][j])
		}
	}
	return AddBias(MatMul(h, w.W2), w.B2)
}

// LayerNorm normalises every row to mean 0 and variance 1 (ε = 1e-5),
// then applies γ and β.
func LayerNorm(x [][]float64, w *transformer.LayerNormWeights) [][]float64 {
	out := make([][]float64, len(x))
	for i, row := range x {
		mean, variance := 0.0, 0.0
		for _, a := range row {
			mean += a
		}
		mean /= float64(len(row))
		for _, a := range row {
			variance += (a - mean) * (a - mean)
		}
		variance /= float64(len(row))
		out[i] = make([]float64, len(row))
		for j, a := range row {
			out[i][j] = (a-mean)/math.Sqrt(variance+transformer.LayerNormEpsilon)*w.Gamma[j] + w.Beta[j]
		}
	}
	return out
}

// Add returns a + b.
func Add(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(a[i]))
		for j := range a[i] {
			out[i][j] = a[i][j] + b[i][j]
		}
	}
	return out
}
