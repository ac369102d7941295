package attention

import (
	"fmt"
	"math"
	"runtime"
)

// Full is scaled dot-product attention in plain float64 loops, the formula
// as written:
//
//	S = Q·Kᵀ/√d_k    (seq_q × seq_k, kept whole)
//	W = softmax(S)   row by row, stably
//	O = W·V
//
// It keeps the whole score matrix, seq_q·seq_k numbers: the O(n²) memory
// of attention that [Blocked] avoids. Lesson 11 measures both.
//
// Typical shapes: q [seq_q][d_k], k [seq_k][d_k], v [seq_k][d_v] →
// [seq_q][d_v].
//
// Introduced in lesson 11 (attention in practice).
func Full(q, k, v [][]float64) ([][]float64, error) {
	if err := checkQKV(q, k, v); err != nil {
		return nil, err
	}
	nq, nk, dv := len(q), len(k), len(v[0])
	scale := 1 / math.Sqrt(float64(len(q[0])))
	s := make([]float64, nq*nk) // the n² score matrix, row-major
	for i := range nq {
		row := s[i*nk : (i+1)*nk]
		for j := range nk {
			row[j] = dot(q[i], k[j]) * scale
		}
		softmaxInPlace(row)
	}
	out := make([][]float64, nq)
	for i := range out {
		out[i] = make([]float64, dv)
		for j, w := range s[i*nk : (i+1)*nk] {
			for c, x := range v[j] {
				out[i][c] += w * x
			}
		}
	}
	return out, nil
}

// Blocked computes the same output as [Full] without ever holding the
// score matrix: queries and keys are taken block×block at a time, and each
// query keeps a running maximum m, a running sum ℓ and a running output
// a — the online softmax (Milakov and Gimelshein 2018), the trick of
// FlashAttention (Dao et al. 2022). When a block of keys raises the
// maximum from m to m', what was accumulated is rescaled:
//
//	m' = max(m, max_j s_ij)
//	ℓ' = ℓ·e^(m−m') + Σ_j e^(s_ij−m')
//	a' = a·e^(m−m') + Σ_j e^(s_ij−m')·v_j
//	o_i = a/ℓ after the last block
//
// so the result equals softmax(S)·V up to rounding, in O(block² + seq·d)
// memory instead of O(seq_q·seq_k). (FlashAttention does this on a GPU to
// keep the blocks in fast on-chip memory; here it only shows the memory.)
//
// Typical shapes: as [Full]; block 64.
//
// Introduced in lesson 11.
func Blocked(q, k, v [][]float64, block int) ([][]float64, error) {
	if err := checkQKV(q, k, v); err != nil {
		return nil, err
	}
	if block < 1 {
		return nil, fmt.Errorf("attention.Blocked: block must be ≥ 1, got %d", block)
	}
	nq, nk, dv := len(q), len(k), len(v[0])
	scale := 1 / math.Sqrt(float64(len(q[0])))
	out := make([][]float64, nq)
	for i := range out {
		out[i] = make([]float64, dv) // the running output a of query i
	}
	s := make([]float64, block*block) // one block of scores, reused
	m := make([]float64, block)       // running maximum of each query of the block
	l := make([]float64, block)       // running sum of each query of the block
	for i0 := 0; i0 < nq; i0 += block {
		bq := min(block, nq-i0)
		for i := range bq {
			m[i], l[i] = math.Inf(-1), 0
		}
		for j0 := 0; j0 < nk; j0 += block {
			bk := min(block, nk-j0)
			for i := range bq {
				row := s[i*block : i*block+bk]
				top := m[i]
				for j := range bk {
					row[j] = dot(q[i0+i], k[j0+j]) * scale
					top = max(top, row[j])
				}
				fix := math.Exp(m[i] - top) // e^(m−m'), 0 on the first block
				l[i] *= fix
				a := out[i0+i]
				for c := range a {
					a[c] *= fix
				}
				for j, x := range row {
					p := math.Exp(x - top)
					l[i] += p
					for c, y := range v[j0+j] {
						a[c] += p * y
					}
				}
				m[i] = top
			}
		}
		for i := range bq {
			for c := range out[i0+i] {
				out[i0+i][c] /= l[i]
			}
		}
	}
	return out, nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// AllocatedBytes runs f once and returns the bytes it allocated on the
// heap: the growth of runtime.MemStats.TotalAlloc across the call (run
// nothing else meanwhile). For [Full] and [Blocked], which free nothing
// before they return, it is also their peak memory beyond their inputs.
//
// Introduced in lesson 11.
func AllocatedBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
