package check

import (
	"fmt"
	"time"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/internal/reference"
	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/transformer"
)

// This file holds the check of lesson 05's decoder-layer exercise.

// DecoderIn is an input of the decoder exercise: the decoder's input x
// [batch][seq_tgt][d_model], the encoder's output memory
// [batch][seq_src][d_model], the number of heads and the weights.
type DecoderIn struct {
	X, Memory [][][]float64
	Heads     int
	W         *reference.DecoderWeights
}

type decoderFunc = func(x, memory *graph.Node, heads int, self, cross attention.MultiHeadParams, ffn transformer.FFNParams, norms [3]transformer.LayerNormParams) *graph.Node

// decoderWeights draws a layer's weights, with LayerNorm gains and biases
// away from 1 and 0 so that a swapped norm shows.
func decoderWeights(d, dff int, seed uint32) *reference.DecoderWeights {
	r := random.New(seed)
	norm := func() *transformer.LayerNormWeights {
		n := transformer.NewLayerNormWeights(d)
		for i := range n.Gamma {
			n.Gamma[i] += 0.3 * r.NormFloat64()
			n.Beta[i] += 0.3 * r.NormFloat64()
		}
		return n
	}
	return &reference.DecoderWeights{Self: attention.NewMultiHeadWeights(d, seed), Cross: attention.NewMultiHeadWeights(d, seed+1),
		FFN: transformer.NewFFNWeights(d, dff, seed+2), Norm1: norm(), Norm2: norm(), Norm3: norm()}
}

func decoderIn(seed uint32, batch, tgt, src, d, dff, heads int) DecoderIn {
	r := random.New(seed)
	in := DecoderIn{Heads: heads, W: decoderWeights(d, dff, seed)}
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
			out = append(out, reference.DecoderLayer(in.X[b], in.Memory[b], in.Heads, in.W, v))
		}
		return out
	}
}

// runDecoder builds the learner's layer on constants and runs it once. It
// builds the graph itself (not through graph.ExecOnce) so that a panic
// while building is reported instead of leaving the executor stuck.
func runDecoder(f decoderFunc, in DecoderIn) [][][]float64 {
	g := graph.NewGraph(backend.Default(), "decoder-check")
	defer g.Finalize()
	w := in.W
	norms := [3]transformer.LayerNormParams{w.Norm1.Params(g), w.Norm2.Params(g), w.Norm3.Params(g)}
	out := f(tensor3(g, in.X), tensor3(g, in.Memory), in.Heads, w.Self.Params(g), w.Cross.Params(g), w.FFN.Params(g), norms)
	want := []int{len(in.X), len(in.X[0]), len(in.X[0][0])}
	return batches(runOutput(g, out, "the layer's output", want, "[batch, seq_tgt, d_model] like x"), want[1], want[2])
}

// tensor3 is a float32 constant [batch, seq, d] of x.
func tensor3(g *graph.Graph, x [][][]float64) *graph.Node {
	var flat []float32
	for _, m := range x {
		for _, row := range m {
			for _, v := range row {
				flat = append(flat, float32(v))
			}
		}
	}
	return graph.Const(g, tensors.FromFlatDataAndDimensions(flat, len(x), len(x[0]), len(x[0][0])))
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
	Call:      runDecoder,
	Reference: decoderVariant(reference.DecoderVariant{}),
	Cases: func() []Case[DecoderIn] {
		return []Case[DecoderIn]{
			{"5 target tokens, 5 source tokens, d_model 8, 2 heads", decoderIn(101, 1, 5, 5, 8, 16, 2)},
			{"non-square cross-attention: 4 target tokens over 7 source tokens", decoderIn(102, 1, 4, 7, 8, 16, 2)},
			{"a batch of 2, odd d_ff, 4 heads", decoderIn(103, 2, 3, 6, 8, 12, 4)},
			{"one target token", decoderIn(104, 1, 1, 3, 6, 8, 3)},
		}
	},
	Hidden: func() []Case[DecoderIn] {
		return []Case[DecoderIn]{{"8 target tokens over 2 source tokens, d_model 16, 4 heads", decoderIn(105, 2, 8, 2, 16, 32, 4)}}
	},
	Compare: compareBatch(1e-3), // float32 through three LayerNorms
	Hints: []Hint[DecoderIn, [][][]float64]{
		{Name: "future-leaks", Message: "the self-attention sees the future: give it the look-ahead mask, attention.LookAheadMask(g, seq_tgt), with WithMask",
			Wrong: decoderVariant(reference.DecoderVariant{NoMask: true})},
		{Name: "pre-norm", Message: "this is the pre-norm order x + Sublayer(LayerNorm(x)); the exercise (and the paper) is post-norm: LayerNorm(x + Sublayer(x)), transformer.AddNorm",
			Wrong: decoderVariant(reference.DecoderVariant{PreNorm: true})},
		{Name: "no-residual", Message: "the residual is missing: each sublayer's output is added to its input before the LayerNorm, LayerNorm(x + Sublayer(x))",
			Wrong: decoderVariant(reference.DecoderVariant{NoResidual: true})},
		{Name: "memory-ignored", Message: "the cross-attention attends over the decoder's own sequence: its keys and values are the encoder's memory, MultiHead(y, memory, memory)",
			Wrong: decoderVariant(reference.DecoderVariant{SelfCross: true})},
		{Name: "cross-queries-from-x", Message: "the cross-attention's queries are the output y of the first Add & Norm, not the layer's input x",
			Wrong: decoderVariant(reference.DecoderVariant{CrossOnX: true})},
	},
	Timeout: 30 * time.Second,
})

// DecoderLayer checks the learner's DecoderLayer: masked self-attention
// (self), cross-attention over the memory (cross) and the FFN, each
// followed by Add & Norm with norms[0], norms[1], norms[2].
func DecoderLayer(f func(x, memory *graph.Node, heads int, self, cross attention.MultiHeadParams, ffn transformer.FFNParams, norms [3]transformer.LayerNormParams) *graph.Node) *Result {
	return decoderSpec.Check(f)
}
