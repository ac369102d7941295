package check

import (
	"fmt"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 07's exercises: the attention of a
// decoding in Bahdanau's order, and the attention mass an output span puts
// on a source span.

// The inputs of lesson 07's exercises (lib/exercise).
type (
	DecodingIn = exercise.DecodingIn
	SpanIn     = exercise.SpanIn
)

type bahdanauFunc = func(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64) ([][]float64, [][]float64)

// decodingIn draws a decoding of steps steps over src source positions
// (the positions in pad are padding), hidden-state size hidden and score
// size attn; the encoder states at padding are drawn like the others.
func decodingIn(r *random.Source, steps, src, hidden, attn int, pad ...int) DecodingIn {
	return DecodingIn{Dec: r.Normal(steps+1, hidden), Enc: r.Normal(src, hidden), Keep: keepMask(src, pad...),
		W1: scaledM(r.Normal(hidden, attn), 0.8), W2: scaledM(r.Normal(hidden, attn), 0.8), V: scaled(r.Normal(1, attn)[0], 1.5)}
}

func bahdanauVariant(v reference.BahdanauVariant) func(DecodingIn) attnOut {
	return func(in DecodingIn) attnOut {
		c, w := reference.BahdanauAttention(in.Dec, in.Enc, in.Keep, in.W1, in.W2, in.V, v)
		return attnOut{A: c, B: w}
	}
}

var bahdanauSpec = Register(&Exercise[bahdanauFunc, DecodingIn, attnOut]{
	ID: "bahdanau-attention", Title: "the attention of a decoding, in Bahdanau's order", Points: 3,
	Signature: "func BahdanauAttention(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64) (contexts, weights [][]float64)",
	Task:      exercise.BahdanauAttention,
	Reference: bahdanauVariant(reference.BahdanauVariant{}),
	Cases: func() []Case[DecodingIn] {
		return []Case[DecodingIn]{
			{"3 steps over 6 source characters, the last 2 padding", decodingIn(random.New(701), 3, 6, 4, 3, 4, 5)},
			{"4 steps over 4 characters, no padding", decodingIn(random.New(702), 4, 4, 3, 2)},
			{"one step over 5 characters, the last one padding", decodingIn(random.New(703), 1, 5, 4, 4, 4)},
			{"5 steps over 3 characters, hidden 2, attn 5", decodingIn(random.New(704), 5, 3, 2, 5, 2)},
		}
	},
	Hidden: func(r *random.Source) []Case[DecodingIn] {
		// d_attn ≥ 2 and two real characters or more: a 1/√d_attn shows.
		steps, src, hidden, attn := intIn(r, 2, 8), intIn(r, 3, 10), intIn(r, 2, 6), intIn(r, 2, 6)
		nReal := intIn(r, 2, src-1)
		return []Case[DecodingIn]{
			{fmt.Sprintf("%d steps over %d characters, the last %d padding", steps, src, src-nReal),
				decodingIn(r, steps, src, hidden, attn, span(nReal, src)...)},
			{"one step, no padding", decodingIn(r, 1, intIn(r, 2, 6), hidden, attn)},
			{"one real character", decodingIn(r, intIn(r, 2, 4), 4, hidden, attn, 1, 2, 3)},
		}
	},
	Compare: Both("contexts", Matrix(tol), "weights", Matrix(tol)),
	Hints: []Hint[DecodingIn, attnOut]{
		{Name: "scaled", Message: "additive attention takes the scores v·tanh(…) as they are: no 1/√d scaling (that is scaled dot-product attention's)",
			Wrong: bahdanauVariant(reference.BahdanauVariant{Scaled: true})},
		{Name: "luong-order", Message: "step t scored with its new state s_t (Luong's order); in Bahdanau's order step t attends with the previous state s_{t−1}: the queries are dec[0 … T−1]",
			Wrong: bahdanauVariant(reference.BahdanauVariant{Luong: true})},
		{Name: "padding-attended", Message: "padding gets weight: set the scores where keep[s] is false to −1e9 (or −Inf) before the softmax",
			Wrong: bahdanauVariant(reference.BahdanauVariant{NoMask: true})},
		{Name: "mask-after-softmax", Message: "the padded weights were zeroed after the softmax, so a row no longer sums to 1: mask the scores before the softmax",
			Wrong: bahdanauVariant(reference.BahdanauVariant{MaskAfter: true})},
		{Name: "softmax-over-steps", Message: "the softmax ran over the decoder steps (each source column sums to 1); each step's weights over the source sum to 1: softmax over s",
			Wrong: bahdanauVariant(reference.BahdanauVariant{StepSoftmax: true})},
		{Name: "w1-w2-swapped", Message: "W1 projects the decoder state and W2 the encoder states: v·tanh(s_{t−1}·W1 + h_s·W2)",
			Wrong: bahdanauVariant(reference.BahdanauVariant{W1W2Swapped: true})},
		{Name: "luong-order-and-padding", Message: "two things: the queries are the previous states s_{t−1} (dec[0 … T−1]), and padding must get weight 0",
			Wrong: bahdanauVariant(reference.BahdanauVariant{Luong: true, NoMask: true})},
		{Name: "rows", Message: "one row per decoding step: dec holds T+1 states s_0 … s_T, so there are len(dec) − 1 rows",
			Detect: func(in DecodingIn, got attnOut) bool { return len(got.B) != len(in.Dec)-1 }},
	},
	Deny:  []string{"lib/attention", "lib/seq2seq", "lib/dates"},
	Allow: StdOnly,
})

// BahdanauAttention checks the learner's BahdanauAttention: the contexts
// and weights of a decoding whose step t attends with s_{t−1}.
func BahdanauAttention(f func(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64) (contexts, weights [][]float64)) *Result {
	return bahdanauSpec.Check(f)
}

// attentionRows draws rows×cols weights: each row a softmax of scaled
// normal scores, so that rows differ and columns do not sum to 1.
func attentionRows(r *random.Source, rows, cols int) [][]float64 {
	w := scaledM(r.Normal(rows, cols), 2)
	for i := range w {
		w[i] = reference.Softmax(w[i], 1)
	}
	return w
}

func spanIn(w [][]float64, outFrom, outTo, srcFrom, srcTo int) SpanIn {
	return SpanIn{Weights: w, OutFrom: outFrom, OutTo: outTo, SrcFrom: srcFrom, SrcTo: srcTo}
}

func spanVariant(v reference.SpanVariant) func(SpanIn) float64 {
	return func(in SpanIn) float64 {
		return reference.SpanMass(in.Weights, in.OutFrom, in.OutTo, in.SrcFrom, in.SrcTo, v)
	}
}

// spanDetect recognises a variant where its indices stay inside the
// weights (a variant that would read outside them is not the learner's).
func spanDetect(v reference.SpanVariant) func(SpanIn, float64) bool {
	return func(in SpanIn, got float64) bool {
		rows, cols := len(in.Weights), len(in.Weights[0])
		outTo, srcTo := in.OutTo, in.SrcTo
		if v.Inclusive || v.InclusiveN {
			outTo, srcTo = outTo+1, srcTo+1
		}
		if v.Transposed {
			rows, cols = cols, rows
		}
		if outTo > rows || srcTo > cols {
			return false
		}
		return Close(got, spanVariant(v)(in), tol)
	}
}

var spanSpec = Register(&Exercise[func(weights [][]float64, outFrom, outTo, srcFrom, srcTo int) float64, SpanIn, float64]{
	ID: "span-mass", Title: "the attention mass on a field", Points: 2,
	Signature: "func SpanMass(weights [][]float64, outFrom, outTo, srcFrom, srcTo int) float64",
	Task:      exercise.SpanMass,
	Reference: spanVariant(reference.SpanVariant{}),
	Cases: func() []Case[SpanIn] {
		// "Sun, 22 Nov 2026" → "2026-11-22": the year is output [0, 4)
		// and source [12, 16), the month [5, 7) and [8, 11), the day
		// [8, 10) and [5, 7).
		w := attentionRows(random.New(711), 10, 16)
		return []Case[SpanIn]{
			{"the year: output [0, 4) on source [12, 16)", spanIn(w, 0, 4, 12, 16)},
			{"the month: output [5, 7) on source [8, 11)", spanIn(w, 5, 7, 8, 11)},
			{"the day: output [8, 10) on source [5, 7)", spanIn(w, 8, 10, 5, 7)},
			{"one output character on the whole source (mass 1)", spanIn(w, 3, 4, 0, 16)},
			{"4×4 weights, output [1, 3) on source [0, 2)", spanIn(attentionRows(random.New(712), 4, 4), 1, 3, 0, 2)},
		}
	},
	Hidden: func(r *random.Source) []Case[SpanIn] {
		// Output spans of two rows or more: over one row the sum is the mean.
		rows, cols := intIn(r, 4, 12), intIn(r, 3, 16)
		w := attentionRows(r, rows, cols)
		of, sf := intIn(r, 0, rows-3), intIn(r, 0, cols-2)
		ot, st := intIn(r, of+2, rows-1), intIn(r, sf+1, cols-1)
		n := intIn(r, 4, 8)
		return []Case[SpanIn]{
			{fmt.Sprintf("%d×%d weights, output [%d, %d) on source [%d, %d)", rows, cols, of, ot, sf, st), spanIn(w, of, ot, sf, st)},
			{"one output character", spanIn(w, rows-1, rows, 0, intIn(r, 1, cols))},
			{"square weights", spanIn(attentionRows(r, n, n), 0, intIn(r, 2, n-1), intIn(r, 1, n-2), n-1)},
		}
	},
	Compare: func(got, want float64) *Diff {
		if d := Vector(tol)([]float64{got}, []float64{want}); d != nil {
			d.Where = "the mass"
			return d
		}
		return nil
	},
	Hints: []Hint[SpanIn, float64]{
		{Name: "sum-not-mean", Message: "this is the total over the output characters: the mass is their mean, divide by outTo − outFrom",
			Detect: spanDetect(reference.SpanVariant{Sum: true})},
		{Name: "inclusive-end", Message: "the spans are [From, To): To is one past the last position, so t < outTo and s < srcTo",
			Detect: func(in SpanIn, got float64) bool {
				return spanDetect(reference.SpanVariant{Inclusive: true})(in, got) || spanDetect(reference.SpanVariant{InclusiveN: true})(in, got)
			}},
		{Name: "transposed", Message: "weights is [output][source]: row t is output character t, column s source character s",
			Detect: spanDetect(reference.SpanVariant{Transposed: true})},
	},
	Deny:  []string{"lib/dates"},
	Allow: StdOnly,
})

// SpanMass checks the learner's SpanMass: the mean over an output span's
// rows of the attention weight on a source span.
func SpanMass(f func(weights [][]float64, outFrom, outTo, srcFrom, srcTo int) float64) *Result {
	return spanSpec.Check(f)
}
