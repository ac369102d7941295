package check

import (
	"fmt"
	"math"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 01's exercises: softmax with
// temperature, scaled dot-product attention, the padding and look-ahead
// masks, and masked self-attention.

// tol accepts float32 arithmetic and any correct formulation.
const tol = 1e-5

// The inputs of lesson 01's exercises, defined with their tasks in
// lib/exercise.
type (
	SoftmaxIn  = exercise.SoftmaxIn
	QKV        = exercise.QKV
	PadIn      = exercise.PadIn
	SelfAttnIn = exercise.SelfAttnIn
)

var softmaxSpec = Register(&Exercise[func([]float64, float64) []float64, SoftmaxIn, []float64]{
	ID: "softmax", Title: "stable softmax with temperature", Points: 2,
	Signature: "func Softmax(logits []float64, temperature float64) []float64",
	Task:      exercise.Softmax,
	Reference: func(in SoftmaxIn) []float64 { return reference.Softmax(in.Logits, in.Temperature) },
	Cases: func() []Case[SoftmaxIn] {
		return []Case[SoftmaxIn]{
			{"3 logits, temperature 1", SoftmaxIn{Logits: []float64{1, 2, 3}, Temperature: 1}},
			{"temperature 0.5 (sharper)", SoftmaxIn{Logits: []float64{1, 2, 3}, Temperature: 0.5}},
			{"temperature 10 (flatter)", SoftmaxIn{Logits: []float64{2, -1, 0.5, 4}, Temperature: 10}},
			{"one logit", SoftmaxIn{Logits: []float64{-7}, Temperature: 1}},
			{"large logits 1000, 1001, 1002 (overflow without max subtraction)", SoftmaxIn{Logits: []float64{1000, 1001, 1002}, Temperature: 1}},
		}
	},
	Hidden: func(r *random.Source) []Case[SoftmaxIn] {
		n, t := intIn(r, 2, 12), floatIn(r, 0.3, 5)
		// ±2000: exp overflows (or every term underflows to 0) at any
		// temperature up to 2 unless the largest logit is subtracted.
		big := scaled(r.Normal(1, 4)[0], 3)
		for i := range big {
			big[i] += 2000
		}
		low := r.Normal(1, 3)[0]
		for i := range low {
			low[i] -= 2000
		}
		return []Case[SoftmaxIn]{
			{fmt.Sprintf("%d random logits, temperature %.2f", n, t), SoftmaxIn{Logits: scaled(r.Normal(1, n)[0], 3), Temperature: t}},
			{"large logits (overflow without max subtraction)", SoftmaxIn{Logits: big, Temperature: floatIn(r, 0.5, 2)}},
			{"very negative logits", SoftmaxIn{Logits: low, Temperature: floatIn(r, 0.5, 2)}},
			{"one logit", SoftmaxIn{Logits: r.Normal(1, 1)[0], Temperature: floatIn(r, 0.5, 3)}},
			{"equal logits", SoftmaxIn{Logits: scaled([]float64{1, 1, 1, 1, 1}, floatIn(r, -5, 5)), Temperature: 1}},
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
	Deny:  []string{"lib/attention"},
	Allow: StdOnly,
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

type attnOut = Pair[[][]float64, [][]float64]

func attnRef(vr reference.AttentionVariant) func(in QKV) attnOut {
	return func(in QKV) attnOut {
		o, w := reference.Attention(in.Q, in.K, in.V, nil, vr)
		return attnOut{A: o, B: w}
	}
}

func qkv(seed uint32, nq, nk, dk, dv int) QKV { return qkvFrom(random.New(seed), nq, nk, dk, dv) }

func qkvFrom(r *random.Source, nq, nk, dk, dv int) QKV {
	return QKV{Q: r.Normal(nq, dk), K: r.Normal(nk, dk), V: r.Normal(nk, dv)}
}

var attentionSpec = Register(&Exercise[func(q, k, v [][]float64) ([][]float64, [][]float64), QKV, attnOut]{
	ID: "attention", Title: "scaled dot-product attention", Points: 3,
	Signature: "func Attention(q, k, v [][]float64) (out, weights [][]float64)",
	Task:      exercise.Attention,
	Reference: attnRef(reference.AttentionVariant{}),
	Cases: func() []Case[QKV] {
		return []Case[QKV]{
			{"3 tokens, d_k = d_v = 4", qkv(1, 3, 3, 4, 4)},
			{"cross attention: 2 queries, 5 keys, d_k = 3, d_v = 2", qkv(2, 2, 5, 3, 2)},
			{"one token", qkv(3, 1, 1, 4, 4)},
			{"odd d_k = 5, 4 tokens", qkv(4, 4, 4, 5, 3)},
		}
	},
	Hidden: func(r *random.Source) []Case[QKV] {
		// d_v ≠ d_k, and d_k ≥ 2: scaling by √d_v, or not at all, shows.
		n, dk, dv := intIn(r, 2, 7), intIn(r, 2, 9), intIn(r, 1, 6)
		nq, nk, cdk, cdv := intIn(r, 1, 7), intIn(r, 2, 7), intIn(r, 2, 9), intIn(r, 1, 6)
		if dv == dk {
			dv++
		}
		if cdv == cdk {
			cdv++
		}
		large := qkvFrom(r, 3, 4, 16, 2)
		large.Q = scaledM(large.Q, 30)
		return []Case[QKV]{
			{fmt.Sprintf("%d tokens, d_k = %d, d_v = %d", n, dk, dv), qkvFrom(r, n, n, dk, dv)},
			{fmt.Sprintf("cross attention: %d queries, %d keys, d_k = %d, d_v = %d", nq, nk, cdk, cdv), qkvFrom(r, nq, nk, cdk, cdv)},
			{"one token", qkvFrom(r, 1, 1, intIn(r, 1, 6), intIn(r, 1, 6))},
			{"large scores", large},
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
	Deny:  []string{"lib/attention"},
	Allow: StdOnly,
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

var paddingSpec = Register(&Exercise[func([][]int, int) [][]float64, PadIn, [][]float64]{
	ID: "padding-mask", Title: "padding mask", Points: 1,
	Signature: "func PaddingMask(ids [][]int, padID int) [][]float64",
	Task:      exercise.PaddingMask,
	Reference: func(in PadIn) [][]float64 { return reference.PaddingMask(in.IDs, in.PadID) },
	Cases: func() []Case[PadIn] {
		return []Case[PadIn]{
			{"2 sentences, pad id 0", PadIn{IDs: [][]int{{5, 7, 2, 0}, {3, 9, 0, 0}}, PadID: 0}},
			{"pad id 1, a pad-free sentence", PadIn{IDs: [][]int{{4, 4, 4}, {6, 1, 1}}, PadID: 1}},
			{"a fully padded row", PadIn{IDs: [][]int{{8, 3}, {0, 0}}, PadID: 0}},
			{"one token", PadIn{IDs: [][]int{{2}}, PadID: 0}},
		}
	},
	Hidden: func(r *random.Source) []Case[PadIn] {
		pad := intIn(r, 1, 5) // token 0 is then a word
		batch, seq := intIn(r, 2, 5), intIn(r, 2, 8)
		in := PadIn{PadID: pad}
		for b := range batch {
			row := ids(r, seq, 8)
			for i := range row {
				if row[i] == pad {
					row[i] = 0
				}
			}
			n := intIn(r, 0, seq) // real tokens, then padding
			switch b {
			case 0:
				n = seq // a pad-free row
			case 1:
				n = 0 // a fully padded row
			}
			for i := n; i < seq; i++ {
				row[i] = pad
			}
			in.IDs = append(in.IDs, row)
		}
		return []Case[PadIn]{
			{fmt.Sprintf("%d sentences of %d, pad id %d", batch, seq, pad), in},
			{"one token, padding", PadIn{IDs: [][]int{{pad}}, PadID: pad}},
		}
	},
	Compare: Mask(),
	Hints: []Hint[PadIn, [][]float64]{
		{Name: "inverted", Message: "your mask is inverted: 1 marks padding (hidden), 0 marks a real token",
			Wrong: func(in PadIn) [][]float64 { return invert(reference.PaddingMask(in.IDs, in.PadID)) }},
		{Name: "pad-zero", Message: "compare with padID, not with 0: the pad id is a parameter",
			Wrong: func(in PadIn) [][]float64 { return reference.PaddingMask(in.IDs, 0) }},
	},
	Deny:  []string{"lib/attention", "lib/text"},
	Allow: StdOnly,
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
	Task:      exercise.CausalMask,
	Reference: func(n int) [][]float64 { return reference.CausalMask(n, false, false) },
	Cases: func() []Case[int] {
		return []Case[int]{{"n = 4", 4}, {"n = 1", 1}, {"n = 2", 2}}
	},
	Hidden: func(r *random.Source) []Case[int] {
		n := intIn(r, 3, 12)
		return []Case[int]{{fmt.Sprintf("n = %d", n), n}, {"n = 1", 1}}
	},
	Compare: Mask(),
	Hints: []Hint[int, [][]float64]{
		{Name: "diagonal", Message: "the diagonal is masked: a token may look at itself, so mask only j > i",
			Wrong: func(n int) [][]float64 { return reference.CausalMask(n, true, false) }},
		{Name: "future-open", Message: "the future is left open and the past masked: row i must hide the columns after i (upper triangle)",
			Wrong: func(n int) [][]float64 { return reference.CausalMask(n, false, true) }},
		{Name: "inverted", Message: "your mask is inverted: 1 marks what is hidden (the future), 0 what a token may see",
			Wrong: func(n int) [][]float64 { return invert(reference.CausalMask(n, false, false)) }},
	},
	Deny:  []string{"lib/attention"},
	Allow: StdOnly,
})

// CausalMask checks the learner's look-ahead mask: n×n, 1 where j > i.
func CausalMask(f func(n int) [][]float64) *Result { return causalSpec.Check(f) }

func selfIn(seed uint32, n, d, dk, dv int) SelfAttnIn {
	return selfInFrom(random.New(seed), n, d, dk, dv)
}

func selfInFrom(r *random.Source, n, d, dk, dv int) SelfAttnIn {
	return SelfAttnIn{X: r.Normal(n, d), WQ: r.Normal(d, dk), WK: r.Normal(d, dk), WV: r.Normal(d, dv)}
}

func selfRef(vr reference.AttentionVariant) func(SelfAttnIn) [][]float64 {
	return func(in SelfAttnIn) [][]float64 { return reference.MaskedSelfAttention(in.X, in.WQ, in.WK, in.WV, vr) }
}

var maskedSpec = Register(&Exercise[func(x, wq, wk, wv [][]float64) [][]float64, SelfAttnIn, [][]float64]{
	ID: "masked-self-attention", Title: "masked self-attention for a decoder", Points: 3,
	Signature: "func MaskedSelfAttention(x, wq, wk, wv [][]float64) [][]float64",
	Task:      exercise.MaskedSelfAttention,
	Reference: selfRef(reference.AttentionVariant{}),
	Cases: func() []Case[SelfAttnIn] {
		return []Case[SelfAttnIn]{
			{"4 tokens, d_model 6, d_k = d_v = 4", selfIn(21, 4, 6, 4, 4)},
			{"one token", selfIn(22, 1, 4, 4, 4)},
			{"odd d_model 5, d_k 3, d_v 2", selfIn(23, 3, 5, 3, 2)},
		}
	},
	Hidden: func(r *random.Source) []Case[SelfAttnIn] {
		n, d, dk, dv := intIn(r, 3, 9), intIn(r, 2, 10), intIn(r, 2, 8), intIn(r, 1, 8)
		odd := 2*intIn(r, 1, 4) + 1
		return []Case[SelfAttnIn]{
			{fmt.Sprintf("%d tokens, d_model %d, d_k %d, d_v %d", n, d, dk, dv), selfInFrom(r, n, d, dk, dv)},
			{fmt.Sprintf("odd d_model %d", odd), selfInFrom(r, intIn(r, 3, 6), odd, intIn(r, 2, 5), intIn(r, 1, 4))},
			{"one token", selfInFrom(r, 1, intIn(r, 2, 6), intIn(r, 1, 4), intIn(r, 1, 4))},
		}
	},
	Compare: Matrix(tol),
	Hints: []Hint[SelfAttnIn, [][]float64]{
		{Name: "future-open", Message: "the future is left open: row i must not see the tokens after i — add −∞ (or −1e9) to the scores where j > i",
			Wrong: selfRef(reference.AttentionVariant{NoMask: true})},
		{Name: "diagonal", Message: "the diagonal is masked: a token must see itself (mask j > i, not j ≥ i)",
			Wrong: selfRef(reference.AttentionVariant{MaskDiagonal: true})},
		{Name: "diagonal", Message: "the diagonal is masked: a token must see itself (M is −1e9 where j > i, 0 where j ≤ i — not where j ≥ i)",
			Wrong: selfRef(reference.AttentionVariant{MaskDiagonal: true, MaskAdd: true})},
		{Name: "mask-after-softmax", Message: "the mask was applied after the softmax: add it to the scores before the softmax, so each row still sums to 1",
			Wrong:  selfRef(reference.AttentionVariant{MaskAfter: true}),
			Detect: func(_ SelfAttnIn, got [][]float64) bool { return huge(got) }},
		{Name: "no-scale", Message: "missing 1/√d_k: divide Q·Kᵀ by √d_k before the softmax",
			Wrong: selfRef(reference.AttentionVariant{NoScale: true})},
		{Name: "column-softmax", Message: "softmax over the wrong axis: normalise each row (one query over the keys)",
			Wrong: selfRef(reference.AttentionVariant{ColumnSoftmax: true})},
	},
	Deny:  []string{"lib/attention", "lib/transformer"},
	Allow: StdOnly,
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
