package exercise

// The tasks of lesson 04's plain-Go exercises: the sinusoidal encoding
// matrix, embeddings plus positions, a growing table, an attention head
// on token ids, and learned positions. (The graph, series and multi-head
// tasks are in lib/exercise/withlib.)

// PEIn is an input of the positional-encoding exercises.
type PEIn struct {
	Seq, D int
	Base   float64
}

// PositionalEncoding: func PositionalEncoding(seqLen, d int, n float64) [][]float64.
var PositionalEncoding = &Task[func(int, int, float64) [][]float64, PEIn, [][]float64]{
	ID:   "pe-table",
	Call: func(f func(int, int, float64) [][]float64, in PEIn) [][]float64 { return f(in.Seq, in.D, in.Base) },
}

// EmbedIn is an input of the embedding-plus-positions exercise.
type EmbedIn struct {
	Table, PE [][]float64
	IDs       []int
}

// EmbedWithPositions: func EmbedWithPositions(table [][]float64, ids []int, pe [][]float64) [][]float64.
var EmbedWithPositions = &Task[func([][]float64, []int, [][]float64) [][]float64, EmbedIn, [][]float64]{
	ID: "pe-embed",
	Call: func(f func([][]float64, []int, [][]float64) [][]float64, in EmbedIn) [][]float64 {
		return f(in.Table, in.IDs, in.PE)
	},
}

// GrowIn is an input of the growing-table exercise.
type GrowIn struct {
	Table [][]float64
	N, D  int
	Base  float64
}

// GrowTable: func GrowTable(table [][]float64, n, d int, base float64) [][]float64.
var GrowTable = &Task[func([][]float64, int, int, float64) [][]float64, GrowIn, [][]float64]{
	ID: "pe-grow",
	Call: func(f func([][]float64, int, int, float64) [][]float64, in GrowIn) [][]float64 {
		return f(in.Table, in.N, in.D, in.Base)
	},
}

// TokenIn is an input of the single-head attention-module exercise:
// token ids, the embedding table, the projections and the mask toggle.
type TokenIn struct {
	IDs             []int
	Emb, WQ, WK, WV [][]float64
	Mask            bool
}

// AttentionFromTokens: func AttentionFromTokens(ids []int, emb, wq, wk, wv [][]float64, mask bool) (weights, out [][]float64).
var AttentionFromTokens = &Task[func([]int, [][]float64, [][]float64, [][]float64, [][]float64, bool) ([][]float64, [][]float64), TokenIn, Pair[[][]float64, [][]float64]]{
	ID: "pe-attention",
	Call: func(f func([]int, [][]float64, [][]float64, [][]float64, [][]float64, bool) ([][]float64, [][]float64), in TokenIn) Pair[[][]float64, [][]float64] {
		w, out := f(in.IDs, in.Emb, in.WQ, in.WK, in.WV, in.Mask)
		return Pair[[][]float64, [][]float64]{A: w, B: out}
	},
}

// LearnedIn is an input of the learned-positions exercise.
type LearnedIn struct{ X, Table [][]float64 }

// LearnedOut is AddLearned's result, or whether it returned an error.
type LearnedOut struct {
	Out [][]float64
	Err bool
}

// AddLearned: func AddLearned(x, table [][]float64) ([][]float64, error).
var AddLearned = &Task[func([][]float64, [][]float64) ([][]float64, error), LearnedIn, LearnedOut]{
	ID: "pe-learned",
	Call: func(f func([][]float64, [][]float64) ([][]float64, error), in LearnedIn) LearnedOut {
		out, err := f(in.X, in.Table)
		return LearnedOut{out, err != nil}
	},
}
