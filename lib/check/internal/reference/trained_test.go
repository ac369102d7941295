package reference

import (
	"math"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/classifier"
	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/rnn"
	"github.com/attention-in-go/course/lib/transformer"
)

// These tests hold the references of lessons 06–08's exercises against
// the course library's graph code (float32, written separately) run on
// the same inputs, and against values worked out by hand.

func scale(m [][]float64, s float64) [][]float64 {
	for _, row := range m {
		for j := range row {
			row[j] *= s
		}
	}
	return m
}

func bools(keep []bool) [][]float64 {
	row := make([]float64, len(keep))
	for i, k := range keep {
		if k {
			row[i] = 1
		}
	}
	return [][]float64{row}
}

// TestGRUMatchesLibrary runs lib/rnn's GRULayer (and so GRUStep's cell)
// on a batch of one and compares every state and the last with GRUEncode,
// which steps GRUStep: padding at the end and at the start.
func TestGRUMatchesLibrary(t *testing.T) {
	r := random.New(61)
	in, hidden, seq := 3, 4, 6
	wx, wh := scale(r.Normal(in, 3*hidden), 0.7), scale(r.Normal(hidden, 3*hidden), 0.7)
	bx, bh := scale(r.Normal(1, 3*hidden), 0.5)[0], scale(r.Normal(1, 3*hidden), 0.5)[0]
	xs := r.Normal(seq, in)
	for _, keep := range [][]bool{
		{true, true, true, true, true, true},
		{true, true, true, true, false, false},
		{false, false, true, true, true, true},
	} {
		states, last := GRUEncode(xs, keep, wx, wh, bx, bh, EncodeVariant{})
		outs := graph.MustExecOnceN(backend.Default(), func(n []*graph.Node) []*graph.Node {
			x := graph.InsertAxes(n[0], 0) // Shape: [seq, in] → [1, seq, in]
			o, l := rnn.GRULayer(x, nil, n[5], rnn.GRUParams{Wx: n[1], Wh: n[2], Bx: n[3], Bh: n[4]})
			return []*graph.Node{o, l}
		}, eager.Tensor(xs), eager.Tensor(wx), eager.Tensor(wh), eager.Vector(bx), eager.Vector(bh), eager.Bools(bools(keep)))
		if d := maxDiff(t, "states", states, eager.Matrix(outs[0])); d > 1e-5 {
			t.Errorf("keep %v: states differ from rnn.GRULayer by %g", keep, d)
		}
		if d := maxDiff(t, "last", [][]float64{last}, eager.Matrix(outs[1])); d > 1e-5 {
			t.Errorf("keep %v: last differs from rnn.GRULayer by %g", keep, d)
		}
	}
	// Every mistake differs from the library on these inputs.
	h := r.Normal(1, hidden)[0]
	right := GRUStep(xs[0], h, wx, wh, bx, bh, GRUVariant{})
	for _, v := range []GRUVariant{{SwapZ: true}, {ResetBefore: true}, {BiasOutside: true}, {NoBh: true}, {NoBx: true}, {GatesZR: true}} {
		if d := maxDiff(t, "variant", [][]float64{GRUStep(xs[0], h, wx, wh, bx, bh, v)}, [][]float64{right}); d < 1e-3 {
			t.Errorf("variant %+v equals the reference (max difference %g)", v, d)
		}
	}
}

// TestGRUByHand: with every weight 0 the gates are σ(b) and the candidate
// tanh(b_xn + r·b_hn); with in = hidden = 1 and biases b_x = (0, 0, 1),
// b_h = (0, 0, 1): r = z = ½, n = tanh(1 + ½), h' = ½·n + ½·h.
func TestGRUByHand(t *testing.T) {
	zero := [][]float64{{0, 0, 0}}
	got := GRUStep([]float64{5}, []float64{0.4}, zero, zero, []float64{0, 0, 1}, []float64{0, 0, 1}, GRUVariant{})
	want := 0.5*math.Tanh(1.5) + 0.5*0.4
	if math.Abs(got[0]-want) > 1e-12 {
		t.Errorf("GRUStep = %v, want %v", got[0], want)
	}
}

// TestBahdanauMatchesLibrary: attention.Attend with the additive score,
// the decoder states s_0 … s_{T−1} as the batch of queries and the
// padding as its mask, gives the reference's contexts and weights.
func TestBahdanauMatchesLibrary(t *testing.T) {
	r := random.New(71)
	steps, src, hidden, attn := 4, 6, 3, 5
	dec, enc := r.Normal(steps+1, hidden), r.Normal(src, hidden)
	keep := []bool{true, true, true, true, false, false}
	w := &attention.ScoreWeights{Kind: attention.Additive, W1: r.Normal(hidden, attn), W2: r.Normal(hidden, attn), V: r.Normal(1, attn)[0]}
	contexts, weights := BahdanauAttention(dec, enc, keep, w.W1, w.W2, w.V, BahdanauVariant{})
	keys := make([][][]float64, steps)
	mask := make([][]float64, steps)
	for i := range keys {
		keys[i] = enc
		mask[i] = []float64{0, 0, 0, 0, 1, 1}
	}
	lib, err := attention.Attend(dec[:steps], keys, keys, w, mask)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(t, "weights", weights, lib.Weights); d > 1e-5 {
		t.Errorf("weights differ from attention.Attend by %g", d)
	}
	if d := maxDiff(t, "contexts", contexts, lib.Context); d > 1e-5 {
		t.Errorf("contexts differ from attention.Attend by %g", d)
	}
	for i, row := range weights {
		if row[4] != 0 || row[5] != 0 {
			t.Errorf("step %d: padding weights %v %v, want 0", i, row[4], row[5])
		}
	}
	luong, _ := BahdanauAttention(dec, enc, keep, w.W1, w.W2, w.V, BahdanauVariant{Luong: true})
	libLuong, _ := attention.Attend(dec[1:], keys, keys, w, mask)
	if d := maxDiff(t, "Luong", luong, libLuong.Context); d > 1e-5 {
		t.Errorf("the Luong-order variant differs from attention.Attend on s_1 … s_T by %g", d)
	}
}

func TestSpanMassByHand(t *testing.T) {
	w := [][]float64{
		{0.5, 0.25, 0.25},
		{0.1, 0.6, 0.3},
		{0, 0, 1},
	}
	tests := []struct {
		name           string
		of, ot, sf, st int
		v              SpanVariant
		want           float64
	}{
		{"rows 0–1 on columns 0–1", 0, 2, 0, 2, SpanVariant{}, (0.75 + 0.7) / 2},
		{"row 2 on column 2", 2, 3, 2, 3, SpanVariant{}, 1},
		{"every row on every column", 0, 3, 0, 3, SpanVariant{}, 1},
		{"sum", 0, 2, 0, 2, SpanVariant{Sum: true}, 1.45},
		{"inclusive", 0, 1, 0, 1, SpanVariant{Inclusive: true}, (0.75 + 0.7) / 2},
		{"transposed", 0, 2, 1, 3, SpanVariant{Transposed: true}, (0.1 + 0 + 0.6 + 0) / 2},
	}
	for _, tc := range tests {
		if got := SpanMass(w, tc.of, tc.ot, tc.sf, tc.st, tc.v); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestPoolingMatchesLibrary runs lib/classifier's MaskedMean and
// MaskedMax and lib/transformer's [CLS] pooling on a batch that has a
// fully padded row.
func TestPoolingMatchesLibrary(t *testing.T) {
	r := random.New(81)
	seq, d := 5, 3
	keeps := [][]bool{{true, true, true, false, false}, {true, true, true, true, true}, {false, false, false, false, false}}
	x := make([][][]float64, len(keeps))
	var flat []float32
	var mask []bool
	for b := range x {
		x[b] = r.Normal(seq, d)
		for t := range x[b] {
			for i := range x[b][t] {
				x[b][t][i] -= 1 // mostly negative, so a max from 0 would show
				flat = append(flat, float32(x[b][t][i]))
			}
		}
		mask = append(mask, keeps[b]...)
	}
	outs := graph.MustExecOnceN(backend.Default(), func(n []*graph.Node) []*graph.Node {
		return []*graph.Node{classifier.MaskedMean(n[0], n[1]), classifier.MaskedMax(n[0], n[1])}
	}, tensors.FromFlatDataAndDimensions(flat, len(x), seq, d), tensors.FromFlatDataAndDimensions(mask, len(x), seq))
	libMean, libMax := eager.Matrix(outs[0]), eager.Matrix(outs[1])
	cls, err := transformer.PoolOf(x, transformer.PoolCLS)
	if err != nil {
		t.Fatal(err)
	}
	for b := range x {
		if d := maxDiff(t, "mean", [][]float64{MaskedMean(x[b], keeps[b], PoolVariant{})}, [][]float64{libMean[b]}); d > 1e-5 {
			t.Errorf("row %d: MaskedMean differs from classifier.MaskedMean by %g", b, d)
		}
		if d := maxDiff(t, "max", [][]float64{MaskedMax(x[b], keeps[b], PoolVariant{})}, [][]float64{libMax[b]}); d > 1e-5 {
			t.Errorf("row %d: MaskedMax differs from classifier.MaskedMax by %g", b, d)
		}
		if d := maxDiff(t, "cls", [][]float64{CLSPool(x[b])}, [][]float64{cls[b]}); d > 1e-5 {
			t.Errorf("row %d: CLSPool differs from transformer.PoolOf(PoolCLS) by %g", b, d)
		}
	}
	// By hand: tokens (1, −2), (3, −4) and padding (100, 100).
	hx := [][]float64{{1, -2}, {3, -4}, {100, 100}}
	keep := []bool{true, true, false}
	for name, c := range map[string]struct{ got, want []float64 }{
		"mean":             {MaskedMean(hx, keep, PoolVariant{}), []float64{2, -3}},
		"mean, full len":   {MaskedMean(hx, keep, PoolVariant{FullLength: true}), []float64{4.0 / 3, -2}},
		"max":              {MaskedMax(hx, keep, PoolVariant{}), []float64{3, -2}},
		"max from 0":       {MaskedMax(hx, keep, PoolVariant{ZeroInit: true}), []float64{3, 0}},
		"max with padding": {MaskedMax(hx, keep, PoolVariant{IncludePad: true}), []float64{100, 100}},
	} {
		if maxDiff(t, name, [][]float64{c.got}, [][]float64{c.want}) > 1e-12 {
			t.Errorf("%s: %v, want %v", name, c.got, c.want)
		}
	}
}
