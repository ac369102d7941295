package reference

import (
	"errors"
	"fmt"
	"math"

	"github.com/attention-in-go/course/lib/viz"
)

// This file holds the references of lesson 03's exercises: attention
// pattern analysis, a heat map tool, local (windowed), chunked and
// relative-position attention. All are plain float64 loops, written
// independently of lib/attention.

// AttentionPatterns measures one matrix of attention weights w [seq_q][seq_k]:
// the mean of w_ii over the rows that have a diagonal cell, the mean over the
// rows of Σ_{|i−j|=1} w_ij, the fraction of weights above threshold, and the
// entropy −Σ_j w_ij ln w_ij of each row (0·ln 0 = 0).
func AttentionPatterns(w [][]float64, threshold float64) (diagonal, local, sparse float64, entropy []float64) {
	rows, cols := len(w), len(w[0])
	entropy = make([]float64, rows)
	diagonals, above := 0, 0
	for i, row := range w {
		for j, x := range row {
			if i == j {
				diagonal += x
				diagonals++
			}
			if i-j == 1 || j-i == 1 {
				local += x
			}
			if x > threshold {
				above++
			}
			if x > 0 {
				entropy[i] -= x * math.Log(x)
			}
		}
	}
	if diagonals > 0 {
		diagonal /= float64(diagonals)
	}
	return diagonal, local / float64(rows), float64(above) / float64(rows*cols), entropy
}

// AttentionHeatmap is the reference heat map of attention weights w
// [len(queries)][len(keys)]: queries down, keys across, on a fixed 0–1
// colour range, with axis labels.
func AttentionHeatmap(w [][]float64, queries, keys []string, title string) (*viz.Heatmap, error) {
	if len(w) == 0 || len(w[0]) == 0 {
		return nil, errors.New("empty weights")
	}
	if len(queries) != len(w) {
		return nil, fmt.Errorf("%d query labels for %d rows", len(queries), len(w))
	}
	for _, row := range w {
		if len(row) != len(keys) {
			return nil, fmt.Errorf("%d key labels for %d columns", len(keys), len(row))
		}
	}
	return &viz.Heatmap{Values: w, Rows: queries, Cols: keys, Title: title, XLabel: "key", YLabel: "query",
		FixedRange: true, Min: 0, Max: 1}, nil
}

// MaskedAttention is scaled dot-product attention in float64 with a
// predicate visible(i, j) (nil: every key) and an optional additive bias
// on the scaled scores: softmax_j(q_i·k_j/√d_k) over the visible keys,
// exactly 0 for the others. A row with no visible key gets zero weights.
func MaskedAttention(q, k, v [][]float64, visible func(i, j int) bool) (out, weights [][]float64) {
	return attend(q, k, v, visible, nil)
}

// ScaledScores is q_i·k_j/√d_k for every pair: the scores sparse
// attention's score(i, j) hands out.
func ScaledScores(q, k [][]float64) [][]float64 {
	s := make([][]float64, len(q))
	for i := range q {
		s[i] = make([]float64, len(k))
		for j := range k {
			s[i][j] = dot(q[i], k[j]) / math.Sqrt(float64(len(k[j])))
		}
	}
	return s
}

// attend computes softmax over the visible keys of score(i, j) (nil: the
// scaled dot product), then weights·V.
func attend(q, k, v [][]float64, visible func(i, j int) bool, score func(i, j int) float64) (out, weights [][]float64) {
	dk := float64(len(k[0]))
	if score == nil {
		score = func(i, j int) float64 { return dot(q[i], k[j]) / math.Sqrt(dk) }
	}
	weights = make([][]float64, len(q))
	out = make([][]float64, len(q))
	for i := range q {
		weights[i] = make([]float64, len(k))
		out[i] = make([]float64, len(v[0]))
		best := math.Inf(-1)
		s := make([]float64, len(k))
		for j := range k {
			if visible != nil && !visible(i, j) {
				continue
			}
			s[j] = score(i, j)
			best = math.Max(best, s[j])
		}
		if math.IsInf(best, -1) {
			continue
		}
		sum := 0.0
		for j := range k {
			if visible != nil && !visible(i, j) {
				continue
			}
			weights[i][j] = math.Exp(s[j] - best)
			sum += weights[i][j]
		}
		for j := range k {
			weights[i][j] /= sum
			for c := range out[i] {
				out[i][c] += weights[i][j] * v[j][c]
			}
		}
	}
	return out, weights
}

// LocalAttention is windowed attention: query i sees the keys j with
// |i − j| ≤ window.
func LocalAttention(q, k, v [][]float64, window int) (out, weights [][]float64) {
	return attend(q, k, v, func(i, j int) bool { return abs(i-j) <= window }, nil)
}

// ChunkedAttention returns full attention's output, computed for chunk
// queries at a time.
func ChunkedAttention(q, k, v [][]float64, chunk int) [][]float64 {
	out := make([][]float64, 0, len(q))
	for start := 0; start < len(q); start += chunk {
		o, _ := attend(q[start:min(start+chunk, len(q))], k, v, nil, nil)
		out = append(out, o...)
	}
	return out
}

// RelativeAttention is self-attention with relative position
// representations on the keys (Shaw, Uszkoreit and Vaswani, 2018):
// e_ij = q_i·(k_j + a_{clip(j−i, −maxDist, maxDist)})/√d_k, with rel
// [2·maxDist+1][d_k], row r holding the distance r − maxDist.
func RelativeAttention(q, k, v, rel [][]float64, maxDist int) (out, weights [][]float64) {
	dk := float64(len(k[0]))
	return attend(q, k, v, nil, func(i, j int) float64 {
		a := rel[max(-maxDist, min(maxDist, j-i))+maxDist]
		return (dot(q[i], k[j]) + dot(q[i], a)) / math.Sqrt(dk)
	})
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// SparseVisible is Longformer's attention pattern (Beltagy, Peters and
// Cohan, 2020): query i sees key j when j is in its dilated sliding
// window — |i − j| ≤ window·dilation and i − j a multiple of dilation —
// or when i or j is a global token (a global token sees every key, and
// every query sees it).
func SparseVisible(i, j, window, dilation int, global []int) bool {
	for _, g := range global {
		if i == g || j == g {
			return true
		}
	}
	d := abs(i - j)
	return d <= window*dilation && d%dilation == 0
}

// SparseAttention is Longformer-style sparse self-attention: masked full
// attention with the pattern of [SparseVisible].
func SparseAttention(q, k, v [][]float64, window, dilation int, global []int) (out, weights [][]float64) {
	return attend(q, k, v, func(i, j int) bool { return SparseVisible(i, j, window, dilation, global) }, nil)
}

// RelativeAttentionValues is Shaw et al.'s relative attention with
// relative vectors on the values as well as the keys: the weights of
// [RelativeAttention] with relK, and out_i = Σ_j w_ij (v_j + relV_{clip(j−i)}),
// relV [2·maxDist+1][d_v].
func RelativeAttentionValues(q, k, v, relK, relV [][]float64, maxDist int) (out, weights [][]float64) {
	_, weights = RelativeAttention(q, k, v, relK, maxDist)
	out = make([][]float64, len(q))
	for i := range q {
		out[i] = make([]float64, len(v[0]))
		for j := range v {
			a := relV[max(-maxDist, min(maxDist, j-i))+maxDist]
			for c := range out[i] {
				out[i][c] += weights[i][j] * (v[j][c] + a[c])
			}
		}
	}
	return out, weights
}
