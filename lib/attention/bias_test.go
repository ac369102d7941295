package attention

import (
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
)

// refBiasedAttention is scaled dot-product attention in float64 loops,
// with a bias added to the scaled scores when bias is not nil:
// softmax(Q·Kᵀ/√d_k + bias, masked)·V (refAttention is it without bias).
func refBiasedAttention(q, k, v, bias [][]float64, masked func(i, j int) bool) (out, weights [][]float64) {
	dk := float64(len(q[0]))
	for i := range q {
		row := make([]float64, len(k))
		var scores []float64
		var keep []int
		for j := range k {
			if masked != nil && masked(i, j) {
				continue
			}
			s := 0.0
			for d := range q[i] {
				s += q[i][d] * k[j][d]
			}
			s /= math.Sqrt(dk)
			if bias != nil {
				s += bias[i][j]
			}
			scores = append(scores, s)
			keep = append(keep, j)
		}
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

// refMultiHeadWith is multi-head attention in float64 loops (project,
// cut the columns into heads, attend per head, put the heads side by
// side, project again) with positions inside the attention:
// rotate, when not nil, turns each head's query rows (query = true) and
// key rows [seq][d_k] after the split into heads; bias[h], when not nil, is
// added to head h's scaled scores.
func refMultiHeadWith(q, kv [][]float64, heads int, w *MultiHeadWeights, masked func(i, j int) bool,
	bias [][][]float64, rotate func(x [][]float64, query bool) [][]float64) (out [][]float64, weights [][][]float64) {
	proj := func(x, m [][]float64, b []float64) [][]float64 {
		y := make([][]float64, len(x))
		for i := range x {
			y[i] = make([]float64, len(m[0]))
			for o := range y[i] {
				y[i][o] = b[o]
				for d := range x[i] {
					y[i][o] += x[i][d] * m[d][o]
				}
			}
		}
		return y
	}
	cols := func(x [][]float64, from, to int) [][]float64 {
		y := make([][]float64, len(x))
		for i := range x {
			y[i] = append([]float64(nil), x[i][from:to]...)
		}
		return y
	}
	Q, K, V := proj(q, w.WQ, w.BQ), proj(kv, w.WK, w.BK), proj(kv, w.WV, w.BV)
	dk := w.DModel / heads
	concat := make([][]float64, len(q))
	for h := 0; h < heads; h++ {
		qh, kh := cols(Q, h*dk, (h+1)*dk), cols(K, h*dk, (h+1)*dk)
		if rotate != nil {
			qh, kh = rotate(qh, true), rotate(kh, false)
		}
		var o [][]float64
		var a [][]float64
		if bias != nil {
			o, a = refBiasedAttention(qh, kh, cols(V, h*dk, (h+1)*dk), bias[h], masked)
		} else {
			o, a = refAttention(qh, kh, cols(V, h*dk, (h+1)*dk), masked)
		}
		weights = append(weights, a)
		for i := range concat {
			concat[i] = append(concat[i], o[i]...)
		}
	}
	return proj(concat, w.WO, w.BO), weights
}

// RefMultiHeadWith lets the external tests (rotary_test.go, which needs
// lib/posenc) use the reference.
var RefMultiHeadWith = refMultiHeadWith

// flat32 flattens matrices into one float32 slice, row after row.
func flat32(ms ...[][]float64) []float32 {
	var f []float32
	for _, m := range ms {
		for _, row := range m {
			for _, x := range row {
				f = append(f, float32(x))
			}
		}
	}
	return f
}

// TestNoBiasNoRotationUnchanged: a nil bias, a nil rotation and a zero
// bias leave the output and the weights exactly (bit for bit) those of the
// plain builders.
func TestNoBiasNoRotationUnchanged(t *testing.T) {
	const batch, heads, seq, d = 2, 2, 5, 8
	r := random.New(17)
	x := tensors.FromFlatDataAndDimensions(flat32(r.Normal(batch*seq, d)), batch, seq, d)
	w := NewMultiHeadWeights(d, 3)
	outs := graph.MustExecOnceN(backend.Default(), func(x *graph.Node) []*graph.Node {
		g := x.Graph()
		mask := LookAheadMask(g, seq)
		p := w.Params(g)
		zeros := graph.Zeros(g, shapes.Make(dtypes.Float32, heads, seq, seq)) // Shape: [heads, seq, seq]
		plainOut, plainW := MultiHead(x, x, x, heads, p).WithMask(mask).Done()
		nilOut, nilW := MultiHead(x, x, x, heads, p).WithMask(mask).WithBias(nil).WithRotation(nil, nil, nil).Done()
		zeroOut, zeroW := MultiHead(x, x, x, heads, p).WithMask(mask).WithBias(zeros).Done()

		qh := graph.Reshape(x, batch, 1, seq, d) // one "head" of d columns
		sdpOut, sdpW := ScaledDotProduct(qh, qh, qh).WithMask(mask).Done()
		sdpZeroOut, sdpZeroW := ScaledDotProduct(qh, qh, qh).WithMask(mask).WithBias(graph.Zeros(g, shapes.Make(dtypes.Float32, seq, seq))).Done()
		return []*graph.Node{plainOut, plainW, nilOut, nilW, zeroOut, zeroW, sdpOut, sdpW, sdpZeroOut, sdpZeroW}
	}, x)
	same := func(name string, a, b *tensors.Tensor) {
		fa, fb := tensors.MustCopyFlatData[float32](a), tensors.MustCopyFlatData[float32](b)
		if len(fa) != len(fb) {
			t.Fatalf("%s: %d numbers against %d", name, len(fb), len(fa))
		}
		for i := range fa {
			if fa[i] != fb[i] {
				t.Errorf("%s: entry %d = %.9g, the plain builder gives %.9g", name, i, fb[i], fa[i])
				return
			}
		}
	}
	same("MultiHead output, nil bias and rotation", outs[0], outs[2])
	same("MultiHead weights, nil bias and rotation", outs[1], outs[3])
	same("MultiHead output, zero bias", outs[0], outs[4])
	same("MultiHead weights, zero bias", outs[1], outs[5])
	same("ScaledDotProduct output, zero bias", outs[6], outs[8])
	same("ScaledDotProduct weights, zero bias", outs[7], outs[9])
}

// TestBiasedWeightsMatchReference: with a bias, the weights are
// softmax(Q·Kᵀ/√d_k + bias) with the mask, computed in float64 — the bias
// after the scaling, not before. The bias has large entries where the mask
// is, which must not leak through.
func TestBiasedWeightsMatchReference(t *testing.T) {
	const batch, heads, seqQ, seqK, dk, dv = 2, 3, 4, 5, 4, 3
	tests := []struct {
		name   string
		dims   []int // shape of the bias
		masked func(i, j int) bool
	}{
		{"shared [seq_q, seq_k]", []int{seqQ, seqK}, nil},
		{"per head [heads, seq_q, seq_k]", []int{heads, seqQ, seqK}, nil},
		{"per head with a causal mask", []int{heads, seqQ, seqK}, func(i, j int) bool { return j > i }},
		{"full [batch, heads, seq_q, seq_k]", []int{batch, heads, seqQ, seqK}, nil},
		{"one row per head [heads, 1, seq_k]", []int{heads, 1, seqK}, nil},
	}
	for n, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := random.New(uint32(60 + n))
			var qs, ks, vs [][][]float64
			for range batch * heads {
				qs, ks, vs = append(qs, r.Normal(seqQ, dk)), append(ks, r.Normal(seqK, dk)), append(vs, r.Normal(seqK, dv))
			}
			size := 1
			for _, d := range tc.dims {
				size *= d
			}
			biasFlat := make([]float32, size)
			for i := range biasFlat {
				biasFlat[i] = float32(1.5 * math.Sin(float64(3*i+n))) // up to ±1.5: comparable to the scores
			}
			// biasAt returns the bias of slice s (= b·heads + h), row i, column j, broadcast like NumPy.
			biasAt := func(s, i, j int) float64 {
				full := []int{s / heads, s % heads, i, j}
				idx, stride := 0, 1
				for a := len(tc.dims) - 1; a >= 0; a-- {
					at := full[a+4-len(tc.dims)]
					if tc.dims[a] == 1 {
						at = 0
					}
					idx += at * stride
					stride *= tc.dims[a]
				}
				return float64(biasFlat[idx])
			}
			var maskNode func(g *graph.Graph) *graph.Node
			if tc.masked != nil {
				maskNode = func(g *graph.Graph) *graph.Node {
					return graph.Slice(LookAheadMask(g, seqK), graph.AxisRange(0, seqQ)) // Shape: [seq_q, seq_k], j > i
				}
			}
			outs := graph.MustExecOnceN(backend.Default(), func(q, k, v, bias *graph.Node) []*graph.Node {
				b := ScaledDotProduct(q, k, v).WithBias(bias)
				if maskNode != nil {
					b = b.WithMask(maskNode(q.Graph()))
				}
				s := b.Steps()
				return []*graph.Node{s.Output, s.Weights, s.Scores, s.Scaled}
			}, tensors.FromFlatDataAndDimensions(flat32(qs...), batch, heads, seqQ, dk),
				tensors.FromFlatDataAndDimensions(flat32(ks...), batch, heads, seqK, dk),
				tensors.FromFlatDataAndDimensions(flat32(vs...), batch, heads, seqK, dv),
				tensors.FromFlatDataAndDimensions(biasFlat, tc.dims...))
			out, w := tensors.MustCopyFlatData[float32](outs[0]), tensors.MustCopyFlatData[float32](outs[1])
			scores, biased := tensors.MustCopyFlatData[float32](outs[2]), tensors.MustCopyFlatData[float32](outs[3])
			for s := range batch * heads {
				bias := make([][]float64, seqQ)
				for i := range bias {
					for j := range seqK {
						bias[i] = append(bias[i], biasAt(s, i, j))
						at := (s*seqQ+i)*seqK + j
						if got, want := float64(biased[at]), float64(scores[at])/math.Sqrt(float64(dk))+bias[i][j]; math.Abs(got-want) > 1e-5 {
							t.Fatalf("slice %d: Scaled[%d][%d] = %g, want Scores/√d_k + bias = %g", s, i, j, got, want)
						}
					}
				}
				wantOut, wantW := refBiasedAttention(qs[s], ks[s], vs[s], bias, tc.masked)
				for i := range seqQ {
					for j := range seqK {
						if got := float64(w[(s*seqQ+i)*seqK+j]); math.Abs(got-wantW[i][j]) > tol {
							t.Errorf("slice %d weights[%d][%d] = %.7f, want %.7f", s, i, j, got, wantW[i][j])
						}
					}
					for d := range dv {
						if got := float64(out[(s*seqQ+i)*dv+d]); math.Abs(got-wantOut[i][d]) > 1e-5 {
							t.Errorf("slice %d output[%d][%d] = %.7f, want %.7f", s, i, d, got, wantOut[i][d])
						}
					}
				}
			}
		})
	}
}

// TestMultiHeadBiasMatchesReference: a [heads, seq_q, seq_k] bias given to
// MultiHead reaches each head's scores, after the split and the 1/√d_k.
func TestMultiHeadBiasMatchesReference(t *testing.T) {
	const heads, seq, d = 4, 5, 16
	r := random.New(5)
	x := r.Normal(seq, d)
	w := NewMultiHeadWeights(d, 8)
	for i := range w.BQ {
		w.BQ[i], w.BK[i], w.BV[i], w.BO[i] = 0.1*float64(i%3), -0.05*float64(i%2), 0.2, -0.1
	}
	bias := make([][][]float64, heads)
	var flat []float32
	for h := range bias {
		bias[h] = make([][]float64, seq)
		for i := range bias[h] {
			for j := range seq {
				v := -0.3 * float64((h+1)*(i-j)) // ALiBi-like: negative behind, positive ahead (masked)
				bias[h][i] = append(bias[h][i], v)
				flat = append(flat, float32(v))
			}
		}
	}
	causal := func(i, j int) bool { return j > i }
	outs := graph.MustExecOnceN(backend.Default(), func(x, b *graph.Node) []*graph.Node {
		out, weights := MultiHead(x, x, x, heads, w.Params(x.Graph())).WithMask(LookAheadMask(x.Graph(), seq)).WithBias(b).Done()
		return []*graph.Node{out, weights}
	}, tensors.FromFlatDataAndDimensions(flat32(x), 1, seq, d), tensors.FromFlatDataAndDimensions(flat, heads, seq, seq))
	wantOut, wantW := refMultiHeadWith(x, x, heads, w, causal, bias, nil)
	gotOut, gotW := tensors.MustCopyFlatData[float32](outs[0]), tensors.MustCopyFlatData[float32](outs[1])
	for i := range seq {
		for c := range d {
			if g := float64(gotOut[i*d+c]); math.Abs(g-wantOut[i][c]) > 1e-5 {
				t.Errorf("output[%d][%d] = %.7f, want %.7f", i, c, g, wantOut[i][c])
			}
		}
	}
	for h := range heads {
		for i := range seq {
			for j := range seq {
				if g := float64(gotW[(h*seq+i)*seq+j]); math.Abs(g-wantW[h][i][j]) > 1e-5 {
					t.Errorf("head %d weights[%d][%d] = %.7f, want %.7f", h, i, j, g, wantW[h][i][j])
				}
			}
		}
	}
}
