package check

import (
	"fmt"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 06's exercises: one GRU step in
// lib/rnn's convention, and a GRU over a padded sequence.

// GRUIn is an input of the GRU exercises (lib/exercise).
type GRUIn = exercise.GRUIn

type (
	gruStepFunc   = func(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64
	gruEncodeFunc = func(xs [][]float64, keep []bool, wx, wh [][]float64, bx, bh []float64) ([][]float64, []float64)
)

// gruWeights draws weights of scale 0.6 and biases of scale 0.5: the
// gates neither saturate nor sit at ½, and every bias matters.
func gruWeights(r *random.Source, in, hidden int) GRUIn {
	return GRUIn{Wx: scaledM(r.Normal(in, 3*hidden), 0.6), Wh: scaledM(r.Normal(hidden, 3*hidden), 0.6),
		Bx: scaled(r.Normal(1, 3*hidden)[0], 0.5), Bh: scaled(r.Normal(1, 3*hidden)[0], 0.5)}
}

// gruStepIn draws one step; a zero state when zeroH.
func gruStepIn(r *random.Source, in, hidden int, zeroH bool, xScale float64) GRUIn {
	c := gruWeights(r, in, hidden)
	c.X = scaled(r.Normal(1, in)[0], xScale)
	c.H = scaled(r.Normal(1, hidden)[0], 0.8)
	if zeroH {
		c.H = make([]float64, hidden)
	}
	return c
}

func gruStepVariant(v reference.GRUVariant) func(GRUIn) []float64 {
	return func(in GRUIn) []float64 { return reference.GRUStep(in.X, in.H, in.Wx, in.Wh, in.Bx, in.Bh, v) }
}

var gruStepSpec = Register(&Exercise[gruStepFunc, GRUIn, []float64]{
	ID: "gru-step", Title: "one GRU step", Points: 3,
	Signature: "func GRUStep(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64",
	Task:      exercise.GRUStep,
	Reference: gruStepVariant(reference.GRUVariant{}),
	Cases: func() []Case[GRUIn] {
		return []Case[GRUIn]{
			{"input of 3, state of 4", gruStepIn(random.New(601), 3, 4, false, 1)},
			{"input of 5, state of 2", gruStepIn(random.New(602), 5, 2, false, 1)},
			{"the first step: h = 0", gruStepIn(random.New(603), 3, 3, true, 1)},
			{"input and state of 1", gruStepIn(random.New(604), 1, 1, false, 1)},
		}
	},
	Hidden: func(r *random.Source) []Case[GRUIn] {
		in, hidden := intIn(r, 1, 7), intIn(r, 1, 7)
		return []Case[GRUIn]{
			{fmt.Sprintf("input of %d, state of %d", in, hidden), gruStepIn(r, in, hidden, false, 1)},
			{"the first step: h = 0", gruStepIn(r, intIn(r, 1, 5), intIn(r, 2, 5), true, 1)},
			{"a large input", gruStepIn(r, intIn(r, 2, 5), intIn(r, 2, 5), false, 4)},
		}
	},
	Compare: Vector(tol),
	Hints: []Hint[GRUIn, []float64]{
		{Name: "z-swapped", Message: "z and 1 − z are swapped: h' = (1 − z) ⊙ n + z ⊙ h (z near 1 keeps the old state)",
			Wrong: gruStepVariant(reference.GRUVariant{SwapZ: true})},
		{Name: "reset-before-product", Message: "the reset gate multiplies the recurrent product, after it: n = tanh(x·W_xn + b_xn + r ⊙ (h·W_hn + b_hn)), as lib/rnn and PyTorch do; you computed (r ⊙ h)·W_hn",
			Wrong: gruStepVariant(reference.GRUVariant{ResetBefore: true})},
		{Name: "bias-outside-reset", Message: "b_hn sits inside the reset: r ⊙ (h·W_hn + b_hn), not r ⊙ (h·W_hn) + b_hn",
			Wrong: gruStepVariant(reference.GRUVariant{BiasOutside: true})},
		{Name: "no-recurrent-bias", Message: "the recurrent bias bh is missing: every gate adds its block of bh to h·W_h",
			Wrong: gruStepVariant(reference.GRUVariant{NoBh: true})},
		{Name: "no-input-bias", Message: "the input bias bx is missing: every gate adds its block of bx to x·W_x",
			Wrong: gruStepVariant(reference.GRUVariant{NoBx: true})},
		{Name: "no-bias", Message: "both biases are missing: add bx to x·W_x and bh to h·W_h",
			Wrong: gruStepVariant(reference.GRUVariant{NoBx: true, NoBh: true})},
		{Name: "gates-swapped", Message: "the gates' columns are in the order [r | z | n]: the reset gate first, then the update gate",
			Wrong: gruStepVariant(reference.GRUVariant{GatesZR: true})},
		{Name: "wrong-length", Message: "the new state has as many values as h",
			Detect: func(in GRUIn, got []float64) bool { return len(got) != len(in.H) }},
	},
	Deny:  []string{"lib/rnn", "lib/seq2seq"},
	Allow: StdOnly,
})

// GRUStep checks the learner's GRUStep: one step of lib/rnn's GRU on
// plain slices.
func GRUStep(f func(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64) *Result {
	return gruStepSpec.Check(f)
}

// keepMask is seq flags with the positions in pad false.
func keepMask(seq int, pad ...int) []bool {
	keep := make([]bool, seq)
	for i := range keep {
		keep[i] = true
	}
	for _, p := range pad {
		keep[p] = false
	}
	return keep
}

// span returns from, from+1, …, to−1.
func span(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func gruSeqIn(r *random.Source, seq, in, hidden int, keep []bool) GRUIn {
	c := gruWeights(r, in, hidden)
	c.Xs, c.Keep = r.Normal(seq, in), keep
	return c
}

func gruEncodeVariant(v reference.EncodeVariant) func(GRUIn) Pair[[][]float64, []float64] {
	return func(in GRUIn) Pair[[][]float64, []float64] {
		s, l := reference.GRUEncode(in.Xs, in.Keep, in.Wx, in.Wh, in.Bx, in.Bh, v)
		return Pair[[][]float64, []float64]{A: s, B: l}
	}
}

var gruEncodeSpec = Register(&Exercise[gruEncodeFunc, GRUIn, Pair[[][]float64, []float64]]{
	ID: "gru-encode", Title: "a GRU over a padded sequence", Points: 2,
	Signature: "func GRUEncode(xs [][]float64, keep []bool, wx, wh [][]float64, bx, bh []float64) (states [][]float64, last []float64)",
	Task:      exercise.GRUEncode,
	Reference: gruEncodeVariant(reference.EncodeVariant{}),
	Cases: func() []Case[GRUIn] {
		return []Case[GRUIn]{
			{"5 tokens, the last 2 padding", gruSeqIn(random.New(611), 5, 3, 4, keepMask(5, 3, 4))},
			{"4 tokens, no padding", gruSeqIn(random.New(612), 4, 2, 3, keepMask(4))},
			{"padding first (left-padded): 2 of 6", gruSeqIn(random.New(613), 6, 3, 2, keepMask(6, 0, 1))},
			{"one real token, then 3 padding", gruSeqIn(random.New(614), 4, 2, 3, keepMask(4, 1, 2, 3))},
		}
	},
	Hidden: func(r *random.Source) []Case[GRUIn] {
		seq, in, hidden := intIn(r, 3, 9), intIn(r, 1, 5), intIn(r, 1, 5)
		nReal, left, n := intIn(r, 1, seq-1), intIn(r, 1, 3), intIn(r, 1, 6)
		return []Case[GRUIn]{
			{fmt.Sprintf("%d tokens, the last %d padding", seq, seq-nReal), gruSeqIn(r, seq, in, hidden, keepMask(seq, span(nReal, seq)...))},
			{fmt.Sprintf("padding first: %d of %d", left, left+3), gruSeqIn(r, left+3, in, hidden, keepMask(left+3, span(0, left)...))},
			{"no padding", gruSeqIn(r, n, in, hidden, keepMask(n))},
			{"only padding: the state stays 0", gruSeqIn(r, 3, in, hidden, make([]bool, 3))},
		}
	},
	Compare: Both("states", Matrix(tol), "last", Vector(tol)),
	Hints: []Hint[GRUIn, Pair[[][]float64, []float64]]{
		{Name: "padding-read", Message: "padding is read like a token: where keep[t] is false, carry the state over, h_t = h_{t−1}",
			Wrong: gruEncodeVariant(reference.EncodeVariant{ReadPadding: true})},
		{Name: "padding-zero-state", Message: "at a padded position the state is carried over: states[t] = h_{t−1}, not zeros",
			Wrong: gruEncodeVariant(reference.EncodeVariant{ZeroPadding: true})},
		{Name: "padding-resets", Message: "padding must not reset the state to 0: h_t = h_{t−1}",
			Wrong: gruEncodeVariant(reference.EncodeVariant{ResetAtPad: true})},
		{Name: "last", Message: "the states are right but last is not: last is the state after the last real token (with the state carried over padding, the final state)",
			Detect: func(in GRUIn, got Pair[[][]float64, []float64]) bool {
				want := gruEncodeVariant(reference.EncodeVariant{})(in)
				return Matrix(tol)(got.A, want.A) == nil
			}},
	},
	Deny:  []string{"lib/rnn", "lib/seq2seq"},
	Allow: StdOnly,
})

// GRUEncode checks the learner's GRUEncode: a GRU from a zero state over
// a padded sequence, every state and the last real one.
func GRUEncode(f func(xs [][]float64, keep []bool, wx, wh [][]float64, bx, bh []float64) (states [][]float64, last []float64)) *Result {
	return gruEncodeSpec.Check(f)
}
