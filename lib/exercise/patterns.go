package exercise

import "math"

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

// ChunkedOut is the learner's result and how it called attend: the most
// query rows in one call and the number of calls.
type ChunkedOut struct {
	Out            [][]float64
	MaxRows, Calls int
}

// ChunkedAttention: func ChunkedAttention(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64.
// The learner's function gets an attend that computes full attention and
// records how it was called.
var ChunkedAttention = &Task[func(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64, WindowIn, ChunkedOut]{
	ID: "chunked-attention",
	Call: func(f func(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64, in WindowIn) ChunkedOut {
		var res ChunkedOut
		attend := func(q, k, v [][]float64) [][]float64 {
			res.Calls++
			res.MaxRows = max(res.MaxRows, len(q))
			return fullAttention(q, k, v)
		}
		res.Out = f(in.Q, in.K, in.V, in.N, attend)
		return res
	},
}

// fullAttention is softmax(q·kᵀ/√d_k)·v, the attend handed to the
// learner's chunked attention (the exercise is the chunking, not this).
func fullAttention(q, k, v [][]float64) [][]float64 {
	out := make([][]float64, len(q))
	for i := range q {
		scores := make([]float64, len(k))
		best := math.Inf(-1)
		for j := range k {
			for c := range k[j] {
				scores[j] += q[i][c] * k[j][c]
			}
			scores[j] /= math.Sqrt(float64(len(k[j])))
			best = max(best, scores[j])
		}
		sum := 0.0
		for j := range scores {
			scores[j] = math.Exp(scores[j] - best)
			sum += scores[j]
		}
		out[i] = make([]float64, len(v[0]))
		for j := range v {
			for c := range v[j] {
				out[i][c] += scores[j] / sum * v[j][c]
			}
		}
	}
	return out
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
// between them) and the global tokens.
type SparseIn struct {
	Q, K, V          [][]float64
	Window, Dilation int
	Global           []int
}

// SparseOut is the learner's result and how many scores it asked for.
type SparseOut struct {
	Out, Weights [][]float64
	Scores       int
}

// SparseAttention: func SparseAttention(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64).
// The learner's function gets a score(i, j) = q_i·k_j/√d_k that counts
// its calls: sparse attention computes the visible scores only.
var SparseAttention = &Task[func(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64), SparseIn, SparseOut]{
	ID: "sparse-attention",
	Call: func(f func(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64), in SparseIn) SparseOut {
		var res SparseOut
		score := func(i, j int) float64 {
			res.Scores++
			s := 0.0
			for c := range in.Q[i] {
				s += in.Q[i][c] * in.K[j][c]
			}
			return s / math.Sqrt(float64(len(in.K[j])))
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
