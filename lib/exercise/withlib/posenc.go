package withlib

import (
	"time"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/viz"
)

// The tasks of lesson 04's exercises whose types use the library: the
// encoding as a graph, its columns as viz.Series, and multi-head
// attention on token ids with the layer's weights.

type peGraphFunc = func(g *graph.Graph, seqLen, d int, n float64) *graph.Node

// PositionalEncodingGraph: func PositionalEncodingGraph(g *graph.Graph, seqLen, d int, n float64) *graph.Node.
// The graph is built and run once; its output is [seqLen][d].
var PositionalEncodingGraph = &exercise.Task[peGraphFunc, exercise.PEIn, [][]float64]{
	ID: "pe-graph",
	Call: func(f peGraphFunc, in exercise.PEIn) [][]float64 {
		g := graph.NewGraph(backend.Default(), "pe-graph-check")
		defer g.Finalize()
		out := f(g, in.Seq, in.D, in.Base)
		return rows(runOutput(g, out, "the encoding", []int{in.Seq, in.D}, "[seqLen, d]"), in.D)
	},
	Timeout: 20 * time.Second,
}

// SeriesIn is an input of the sinusoid-series exercise.
type SeriesIn struct {
	PE   [][]float64
	Dims []int
}

// SeriesOut is a gob-friendly copy of []viz.Series.
type SeriesOut struct {
	Names []string
	X, Y  [][]float64
}

// SeriesResult copies series into a SeriesOut.
func SeriesResult(s []viz.Series) SeriesOut {
	var out SeriesOut
	for _, x := range s {
		out.Names, out.X, out.Y = append(out.Names, x.Name), append(out.X, x.X), append(out.Y, x.Y)
	}
	return out
}

// SinusoidSeries: func SinusoidSeries(pe [][]float64, dims []int) []viz.Series.
var SinusoidSeries = &exercise.Task[func([][]float64, []int) []viz.Series, SeriesIn, SeriesOut]{
	ID: "pe-series",
	Call: func(f func([][]float64, []int) []viz.Series, in SeriesIn) SeriesOut {
		return SeriesResult(f(in.PE, in.Dims))
	},
}

// MultiHeadIn is an input of the multi-head exercise: token ids, the
// embedding table, the layer's weights, the number of heads and the mask
// toggle.
type MultiHeadIn struct {
	IDs   []int
	Emb   [][]float64
	MH    *attention.MultiHeadWeights
	Heads int
	Mask  bool
}

type multiheadFunc = func([]int, [][]float64, *attention.MultiHeadWeights, int, bool) ([][][]float64, [][]float64)

// MultiHeadFromTokens: func MultiHeadFromTokens(ids []int, emb [][]float64, w *attention.MultiHeadWeights, heads int, mask bool)
// (weights [][][]float64, out [][]float64).
var MultiHeadFromTokens = &exercise.Task[multiheadFunc, MultiHeadIn, exercise.Pair[[][][]float64, [][]float64]]{
	ID: "pe-multihead",
	Call: func(f multiheadFunc, in MultiHeadIn) exercise.Pair[[][][]float64, [][]float64] {
		w, out := f(in.IDs, in.Emb, in.MH, in.Heads, in.Mask)
		return exercise.Pair[[][][]float64, [][]float64]{A: w, B: out}
	},
}
