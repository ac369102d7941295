package posenc

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// ALiBiSlopes returns the slope m_h of every attention head for ALiBi
// (Press et al., "Train Short, Test Long: Attention with Linear Biases
// Enables Input Length Extrapolation", 2022, §3), as the paper's official
// code computes them (get_slopes in ofirpress/attention_with_linear_biases):
//
//   - heads = n a power of 2: a geometric sequence starting at and with
//     ratio 2^(-8/n), m_h = 2^(-8h/n) for h = 1..n — for 8 heads 1/2, 1/4,
//     …, 1/256; for 16 heads 2^(-0.5), 2^(-1), …, 2^(-8);
//   - otherwise, with p the largest power of 2 below heads: the p slopes of
//     p heads, followed by every other slope of 2p heads (the 1st, 3rd, 5th,
//     …) until there are heads of them — for 6 heads 1/4, 1/16, 1/64, 1/256
//     (the 4 of 4 heads), then 1/2, 1/8 (from the 8 of 8 heads).
//
// The slopes are fixed, not learned: each head sees distances on its own
// scale, from heads that look almost only at the last few tokens (large m)
// to heads that average over long stretches (m near 0).
//
// It panics if heads < 1.
//
// Introduced in lesson 10.
func ALiBiSlopes(heads int) []float64 {
	if heads < 1 {
		panic(fmt.Sprintf("posenc.ALiBiSlopes: the number of heads must be ≥ 1, got %d", heads))
	}
	p := 1 // the largest power of 2 ≤ heads
	for 2*p <= heads {
		p *= 2
	}
	slopes := make([]float64, 0, heads)
	for h := 1; h <= p; h++ {
		slopes = append(slopes, math.Pow(2, -8*float64(h)/float64(p))) // (2^(-8/p))^h
	}
	if p == heads {
		return slopes
	}
	twice := ALiBiSlopes(2 * p)
	for i := 0; len(slopes) < heads; i += 2 {
		slopes = append(slopes, twice[i]) // every other slope of 2p heads: [0::2]
	}
	return slopes
}

// ALiBi returns the attention biases of Press et al. (2022), in float64: for
// head h, a query at position i and a key at position j,
//
//	bias[h][i][j] = −m_h · (i − j)            m_h = ALiBiSlopes(heads)[h]
//
// added to the scaled scores q·k/√d_k before the softmax (see
// [attention.ScaledDotProductBuilder.WithBias]). A key d tokens back is
// penalised by m_h·d: the further, the less attended, linearly, with no
// position embedding anywhere. Since the bias depends only on i − j, a model
// meets no unseen number when it reads a sequence longer than it was
// trained on — ALiBi's point, extrapolation.
//
// The formula is returned as it is for every pair, so for a later key
// (j > i) the bias is positive, m_h·(j − i). In a decoder the causal mask
// ([attention.LookAheadMask]) hides those keys whatever their bias; without
// a mask they would be favoured, so ALiBi as written here is for causal
// attention. (The official code adds only m_h·j, which differs from this
// bias by m_h·i, the same for every key of a query: the softmax of a row
// does not change.)
//
// Typical shapes: queryPositions [seq_q], keyPositions [seq_k] →
// [heads][seq_q][seq_k].
//
// Introduced in lesson 10.
func ALiBi(heads int, queryPositions, keyPositions []int) [][][]float64 {
	slopes := ALiBiSlopes(heads)
	out := make([][][]float64, heads)
	for h, m := range slopes {
		out[h] = make([][]float64, len(queryPositions))
		for a, i := range queryPositions {
			out[h][a] = make([]float64, len(keyPositions))
			for b, j := range keyPositions {
				out[h][a][b] = m * float64(j-i) // −m·(i − j), written so that the diagonal is 0, not −0
			}
		}
	}
	return out
}

// ALiBiOf is the graph version of [ALiBi]: the biases −m_h·(i − j) of every
// head for query positions i and key positions j (integers or floats),
// computed in float64 and returned in float32, or in the positions' dtype
// when they are floats. Press et al. (2022).
//
// For a decoder's forward pass both positions are 0 … seq−1; for one
// cached step the query position is the new token's, [1], and the keys are
// every slot of the cache, 0 … max_len−1.
//
// Typical shapes: queryPositions [seq_q], keyPositions [seq_k] →
// [heads, seq_q, seq_k], which [attention.MultiHeadBuilder.WithBias] adds to
// the scores [batch, heads, seq_q, seq_k] of every batch row.
//
// Part of the library behind lesson 10; the lesson does not name it.
func ALiBiOf(heads int, queryPositions, keyPositions *graph.Node) *graph.Node {
	if heads < 1 {
		exceptions.Panicf("posenc.ALiBiOf: the number of heads must be ≥ 1, got %d", heads)
	}
	if queryPositions.Rank() != 1 || keyPositions.Rank() != 1 {
		exceptions.Panicf("posenc.ALiBiOf: positions must be [seq_q] and [seq_k], got %s and %s", queryPositions.Shape(), keyPositions.Shape())
	}
	dtype := queryPositions.DType()
	if !dtype.IsFloat() {
		dtype = dtypes.Float32
	}
	g := queryPositions.Graph()
	i := graph.InsertAxes(graph.ConvertDType(queryPositions, dtypes.Float64), -1) // Shape: [seq_q, 1]
	j := graph.InsertAxes(graph.ConvertDType(keyPositions, dtypes.Float64), 0)    // Shape: [1, seq_k]
	back := graph.InsertAxes(graph.Sub(j, i), 0)                                  // Shape: [1, seq_q, seq_k], j − i = −(i − j)
	m := graph.Reshape(graph.Const(g, ALiBiSlopes(heads)), heads, 1, 1)           // Shape: [heads, 1, 1]
	bias := graph.Mul(m, back)                                                    // Shape: [heads, seq_q, seq_k], −m_h·(i − j)
	return graph.ConvertDType(bias, dtype)
}
