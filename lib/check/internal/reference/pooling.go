package reference

import "math"

// This file holds the references of lesson 08's exercises: the poolings
// of a classifier over an encoder's output x [seq][d] with keep [seq],
// true on real tokens. A fully padded sequence pools to zeros, as in
// lib/classifier.

// PoolVariant selects the reference (zero value) or one usual mistake.
type PoolVariant struct {
	FullLength bool // mean: the sum over real tokens divided by len(x)
	IncludePad bool // padding pooled like a token
	ZeroInit   bool // max: started from 0 instead of the first real value
}

// MaskedMean is Σ_{t real} x_t / max(#real, 1).
func MaskedMean(x [][]float64, keep []bool, v PoolVariant) []float64 {
	out := make([]float64, len(x[0]))
	n := 0
	for t, row := range x {
		if !keep[t] && !v.IncludePad {
			continue
		}
		n++
		for i, a := range row {
			out[i] += a
		}
	}
	if v.FullLength {
		n = len(x)
	}
	for i := range out {
		out[i] /= float64(max(n, 1))
	}
	return out
}

// MaskedMax is max_{t real} x_t per dimension, zeros when no token is real.
func MaskedMax(x [][]float64, keep []bool, v PoolVariant) []float64 {
	out := make([]float64, len(x[0]))
	for i := range out {
		out[i] = math.Inf(-1)
		if v.ZeroInit {
			out[i] = 0
		}
	}
	for t, row := range x {
		if !keep[t] && !v.IncludePad {
			continue
		}
		for i, a := range row {
			out[i] = math.Max(out[i], a)
		}
	}
	for i := range out {
		if math.IsInf(out[i], -1) {
			out[i] = 0
		}
	}
	return out
}

// WithCLS is the review with the [CLS] vector in front, [cls, x_0, x_1,
// …], and its mask with [CLS] real, [true, keep_0, keep_1, …]: what
// lib/classifier does before its encoder with PoolCLS. The inputs are not
// changed.
func WithCLS(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool) {
	outX := make([][]float64, 0, len(x)+1)
	outX = append(outX, append([]float64(nil), cls...))
	for _, row := range x {
		outX = append(outX, append([]float64(nil), row...))
	}
	return outX, append([]bool{true}, keep...)
}

// CLSPool is x_0, the output at the [CLS] position the classifier puts
// first.
func CLSPool(x [][]float64) []float64 {
	return append([]float64(nil), x[0]...)
}
