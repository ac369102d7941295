package check

import (
	"fmt"
	"math"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 08's exercises: masked mean and
// masked max pooling of an encoder's output x [seq][d], with keep [seq]
// true on real tokens, and the [CLS] token put in front of a review.

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

// The input and output of the [CLS] exercise (lib/exercise).
type (
	CLSIn  = exercise.CLSIn
	CLSOut = exercise.CLSOut
)

type clsFunc = func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool)

// clsIn is a review of seq token vectors of d values, the last pads of
// them padding, and a [CLS] vector drawn apart from them (around 5), so
// that where it lands shows.
func clsIn(r *random.Source, seq, d, pads int) CLSIn {
	in := poolIn(r, seq, d, 0, keepMask(seq, span(seq-pads, seq)...))
	cls := r.Normal(1, d)[0]
	for i := range cls {
		cls[i] += 5
	}
	return CLSIn{X: in.X, Keep: in.Keep, CLS: cls}
}

// clsMistake is WithCLS with one of its usual mistakes: [CLS] "last",
// "masked" as padding, put "over" the first token, or the mask left "as
// it was".
func clsMistake(mistake string) func(CLSIn) CLSOut {
	return func(in CLSIn) CLSOut {
		x, keep := reference.WithCLS(in.X, in.Keep, in.CLS)
		switch mistake {
		case "last":
			x = append(append([][]float64{}, in.X...), in.CLS)
			keep = append(append([]bool{}, in.Keep...), true)
		case "over":
			x = append([][]float64{in.CLS}, in.X[1:]...)
			keep = append([]bool{true}, in.Keep[1:]...)
		case "masked":
			keep[0] = false
		case "as it was":
			keep = in.Keep
		default:
			panic("clsMistake: no mistake " + mistake)
		}
		return CLSOut{X: x, Keep: keep}
	}
}

func compareCLS(got, want CLSOut) *Diff {
	switch {
	case got.Changed:
		return &Diff{Msg: "your function changed x or keep: the caller's review must stay as it was — build new slices"}
	case len(got.X) != len(want.X):
		return &Diff{Where: "number of positions", Want: fmt.Sprint(len(want.X)), Got: fmt.Sprint(len(got.X))}
	case len(got.Keep) != len(want.Keep):
		return &Diff{Where: "length of the mask", Want: fmt.Sprintf("%d, one per position", len(want.Keep)), Got: fmt.Sprint(len(got.Keep))}
	}
	for t := range want.X {
		if d := Vector(tol)(got.X[t], want.X[t]); d != nil {
			d.Where = fmt.Sprintf("position %d, %s", t, d.Where)
			return d
		}
	}
	for t := range want.Keep {
		if got.Keep[t] != want.Keep[t] {
			return &Diff{Where: fmt.Sprintf("keep[%d]", t), Want: fmt.Sprint(want.Keep[t]), Got: fmt.Sprint(got.Keep[t])}
		}
	}
	return nil
}

var clsSpec = Register(&Exercise[clsFunc, CLSIn, CLSOut]{
	ID: "cls-pool", Title: "[CLS]: a token in front, never padding", Points: 2,
	Signature: "func WithCLS(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool)",
	Task:      exercise.WithCLS,
	Reference: func(in CLSIn) CLSOut {
		x, keep := reference.WithCLS(in.X, in.Keep, in.CLS)
		return CLSOut{X: x, Keep: keep}
	},
	Cases: func() []Case[CLSIn] {
		return []Case[CLSIn]{
			{"5 tokens of 3, the last 2 padding", clsIn(random.New(811), 5, 3, 2)},
			{"4 tokens of 2, no padding", clsIn(random.New(812), 4, 2, 0)},
			{"one real token, then 3 padding", clsIn(random.New(813), 4, 2, 3)},
			{"a review of one token", clsIn(random.New(814), 1, 4, 0)},
		}
	},
	Hidden: func(r *random.Source) []Case[CLSIn] {
		seq, d := intIn(r, 3, 10), intIn(r, 1, 6)
		pads := intIn(r, 1, seq-1)
		return []Case[CLSIn]{
			{fmt.Sprintf("%d tokens of %d, the last %d padding", seq, d, pads), clsIn(r, seq, d, pads)},
			{"no padding", clsIn(r, intIn(r, 2, 6), d, 0)},
			{"only padding after the first token", clsIn(r, 4, d, 3)},
		}
	},
	Compare: compareCLS,
	Hints: []Hint[CLSIn, CLSOut]{
		{Name: "changes-input", Message: "build new slices: append([][]float64{cls}, x...) makes a new outer slice; shifting x in place (or writing into keep) changes the caller's review",
			Detect: func(_ CLSIn, got CLSOut) bool { return got.Changed }},
		{Name: "cls-last", Message: "[CLS] goes in front: x becomes [cls, x_0, x_1, …] and keep [true, keep_0, …] — the classifier reads the output at position 0",
			Wrong: clsMistake("last")},
		{Name: "cls-masked", Message: "[CLS] is never padding: keep[0] must be true, or no token may attend to it (and its own row sees nothing real)",
			Wrong: clsMistake("masked")},
		{Name: "cls-over-first", Message: "put [CLS] before the first token, not in its place: the review keeps all its tokens, and the sequence grows by one",
			Wrong: clsMistake("over")},
		{Name: "mask-not-extended", Message: "the mask needs one more entry too: keep becomes [true, keep_0, keep_1, …], one per position of the new x",
			Wrong: clsMistake("as it was")},
	},
	Deny:  poolDeny,
	Allow: StdOnly,
})

// WithCLS checks the learner's WithCLS: the [CLS] vector in front of
// the review, the mask extended with true for it, the inputs unchanged.
func WithCLS(f func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool)) *Result {
	return clsSpec.Check(f)
}
