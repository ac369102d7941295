package attention

import "math"

// This file holds an independent float64 reference of attention, written
// with plain loops: the tests compare the GoMLX graphs against it.

// refSoftmax returns softmax(x / t) in float64, computed the naive way
// (safe here: the tests keep logits small).
func refSoftmax(x []float64, t float64) []float64 {
	out := make([]float64, len(x))
	var sum float64
	for i, v := range x {
		out[i] = math.Exp(v / t)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// refAttention returns softmax(Q·Kᵀ/√d_k masked)·V and the weights; masked[i][j]
// true means query i does not see key j (its weight must be 0).
func refAttention(q, k, v [][]float64, masked func(i, j int) bool) (out, weights [][]float64) {
	return refBiasedAttention(q, k, v, nil, masked)
}
