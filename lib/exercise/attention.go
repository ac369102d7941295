package exercise

// The tasks of lesson 01's exercises: softmax with temperature, scaled
// dot-product attention, the padding and look-ahead masks, and masked
// self-attention.

// Pair holds the two results of a function returning two values.
type Pair[A, B any] struct {
	A A
	B B
}

// SoftmaxIn is an input of the softmax exercise.
type SoftmaxIn struct {
	Logits      []float64
	Temperature float64
}

// Softmax: func Softmax(logits []float64, temperature float64) []float64.
var Softmax = &Task[func([]float64, float64) []float64, SoftmaxIn, []float64]{
	ID: "softmax",
	Call: func(f func([]float64, float64) []float64, in SoftmaxIn) []float64 {
		return f(in.Logits, in.Temperature)
	},
}

// QKV is an input of the attention exercises.
type QKV struct{ Q, K, V [][]float64 }

// Attention: func Attention(q, k, v [][]float64) (out, weights [][]float64).
var Attention = &Task[func(q, k, v [][]float64) ([][]float64, [][]float64), QKV, Pair[[][]float64, [][]float64]]{
	ID: "attention",
	Call: func(f func(q, k, v [][]float64) ([][]float64, [][]float64), in QKV) Pair[[][]float64, [][]float64] {
		o, w := f(in.Q, in.K, in.V)
		return Pair[[][]float64, [][]float64]{A: o, B: w}
	},
}

// PadIn is an input of the padding mask exercise.
type PadIn struct {
	IDs   [][]int
	PadID int
}

// PaddingMask: func PaddingMask(ids [][]int, padID int) [][]float64.
var PaddingMask = &Task[func([][]int, int) [][]float64, PadIn, [][]float64]{
	ID:   "padding-mask",
	Call: func(f func([][]int, int) [][]float64, in PadIn) [][]float64 { return f(in.IDs, in.PadID) },
}

// CausalMask: func CausalMask(n int) [][]float64.
var CausalMask = &Task[func(int) [][]float64, int, [][]float64]{
	ID:   "causal-mask",
	Call: func(f func(int) [][]float64, n int) [][]float64 { return f(n) },
}

// SelfAttnIn is an input of the masked self-attention exercise.
type SelfAttnIn struct{ X, WQ, WK, WV [][]float64 }

// MaskedSelfAttention: func MaskedSelfAttention(x, wq, wk, wv [][]float64) [][]float64.
var MaskedSelfAttention = &Task[func(x, wq, wk, wv [][]float64) [][]float64, SelfAttnIn, [][]float64]{
	ID: "masked-self-attention",
	Call: func(f func(x, wq, wk, wv [][]float64) [][]float64, in SelfAttnIn) [][]float64 {
		return f(in.X, in.WQ, in.WK, in.WV)
	},
}
