package exercise

import (
	"math"
	"slices"
)

// The tasks of lesson 03's plain-Go exercises: attention pattern
// analysis, local (windowed) attention, chunked attention and relative
// position attention. (The heat map tool's task is in
// lib/exercise/withlib: its result is a figure.)

// PatternIn is an input of the pattern-analysis exercise: weights
// [seq_q][seq_k] and the threshold of the sparse ratio.
type PatternIn struct {
	W         [][]float64
	Threshold float64
}

// PatternOut holds the four results of AttentionPatterns.
type PatternOut struct {
	Diagonal, Local, Sparse float64
	Entropy                 []float64
}

// AttentionPatterns: func AttentionPatterns(w [][]float64, threshold float64) (diagonal, local, sparse float64, entropy []float64).
var AttentionPatterns = &Task[func(w [][]float64, threshold float64) (diagonal, local, sparse float64, entropy []float64), PatternIn, PatternOut]{
	ID: "patterns",
	Call: func(f func(w [][]float64, threshold float64) (diagonal, local, sparse float64, entropy []float64), in PatternIn) PatternOut {
		d, l, s, e := f(in.W, in.Threshold)
		return PatternOut{d, l, s, e}
	},
}

// WindowIn is an input of local attention: queries, keys, values and the
// window (or, for chunked attention, the chunk size).
type WindowIn struct {
	Q, K, V [][]float64
	N       int
}

// LocalAttention: func LocalAttention(q, k, v [][]float64, window int) (out, weights [][]float64).
var LocalAttention = &Task[func(q, k, v [][]float64, window int) (out, weights [][]float64), WindowIn, Pair[[][]float64, [][]float64]]{
	ID: "local-attention",
	Call: func(f func(q, k, v [][]float64, window int) (out, weights [][]float64), in WindowIn) Pair[[][]float64, [][]float64] {
		out, w := f(in.Q, in.K, in.V, in.N)
		return Pair[[][]float64, [][]float64]{out, w}
	},
}

// ChunkedIn is an input of chunked attention: queries, keys, values, the
// chunk size N, and Attended, full attention's output row for each query
// (computed by the grader: the child program only looks rows up).
type ChunkedIn struct {
	Q, K, V  [][]float64
	N        int
	Attended [][]float64
}

// ChunkedOut is the learner's result and how it called attend: the most
// query rows in one call, the number of calls, and the rows asked for
// with keys, values or queries other than the input's (attend answers
// them with NaN).
type ChunkedOut struct {
	Out                     [][]float64
	MaxRows, Calls, Foreign int
}

// ChunkedAttention: func ChunkedAttention(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64.
// The learner's function gets an attend that returns full attention's
// rows for the input's queries over all its keys and values, and records
// how it was called.
var ChunkedAttention = &Task[func(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64, ChunkedIn, ChunkedOut]{
	ID: "chunked-attention",
	Call: func(f func(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64, in ChunkedIn) ChunkedOut {
		var res ChunkedOut
		attend := func(q, k, v [][]float64) [][]float64 {
			res.Calls++
			res.MaxRows = max(res.MaxRows, len(q))
			same := equalRows(k, in.K) && equalRows(v, in.V)
			out := make([][]float64, len(q))
			for i, row := range q {
				j := slices.IndexFunc(in.Q, func(r []float64) bool { return slices.Equal(r, row) })
				if !same || j < 0 {
					res.Foreign++
					out[i] = nanRow(len(in.V[0]))
					continue
				}
				out[i] = slices.Clone(in.Attended[j])
			}
			return out
		}
		res.Out = f(in.Q, in.K, in.V, in.N, attend)
		return res
	},
}

func equalRows(a, b [][]float64) bool {
	return slices.EqualFunc(a, b, func(x, y []float64) bool { return slices.Equal(x, y) })
}

func nanRow(n int) []float64 {
	r := make([]float64, n)
	for i := range r {
		r[i] = math.NaN()
	}
	return r
}

// RelativeIn is an input of relative position attention.
type RelativeIn struct {
	Q, K, V, Rel [][]float64
	MaxDist      int
}

// RelativeAttention: func RelativeAttention(q, k, v, rel [][]float64, maxDist int) (out, weights [][]float64).
var RelativeAttention = &Task[func(q, k, v, rel [][]float64, maxDist int) (out, weights [][]float64), RelativeIn, Pair[[][]float64, [][]float64]]{
	ID: "relative-attention",
	Call: func(f func(q, k, v, rel [][]float64, maxDist int) (out, weights [][]float64), in RelativeIn) Pair[[][]float64, [][]float64] {
		out, w := f(in.Q, in.K, in.V, in.Rel, in.MaxDist)
		return Pair[[][]float64, [][]float64]{out, w}
	},
}

// SparseIn is an input of Longformer-style sparse attention: queries,
// keys and values, the window (keys on each side), the dilation (the step
// between them) and the global tokens. Scores holds q_i·k_j/√d_k for every
// pair, computed by the grader: the child program's score only looks
// them up.
type SparseIn struct {
	Q, K, V          [][]float64
	Window, Dilation int
	Global           []int
	Scores           [][]float64
}

// SparseOut is the learner's result and how many scores it asked for.
type SparseOut struct {
	Out, Weights [][]float64
	Scores       int
}

// SparseAttention: func SparseAttention(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64).
// The learner's function gets a score(i, j) = q_i·k_j/√d_k (looked up in
// SparseIn.Scores) that counts its calls: sparse attention computes the visible scores only.
var SparseAttention = &Task[func(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64), SparseIn, SparseOut]{
	ID: "sparse-attention",
	Call: func(f func(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64), in SparseIn) SparseOut {
		var res SparseOut
		score := func(i, j int) float64 {
			res.Scores++
			return in.Scores[i][j]
		}
		res.Out, res.Weights = f(in.Q, in.K, in.V, in.Window, in.Dilation, append([]int(nil), in.Global...), score)
		return res
	},
}

// RelativeValuesIn is an input of relative position attention on keys
// and values.
type RelativeValuesIn struct {
	Q, K, V, RelK, RelV [][]float64
	MaxDist             int
}

// RelativeAttentionValues: func RelativeAttentionValues(q, k, v, relK, relV [][]float64, maxDist int) (out, weights [][]float64).
var RelativeAttentionValues = &Task[func(q, k, v, relK, relV [][]float64, maxDist int) (out, weights [][]float64), RelativeValuesIn, Pair[[][]float64, [][]float64]]{
	ID: "relative-values",
	Call: func(f func(q, k, v, relK, relV [][]float64, maxDist int) (out, weights [][]float64), in RelativeValuesIn) Pair[[][]float64, [][]float64] {
		out, w := f(in.Q, in.K, in.V, in.RelK, in.RelV, in.MaxDist)
		return Pair[[][]float64, [][]float64]{out, w}
	},
}
