package attention

import (
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
)

const tol = 2e-6 // float32 computation compared with float64 references

func assertClose(t *testing.T, what string, got, want [][]float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d rows, want %d", what, len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s row %d: got %d columns, want %d", what, i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			if d := math.Abs(got[i][j] - want[i][j]); !(d <= tol) {
				t.Errorf("%s[%d][%d] = %.7f, want %.7f", what, i, j, got[i][j], want[i][j])
			}
		}
	}
}

func TestExplainMatchesReference(t *testing.T) {
	// Small random entries: the scaled scores stay in a range where the
	// softmax is far from one-hot, so dividing by d_k, by nothing or by
	// √d_k gives clearly different weights.
	r := random.New(42)
	tests := []struct {
		name          string
		seqQ, seqK, d int
		dv            int
	}{
		{"3 tokens d=4 (lesson example)", 3, 3, 4, 4},
		{"one token", 1, 1, 4, 4},
		{"cross attention 2 queries over 5 keys", 2, 5, 8, 3},
		{"odd d_k", 4, 4, 7, 2},
		{"large d_k 64", 5, 6, 64, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, k, v := r.Normal(tc.seqQ, tc.d), r.Normal(tc.seqK, tc.d), r.Normal(tc.seqK, tc.dv)
			steps, err := Explain(q, k, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantOut, wantW := refAttention(q, k, v, nil)
			assertClose(t, "Weights", steps.Weights, wantW, tol)
			assertClose(t, "Output", steps.Output, wantOut, 1e-5)
			for i, row := range steps.Scores {
				for j := range row {
					if d := math.Abs(steps.Scaled[i][j] - steps.Scores[i][j]/math.Sqrt(float64(tc.d))); d > 1e-5 {
						t.Errorf("Scaled[%d][%d] = %g, want Scores/√%d = %g", i, j, steps.Scaled[i][j], tc.d, steps.Scores[i][j]/math.Sqrt(float64(tc.d)))
					}
				}
			}
		})
	}
}

func TestExplainHandComputed(t *testing.T) {
	// Two orthogonal unit queries and keys: scores are the identity, scaled
	// by 1/√2, so each query puts σ(1/√2) = 1/(1+e^(-1/√2)) ≈ 0.6698 on its
	// own key and the rest on the other one.
	q := [][]float64{{1, 0}, {0, 1}}
	v := [][]float64{{1, 2}, {3, 4}}
	steps, err := Explain(q, q, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	self := 1 / (1 + math.Exp(-1/math.Sqrt2))
	wantW := [][]float64{{self, 1 - self}, {1 - self, self}}
	assertClose(t, "Weights", steps.Weights, wantW, tol)
	wantOut := [][]float64{
		{self*1 + (1-self)*3, self*2 + (1-self)*4},
		{(1-self)*1 + self*3, (1-self)*2 + self*4},
	}
	assertClose(t, "Output", steps.Output, wantOut, 1e-5)
}

func TestWeightRowsSumToOne(t *testing.T) {
	r := random.New(3)
	q, k, v := r.Normal(6, 16), r.Normal(9, 16), r.Normal(9, 5)
	steps, err := Explain(q, k, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range steps.Weights {
		var sum float64
		for _, w := range row {
			sum += w
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("row %d of the weights sums to %g, want 1", i, sum)
		}
	}
}

func TestLookAhead(t *testing.T) {
	for _, n := range []int{1, 2, 5} {
		got := LookAhead(n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := 0.0
				if j > i { // a key after the query is in the future
					want = 1
				}
				if got[i][j] != want {
					t.Errorf("LookAhead(%d)[%d][%d] = %g, want %g (1 = masked; the diagonal must stay visible)", n, i, j, got[i][j], want)
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("LookAhead(0) did not panic")
		}
	}()
	LookAhead(0)
}

func TestMaskedAttention(t *testing.T) {
	r := random.New(5)
	q, k, v := r.Normal(5, 8), r.Normal(5, 8), r.Normal(5, 3)
	steps, err := Explain(q, k, v, &Options{Mask: LookAhead(5)})
	if err != nil {
		t.Fatal(err)
	}
	wantOut, wantW := refAttention(q, k, v, func(i, j int) bool { return j > i })
	assertClose(t, "Weights", steps.Weights, wantW, tol)
	assertClose(t, "Output", steps.Output, wantOut, 1e-5)
	for i := range steps.Weights {
		for j := i + 1; j < 5; j++ {
			if steps.Weights[i][j] != 0 {
				t.Errorf("masked weight [%d][%d] = %g, want exactly 0", i, j, steps.Weights[i][j])
			}
		}
	}
	if steps.Weights[0][0] != 1 {
		t.Errorf("the first query sees only itself: weight = %g, want exactly 1", steps.Weights[0][0])
	}
}

func TestPadding(t *testing.T) {
	tokens := [][]int{{5, 7, 9, 0, 0}, {3, 4, 0, 0, 0}, {8, 2, 6, 1, 4}}
	got, err := Padding(tokens, 0)
	if err != nil {
		t.Fatal(err)
	}
	for b, row := range tokens {
		for j, tok := range row {
			want := 0.0
			if tok == 0 {
				want = 1
			}
			if got[b][j] != want {
				t.Errorf("Padding[%d][%d] = %g for token %d, want %g", b, j, got[b][j], tok, want)
			}
		}
	}
	// One sequence's padding row masks the same keys for every query.
	r := random.New(8)
	x := r.Normal(5, 4)
	steps, err := Explain(x, x, x, &Options{Mask: got[1:2]})
	if err != nil {
		t.Fatal(err)
	}
	_, wantW := refAttention(x, x, x, func(i, j int) bool { return tokens[1][j] == 0 })
	assertClose(t, "Weights with a padding row", steps.Weights, wantW, tol)
	if _, err := Padding([][]int{{1, 2}, {3}}, 0); err == nil || !strings.Contains(err.Error(), "pad every sequence") {
		t.Errorf("ragged batch: got error %v, want one that says to pad", err)
	}
}

func TestFullyMaskedRowIsDefined(t *testing.T) {
	r := random.New(9)
	q, k, v := r.Normal(2, 4), r.Normal(3, 4), r.Normal(3, 2)
	mask := [][]float64{{0, 0, 1}, {1, 1, 1}} // the second query sees nothing
	steps, err := Explain(q, k, v, &Options{Mask: mask})
	if err != nil {
		t.Fatal(err)
	}
	wantOut, wantW := refAttention(q, k, v, func(i, j int) bool { return mask[i][j] != 0 })
	assertClose(t, "Weights", steps.Weights, wantW, tol)
	assertClose(t, "Output", steps.Output, wantOut, 1e-5)
}

func TestSoftmax(t *testing.T) {
	tests := []struct {
		name   string
		logits []float64
		temp   float64
		want   []float64
	}{
		{"plain", []float64{1, 2, 3}, 1, refSoftmax([]float64{1, 2, 3}, 1)},
		{"huge logits stay finite", []float64{1000, 1001, 1002}, 1, refSoftmax([]float64{0, 1, 2}, 1)},
		{"very negative logits", []float64{-1000, -1001, -1002}, 1, refSoftmax([]float64{0, -1, -2}, 1)},
		{"temperature 2 flattens", []float64{1, 2, 3}, 2, refSoftmax([]float64{1, 2, 3}, 2)},
		{"temperature 0.5 sharpens", []float64{1, 2, 3}, 0.5, refSoftmax([]float64{1, 2, 3}, 0.5)},
		{"single logit", []float64{7}, 1, []float64{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SoftmaxOf(tc.logits, tc.temp)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "softmax", [][]float64{got}, [][]float64{tc.want}, tol)
		})
	}
	for _, bad := range []float64{0, -1, math.NaN()} {
		if _, err := SoftmaxOf([]float64{1, 2}, bad); err == nil {
			t.Errorf("SoftmaxOf with temperature %g returned no error", bad)
		}
	}
}

func TestTemperatureInExplain(t *testing.T) {
	r := random.New(11)
	q, k, v := r.Normal(3, 4), r.Normal(3, 4), r.Normal(3, 4)
	steps, err := Explain(q, k, v, &Options{Temperature: 2})
	if err != nil {
		t.Fatal(err)
	}
	base, err := Explain(q, k, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range base.Scaled {
		want := refSoftmax(base.Scaled[i], 2)
		assertClose(t, "Weights at T=2", [][]float64{steps.Weights[i]}, [][]float64{want}, tol)
	}
}

// TestGraphBatchAndHeads runs the graph function on [batch, heads, seq, d]
// inputs with a [seq, seq] mask that must broadcast, and checks every
// (batch, head) slice against the reference.
func TestGraphBatchAndHeads(t *testing.T) {
	const batch, heads, seq, dk, dv = 2, 3, 4, 5, 2
	r := random.New(21)
	flat := func(d int) ([]float32, [][][]float64) {
		var f []float32
		var slices [][][]float64
		for s := 0; s < batch*heads; s++ {
			m := r.Normal(seq, d)
			slices = append(slices, m)
			for _, row := range m {
				for _, x := range row {
					f = append(f, float32(x))
				}
			}
		}
		return f, slices
	}
	qf, qs := flat(dk)
	kf, ks := flat(dk)
	vf, vs := flat(dv)
	q := tensors.FromFlatDataAndDimensions(qf, batch, heads, seq, dk)
	k := tensors.FromFlatDataAndDimensions(kf, batch, heads, seq, dk)
	v := tensors.FromFlatDataAndDimensions(vf, batch, heads, seq, dv)
	outs := graph.MustExecOnceN(backend.Default(), func(q, k, v *graph.Node) []*graph.Node {
		out, w := ScaledDotProduct(q, k, v).WithMask(LookAheadMask(q.Graph(), seq)).Done()
		return []*graph.Node{out, w}
	}, q, k, v)
	if got := outs[0].Shape().Dimensions; len(got) != 4 || got[3] != dv {
		t.Fatalf("output shape %v, want [%d %d %d %d]", got, batch, heads, seq, dv)
	}
	out := tensors.MustCopyFlatData[float32](outs[0])
	w := tensors.MustCopyFlatData[float32](outs[1])
	for s := 0; s < batch*heads; s++ {
		wantOut, wantW := refAttention(qs[s], ks[s], vs[s], func(i, j int) bool { return j > i })
		for i := 0; i < seq; i++ {
			for j := 0; j < seq; j++ {
				if got := float64(w[(s*seq+i)*seq+j]); math.Abs(got-wantW[i][j]) > tol {
					t.Errorf("slice %d weights[%d][%d] = %g, want %g", s, i, j, got, wantW[i][j])
				}
			}
			for d := 0; d < dv; d++ {
				if got := float64(out[(s*seq+i)*dv+d]); math.Abs(got-wantOut[i][d]) > 1e-5 {
					t.Errorf("slice %d output[%d][%d] = %g, want %g", s, i, d, got, wantOut[i][d])
				}
			}
		}
	}
}

func TestPaddingMaskGraphBroadcastsOverQueries(t *testing.T) {
	tokens := tensors.FromValue([][]int32{{4, 2, 0}, {7, 0, 0}})
	r := random.New(2)
	x := r.Normal(6, 4)
	var xf []float32
	for _, row := range x {
		for _, v := range row {
			xf = append(xf, float32(v))
		}
	}
	xs := tensors.FromFlatDataAndDimensions(xf, 2, 3, 4)
	w := graph.MustExecOnce(backend.Default(), func(tok, x *graph.Node) *graph.Node {
		_, w := ScaledDotProduct(x, x, x).WithMask(PaddingMask(tok, 0)).Done()
		return w
	}, tokens, xs)
	got := tensors.MustCopyFlatData[float32](w) // [2, 3, 3]
	pads := [][]bool{{false, false, true}, {false, true, true}}
	for b := 0; b < 2; b++ {
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				if g := got[(b*3+i)*3+j]; pads[b][j] && g != 0 {
					t.Errorf("batch %d query %d gives weight %g to padding key %d, want 0", b, i, g, j)
				}
			}
		}
	}
}

func TestExplainShapeErrors(t *testing.T) {
	r := random.New(1)
	q, k, v := r.Normal(3, 4), r.Normal(3, 4), r.Normal(3, 2)
	tests := []struct {
		name    string
		q, k, v [][]float64
		opts    *Options
		want    string
	}{
		{"d_k differs", q, r.Normal(3, 5), v, nil, "d_k = 4"},
		{"v rows differ from keys", q, k, r.Normal(2, 2), nil, "one row per key"},
		{"ragged q", [][]float64{{1, 2}, {3}}, k, v, nil, "row 1"},
		{"mask wrong size", q, k, v, &Options{Mask: [][]float64{{0, 1}, {1, 0}}}, "Mask has 2 rows, want 3"},
		{"mask row wrong width", q, k, v, &Options{Mask: [][]float64{{0, 1}}}, "row 0 has 2 columns, want 3"},
		{"negative temperature", q, k, v, &Options{Temperature: -1}, "Temperature must be > 0"},
		{"empty q", nil, k, v, nil, "Q is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Explain(tc.q, tc.k, tc.v, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Explain error = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestDotProductVariance(t *testing.T) {
	for _, dk := range []int{1, 16, 256} {
		raw, scaled, err := DotProductVariance(dk, 20000, 1)
		if err != nil {
			t.Fatal(err)
		}
		// Var(q·k) = d_k; the sample variance of 20000 draws is within a few % of it.
		if math.Abs(raw/float64(dk)-1) > 0.08 {
			t.Errorf("d_k=%d: Var(q·k) = %.3f, want ≈ %d", dk, raw, dk)
		}
		if math.Abs(scaled-1) > 0.08 {
			t.Errorf("d_k=%d: Var(q·k/√d_k) = %.3f, want ≈ 1", dk, scaled)
		}
	}
}

func TestSaturation(t *testing.T) {
	unscaled, scaled, err := Saturation(512, 10, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if unscaled < 0.95 {
		t.Errorf("d_k=512 without scale: mean max weight %.3f, want a saturated softmax (≥ 0.95)", unscaled)
	}
	if scaled > 0.7 {
		t.Errorf("d_k=512 with scale: mean max weight %.3f, want a spread softmax (≤ 0.7)", scaled)
	}
	u1, s1, err := Saturation(1, 10, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(u1-s1) > 1e-6 {
		t.Errorf("d_k=1: √d_k = 1 so scaled (%g) and unscaled (%g) must agree", s1, u1)
	}
}
