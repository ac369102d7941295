// Package attention implements attention the way the course teaches it:
// formula first, one GoMLX operation per step, so that the code reads next to
// the equation it implements.
//
// Two layers live here:
//
//   - Graph functions take and return *graph.Node and are what models use:
//     [Softmax], [ScaledDotProduct], [LookAheadMask], [PaddingMask] (lesson 1);
//     the Bahdanau and Luong scores [AdditiveScore], [DotScore],
//     [GeneralScore], [ConcatScore], [Score] and [Context] (lesson 2);
//     [ProjectQKV] and [MultiHead] (lesson 3); positions inside attention,
//     [MultiHeadBuilder.WithRotation] (RoPE) and
//     [ScaledDotProductBuilder.WithBias] (ALiBi) (lesson 10).
//   - Eager functions take and return plain Go slices and run the graph
//     functions on the course's backend ([backend.Default]); notebooks use them
//     to print and plot small examples: [Explain], [SoftmaxOf], [LookAhead],
//     [Padding], [DotProductVariance], [Saturation] (lesson 1); [Attend],
//     [Align], [CompareScores] (lesson 2); [ExplainSelfAttention],
//     [ExplainMultiHead], [ExplainMultiHeadBatch] (lesson 3).
//
// Plain float64 helpers need no graph: [AnalyzePattern] and [AnalyzeHeads]
// measure what a weight matrix does (diagonal and local mass, sparsity,
// entropy), [MostAttended] and [MeanHeads] summarise it (lesson 3).
//
// # Masks
//
// A mask marks what a query must not see: true (1 in the eager functions)
// means "masked", as in the look-ahead picture where the upper triangle is
// blocked. Masked scores are replaced by -1e9 before the softmax, so their
// weights come out exactly 0. (PyTorch code often uses the opposite
// convention, keep = 1, with masked_fill(mask == 0, -1e9).)
//
// The course implements attention itself rather than calling GoMLX's
// attention layer, and its tests compare with values computed independently
// in float64.
//
// Introduced in lesson 01 (scaled dot-product attention and masks).
package attention
