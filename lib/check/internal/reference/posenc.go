package reference

import (
	"errors"
	"fmt"
	"math"

	"github.com/attention-in-go/course/lib/viz"
)

// This file holds the references of lesson 04's exercises: the sinusoidal
// encoding, its columns as series, embeddings plus positions, a growing
// table, a single attention head and a multi-head layer on token ids with
// positions and an optional look-ahead mask, and learned positions.

// PositionalEncoding is P(k, 2i) = sin(k/n^(2i/d)), P(k, 2i+1) =
// cos(k/n^(2i/d)) for k < seqLen, as [seqLen][d].
func PositionalEncoding(seqLen, d int, n float64) [][]float64 {
	pe := make([][]float64, seqLen)
	for k := range pe {
		pe[k] = make([]float64, d)
		for j := range d {
			angle := float64(k) / math.Pow(n, float64(j-j%2)/float64(d))
			if j%2 == 0 {
				pe[k][j] = math.Sin(angle)
			} else {
				pe[k][j] = math.Cos(angle)
			}
		}
	}
	return pe
}

// SinusoidSeries returns column j of pe for every j in dims, named
// "sine i" (j = 2i) or "cosine i" (j = 2i+1), with X = 0, 1, …, seq−1.
func SinusoidSeries(pe [][]float64, dims []int) []viz.Series {
	var out []viz.Series
	for _, j := range dims {
		s := viz.Series{Name: fmt.Sprintf("sine %d", j/2)}
		if j%2 == 1 {
			s.Name = fmt.Sprintf("cosine %d", j/2)
		}
		for k, row := range pe {
			s.X = append(s.X, float64(k))
			s.Y = append(s.Y, row[j])
		}
		out = append(out, s)
	}
	return out
}

// EmbedWithPositions returns table[ids[p]]·√d + pe[p] for every position p.
func EmbedWithPositions(table [][]float64, ids []int, pe [][]float64) [][]float64 {
	d := len(table[0])
	out := make([][]float64, len(ids))
	for p, id := range ids {
		out[p] = make([]float64, d)
		for c := range d {
			out[p][c] = table[id][c]*math.Sqrt(float64(d)) + pe[p][c]
		}
	}
	return out
}

// GrowTable returns the sinusoidal table of width d with max(len(table), n)
// rows.
func GrowTable(table [][]float64, n, d int, base float64) [][]float64 {
	return PositionalEncoding(max(len(table), n), d, base)
}

// AttentionFromTokens is one attention head on token ids: x =
// emb[ids]·√d_model + PE(seq, d_model, 10000), Q, K, V = x·W_Q, x·W_K,
// x·W_V, weights softmax(QKᵀ/√d_k) with the look-ahead mask when mask is
// true, output weights·V.
func AttentionFromTokens(ids []int, emb, wq, wk, wv [][]float64, mask bool) (weights, out [][]float64) {
	x := EmbedWithPositions(emb, ids, PositionalEncoding(len(ids), len(emb[0]), 10000))
	q, k, v := MatMul(x, wq), MatMul(x, wk), MatMul(x, wv)
	var visible func(i, j int) bool
	if mask {
		visible = func(i, j int) bool { return j <= i }
	}
	out, weights = attend(q, k, v, visible, nil)
	return weights, out
}

// MultiHeadFromTokens is multi-head self-attention with biases on token
// ids: x = emb[ids]·√d_model + PE, Q = x·W_Q + b_Q (likewise K, V), heads
// on consecutive blocks of d_model/heads columns, each softmax(Q_hK_hᵀ/√d_k)
// (look-ahead masked when mask is true), concatenated, then ·W_O + b_O.
func MultiHeadFromTokens(ids []int, emb, wq, wk, wv, wo [][]float64, bq, bk, bv, bo []float64, heads int, mask bool) (weights [][][]float64, out [][]float64) {
	d := len(emb[0])
	x := EmbedWithPositions(emb, ids, PositionalEncoding(len(ids), d, 10000))
	concat, weights := MultiHead(x, x, wq, wk, wv, bq, bk, bv, heads, mask)
	return weights, AddBias(MatMul(concat, wo), bo)
}

// MultiHead projects q and kv with biases, attends per head (look-ahead
// masked when causal) and returns the concatenated heads [seq_q][d_model]
// before the output projection, and the weights [heads][seq_q][seq_k].
func MultiHead(xq, xkv, wq, wk, wv [][]float64, bq, bk, bv []float64, heads int, causal bool) (concat [][]float64, weights [][][]float64) {
	d := len(wq[0])
	dk := d / heads
	q, k, v := AddBias(MatMul(xq, wq), bq), AddBias(MatMul(xkv, wk), bk), AddBias(MatMul(xkv, wv), bv)
	concat = make([][]float64, len(xq))
	for i := range concat {
		concat[i] = make([]float64, d)
	}
	var visible func(i, j int) bool
	if causal {
		visible = func(i, j int) bool { return j <= i }
	}
	for h := range heads {
		o, w := attend(cols(q, h*dk, dk), cols(k, h*dk, dk), cols(v, h*dk, dk), visible, nil)
		for i := range o {
			copy(concat[i][h*dk:], o[i])
		}
		weights = append(weights, w)
	}
	return concat, weights
}

// AddLearned returns x + table[:len(x)], or an error when x is longer than
// the table or the widths differ.
func AddLearned(x, table [][]float64) ([][]float64, error) {
	if len(x) > len(table) {
		return nil, fmt.Errorf("%d positions, table has %d", len(x), len(table))
	}
	if len(x) == 0 {
		return nil, errors.New("empty input")
	}
	out := make([][]float64, len(x))
	for p := range x {
		if len(x[p]) != len(table[p]) {
			return nil, fmt.Errorf("width %d, table width %d", len(x[p]), len(table[p]))
		}
		out[p] = make([]float64, len(x[p]))
		for c := range x[p] {
			out[p][c] = x[p][c] + table[p][c]
		}
	}
	return out, nil
}

// MatMul returns a·b.
func MatMul(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(b[0]))
		for k := range b {
			for j := range b[0] {
				out[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return out
}

// AddBias returns m with b added to every row (nil b: m).
func AddBias(m [][]float64, b []float64) [][]float64 {
	if b == nil {
		return m
	}
	for i := range m {
		for j := range m[i] {
			m[i][j] += b[j]
		}
	}
	return m
}

// cols returns columns [from, from+n) of m.
func cols(m [][]float64, from, n int) [][]float64 {
	out := make([][]float64, len(m))
	for i := range m {
		out[i] = append([]float64(nil), m[i][from:from+n]...)
	}
	return out
}
