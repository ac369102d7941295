package reference

import "math"

// This file holds the references of lesson 02's exercises: the score
// functions of Bahdanau (additive) and Luong (dot, general, concat) for one
// query against every key. Vectors are rows: h·W, W [in][out].

// AdditiveScores is e_j = v·tanh(q·W1 + h_j·W2).
func AdditiveScores(q []float64, keys, w1, w2 [][]float64, v []float64) []float64 {
	qw := vecMat(q, w1)
	out := make([]float64, len(keys))
	for j, h := range keys {
		hw := vecMat(h, w2)
		for a := range v {
			out[j] += v[a] * math.Tanh(qw[a]+hw[a])
		}
	}
	return out
}

// DotScores is e_j = q·h_j.
func DotScores(q []float64, keys [][]float64) []float64 {
	out := make([]float64, len(keys))
	for j, h := range keys {
		out[j] = dot(q, h)
	}
	return out
}

// GeneralScores is e_j = (q·W)·h_j, W [d_q][d_k].
func GeneralScores(q []float64, keys, w [][]float64) []float64 {
	return DotScores(vecMat(q, w), keys)
}

// ConcatScores is e_j = v·tanh([q; h_j]·W), W [d_q+d_k][attn].
func ConcatScores(q []float64, keys, w [][]float64, v []float64) []float64 {
	out := make([]float64, len(keys))
	for j, h := range keys {
		hid := vecMat(append(append([]float64(nil), q...), h...), w)
		for a := range v {
			out[j] += v[a] * math.Tanh(hid[a])
		}
	}
	return out
}

func vecMat(x []float64, w [][]float64) []float64 {
	out := make([]float64, len(w[0]))
	for i := range x {
		for j := range out {
			out[j] += x[i] * w[i][j]
		}
	}
	return out
}
