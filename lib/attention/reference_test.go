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
	dk := float64(len(q[0]))
	for i := range q {
		var scores []float64
		var keep []int
		for j := range k {
			if masked != nil && masked(i, j) {
				continue
			}
			var dot float64
			for d := range q[i] {
				dot += q[i][d] * k[j][d]
			}
			scores = append(scores, dot/math.Sqrt(dk))
			keep = append(keep, j)
		}
		row := make([]float64, len(k))
		if len(keep) == 0 { // every key masked: the -1e9 fill makes the softmax uniform
			for j := range row {
				row[j] = 1 / float64(len(k))
			}
		} else {
			for n, w := range refSoftmax(scores, 1) {
				row[keep[n]] = w
			}
		}
		weights = append(weights, row)
		o := make([]float64, len(v[0]))
		for j, w := range row {
			for d := range o {
				o[d] += w * v[j][d]
			}
		}
		out = append(out, o)
	}
	return out, weights
}
