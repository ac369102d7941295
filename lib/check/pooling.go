package check

import (
	"fmt"
	"math"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 08's exercises: masked mean,
// masked max and [CLS] pooling of an encoder's output x [seq][d], with
// keep [seq] true on real tokens.

// PoolIn is an input of the pooling exercises (lib/exercise).
type PoolIn = exercise.PoolIn

type poolFunc = func(x [][]float64, keep []bool) []float64

// poolIn draws x [seq][d] around shift; the outputs at padding are drawn
// 2 higher, as an encoder's outputs at padding are anything, so that
// pooling them in shows in both the mean and the max.
func poolIn(r *random.Source, seq, d int, shift float64, keep []bool) PoolIn {
	x := r.Normal(seq, d)
	for t := range x {
		for i := range x[t] {
			x[t][i] += shift
			if !keep[t] {
				x[t][i] += 2
			}
		}
	}
	return PoolIn{X: x, Keep: keep}
}

// poolCases are the visible cases of the three poolings; cls keeps the
// first position real (the [CLS] token).
func poolCases(cls bool) func() []Case[PoolIn] {
	return func() []Case[PoolIn] {
		cs := []Case[PoolIn]{
			{"6 tokens of 3, the last 2 padding", poolIn(random.New(801), 6, 3, 0, keepMask(6, 4, 5))},
			{"4 tokens of 2, no padding", poolIn(random.New(802), 4, 2, 0, keepMask(4))},
			{"every value negative, 1 of 4 padding", poolIn(random.New(803), 4, 3, -3, keepMask(4, 3))},
			{"one real token, then 3 padding", poolIn(random.New(804), 4, 2, 0, keepMask(4, 1, 2, 3))},
		}
		if !cls {
			cs = append(cs, Case[PoolIn]{"only padding", poolIn(random.New(805), 3, 2, 0, make([]bool, 3))})
		}
		return cs
	}
}

func poolHidden(cls bool) func(r *random.Source) []Case[PoolIn] {
	return func(r *random.Source) []Case[PoolIn] {
		seq, d := intIn(r, 3, 10), intIn(r, 1, 6)
		nReal, neg, pads := intIn(r, 1, seq-1), intIn(r, 3, 6), intIn(r, 1, 5)
		cs := []Case[PoolIn]{
			{fmt.Sprintf("%d tokens of %d, the last %d padding", seq, d, seq-nReal), poolIn(r, seq, d, 0, keepMask(seq, span(nReal, seq)...))},
			{"every value negative", poolIn(r, neg, d, -3, keepMask(neg, neg-1))},
			{"one real token", poolIn(r, 4, d, 0, keepMask(4, 1, 2, 3))},
		}
		if !cls {
			cs = append(cs, Case[PoolIn]{"only padding", poolIn(r, pads, d, 0, make([]bool, pads))})
		}
		return cs
	}
}

// fullyPadded recognises NaN, ±Inf or a −1e9 sentinel returned for a
// sequence without a real token.
func fullyPadded(in PoolIn, got []float64) bool {
	for _, k := range in.Keep {
		if k {
			return false
		}
	}
	for _, a := range got {
		if math.IsNaN(a) || math.IsInf(a, 0) || math.Abs(a) > 1e8 {
			return true
		}
	}
	return false
}

func meanVariant(v reference.PoolVariant) func(PoolIn) []float64 {
	return func(in PoolIn) []float64 { return reference.MaskedMean(in.X, in.Keep, v) }
}

func maxVariant(v reference.PoolVariant) func(PoolIn) []float64 {
	return func(in PoolIn) []float64 { return reference.MaskedMax(in.X, in.Keep, v) }
}

var poolDeny = []string{"lib/classifier", "lib/transformer"}

var meanSpec = Register(&Exercise[poolFunc, PoolIn, []float64]{
	ID: "masked-mean", Title: "masked mean pooling", Points: 2,
	Signature: "func MaskedMean(x [][]float64, keep []bool) []float64",
	Task:      exercise.MaskedMean,
	Reference: meanVariant(reference.PoolVariant{}),
	Cases:     poolCases(false),
	Hidden:    poolHidden(false),
	Compare:   Vector(tol),
	Hints: []Hint[PoolIn, []float64]{
		{Name: "fully-padded", Message: "a sequence without a real token must give zeros (the sum 0 divided by max(n, 1)), not 0/0 = NaN",
			Detect: fullyPadded},
		{Name: "full-length", Message: "the sum is divided by len(x): divide by the number of real tokens (where keep[t] is true)",
			Wrong: meanVariant(reference.PoolVariant{FullLength: true})},
		{Name: "padding-included", Message: "padding is averaged in: leave out the positions where keep[t] is false",
			Wrong: meanVariant(reference.PoolVariant{IncludePad: true})},
		{Name: "wrong-length", Message: "one value per dimension: the result has len(x[0]) values",
			Detect: func(in PoolIn, got []float64) bool { return len(got) != len(in.X[0]) }},
	},
	Deny:  poolDeny,
	Allow: StdOnly,
})

// MaskedMean checks the learner's MaskedMean: the mean of the real
// tokens' vectors, zeros for a fully padded sequence.
func MaskedMean(f func(x [][]float64, keep []bool) []float64) *Result { return meanSpec.Check(f) }

var maxSpec = Register(&Exercise[poolFunc, PoolIn, []float64]{
	ID: "masked-max", Title: "masked max pooling", Points: 2,
	Signature: "func MaskedMax(x [][]float64, keep []bool) []float64",
	Task:      exercise.MaskedMax,
	Reference: maxVariant(reference.PoolVariant{}),
	Cases:     poolCases(false),
	Hidden:    poolHidden(false),
	Compare:   Vector(tol),
	Hints: []Hint[PoolIn, []float64]{
		{Name: "fully-padded", Message: "a sequence without a real token must give zeros, not −Inf, NaN or the −1e9 you started from",
			Detect: fullyPadded},
		{Name: "padding-included", Message: "padding takes part in the max: leave out the positions where keep[t] is false",
			Wrong: maxVariant(reference.PoolVariant{IncludePad: true})},
		{Name: "zero-init", Message: "the max started from 0, so it is never negative: start from −Inf (or the first real value)",
			Wrong: maxVariant(reference.PoolVariant{ZeroInit: true})},
		{Name: "wrong-length", Message: "one value per dimension: the result has len(x[0]) values",
			Detect: func(in PoolIn, got []float64) bool { return len(got) != len(in.X[0]) }},
	},
	Deny:  poolDeny,
	Allow: StdOnly,
})

// MaskedMax checks the learner's MaskedMax: each dimension's largest
// value over the real tokens, zeros for a fully padded sequence.
func MaskedMax(f func(x [][]float64, keep []bool) []float64) *Result { return maxSpec.Check(f) }

// lastReal is the vector at the last real position.
func lastReal(in PoolIn) []float64 {
	for t := len(in.Keep) - 1; t >= 0; t-- {
		if in.Keep[t] {
			return in.X[t]
		}
	}
	return in.X[0]
}

var clsSpec = Register(&Exercise[poolFunc, PoolIn, []float64]{
	ID: "cls-pool", Title: "[CLS] pooling", Points: 1,
	Signature: "func CLSPool(x [][]float64, keep []bool) []float64",
	Task:      exercise.CLSPool,
	Reference: func(in PoolIn) []float64 { return reference.CLSPool(in.X) },
	Cases:     poolCases(true),
	Hidden:    poolHidden(true),
	Compare:   Vector(tol),
	Hints: []Hint[PoolIn, []float64]{
		{Name: "last-position", Message: "this is the last position's vector; the classifier puts [CLS] first: x[0]",
			Wrong: func(in PoolIn) []float64 { return in.X[len(in.X)-1] }},
		{Name: "last-real-token", Message: "this is the last real token's vector (a left-to-right RNN's summary); [CLS] is the first position: x[0]",
			Wrong: lastReal},
		{Name: "mean", Message: "this is the mean of the real tokens; [CLS] pooling takes the one vector at position 0",
			Wrong: meanVariant(reference.PoolVariant{})},
	},
	Deny:  poolDeny,
	Allow: StdOnly,
})

// CLSPool checks the learner's CLSPool: the output at the [CLS] position.
func CLSPool(f func(x [][]float64, keep []bool) []float64) *Result { return clsSpec.Check(f) }
