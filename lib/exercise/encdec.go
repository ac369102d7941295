package exercise

// The tasks of lesson 09's exercises: the decoder's cross-attention, its
// self-attention mask and the teacher-forcing shift.

// CrossIn is an input of the cross-attention exercise: the decoder's
// states Y [tgt][d_model], the encoder's output Memory [src][d_model],
// the projections W_Q, W_K [d_model][d_k] and W_V [d_model][d_v], and
// which source positions are padding.
type CrossIn struct {
	Y, Memory  [][]float64
	WQ, WK, WV [][]float64
	SrcPad     []bool
}

// CrossAttention: func CrossAttention(y, memory, wq, wk, wv [][]float64, srcPad []bool) (out, weights [][]float64).
var CrossAttention = &Task[func(y, memory, wq, wk, wv [][]float64, srcPad []bool) (out, weights [][]float64), CrossIn, Pair[[][]float64, [][]float64]]{
	ID: "cross-attention",
	Call: func(f func(y, memory, wq, wk, wv [][]float64, srcPad []bool) (out, weights [][]float64), in CrossIn) Pair[[][]float64, [][]float64] {
		out, w := f(in.Y, in.Memory, in.WQ, in.WK, in.WV, in.SrcPad)
		return Pair[[][]float64, [][]float64]{out, w}
	},
}

// TokensIn is an input of the exercises on token ids: a sequence and the
// ids of padding and of the start token.
type TokensIn struct {
	Tokens     []int
	Pad, Start int
}

// DecoderMask: func DecoderMask(tgt []int, pad int) [][]bool.
var DecoderMask = &Task[func(tgt []int, pad int) [][]bool, TokensIn, [][]bool]{
	ID:   "decoder-mask",
	Call: func(f func(tgt []int, pad int) [][]bool, in TokensIn) [][]bool { return f(in.Tokens, in.Pad) },
}

// TeacherForcing: func TeacherForcing(target []int, start int) (decoderIn, labels []int).
var TeacherForcing = &Task[func(target []int, start int) (decoderIn, labels []int), TokensIn, Pair[[]int, []int]]{
	ID: "teacher-forcing",
	Call: func(f func(target []int, start int) (decoderIn, labels []int), in TokensIn) Pair[[]int, []int] {
		a, b := f(in.Tokens, in.Start)
		return Pair[[]int, []int]{a, b}
	},
}
