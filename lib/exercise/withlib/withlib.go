// Package withlib holds the exercise tasks (see lib/exercise) whose
// function types use GoMLX graphs or the course library's types —
// figures (lib/viz), attention and Transformer parameters, the shapes
// dataset. They live apart from lib/exercise so that a program serving
// plain-Go exercises does not link GoMLX and gonum/plot. Like
// lib/exercise, this package is linked into the grader's child program
// and so holds nothing worth stealing: it must never import lib/check or
// internal/….
//
// Part of the grader behind lesson 04's exercises; the notebooks do not import it.
package withlib

import (
	"fmt"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// runOutput runs the node a learner's graph function returned: it checks
// that out is not nil and has the dimensions want (axes names the axes for
// the message, e.g. "[batch, seq, d_model] like x"), compiles g with out as
// its only output and returns the values as float64, flat. The tasks
// build graphs themselves rather than through graph.ExecOnce, so that a
// wrong shape, a nil node or a panic while building is reported, as a
// panic in the learner's terms, instead of leaving the executor stuck.
func runOutput(g *graph.Graph, out *graph.Node, what string, want []int, axes string) []float64 {
	if out == nil {
		panic("your function returned nil: return the node of " + what)
	}
	if dims := out.Shape().Dimensions; !slices.Equal(dims, want) {
		panic(fmt.Sprintf("the output has shape %v: want %v, %s", dims, want, axes))
	}
	if err := g.Compile(graph.ConvertDType(out, dtypes.Float64)); err != nil {
		panic(fmt.Sprintf("the graph did not compile: %v", err))
	}
	return tensors.MustCopyFlatData[float64](g.Run()[0])
}

// rows cuts flat values into rows of d.
func rows(flat []float64, d int) [][]float64 {
	out := make([][]float64, len(flat)/d)
	for i := range out {
		out[i] = flat[i*d : (i+1)*d]
	}
	return out
}

// batches cuts flat values into [batch][seq][d] with seq·d values a batch.
func batches(flat []float64, seq, d int) [][][]float64 {
	all := rows(flat, d)
	out := make([][][]float64, len(all)/seq)
	for b := range out {
		out[b] = all[b*seq : (b+1)*seq]
	}
	return out
}

// tensor3 is a float32 constant [batch, seq, d] of x.
//
// Shape: [len(x), len(x[0]), len(x[0][0])].
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
