package withlib

import (
	"time"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/vision"
)

// The tasks of lesson 05's Vision Transformer exercises: the patch
// embedding and training the ViT.

// EmbedPatchesIn is an input of the patch-embedding exercise.
type EmbedPatchesIn struct {
	Patches [][][]float64 // [batch][P][patch_dim]
	W, Pos  [][]float64   // [patch_dim][d], [P+1][d]
	B, Cls  []float64     // [d]
}

type patchEmbedFunc = func(patches, w, b, cls, pos *graph.Node) *graph.Node

// PatchEmbedding: func PatchEmbedding(patches, w, b, cls, pos *graph.Node) *graph.Node, built on
// constants and run once; its output is [batch][P+1][d_model].
var PatchEmbedding = &exercise.Task[patchEmbedFunc, EmbedPatchesIn, [][][]float64]{
	ID: "patch-embedding",
	Call: func(f patchEmbedFunc, in EmbedPatchesIn) [][][]float64 {
		g := graph.NewGraph(backend.Default(), "patch-embedding-check")
		defer g.Finalize()
		c32 := func(m [][]float64) *graph.Node { return tensor3(g, [][][]float64{m}) }
		// Shape: [1, rows, cols] constants reshaped to [rows, cols] and [d].
		w, pos := graph.Reshape(c32(in.W), len(in.W), len(in.W[0])), graph.Reshape(c32(in.Pos), len(in.Pos), len(in.Pos[0]))
		b, cls := graph.Reshape(c32([][]float64{in.B}), len(in.B)), graph.Reshape(c32([][]float64{in.Cls}), len(in.Cls))
		out := f(tensor3(g, in.Patches), w, b, cls, pos)
		want := []int{len(in.Patches), len(in.Patches[0]) + 1, len(in.W[0])}
		return batches(runOutput(g, out, "the embedded sequence", want, "[batch, P+1, d_model] (the class token makes P+1)"), want[1], want[2])
	},
	Timeout: 30 * time.Second,
}

// ViTIn is an input of the ViT training exercise: the training set and
// the test set. The learner's function gets the test set with every label
// replaced by 0 (the check's Redact): it is scored on the real ones.
type ViTIn struct {
	Train, Test *vision.Dataset
}

// TrainShapes: func TrainShapes(trainSet, testSet *vision.Dataset) []int.
var TrainShapes = &exercise.Task[func(trainSet, testSet *vision.Dataset) []int, ViTIn, []int]{
	ID:      "vit",
	Call:    func(f func(trainSet, testSet *vision.Dataset) []int, in ViTIn) []int { return f(in.Train, in.Test) },
	Timeout: 5 * time.Minute,
}
