package withlib

import (
	"time"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/transformer"
)

// The task of lesson 05's decoder-layer exercise.

// DecoderWeights are a decoder layer's weights: masked self-attention,
// cross-attention, FFN and the three LayerNorms.
type DecoderWeights struct {
	Self, Cross         *attention.MultiHeadWeights
	FFN                 *transformer.FFNWeights
	Norm1, Norm2, Norm3 *transformer.LayerNormWeights
}

// DecoderIn is an input of the decoder exercise: the decoder's input x
// [batch][seq_tgt][d_model], the encoder's output memory
// [batch][seq_src][d_model], the number of heads and the weights.
type DecoderIn struct {
	X, Memory [][][]float64
	Heads     int
	W         *DecoderWeights
}

type decoderFunc = func(x, memory *graph.Node, heads int, self, cross attention.MultiHeadParams, ffn transformer.FFNParams, norms [3]transformer.LayerNormParams) *graph.Node

// DecoderLayer: func DecoderLayer(x, memory *graph.Node, heads int, self, cross attention.MultiHeadParams,
// ffn transformer.FFNParams, norms [3]transformer.LayerNormParams) *graph.Node. The layer is built on
// constants and run once; its output is [batch][seq_tgt][d_model].
var DecoderLayer = &exercise.Task[decoderFunc, DecoderIn, [][][]float64]{
	ID: "decoder-layer",
	Call: func(f decoderFunc, in DecoderIn) [][][]float64 {
		g := graph.NewGraph(backend.Default(), "decoder-check")
		defer g.Finalize()
		w := in.W
		norms := [3]transformer.LayerNormParams{w.Norm1.Params(g), w.Norm2.Params(g), w.Norm3.Params(g)}
		out := f(tensor3(g, in.X), tensor3(g, in.Memory), in.Heads, w.Self.Params(g), w.Cross.Params(g), w.FFN.Params(g), norms)
		want := []int{len(in.X), len(in.X[0]), len(in.X[0][0])}
		return batches(runOutput(g, out, "the layer's output", want, "[batch, seq_tgt, d_model] like x"), want[1], want[2])
	},
	Timeout: 30 * time.Second, // the first graph compiles slowly
}
