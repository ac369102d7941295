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

// LinearState is causal linear attention run as a recurrent network
// (Katharopoulos et al. 2020, §3.4, "Transformers are RNNs"). With the
// look-ahead mask, token i attends over tokens 0…i only, so the sums of
// [Linear] become running sums — a state that each token updates once:
//
//	S_i = S_{i−1} + φ(k_i)·v_iᵀ     [d_k][d_v]
//	z_i = z_{i−1} + φ(k_i)          [d_k]
//	o_i = φ(q_i)ᵀ·S_i / φ(q_i)·z_i
//
// Generating with it needs no cache of past keys and values (lesson 10's
// KV cache grows by a key and a value per token): the state has
// d_k·d_v + d_k numbers at every position, and each token costs the same
// O(d_k·d_v). The zero value is not usable; call [NewLinearState].
//
// Introduced in lesson 11.
type LinearState struct {
	S [][]float64 // Σ φ(k_j)·v_jᵀ over the tokens read
	Z []float64   // Σ φ(k_j)
}

// NewLinearState returns the state before the first token: S and z zero.
//
// Introduced in lesson 11.
func NewLinearState(dk, dv int) *LinearState {
	s := make([][]float64, dk)
	for a := range s {
		s[a] = make([]float64, dv)
	}
	return &LinearState{S: s, Z: make([]float64, dk)}
}

// Step reads one token — its query, key and value — adds its key and
// value to the state, and returns its output, which equals row i of
// [CausalLinear] for the i-th token read.
//
// Typical shapes: q, k [d_k], v [d_v] → [d_v].
//
// Introduced in lesson 11.
func (st *LinearState) Step(q, k, v []float64) []float64 {
	if len(q) != len(st.Z) || len(k) != len(st.Z) || len(v) != len(st.S[0]) {
		panic(fmt.Sprintf("attention.LinearState.Step: q %d, k %d, v %d numbers for a state of d_k = %d, d_v = %d", len(q), len(k), len(v), len(st.Z), len(st.S[0])))
	}
	for a, f := range FeatureMap(k) {
		st.Z[a] += f
		for c, x := range v {
			st.S[a][c] += f * x
		}
	}
	fq := FeatureMap(q)
	out := make([]float64, len(v))
	for a, f := range fq {
		for c := range out {
			out[c] += f * st.S[a][c]
		}
	}
	norm := dot(fq, st.Z)
	for c := range out {
		out[c] /= norm
	}
	return out
}

// Size is the number of floats the state holds: d_k·d_v + d_k, the same
// after any number of tokens.
//
// Introduced in lesson 11.
func (st *LinearState) Size() int { return len(st.Z) * (len(st.S[0]) + 1) }

// CausalLinear is linear attention with the look-ahead mask, in its
// O(n²) form: token i attends over tokens 0…i with the weights
//
//	w_ij = φ(q_i)·φ(k_j) / Σ_{j' ≤ i} φ(q_i)·φ(k_j')   (j ≤ i; 0 after)
//
// the reference [LinearState] is tested against.
//
// Typical shapes: q, k [seq][d_k], v [seq][d_v] → [seq][d_v].
//
// Introduced in lesson 11.
func CausalLinear(q, k, v [][]float64) ([][]float64, error) {
	if err := checkQKV(q, k, v); err != nil {
		return nil, fmt.Errorf("attention.CausalLinear: %w", err)
	}
	if len(q) != len(k) {
		return nil, fmt.Errorf("attention.CausalLinear: %d queries and %d keys: a causal mask needs one query per token", len(q), len(k))
	}
	out := make([][]float64, len(q))
	for i := range q {
		w, err := LinearWeights(q[i:i+1], k[:i+1])
		if err != nil {
			return nil, err
		}
		out[i] = make([]float64, len(v[0]))
		for j, wij := range w[0] {
			for c := range out[i] {
				out[i][c] += wij * v[j][c]
			}
		}
	}
	return out, nil
}
