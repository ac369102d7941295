package exercise

// The tasks of lesson 08's exercises: masked mean, masked max and [CLS]
// pooling of an encoder's output, on plain Go slices.

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

// CLSPool: func CLSPool(x [][]float64, keep []bool) []float64.
var CLSPool = &Task[func(x [][]float64, keep []bool) []float64, PoolIn, []float64]{
	ID: "cls-pool",
	Call: func(f func(x [][]float64, keep []bool) []float64, in PoolIn) []float64 {
		return f(in.X, in.Keep)
	},
}
