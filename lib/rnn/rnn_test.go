package rnn

import (
	"fmt"
	"math"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
)

// The reference cells below are written from the equations with float64
// loops over explicit gate matrices, independently of the fused graph code.

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// affine returns x·W[:, cols] + b[cols] for the column block k of width h.
func affine(x []float64, w [][]float64, b []float64, k, h int) []float64 {
	out := make([]float64, h)
	for j := range h {
		s := b[k*h+j]
		for i := range x {
			s += x[i] * w[i][k*h+j]
		}
		out[j] = s
	}
	return out
}

func refGRU(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64 {
	n := len(h)
	xr, xz, xn := affine(x, wx, bx, 0, n), affine(x, wx, bx, 1, n), affine(x, wx, bx, 2, n)
	hr, hz, hn := affine(h, wh, bh, 0, n), affine(h, wh, bh, 1, n), affine(h, wh, bh, 2, n)
	out := make([]float64, n)
	for j := range n {
		r := sigmoid(xr[j] + hr[j])
		z := sigmoid(xz[j] + hz[j])
		c := math.Tanh(xn[j] + r*hn[j])
		out[j] = (1-z)*c + z*h[j]
	}
	return out
}

func refLSTM(x, h, c []float64, wx, wh [][]float64, b []float64) (hn, cn []float64) {
	n := len(h)
	zero := make([]float64, 4*n)
	gate := func(k int) []float64 {
		a, r := affine(x, wx, b, k, n), affine(h, wh, zero, k, n)
		for j := range a {
			a[j] += r[j]
		}
		return a
	}
	i, f, g, o := gate(0), gate(1), gate(2), gate(3)
	hn, cn = make([]float64, n), make([]float64, n)
	for j := range n {
		cn[j] = sigmoid(f[j])*c[j] + sigmoid(i[j])*math.Tanh(g[j])
		hn[j] = sigmoid(o[j]) * math.Tanh(cn[j])
	}
	return hn, cn
}

func scaled(r *random.Source, rows, cols int, s float64) [][]float64 {
	m := r.Normal(rows, cols)
	for _, row := range m {
		for j := range row {
			row[j] *= s
		}
	}
	return m
}

func flat(m [][]float64) []float64 {
	var v []float64
	for _, row := range m {
		v = append(v, row...)
	}
	return v
}

func t2(m [][]float64) *tensors.Tensor {
	f := make([]float32, 0, len(m)*len(m[0]))
	for _, v := range flat(m) {
		f = append(f, float32(v))
	}
	return tensors.FromFlatDataAndDimensions(f, len(m), len(m[0]))
}

func t1(v []float64) *tensors.Tensor {
	f := make([]float32, len(v))
	for i, x := range v {
		f[i] = float32(x)
	}
	return tensors.FromFlatDataAndDimensions(f, len(v))
}

func t3(x [][][]float64) *tensors.Tensor {
	var f []float32
	for _, m := range x {
		for _, v := range flat(m) {
			f = append(f, float32(v))
		}
	}
	return tensors.FromFlatDataAndDimensions(f, len(x), len(x[0]), len(x[0][0]))
}

// Odd sizes, a batch of 2, sequences of different lengths (3 and 5 of 5)
// and weights large enough that no gate saturates at 0 or 1 or sits at 0.5.
const (
	batch, seq, in, hidden = 2, 5, 3, 4
)

var lengths = []int{3, 5}

func inputs(r *random.Source) [][][]float64 {
	x := make([][][]float64, batch)
	for b := range x {
		x[b] = r.Normal(seq, in)
	}
	return x
}

func maskTensor() *tensors.Tensor {
	m := make([]bool, 0, batch*seq)
	for _, n := range lengths {
		for t := range seq {
			m = append(m, t < n)
		}
	}
	return tensors.FromFlatDataAndDimensions(m, batch, seq)
}

func closeTo(t *testing.T, what string, got []float32, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(float64(got[i])-want[i]) > 1e-5 {
			t.Fatalf("%s[%d] = %.6f, want %.6f", what, i, got[i], want[i])
		}
	}
}

func TestGRULayerMatchesFloat64Loop(t *testing.T) {
	r := random.New(7)
	wx, wh := scaled(r, in, 3*hidden, 0.8), scaled(r, hidden, 3*hidden, 0.8)
	bx, bh := flat(scaled(r, 1, 3*hidden, 0.3)), flat(scaled(r, 1, 3*hidden, 0.3))
	x := inputs(r)
	h0 := scaled(r, batch, hidden, 0.5)

	for _, masked := range []bool{false, true} {
		t.Run(fmt.Sprintf("masked=%v", masked), func(t *testing.T) {
			// Reference: step by step; a padded step keeps the state.
			var wantOut, wantLast []float64
			for b := range batch {
				h := h0[b]
				for s := range seq {
					if !masked || s < lengths[b] {
						h = refGRU(x[b][s], h, wx, wh, bx, bh)
					}
					wantOut = append(wantOut, h...)
				}
				wantLast = append(wantLast, h...)
			}
			args := []any{t3(x), t2(h0), t2(wx), t2(wh), t1(bx), t1(bh)}
			if masked {
				args = append(args, maskTensor())
			}
			outs := graph.MustExecOnceN(backend.Default(), func(n []*graph.Node) []*graph.Node {
				var mask *graph.Node
				if len(n) == 7 {
					mask = n[6]
				}
				o, l := GRULayer(n[0], n[1], mask, GRUParams{Wx: n[2], Wh: n[3], Bx: n[4], Bh: n[5]})
				return []*graph.Node{o, l}
			}, args...)
			if got := outs[0].Shape().Dimensions; fmt.Sprint(got) != fmt.Sprint([]int{batch, seq, hidden}) {
				t.Fatalf("outputs shape = %v, want [%d %d %d]", got, batch, seq, hidden)
			}
			closeTo(t, "outputs", tensors.MustCopyFlatData[float32](outs[0]), wantOut)
			closeTo(t, "last", tensors.MustCopyFlatData[float32](outs[1]), wantLast)
		})
	}
}

func TestLSTMLayerMatchesFloat64Loop(t *testing.T) {
	r := random.New(11)
	wx, wh := scaled(r, in, 4*hidden, 0.8), scaled(r, hidden, 4*hidden, 0.8)
	b := flat(scaled(r, 1, 4*hidden, 0.3))
	x := inputs(r)
	for _, masked := range []bool{false, true} {
		t.Run(fmt.Sprintf("masked=%v", masked), func(t *testing.T) {
			var wantOut, wantLast []float64
			for e := range batch {
				h, c := make([]float64, hidden), make([]float64, hidden)
				for s := range seq {
					if !masked || s < lengths[e] {
						h, c = refLSTM(x[e][s], h, c, wx, wh, b)
					}
					wantOut = append(wantOut, h...)
				}
				wantLast = append(wantLast, h...)
			}
			args := []any{t3(x), t2(wx), t2(wh), t1(b)}
			if masked {
				args = append(args, maskTensor())
			}
			outs := graph.MustExecOnceN(backend.Default(), func(n []*graph.Node) []*graph.Node {
				var mask *graph.Node
				if len(n) == 5 {
					mask = n[4]
				}
				o, l := LSTMLayer(n[0], mask, LSTMParams{Wx: n[1], Wh: n[2], B: n[3]})
				return []*graph.Node{o, l}
			}, args...)
			closeTo(t, "outputs", tensors.MustCopyFlatData[float32](outs[0]), wantOut)
			closeTo(t, "last", tensors.MustCopyFlatData[float32](outs[1]), wantLast)
		})
	}
}

func TestGRUStepEqualsOneLayerStep(t *testing.T) {
	r := random.New(3)
	wx, wh := scaled(r, in, 3*hidden, 0.8), scaled(r, hidden, 3*hidden, 0.8)
	bx, bh := flat(scaled(r, 1, 3*hidden, 0.3)), flat(scaled(r, 1, 3*hidden, 0.3))
	x, h := scaled(r, batch, in, 1), scaled(r, batch, hidden, 0.5)
	var want []float64
	for e := range batch {
		want = append(want, refGRU(x[e], h[e], wx, wh, bx, bh)...)
	}
	out := graph.MustExecOnce(backend.Default(), func(n []*graph.Node) *graph.Node {
		return GRUStep(n[0], n[1], GRUParams{Wx: n[2], Wh: n[3], Bx: n[4], Bh: n[5]})
	}, t2(x), t2(h), t2(wx), t2(wh), t1(bx), t1(bh))
	closeTo(t, "h'", tensors.MustCopyFlatData[float32](out), want)
}

func TestNewParamsShapesAndRange(t *testing.T) {
	store := model.NewStore()
	store.SetParam(model.ParamInitialSeed, int64(1))
	outs := model.MustCallOnceN(backend.Default(), store, func(scope *model.Scope, x *graph.Node) []*graph.Node {
		g := x.Graph()
		gp := NewGRUParams(scope.In("gru"), g, 5, 8)
		lp := NewLSTMParams(scope.In("lstm"), g, 5, 8)
		return []*graph.Node{gp.Wx, gp.Wh, gp.Bh, lp.Wx, lp.B}
	}, float32(0))
	cases := []struct {
		name string
		dims string
	}{{"gru wx", "[5 24]"}, {"gru wh", "[8 24]"}, {"gru bh", "[24]"}, {"lstm wx", "[5 32]"}, {"lstm b", "[32]"}}
	limit := 1 / math.Sqrt(8)
	for i, c := range cases {
		if got := fmt.Sprint(outs[i].Shape().Dimensions); got != c.dims {
			t.Errorf("%s shape = %s, want %s", c.name, got, c.dims)
		}
		if i == 4 {
			continue
		}
		for _, v := range tensors.MustCopyFlatData[float32](outs[i]) {
			if math.Abs(float64(v)) > limit {
				t.Fatalf("%s entry %v outside ±1/√8 = ±%.3f", c.name, v, limit)
			}
		}
	}
	b := tensors.MustCopyFlatData[float32](outs[4])
	if b[0] != 0 || b[8] != 1 || b[16] != 0 {
		t.Errorf("lstm bias i, f, g = %v, %v, %v; want 0, 1 (forget gate), 0", b[0], b[8], b[16])
	}
}
