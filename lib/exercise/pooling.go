package exercise

import "reflect"

// The tasks of lesson 08's exercises: masked mean and masked max pooling
// of an encoder's output, and the [CLS] token put in front of a review,
// on plain Go slices.

// PoolIn is an input of the pooling exercises: an encoder's output X
// [seq][d] and Keep [seq], true on real tokens.
type PoolIn struct {
	X    [][]float64
	Keep []bool
}

// MaskedMean: func MaskedMean(x [][]float64, keep []bool) []float64.
var MaskedMean = &Task[func(x [][]float64, keep []bool) []float64, PoolIn, []float64]{
	ID: "masked-mean",
	Call: func(f func(x [][]float64, keep []bool) []float64, in PoolIn) []float64 {
		return f(in.X, in.Keep)
	},
}

// MaskedMax: func MaskedMax(x [][]float64, keep []bool) []float64.
var MaskedMax = &Task[func(x [][]float64, keep []bool) []float64, PoolIn, []float64]{
	ID: "masked-max",
	Call: func(f func(x [][]float64, keep []bool) []float64, in PoolIn) []float64 {
		return f(in.X, in.Keep)
	},
}

// CLSIn is an input of the [CLS] exercise: a review's token vectors X
// [seq][d], their mask Keep [seq], and the learned [CLS] vector CLS [d].
type CLSIn struct {
	X    [][]float64
	Keep []bool
	CLS  []float64
}

// CLSOut is what the [CLS] exercise returns: the sequence with [CLS] in
// front and its mask, and whether the function changed its inputs
// (compared in the child with copies made before the call).
type CLSOut struct {
	X       [][]float64
	Keep    []bool
	Changed bool
}

// WithCLS: func WithCLS(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool).
var WithCLS = &Task[func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool), CLSIn, CLSOut]{
	ID: "cls-pool",
	Call: func(f func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool), in CLSIn) CLSOut {
		before := Clone(in)
		// Room for one more row and entry, as slices grown by append often
		// have: shifting the review in place then shows in the caller's.
		n := len(in.X)
		in.X = append(in.X, nil)[:n]
		in.Keep = append(in.Keep, false)[:len(in.Keep)]
		x, keep := f(in.X, in.Keep, in.CLS)
		return CLSOut{X: x, Keep: keep, Changed: !reflect.DeepEqual(before, in)}
	},
}
