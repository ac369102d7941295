package transformer

import (
	"math"
	"testing"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/random"
)

// The float64 loops below compute the encoder independently of GoMLX, one
// formula at a time, for the tests to compare with.

// refLinear returns x·w + b.
func refLinear(x, w [][]float64, b []float64) [][]float64 {
	y := make([][]float64, len(x))
	for i := range x {
		y[i] = make([]float64, len(w[0]))
		for o := range y[i] {
			y[i][o] = b[o]
			for k := range x[i] {
				y[i][o] += x[i][k] * w[k][o]
			}
		}
	}
	return y
}

// refLayerNorm normalises every row: (x − μ)/√(σ² + ε)·γ + β.
func refLayerNorm(x [][]float64, gamma, beta []float64) [][]float64 {
	y := make([][]float64, len(x))
	for i, row := range x {
		n := float64(len(row))
		mu := 0.0
		for _, v := range row {
			mu += v
		}
		mu /= n
		va := 0.0
		for _, v := range row {
			va += (v - mu) * (v - mu)
		}
		va /= n
		y[i] = make([]float64, len(row))
		for j, v := range row {
			y[i][j] = (v-mu)/math.Sqrt(va+LayerNormEpsilon)*gamma[j] + beta[j]
		}
	}
	return y
}

// refFFN returns max(0, x·W₁ + b₁)·W₂ + b₂ and the hidden layer.
func refFFN(x [][]float64, w *FFNWeights) (out, hidden [][]float64) {
	hidden = refLinear(x, w.W1, w.B1)
	for _, row := range hidden {
		for j := range row {
			row[j] = math.Max(0, row[j])
		}
	}
	return refLinear(hidden, w.W2, w.B2), hidden
}

// refAttention is softmax(q·kᵀ/√d_k)·v with the keys masked for query i
// excluded.
func refAttention(q, k, v [][]float64, masked func(i, j int) bool) (out, weights [][]float64) {
	dk := float64(len(q[0]))
	for i := range q {
		scores := make([]float64, len(k))
		m := math.Inf(-1)
		for j := range k {
			if masked != nil && masked(i, j) {
				scores[j] = math.Inf(-1)
				continue
			}
			for c := range q[i] {
				scores[j] += q[i][c] * k[j][c]
			}
			scores[j] /= math.Sqrt(dk)
			m = math.Max(m, scores[j])
		}
		sum := 0.0
		for j := range scores {
			scores[j] = math.Exp(scores[j] - m)
			sum += scores[j]
		}
		o := make([]float64, len(v[0]))
		for j := range scores {
			scores[j] /= sum
			for c := range o {
				o[c] += scores[j] * v[j][c]
			}
		}
		out, weights = append(out, o), append(weights, scores)
	}
	return out, weights
}

// refSelfAttention is multi-head self-attention of x with the weights w.
func refSelfAttention(x [][]float64, heads int, w *attention.MultiHeadWeights, masked func(j int) bool) (out [][]float64, weights [][][]float64) {
	var m func(i, j int) bool
	if masked != nil {
		m = func(_, j int) bool { return masked(j) }
	}
	return refMultiHead(x, x, heads, w, m)
}

// refMultiHead is multi-head attention of the queries of xq over the keys
// and values of xkv with the weights w.
func refMultiHead(xq, xkv [][]float64, heads int, w *attention.MultiHeadWeights, masked func(i, j int) bool) (out [][]float64, weights [][][]float64) {
	q, k, v := refLinear(xq, w.WQ, w.BQ), refLinear(xkv, w.WK, w.BK), refLinear(xkv, w.WV, w.BV)
	cols := func(m [][]float64, from, to int) [][]float64 {
		y := make([][]float64, len(m))
		for i := range m {
			y[i] = m[i][from:to]
		}
		return y
	}
	dk := w.DModel / heads
	concat := make([][]float64, len(xq))
	for h := range heads {
		o, a := refAttention(cols(q, h*dk, (h+1)*dk), cols(k, h*dk, (h+1)*dk), cols(v, h*dk, (h+1)*dk), masked)
		weights = append(weights, a)
		for i := range concat {
			concat[i] = append(concat[i], o[i]...)
		}
	}
	return refLinear(concat, w.WO, w.BO), weights
}

// layerVariant says which parts of the encoder layer the reference keeps,
// to show that the tests notice a missing part.
type layerVariant struct{ noResidual, noNorm bool }

// refEncoderLayer is one encoder layer: LayerNorm(x + MHA(x)), then
// LayerNorm(y + FFN(y)) — or a broken variant of it.
func refEncoderLayer(x [][]float64, heads int, w *EncoderLayerWeights, masked func(j int) bool, v layerVariant) (out [][]float64, weights [][][]float64) {
	addNorm := func(a, b [][]float64, n *LayerNormWeights) [][]float64 {
		s := make([][]float64, len(a))
		for i := range a {
			s[i] = make([]float64, len(a[i]))
			for j := range a[i] {
				s[i][j] = b[i][j]
				if !v.noResidual {
					s[i][j] += a[i][j]
				}
			}
		}
		if v.noNorm {
			return s
		}
		return refLayerNorm(s, n.Gamma, n.Beta)
	}
	att, weights := refSelfAttention(x, heads, w.Attention, masked)
	y := addNorm(x, att, w.Norm1)
	f, _ := refFFN(y, w.FFN)
	return addNorm(y, f, w.Norm2), weights
}

// refEncoder runs the whole encoder on one sequence of token ids.
func refEncoder(tokens []int, w *EncoderWeights, masked func(j int) bool) (out [][]float64, weights [][][][]float64) {
	d := w.Config.DModel
	pe := refSinusoid(len(tokens), d)
	x := make([][]float64, len(tokens))
	for i, t := range tokens {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = w.Embedding[t][j]*math.Sqrt(float64(d)) + pe[i][j]
		}
	}
	for _, l := range w.Layers {
		var a [][][]float64
		x, a = refEncoderLayer(x, w.Config.Heads, l, masked, layerVariant{})
		weights = append(weights, a)
	}
	return x, weights
}

// refSinusoid is the positional encoding written with the paper's i:
// PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i), ω_i = 10000^(−2i/d).
func refSinusoid(seq, d int) [][]float64 {
	pe := make([][]float64, seq)
	for pos := range pe {
		pe[pos] = make([]float64, d)
		for i := 0; 2*i < d; i++ {
			omega := math.Exp(-math.Log(10000) * float64(2*i) / float64(d))
			pe[pos][2*i] = math.Sin(float64(pos) * omega)
			if 2*i+1 < d {
				pe[pos][2*i+1] = math.Cos(float64(pos) * omega)
			}
		}
	}
	return pe
}

// perturb gives every bias, γ and β of the layer non-trivial values, so
// that a forgotten bias or a γ applied to the wrong axis shows.
func perturb(w *EncoderLayerWeights, seed uint32) {
	r := random.New(seed)
	vec := func(v []float64, mean, scale float64) {
		for i := range v {
			v[i] = mean + scale*r.NormFloat64()
		}
	}
	a := w.Attention
	for _, b := range [][]float64{a.BQ, a.BK, a.BV, a.BO, w.FFN.B1, w.FFN.B2, w.Norm1.Beta, w.Norm2.Beta} {
		vec(b, 0, 0.2)
	}
	vec(w.Norm1.Gamma, 1, 0.3)
	vec(w.Norm2.Gamma, 1, 0.3)
}

// maxDiff returns the largest absolute difference between two matrices of
// the same shape.
func maxDiff(a, b [][]float64) float64 {
	m := 0.0
	for i := range a {
		for j := range a[i] {
			m = math.Max(m, math.Abs(a[i][j]-b[i][j]))
		}
	}
	return m
}

// assertClose fails when got and want differ by more than tol anywhere.
func assertClose(t *testing.T, name string, got, want [][]float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d rows, want %d", name, len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s: row %d has %d columns, want %d", name, i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			if math.Abs(got[i][j]-want[i][j]) > tol {
				t.Fatalf("%s[%d][%d] = %.6f, want %.6f (tolerance %g)", name, i, j, got[i][j], want[i][j], tol)
			}
		}
	}
}
