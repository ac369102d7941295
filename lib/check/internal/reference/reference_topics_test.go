package reference

import (
	"math"
	"testing"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/posenc"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/transformer"
)

// These tests hold the references of lessons 03–05's exercises against
// the course library (float32 graphs, written separately) and against
// values worked out by hand.

func maxDiff(t *testing.T, name string, got, want [][]float64) float64 {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", name, len(got), len(want))
	}
	worst := 0.0
	for i := range got {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s: row %d has %d values, want %d", name, i, len(got[i]), len(want[i]))
		}
		for j := range got[i] {
			worst = math.Max(worst, math.Abs(got[i][j]-want[i][j]))
		}
	}
	return worst
}

func TestAttentionPatternsByHand(t *testing.T) {
	// Identity: diagonal 1, local 0, 1/n of the weights above 0.1,
	// entropy 0. Uniform 4×4: diagonal 1/4, local (1+2+2+1)/4·1/4,
	// sparse 1, entropy ln 4.
	uniform := [][]float64{{.25, .25, .25, .25}, {.25, .25, .25, .25}, {.25, .25, .25, .25}, {.25, .25, .25, .25}}
	tests := []struct {
		name                   string
		w                      [][]float64
		diag, local, sparse, e float64
	}{
		{"identity", [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, 1, 0, 1.0 / 3, 0},
		{"uniform", uniform, 0.25, 6.0 / 16, 1, math.Log(4)},
		{"one token", [][]float64{{1}}, 1, 0, 1, 0},
	}
	for _, tc := range tests {
		d, l, s, e := AttentionPatterns(tc.w, 0.1)
		if math.Abs(d-tc.diag) > 1e-12 || math.Abs(l-tc.local) > 1e-12 || math.Abs(s-tc.sparse) > 1e-12 || math.Abs(e[0]-tc.e) > 1e-12 {
			t.Errorf("%s: got %v %v %v %v, want %v %v %v %v", tc.name, d, l, s, e[0], tc.diag, tc.local, tc.sparse, tc.e)
		}
	}
}

func TestAttentionPatternsMatchesLibrary(t *testing.T) {
	x := attention.ToyEmbeddings([]string{"a", "b", "c", "d", "e"}, 16, 2)
	res, _ := attention.ExplainMultiHead(x, x, 2, attention.NewMultiHeadWeights(16, 3), &attention.Options{Mask: attention.LookAhead(5)})
	for h, w := range res.Weights {
		p, err := attention.AnalyzePattern(w, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		d, l, s, e := AttentionPatterns(w, 0.1)
		if math.Abs(d-p.Diagonal) > 1e-12 || math.Abs(l-p.Local) > 1e-12 || math.Abs(s-p.SparseRatio) > 1e-12 || maxDiff(t, "entropy", [][]float64{e}, [][]float64{p.Entropy}) > 1e-12 {
			t.Errorf("head %d: got %v %v %v %v, library %+v", h, d, l, s, e, p)
		}
	}
}

func TestLocalChunkedRelative(t *testing.T) {
	r := random.New(9)
	q, k, v := r.Normal(7, 4), r.Normal(7, 4), r.Normal(7, 3)
	full, err := attention.Explain(q, k, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	wide, _ := LocalAttention(q, k, v, 6)
	if d := maxDiff(t, "window 6", wide, full.Output); d > 1e-5 {
		t.Errorf("local attention with a window covering the sequence differs from full attention by %g", d)
	}
	band := make([][]float64, 7)
	for i := range band {
		band[i] = make([]float64, 7)
		for j := range band[i] {
			if abs(i-j) > 2 {
				band[i][j] = 1
			}
		}
	}
	masked, _ := attention.Explain(q, k, v, &attention.Options{Mask: band})
	local, weights := LocalAttention(q, k, v, 2)
	if d := maxDiff(t, "window 2", local, masked.Output); d > 1e-5 {
		t.Errorf("window 2 differs from the library's banded mask by %g", d)
	}
	if weights[0][3] != 0 || weights[6][3] != 0 {
		t.Errorf("weights outside the window: %v %v, want 0", weights[0][3], weights[6][3])
	}
	kCross, vCross := r.Normal(5, 4), r.Normal(5, 3)
	crossFull, _ := attention.Explain(q, kCross, vCross, nil)
	for _, chunk := range []int{1, 3, 7, 10} {
		if d := maxDiff(t, "chunked", ChunkedAttention(q, kCross, vCross, chunk), crossFull.Output); d > 1e-5 {
			t.Errorf("chunk %d differs from full attention by %g", chunk, d)
		}
	}
	// With zero relative embeddings, relative attention is attention.
	rel := make([][]float64, 5)
	for i := range rel {
		rel[i] = make([]float64, 4)
	}
	plain, _ := RelativeAttention(q, k, v, rel, 2)
	if d := maxDiff(t, "relative, zero embeddings", plain, full.Output); d > 1e-5 {
		t.Errorf("zero relative embeddings differ from attention by %g", d)
	}
	// Score of query 0, key 5 with maxDist 2 uses the row of distance +2
	// (index 4); worked out directly.
	rel = r.Normal(5, 4)
	_, w := RelativeAttention(q, k, v, rel, 2)
	scores := make([]float64, 7)
	sum := 0.0
	for j := range scores {
		a := rel[max(-2, min(2, j))+2]
		s := 0.0
		for c := range 4 {
			s += q[0][c] * (k[j][c] + a[c])
		}
		scores[j] = math.Exp(s / 2)
		sum += scores[j]
	}
	if math.Abs(w[0][5]-scores[5]/sum) > 1e-12 {
		t.Errorf("relative weight [0][5] = %v, want %v", w[0][5], scores[5]/sum)
	}
}

func TestPositionalEncodingMatchesLibrary(t *testing.T) {
	for _, c := range []struct{ seq, d int }{{4, 4}, {9, 7}, {1, 1}, {30, 64}} {
		if d := maxDiff(t, "pe", PositionalEncoding(c.seq, c.d, 100), posenc.Sinusoidal(c.seq, c.d, 100)); d > 1e-12 {
			t.Errorf("%d×%d: differs from posenc.Sinusoidal by %g", c.seq, c.d, d)
		}
	}
	// By hand: P(1, 2) = sin(1/100^(2/4)) = sin(0.1), P(3, 1) = cos 3.
	pe := PositionalEncoding(4, 4, 100)
	if pe[1][2] != math.Sin(0.1) || pe[3][1] != math.Cos(3) {
		t.Errorf("P(1,2) = %v, P(3,1) = %v, want sin 0.1 and cos 3", pe[1][2], pe[3][1])
	}
}

func TestAttentionFromTokensMatchesLibrary(t *testing.T) {
	ids := []int{3, 1, 4, 1, 5}
	m := posenc.NewTokenAttention(8, 6, 2)
	for _, mask := range []bool{false, true} {
		steps, err := m.Run(ids, &posenc.TokenOptions{LookAhead: mask})
		if err != nil {
			t.Fatal(err)
		}
		w, _ := AttentionFromTokens(ids, m.Embeddings, m.WQ, m.WK, m.WV, mask)
		if d := maxDiff(t, "weights", w, steps.Weights); d > 1e-5 {
			t.Errorf("mask %v: weights differ from posenc.TokenAttention by %g", mask, d)
		}
	}
}

func TestDecoderPiecesMatchLibrary(t *testing.T) {
	r := random.New(4)
	x, mem := r.Normal(5, 8), r.Normal(3, 8)
	mh := attention.NewMultiHeadWeights(8, 5)
	for _, causal := range []bool{false, true} {
		var mask [][]float64
		if causal {
			mask = attention.LookAhead(5)
		}
		lib, err := attention.ExplainMultiHead(x, x, 2, mh, &attention.Options{Mask: mask})
		if err != nil {
			t.Fatal(err)
		}
		if d := maxDiff(t, "multi-head", MultiHeadLayer(x, x, mh, 2, causal), lib.Output); d > 1e-4 {
			t.Errorf("causal %v: multi-head differs from the library by %g", causal, d)
		}
	}
	cross, _ := attention.ExplainMultiHead(x, mem, 2, mh, nil)
	if d := maxDiff(t, "cross", MultiHeadLayer(x, mem, mh, 2, false), cross.Output); d > 1e-4 {
		t.Errorf("cross-attention differs from the library by %g", d)
	}
	ffnW := transformer.NewFFNWeights(8, 16, 3)
	ffn, _ := transformer.ExplainFFN(x, ffnW)
	if d := maxDiff(t, "ffn", FFN(x, ffnW), ffn.Output); d > 1e-4 {
		t.Errorf("FFN differs from the library by %g", d)
	}
	ln := &transformer.LayerNormWeights{Gamma: []float64{1, 2, 1, 2, 1, 2, 1, 2}, Beta: []float64{0, 0, 1, 1, 0, 0, 1, 1}}
	lib, _ := transformer.LayerNormOf(x, ln)
	if d := maxDiff(t, "layernorm", LayerNorm(x, ln), lib); d > 1e-4 {
		t.Errorf("LayerNorm differs from the library by %g", d)
	}
	// The encoder layer is the decoder layer without its cross-attention:
	// with a zero cross-attention (all weights 0) and no mask, the
	// decoder's LN2 sees y + 0, so the output is EncoderLayer(x) passed
	// through one more LayerNorm — which changes nothing after a LayerNorm
	// with γ = 1, β = 0 (up to ε).
	enc := transformer.NewEncoderLayerWeights(8, 16, 6)
	zero := &attention.MultiHeadWeights{DModel: 8, WQ: zeros(8, 8), WK: zeros(8, 8), WV: zeros(8, 8), WO: zeros(8, 8)}
	dw := &DecoderWeights{Self: enc.Attention, Cross: zero, FFN: enc.FFN, Norm1: enc.Norm1, Norm2: transformer.NewLayerNormWeights(8), Norm3: enc.Norm2}
	encOut, err := transformer.ExplainEncoderLayer(x, 2, enc)
	if err != nil {
		t.Fatal(err)
	}
	got := DecoderLayer(x, mem, 2, dw, DecoderVariant{NoMask: true})
	if d := maxDiff(t, "decoder", got, encOut.Output); d > 1e-3 {
		t.Errorf("decoder without mask and cross-attention differs from the encoder layer by %g", d)
	}
}

func zeros(r, c int) [][]float64 {
	m := make([][]float64, r)
	for i := range m {
		m[i] = make([]float64, c)
	}
	return m
}

func TestPatchify(t *testing.T) {
	img := [][]float64{
		{0, 1, 2, 3},
		{4, 5, 6, 7},
		{8, 9, 10, 11},
		{12, 13, 14, 15},
	}
	got, err := Patchify(img, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}}
	if d := maxDiff(t, "patches", got, want); d != 0 {
		t.Errorf("Patchify = %v, want %v", got, want)
	}
	if _, err := Patchify(img, 3); err == nil {
		t.Error("Patchify(4×4, 3): no error")
	}
}
