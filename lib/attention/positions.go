package attention

import (
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// Rotation turns the rows of x, queries or keys [..., seq, d_k], by their
// positions [seq]: rotary position embeddings (RoPE; Su et al., "RoFormer",
// 2021) are one, posenc.RotaryOf in lib/posenc with its base fixed:
//
//	func(x, positions *graph.Node) *graph.Node { return posenc.RotaryOf(x, positions, 10000) }
//
// (lib/posenc builds on this package, so this package takes the rotation
// as a function rather than calling it.) See
// [MultiHeadBuilder.WithRotation].
//
// Part of the library behind lesson 10; the lesson does not name it.
type Rotation func(x, positions *graph.Node) *graph.Node

// addBias returns scores + bias, bias broadcast to the scores NumPy-style
// (leading axes added on the left, axes of size 1 expanded) and converted
// to their dtype.
func addBias(scores, bias *graph.Node) *graph.Node {
	if !bias.DType().IsFloat() {
		exceptions.Panicf("attention: a bias must be a float tensor, got %s", bias.Shape())
	}
	if bias.Rank() > scores.Rank() {
		exceptions.Panicf("attention: bias shape %s has more axes than the scores %s", bias.Shape(), scores.Shape())
	}
	for bias.Rank() < scores.Rank() {
		bias = graph.InsertAxes(bias, 0) // Shape: [1, ...bias]
	}
	for i, d := range bias.Shape().Dimensions {
		if d != 1 && d != scores.Shape().Dimensions[i] {
			exceptions.Panicf("attention: bias shape %s does not broadcast to the scores %s (axis %d)",
				bias.Shape(), scores.Shape(), i)
		}
	}
	bias = graph.ConvertDType(bias, scores.DType())
	bias = graph.BroadcastToDims(bias, scores.Shape().Dimensions...) // Shape: like scores
	return graph.Add(scores, bias)
}
