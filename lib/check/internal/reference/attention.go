package reference

import "math"

// This file holds the references of lesson 01's exercises: softmax with
// temperature, scaled dot-product attention, padding and look-ahead masks,
// and masked self-attention.

// Softmax is softmax(x/T)_i = exp((x_i − max x)/T) / Σ_j exp((x_j − max x)/T).
func Softmax(x []float64, t float64) []float64 {
	best := math.Inf(-1)
	for _, a := range x {
		best = math.Max(best, a)
	}
	out := make([]float64, len(x))
	sum := 0.0
	for i, a := range x {
		out[i] = math.Exp((a - best) / t)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// AttentionVariant selects the reference (zero value) or one usual mistake.
type AttentionVariant struct {
	NoScale       bool // scores not divided by √d_k
	ColumnSoftmax bool // softmax over the queries (each column) instead of the keys
	MaskAfter     bool // masked weights zeroed after the softmax (rows no longer sum to 1)
	MaskDiagonal  bool // j ≥ i masked instead of j > i
	NoMask        bool // the future left open
	MaskAdd       bool // −1e9 added to the masked scores (the "+M" form) instead of replacing them
	SqrtDV        bool // divided by √d_v instead of √d_k (differ in cross attention)
}

// Attention is softmax(Q·Kᵀ/√d_k + M)·V with M = −∞ where mask[i][j] = 1
// (nil: no mask). It returns the output [n_q][d_v] and the weights
// [n_q][n_k].
func Attention(q, k, v, mask [][]float64, vr AttentionVariant) (out, weights [][]float64) {
	scale := math.Sqrt(float64(len(k[0])))
	if vr.NoScale {
		scale = 1
	}
	if vr.SqrtDV {
		scale = math.Sqrt(float64(len(v[0])))
	}
	scores := make([][]float64, len(q))
	for i := range q {
		scores[i] = make([]float64, len(k))
		for j := range k {
			scores[i][j] = dot(q[i], k[j]) / scale
			if mask != nil && mask[i][j] == 1 && !vr.MaskAfter {
				if vr.MaskAdd {
					scores[i][j] -= 1e9
				} else {
					scores[i][j] = -1e9
				}
			}
		}
	}
	if vr.ColumnSoftmax {
		weights = Transpose(softmaxRows(Transpose(scores)))
	} else {
		weights = softmaxRows(scores)
	}
	if vr.MaskAfter && mask != nil {
		for i := range weights {
			for j := range weights[i] {
				if mask[i][j] == 1 {
					weights[i][j] = 0
				}
			}
		}
	}
	return MatMul(weights, v), weights
}

func softmaxRows(m [][]float64) [][]float64 {
	out := make([][]float64, len(m))
	for i := range m {
		out[i] = Softmax(m[i], 1)
	}
	return out
}

// Transpose returns mᵀ.
func Transpose(m [][]float64) [][]float64 {
	out := make([][]float64, len(m[0]))
	for j := range out {
		out[j] = make([]float64, len(m))
		for i := range m {
			out[j][i] = m[i][j]
		}
	}
	return out
}

// PaddingMask returns 1 where ids[b][p] == padID, else 0, [batch][seq].
func PaddingMask(ids [][]int, padID int) [][]float64 {
	out := make([][]float64, len(ids))
	for b, row := range ids {
		out[b] = make([]float64, len(row))
		for p, id := range row {
			if id == padID {
				out[b][p] = 1
			}
		}
	}
	return out
}

// CausalMask returns the n×n look-ahead mask: 1 where j > i (the future),
// 0 elsewhere. With diagonal, j ≥ i is masked (a usual mistake); with
// lower, the mask is the transpose (past masked, future open).
func CausalMask(n int, diagonal, lower bool) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, n)
		for j := range out[i] {
			switch {
			case lower && j < i, !lower && j > i, diagonal && j == i:
				out[i][j] = 1
			}
		}
	}
	return out
}

// MaskedSelfAttention is a decoder's masked self-attention: Q, K, V =
// x·W_Q, x·W_K, x·W_V, then attention with the look-ahead mask.
func MaskedSelfAttention(x, wq, wk, wv [][]float64, vr AttentionVariant) [][]float64 {
	n := len(x)
	mask := CausalMask(n, vr.MaskDiagonal, false)
	if vr.NoMask {
		mask = nil
	}
	out, _ := Attention(MatMul(x, wq), MatMul(x, wk), MatMul(x, wv), mask, vr)
	return out
}
