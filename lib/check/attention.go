package check

import (
	"math"

	"github.com/attention-in-go/course/internal/reference"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 01's exercises: softmax with
// temperature, scaled dot-product attention, the padding and look-ahead
// masks, and masked self-attention.

// tol accepts float32 arithmetic and any correct formulation.
const tol = 1e-5

// SoftmaxIn is an input of the softmax exercise.
type SoftmaxIn struct {
	Logits      []float64
	Temperature float64
}

var softmaxSpec = Register(&Exercise[func([]float64, float64) []float64, SoftmaxIn, []float64]{
	ID: "softmax", Title: "stable softmax with temperature", Points: 2,
	Signature: "func Softmax(logits []float64, temperature float64) []float64",
	Call: func(f func([]float64, float64) []float64, in SoftmaxIn) []float64 {
		return f(in.Logits, in.Temperature)
	},
	Reference: func(in SoftmaxIn) []float64 { return reference.Softmax(in.Logits, in.Temperature) },
	Cases: func() []Case[SoftmaxIn] {
		return []Case[SoftmaxIn]{
			{"3 logits, temperature 1", SoftmaxIn{[]float64{1, 2, 3}, 1}},
			{"temperature 0.5 (sharper)", SoftmaxIn{[]float64{1, 2, 3}, 0.5}},
			{"temperature 10 (flatter)", SoftmaxIn{[]float64{2, -1, 0.5, 4}, 10}},
			{"one logit", SoftmaxIn{[]float64{-7}, 1}},
			{"large logits 1000, 1001, 1002 (overflow without max subtraction)", SoftmaxIn{[]float64{1000, 1001, 1002}, 1}},
		}
	},
	Hidden: func() []Case[SoftmaxIn] {
		return []Case[SoftmaxIn]{
			{"very negative logits", SoftmaxIn{[]float64{-1000, -999.5, -1001}, 0.7}},
			{"8 random logits, temperature 2", SoftmaxIn{random.New(11).Normal(1, 8)[0], 2}},
		}
	},
	Compare: Vector(tol),
	Hints: []Hint[SoftmaxIn, []float64]{
		{Name: "temperature-multiplied", Message: "it looks like you multiplied the logits by the temperature; softmax with temperature divides: exp(x_i/T)",
			Wrong: func(in SoftmaxIn) []float64 {
				return reference.Softmax(scaled(in.Logits, in.Temperature*in.Temperature), in.Temperature)
			}},
		{Name: "no-temperature", Message: "the result is the softmax at temperature 1: divide the logits by the temperature",
			Wrong: func(in SoftmaxIn) []float64 { return reference.Softmax(in.Logits, 1) }},
		{Name: "overflow", Message: "exp(1000) overflows to +Inf: subtract the largest logit before exp (softmax does not change)",
			Detect: func(in SoftmaxIn, got []float64) bool { return hasNaN(got) }},
	},
	Deny: []string{"lib/attention"},
})

// Softmax checks the learner's Softmax: softmax(x/T) of a vector.
func Softmax(f func(logits []float64, temperature float64) []float64) *Result {
	return softmaxSpec.Check(f)
}

func scaled(x []float64, t float64) []float64 {
	out := make([]float64, len(x))
	for i := range x {
		out[i] = x[i] * t
	}
	return out
}

func hasNaN(x []float64) bool {
	for _, a := range x {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return true
		}
	}
	return false
}

// QKV is an input of the attention exercises.
type QKV struct{ Q, K, V [][]float64 }

type attnOut = Pair[[][]float64, [][]float64]

func attnRef(vr reference.AttentionVariant) func(in QKV) attnOut {
	return func(in QKV) attnOut {
		o, w := reference.Attention(in.Q, in.K, in.V, nil, vr)
		return attnOut{A: o, B: w}
	}
}

func qkv(seed uint32, nq, nk, dk, dv int) QKV {
	r := random.New(seed)
	return QKV{Q: r.Normal(nq, dk), K: r.Normal(nk, dk), V: r.Normal(nk, dv)}
}

var attentionSpec = Register(&Exercise[func(q, k, v [][]float64) ([][]float64, [][]float64), QKV, attnOut]{
	ID: "attention", Title: "scaled dot-product attention", Points: 3,
	Signature: "func Attention(q, k, v [][]float64) (out, weights [][]float64)",
	Call: func(f func(q, k, v [][]float64) ([][]float64, [][]float64), in QKV) attnOut {
		o, w := f(in.Q, in.K, in.V)
		return attnOut{A: o, B: w}
	},
	Reference: attnRef(reference.AttentionVariant{}),
	Cases: func() []Case[QKV] {
		return []Case[QKV]{
			{"3 tokens, d_k = d_v = 4", qkv(1, 3, 3, 4, 4)},
			{"cross attention: 2 queries, 5 keys, d_k = 3, d_v = 2", qkv(2, 2, 5, 3, 2)},
			{"one token", qkv(3, 1, 1, 4, 4)},
			{"odd d_k = 5, 4 tokens", qkv(4, 4, 4, 5, 3)},
		}
	},
	Hidden: func() []Case[QKV] {
		return []Case[QKV]{
			{"cross attention: 6 queries, 3 keys, d_k = 8, d_v = 5", qkv(5, 6, 3, 8, 5)},
			{"large scores", func() QKV { c := qkv(6, 3, 4, 16, 2); c.Q = scaledM(c.Q, 30); return c }()},
		}
	},
	Compare: Both("output", Matrix(tol), "weights", Matrix(tol)),
	Hints: []Hint[QKV, attnOut]{
		{Name: "no-scale", Message: "these are the weights without the 1/√d_k scaling: divide Q·Kᵀ by √d_k (d_k = the width of the keys) before the softmax",
			Wrong: attnRef(reference.AttentionVariant{NoScale: true})},
		{Name: "sqrt-dv", Message: "you scaled by √d_v, the width of V; the scale is √d_k, the width of Q and K",
			Wrong: attnRef(reference.AttentionVariant{SqrtDV: true})},
		{Name: "column-softmax", Message: "softmax over the wrong axis: each row (one query, all keys) must sum to 1, not each column",
			Wrong: attnRef(reference.AttentionVariant{ColumnSoftmax: true})},
		{Name: "shape", Message: "weights are [queries][keys] and the output [queries][d_v]: Q·Kᵀ, not Qᵀ·K or Q·K",
			Detect: func(in QKV, got attnOut) bool {
				return len(got.B) != len(in.Q) || (len(got.B) > 0 && len(got.B[0]) != len(in.K)) ||
					len(got.A) != len(in.Q) || (len(got.A) > 0 && len(got.A[0]) != len(in.V[0]))
			}},
	},
	Deny: []string{"lib/attention"},
})

// Attention checks the learner's scaled dot-product attention
// softmax(Q·Kᵀ/√d_k)·V, returning the output and the weights.
func Attention(f func(q, k, v [][]float64) (out, weights [][]float64)) *Result {
	return attentionSpec.Check(f)
}

func scaledM(m [][]float64, t float64) [][]float64 {
	out := make([][]float64, len(m))
	for i := range m {
		out[i] = scaled(m[i], t)
	}
	return out
}

// PadIn is an input of the padding mask exercise.
type PadIn struct {
	IDs   [][]int
	PadID int
}

var paddingSpec = Register(&Exercise[func([][]int, int) [][]float64, PadIn, [][]float64]{
	ID: "padding-mask", Title: "padding mask", Points: 1,
	Signature: "func PaddingMask(ids [][]int, padID int) [][]float64",
	Call:      func(f func([][]int, int) [][]float64, in PadIn) [][]float64 { return f(in.IDs, in.PadID) },
	Reference: func(in PadIn) [][]float64 { return reference.PaddingMask(in.IDs, in.PadID) },
	Cases: func() []Case[PadIn] {
		return []Case[PadIn]{
			{"2 sentences, pad id 0", PadIn{[][]int{{5, 7, 2, 0}, {3, 9, 0, 0}}, 0}},
			{"pad id 1, a pad-free sentence", PadIn{[][]int{{4, 4, 4}, {6, 1, 1}}, 1}},
			{"a fully padded row", PadIn{[][]int{{8, 3}, {0, 0}}, 0}},
			{"one token", PadIn{[][]int{{2}}, 0}},
		}
	},
	Hidden: func() []Case[PadIn] {
		return []Case[PadIn]{{"pad id 3, token 0 is a word", PadIn{[][]int{{0, 3, 0, 3}, {3, 3, 3, 3}}, 3}}}
	},
	Compare: Mask(),
	Hints: []Hint[PadIn, [][]float64]{
		{Name: "inverted", Message: "your mask is inverted: 1 marks padding (hidden), 0 marks a real token",
			Wrong: func(in PadIn) [][]float64 { return invert(reference.PaddingMask(in.IDs, in.PadID)) }},
		{Name: "pad-zero", Message: "compare with padID, not with 0: the pad id is a parameter",
			Wrong: func(in PadIn) [][]float64 { return reference.PaddingMask(in.IDs, 0) }},
	},
	Deny: []string{"lib/attention", "lib/text"},
})

// PaddingMask checks the learner's padding mask: 1 where a token id is
// the pad id, [batch][seq].
func PaddingMask(f func(ids [][]int, padID int) [][]float64) *Result { return paddingSpec.Check(f) }

func invert(m [][]float64) [][]float64 {
	out := make([][]float64, len(m))
	for i := range m {
		out[i] = make([]float64, len(m[i]))
		for j := range m[i] {
			out[i][j] = 1 - m[i][j]
		}
	}
	return out
}

var causalSpec = Register(&Exercise[func(int) [][]float64, int, [][]float64]{
	ID: "causal-mask", Title: "look-ahead (causal) mask", Points: 1,
	Signature: "func CausalMask(n int) [][]float64",
	Call:      func(f func(int) [][]float64, n int) [][]float64 { return f(n) },
	Reference: func(n int) [][]float64 { return reference.CausalMask(n, false, false) },
	Cases: func() []Case[int] {
		return []Case[int]{{"n = 4", 4}, {"n = 1", 1}, {"n = 2", 2}}
	},
	Hidden:  func() []Case[int] { return []Case[int]{{"n = 7", 7}} },
	Compare: Mask(),
	Hints: []Hint[int, [][]float64]{
		{Name: "diagonal", Message: "the diagonal is masked: a token may look at itself, so mask only j > i",
			Wrong: func(n int) [][]float64 { return reference.CausalMask(n, true, false) }},
		{Name: "future-open", Message: "the future is left open and the past masked: row i must hide the columns after i (upper triangle)",
			Wrong: func(n int) [][]float64 { return reference.CausalMask(n, false, true) }},
		{Name: "inverted", Message: "your mask is inverted: 1 marks what is hidden (the future), 0 what a token may see",
			Wrong: func(n int) [][]float64 { return invert(reference.CausalMask(n, false, false)) }},
	},
	Deny: []string{"lib/attention"},
})

// CausalMask checks the learner's look-ahead mask: n×n, 1 where j > i.
func CausalMask(f func(n int) [][]float64) *Result { return causalSpec.Check(f) }

// SelfAttnIn is an input of the masked self-attention exercise.
type SelfAttnIn struct{ X, WQ, WK, WV [][]float64 }

func selfIn(seed uint32, n, d, dk, dv int) SelfAttnIn {
	r := random.New(seed)
	return SelfAttnIn{X: r.Normal(n, d), WQ: r.Normal(d, dk), WK: r.Normal(d, dk), WV: r.Normal(d, dv)}
}

func selfRef(vr reference.AttentionVariant) func(SelfAttnIn) [][]float64 {
	return func(in SelfAttnIn) [][]float64 { return reference.MaskedSelfAttention(in.X, in.WQ, in.WK, in.WV, vr) }
}

var maskedSpec = Register(&Exercise[func(x, wq, wk, wv [][]float64) [][]float64, SelfAttnIn, [][]float64]{
	ID: "masked-self-attention", Title: "masked self-attention for a decoder", Points: 3,
	Signature: "func MaskedSelfAttention(x, wq, wk, wv [][]float64) [][]float64",
	Call: func(f func(x, wq, wk, wv [][]float64) [][]float64, in SelfAttnIn) [][]float64 {
		return f(in.X, in.WQ, in.WK, in.WV)
	},
	Reference: selfRef(reference.AttentionVariant{}),
	Cases: func() []Case[SelfAttnIn] {
		return []Case[SelfAttnIn]{
			{"4 tokens, d_model 6, d_k = d_v = 4", selfIn(21, 4, 6, 4, 4)},
			{"one token", selfIn(22, 1, 4, 4, 4)},
			{"odd d_model 5, d_k 3, d_v 2", selfIn(23, 3, 5, 3, 2)},
		}
	},
	Hidden: func() []Case[SelfAttnIn] {
		return []Case[SelfAttnIn]{{"7 tokens, d_model 8", selfIn(24, 7, 8, 8, 8)}}
	},
	Compare: Matrix(tol),
	Hints: []Hint[SelfAttnIn, [][]float64]{
		{Name: "future-open", Message: "the future is left open: row i must not see the tokens after i — add −∞ (or −1e9) to the scores where j > i",
			Wrong: selfRef(reference.AttentionVariant{NoMask: true})},
		{Name: "diagonal", Message: "the diagonal is masked: a token must see itself (mask j > i, not j ≥ i)",
			Wrong: selfRef(reference.AttentionVariant{MaskDiagonal: true})},
		{Name: "mask-after-softmax", Message: "the mask was applied after the softmax: add it to the scores before the softmax, so each row still sums to 1",
			Wrong:  selfRef(reference.AttentionVariant{MaskAfter: true}),
			Detect: func(_ SelfAttnIn, got [][]float64) bool { return huge(got) }},
		{Name: "no-scale", Message: "missing 1/√d_k: divide Q·Kᵀ by √d_k before the softmax",
			Wrong: selfRef(reference.AttentionVariant{NoScale: true})},
		{Name: "column-softmax", Message: "softmax over the wrong axis: normalise each row (one query over the keys)",
			Wrong: selfRef(reference.AttentionVariant{ColumnSoftmax: true})},
	},
	Deny: []string{"lib/attention", "lib/transformer"},
})

// MaskedSelfAttention checks the learner's decoder self-attention with
// the look-ahead mask: softmax(Q·Kᵀ/√d_k + M)·V with Q, K, V = x·W.
func MaskedSelfAttention(f func(x, wq, wk, wv [][]float64) [][]float64) *Result {
	return maskedSpec.Check(f)
}

// huge reports whether some value is beyond ±1e6: a −1e9 mask added after
// the softmax shows up in the output.
func huge(m [][]float64) bool {
	for _, row := range m {
		for _, a := range row {
			if math.Abs(a) > 1e6 {
				return true
			}
		}
	}
	return false
}
