package check

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise/withlib"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/transformer"
)

// This file holds the check of lesson 05's decoder-layer exercise.

// DecoderIn is an input of the decoder exercise (lib/exercise/withlib).
type DecoderIn = withlib.DecoderIn

type decoderFunc = func(x, memory *graph.Node, heads int, self, cross attention.MultiHeadParams, ffn transformer.FFNParams, norms [3]transformer.LayerNormParams) *graph.Node

// decoderWeightsFrom draws a layer's weights from r, with LayerNorm gains
// and biases away from 1 and 0 so that a swapped norm shows.
func decoderWeightsFrom(r *random.Source, d, dff int, seed uint32) *withlib.DecoderWeights {
	norm := func() *transformer.LayerNormWeights {
		n := transformer.NewLayerNormWeights(d)
		for i := range n.Gamma {
			n.Gamma[i] += 0.3 * r.NormFloat64()
			n.Beta[i] += 0.3 * r.NormFloat64()
		}
		return n
	}
	return &withlib.DecoderWeights{Self: attention.NewMultiHeadWeights(d, seed), Cross: attention.NewMultiHeadWeights(d, seed+1),
		FFN: transformer.NewFFNWeights(d, dff, seed+2), Norm1: norm(), Norm2: norm(), Norm3: norm()}
}

func decoderIn(seed uint32, batch, tgt, src, d, dff, heads int) DecoderIn {
	return decoderInFrom(random.New(seed), seed, batch, tgt, src, d, dff, heads)
}

func decoderInFrom(r *random.Source, seed uint32, batch, tgt, src, d, dff, heads int) DecoderIn {
	in := DecoderIn{Heads: heads, W: decoderWeightsFrom(r, d, dff, seed)}
	for range batch {
		in.X = append(in.X, r.Normal(tgt, d))
		in.Memory = append(in.Memory, r.Normal(src, d))
	}
	return in
}

func decoderVariant(v reference.DecoderVariant) func(DecoderIn) [][][]float64 {
	return func(in DecoderIn) [][][]float64 {
		var out [][][]float64
		for b := range in.X {
			out = append(out, reference.DecoderLayer(in.X[b], in.Memory[b], in.Heads, (*reference.DecoderWeights)(in.W), v))
		}
		return out
	}
}

// compareBatch compares [batch][seq][d] outputs, naming sequence, position
// and dimension.
func compareBatch(tol float64) func(got, want [][][]float64) *Diff {
	return func(got, want [][][]float64) *Diff {
		if len(got) != len(want) {
			return &Diff{Msg: fmt.Sprintf("wrong shape: expected %d sequences, got %d", len(want), len(got))}
		}
		for b := range want {
			if d := Matrix(tol)(got[b], want[b]); d != nil {
				if d.Where != "" {
					d.Where = fmt.Sprintf("sequence %d, %s", b, d.Where)
					return d
				}
				return &Diff{Msg: fmt.Sprintf("sequence %d: %s", b, d.Msg)}
			}
		}
		return nil
	}
}

var decoderSpec = Register(&Exercise[decoderFunc, DecoderIn, [][][]float64]{
	ID: "decoder-layer", Title: "a Transformer decoder layer", Points: 4,
	Signature: "func DecoderLayer(x, memory *graph.Node, heads int, self, cross attention.MultiHeadParams, ffn transformer.FFNParams, norms [3]transformer.LayerNormParams) *graph.Node",
	Task:      withlib.DecoderLayer,
	Reference: decoderVariant(reference.DecoderVariant{}),
	Cases: func() []Case[DecoderIn] {
		return []Case[DecoderIn]{
			{"5 target tokens, 5 source tokens, d_model 8, 2 heads", decoderIn(101, 1, 5, 5, 8, 16, 2)},
			{"non-square cross-attention: 4 target tokens over 7 source tokens", decoderIn(102, 1, 4, 7, 8, 16, 2)},
			{"a batch of 2, odd d_ff, 4 heads", decoderIn(103, 2, 3, 6, 8, 12, 4)},
			{"one target token", decoderIn(104, 1, 1, 3, 6, 8, 3)},
		}
	},
	Hidden: func(r *random.Source) []Case[DecoderIn] {
		heads := []int{1, 2, 4}[intIn(r, 0, 2)]
		d := heads * intIn(r, 2, 4)
		tgt, src, dff := intIn(r, 2, 8), intIn(r, 1, 8), intIn(r, 3, 20)
		return []Case[DecoderIn]{
			{fmt.Sprintf("%d target tokens over %d source tokens, d_model %d, %d heads, d_ff %d", tgt, src, d, heads, dff),
				decoderInFrom(r, r.Uint32(), intIn(r, 1, 2), tgt, src, d, dff, heads)},
			{"one target token", decoderInFrom(r, r.Uint32(), 1, 1, intIn(r, 2, 5), 6, 8, 3)},
		}
	},
	Compare: compareBatch(1e-3), // float32 through three LayerNorms
	// The library has the layer's parts (attention.MultiHead,
	// transformer.AddNorm, FFN), which the exercise asks to wire, and its
	// own decoder layer, which is the answer: that is denied, and so is
	// the encoder layer, which would do two thirds of the wiring.
	Deny:  []string{"lib/transformer.EncoderLayer", "lib/transformer.Encoder", "lib/transformer.DecoderLayer", "lib/transformer.DecoderLayerBuilder"},
	Allow: allow(GraphOps, []string{"lib/attention.LookAheadMask", "lib/attention.MultiHead", "lib/attention.MultiHeadBuilder", "lib/attention.MultiHeadParams", "lib/transformer.AddNorm", "lib/transformer.LayerNorm", "lib/transformer.LayerNormParams", "lib/transformer.FFN", "lib/transformer.FFNParams"}),
	Hints: []Hint[DecoderIn, [][][]float64]{
		{Name: "future-leaks", Message: "the self-attention sees the future: give it the look-ahead mask, attention.LookAheadMask(g, seq_tgt), with WithMask",
			Wrong: decoderVariant(reference.DecoderVariant{NoMask: true})},
		{Name: "pre-norm", Message: "this is the pre-norm order x + Sublayer(LayerNorm(x)); the exercise (and the paper) is post-norm: LayerNorm(x + Sublayer(x)), transformer.AddNorm",
			Wrong: decoderVariant(reference.DecoderVariant{PreNorm: true})},
		{Name: "no-residual", Message: "the residual is missing: each sublayer's output is added to its input before the LayerNorm, LayerNorm(x + Sublayer(x))",
			Wrong: decoderVariant(reference.DecoderVariant{NoResidual: true})},
		{Name: "no-residual-self", Message: "the first sublayer's residual is missing: y = LayerNorm(x + MaskedSelfAttention(x)), not LayerNorm(MaskedSelfAttention(x))",
			Wrong: decoderVariant(reference.DecoderVariant{NoResidualAt: 1})},
		{Name: "no-residual-cross", Message: "the cross-attention's residual is missing: z = LayerNorm(y + CrossAttention(y, memory)), not LayerNorm(CrossAttention(y, memory))",
			Wrong: decoderVariant(reference.DecoderVariant{NoResidualAt: 2})},
		{Name: "no-residual-ffn", Message: "the FFN's residual is missing: out = LayerNorm(z + FFN(z)), not LayerNorm(FFN(z))",
			Wrong: decoderVariant(reference.DecoderVariant{NoResidualAt: 3})},
		{Name: "memory-ignored", Message: "the cross-attention attends over the decoder's own sequence: its keys and values are the encoder's memory, MultiHead(y, memory, memory)",
			Wrong: decoderVariant(reference.DecoderVariant{SelfCross: true})},
		{Name: "cross-queries-from-x", Message: "the cross-attention's queries are the output y of the first Add & Norm, not the layer's input x",
			Wrong: decoderVariant(reference.DecoderVariant{CrossOnX: true})},
	},
})

// DecoderLayer checks the learner's DecoderLayer: masked self-attention
// (self), cross-attention over the memory (cross) and the FFN, each
// followed by Add & Norm with norms[0], norms[1], norms[2].
func DecoderLayer(f func(x, memory *graph.Node, heads int, self, cross attention.MultiHeadParams, ffn transformer.FFNParams, norms [3]transformer.LayerNormParams) *graph.Node) *Result {
	return decoderSpec.Check(f)
}
