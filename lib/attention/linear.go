package attention

import (
	"fmt"
	"math"
)

// FeatureMap is φ(x) = elu(x) + 1 applied to each entry: x + 1 for x > 0,
// eˣ otherwise — positive everywhere, so φ(q)·φ(k) > 0 can stand for a
// similarity (Katharopoulos et al. 2020, eq. 7).
//
// Introduced in lesson 11 (attention in practice).
func FeatureMap(x []float64) []float64 {
	y := make([]float64, len(x))
	for i, a := range x {
		if a > 0 {
			y[i] = a + 1
		} else {
			y[i] = math.Exp(a)
		}
	}
	return y
}

// LinearWeights returns the weights that linear attention gives, written
// as attention weights (Katharopoulos et al. 2020, eq. 4): the
// exponential of softmax replaced by the kernel φ(q_i)·φ(k_j),
//
//	w_ij = φ(q_i)·φ(k_j) / Σ_j' φ(q_i)·φ(k_j')
//
// This is the O(n²) form, to compare with softmax weights; [Linear]
// computes the same output without it.
//
// Typical shapes: q [seq_q][d_k], k [seq_k][d_k] → [seq_q][seq_k].
//
// Introduced in lesson 11.
func LinearWeights(q, k [][]float64) ([][]float64, error) {
	if err := checkQKV(q, k, k); err != nil {
		return nil, fmt.Errorf("attention.LinearWeights: %w", err)
	}
	fk := make([][]float64, len(k))
	for j := range k {
		fk[j] = FeatureMap(k[j])
	}
	w := make([][]float64, len(q))
	for i := range q {
		fq := FeatureMap(q[i])
		w[i] = make([]float64, len(k))
		sum := 0.0
		for j := range k {
			w[i][j] = dot(fq, fk[j])
			sum += w[i][j]
		}
		for j := range w[i] {
			w[i][j] /= sum
		}
	}
	return w, nil
}

// Linear is linear attention (Katharopoulos et al., "Transformers are
// RNNs", 2020): because φ(q_i)·φ(k_j) is a dot product, the sum over the
// keys can be done once for all queries,
//
//	S = Σ_j φ(k_j)·v_jᵀ      [d_k][d_v]
//	z = Σ_j φ(k_j)           [d_k]
//	o_i = φ(q_i)ᵀ·S / φ(q_i)·z
//
// which equals LinearWeights(q, k)·V at a cost of O(n·d_k·d_v) instead of
// O(n²·d): linear in the length. What it gives up is the softmax's
// exponential: φ(q)·φ(k) grows only linearly with the match, so the
// weights cannot concentrate on one key the way softmax does.
//
// Typical shapes: q [seq_q][d_k], k [seq_k][d_k], v [seq_k][d_v] →
// [seq_q][d_v].
//
// Introduced in lesson 11.
func Linear(q, k, v [][]float64) ([][]float64, error) {
	if err := checkQKV(q, k, v); err != nil {
		return nil, fmt.Errorf("attention.Linear: %w", err)
	}
	dk, dv := len(k[0]), len(v[0])
	s := make([][]float64, dk)
	for a := range s {
		s[a] = make([]float64, dv)
	}
	z := make([]float64, dk)
	for j := range k {
		fk := FeatureMap(k[j])
		for a, f := range fk {
			z[a] += f
			for c, x := range v[j] {
				s[a][c] += f * x
			}
		}
	}
	out := make([][]float64, len(q))
	for i := range q {
		fq := FeatureMap(q[i])
		out[i] = make([]float64, dv)
		for a, f := range fq {
			for c := range out[i] {
				out[i][c] += f * s[a][c]
			}
		}
		norm := dot(fq, z)
		for c := range out[i] {
			out[i][c] /= norm
		}
	}
	return out, nil
}
