package exercise

// The tasks of lesson 02's exercises: the Bahdanau (additive) and Luong
// (dot, general, concat) scores of one query against every key.

// ScoreIn is an input of the score exercises: a query [d_q], keys
// [seq][d_k], and the weights the score needs (W1 [d_q][attn], W2
// [d_k][attn], W [d_q][d_k] or [d_q+d_k][attn], v [attn]).
type ScoreIn struct {
	Query  []float64
	Keys   [][]float64
	W1, W2 [][]float64
	W      [][]float64
	V      []float64
}

// AdditiveScores: func AdditiveScores(query []float64, keys, w1, w2 [][]float64, v []float64) []float64.
var AdditiveScores = &Task[func(q []float64, keys, w1, w2 [][]float64, v []float64) []float64, ScoreIn, []float64]{
	ID: "additive-score",
	Call: func(f func(q []float64, keys, w1, w2 [][]float64, v []float64) []float64, in ScoreIn) []float64 {
		return f(in.Query, in.Keys, in.W1, in.W2, in.V)
	},
}

// DotScores: func DotScores(query []float64, keys [][]float64) []float64.
var DotScores = &Task[func(q []float64, keys [][]float64) []float64, ScoreIn, []float64]{
	ID: "dot-score",
	Call: func(f func(q []float64, keys [][]float64) []float64, in ScoreIn) []float64 {
		return f(in.Query, in.Keys)
	},
}

// GeneralScores: func GeneralScores(query []float64, keys, w [][]float64) []float64.
var GeneralScores = &Task[func(q []float64, keys, w [][]float64) []float64, ScoreIn, []float64]{
	ID: "general-score",
	Call: func(f func(q []float64, keys, w [][]float64) []float64, in ScoreIn) []float64 {
		return f(in.Query, in.Keys, in.W)
	},
}

// ConcatScores: func ConcatScores(query []float64, keys, w [][]float64, v []float64) []float64.
var ConcatScores = &Task[func(q []float64, keys, w [][]float64, v []float64) []float64, ScoreIn, []float64]{
	ID: "concat-score",
	Call: func(f func(q []float64, keys, w [][]float64, v []float64) []float64, in ScoreIn) []float64 {
		return f(in.Query, in.Keys, in.W, in.V)
	},
}
