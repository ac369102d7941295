package attention

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// maskFill is the score given to masked positions: small enough that
// exp(maskFill - max) is exactly 0 in float32 and float64, finite so that a
// row with every key masked still gives a defined (uniform) softmax instead
// of NaN.
const maskFill = -1e9

// LookAheadMask returns the causal mask of a decoder: query i may attend to
// keys 0..i and not to the later keys i+1..n-1.
//
//	mask[i][j] = j > i        (true = masked)
//
// Typical shapes: → [seq, seq] Bool; it broadcasts over batch and heads.
//
// Introduced in lesson 01.
func LookAheadMask(g *graph.Graph, n int) *graph.Node {
	if n < 1 {
		exceptions.Panicf("attention.LookAheadMask: sequence length must be ≥ 1, got %d", n)
	}
	shape := shapes.Make(dtypes.Int32, n, n)
	query := graph.Iota(g, shape, 0) // Shape: [n, n], query[i][j] = i
	key := graph.Iota(g, shape, 1)   // Shape: [n, n], key[i][j] = j
	return graph.GreaterThan(key, query)
}

// PaddingMask marks the padding tokens of a batch so that no query attends to
// them:
//
//	mask[b][0][j] = tokens[b][j] == padID        (true = masked)
//
// Typical shapes: tokens [batch, seq] (any integer dtype) → [batch, 1, seq]
// Bool, which broadcasts over the queries of each sequence.
//
// Introduced in lesson 01.
func PaddingMask(tokens *graph.Node, padID int) *graph.Node {
	if tokens.Rank() != 2 {
		exceptions.Panicf("attention.PaddingMask: tokens must be [batch, seq], got shape %s", tokens.Shape())
	}
	pad := graph.Scalar(tokens.Graph(), tokens.DType(), padID)
	mask := graph.Equal(tokens, pad) // Shape: [batch, seq]
	return graph.InsertAxes(mask, 1) // Shape: [batch, 1, seq]
}

// applyMask replaces the masked entries of scores by maskFill. The mask must
// broadcast to the scores: missing leading axes and axes of size 1 are
// expanded.
func applyMask(scores, mask *graph.Node) *graph.Node {
	if mask.DType() != dtypes.Bool {
		exceptions.Panicf("attention: a mask must be Bool (true = masked), got %s", mask.DType())
	}
	if mask.Rank() > scores.Rank() {
		exceptions.Panicf("attention: mask shape %s has more axes than the scores %s", mask.Shape(), scores.Shape())
	}
	for mask.Rank() < scores.Rank() {
		mask = graph.InsertAxes(mask, 0) // Shape: [1, ...mask]
	}
	for i, d := range mask.Shape().Dimensions {
		if d != 1 && d != scores.Shape().Dimensions[i] {
			exceptions.Panicf("attention: mask shape %s does not broadcast to the scores %s (axis %d)",
				mask.Shape(), scores.Shape(), i)
		}
	}
	mask = graph.BroadcastToDims(mask, scores.Shape().Dimensions...) // Shape: like scores
	fill := graph.Scalar(scores.Graph(), scores.DType(), maskFill)
	return graph.Where(mask, fill, scores)
}
