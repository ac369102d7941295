package attention

import (
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/random"
)

// refMultiHead is multi-head attention in float64 loops (refMultiHeadWith
// without positions inside the attention: each head attends with
// refAttention).
func refMultiHead(q, kv [][]float64, heads int, w *MultiHeadWeights, masked func(i, j int) bool) (out [][]float64, weights [][][]float64) {
	return refMultiHeadWith(q, kv, heads, w, masked, nil, nil)
}

func TestExplainMultiHeadMatchesReference(t *testing.T) {
	tests := []struct {
		name             string
		seqQ, seqK, d, h int
		mask             [][]float64
		masked           func(i, j int) bool
	}{
		{"self-attention 8 heads", 5, 5, 16, 8, nil, nil},
		{"one head", 4, 4, 6, 1, nil, nil},
		{"cross-attention 3 queries over 6 keys", 3, 6, 12, 3, nil, nil},
		{"look-ahead mask", 4, 4, 8, 2, [][]float64{{0, 1, 1, 1}, {0, 0, 1, 1}, {0, 0, 0, 1}, {0, 0, 0, 0}},
			func(i, j int) bool { return j > i }},
		{"padding row shared by the queries", 3, 4, 8, 4, [][]float64{{0, 0, 1, 1}},
			func(i, j int) bool { return j >= 2 }},
	}
	for n, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := random.New(uint32(100 + n))
			q, kv := r.Normal(tc.seqQ, tc.d), r.Normal(tc.seqK, tc.d)
			w := NewMultiHeadWeights(tc.d, uint32(n))
			for i := range w.BQ { // non-zero biases, so that a forgotten bias shows
				w.BQ[i], w.BK[i], w.BV[i], w.BO[i] = 0.1*float64(i%3), -0.05*float64(i%2), 0.2, -0.1
			}
			var opts *Options
			if tc.mask != nil {
				opts = &Options{Mask: tc.mask}
			}
			got, err := ExplainMultiHead(q, kv, tc.h, w, opts)
			if err != nil {
				t.Fatal(err)
			}
			wantOut, wantW := refMultiHead(q, kv, tc.h, w, tc.masked)
			assertClose(t, "Output", got.Output, wantOut, 1e-5)
			if len(got.Weights) != tc.h {
				t.Fatalf("got %d heads of weights, want %d", len(got.Weights), tc.h)
			}
			for h := range wantW {
				assertClose(t, "Weights of head", got.Weights[h], wantW[h], 1e-5)
			}
		})
	}
}

func TestMultiHeadShapes(t *testing.T) {
	r := random.New(1)
	q, kv := r.Normal(10, 64), r.Normal(7, 64)
	res, err := ExplainMultiHead(q, kv, 8, NewMultiHeadWeights(64, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"input": "[1 10 64]", "Q": "[1 10 64]", "Q heads": "[1 8 10 8]", "K heads": "[1 8 7 8]",
		"weights": "[1 8 10 7]", "heads": "[1 8 10 8]", "concat": "[1 10 64]", "output": "[1 10 64]",
	}
	for _, s := range res.Shapes {
		if got := strings.TrimSpace(strings.TrimPrefix(s.String(), s.Name)); got != want[s.Name] {
			t.Errorf("shape of %q = %s, want %s", s.Name, got, want[s.Name])
		}
	}
	if len(res.Shapes) != len(want) {
		t.Errorf("got %d shapes, want %d", len(res.Shapes), len(want))
	}
}

func TestMultiHeadParamCount(t *testing.T) {
	tests := []struct {
		d    int
		bias bool
		want int
	}{
		{64, true, 16640},     // 4·64² + 4·64
		{512, true, 1050624},  // the base Transformer's attention layer
		{512, false, 1048576}, // 4·512²
	}
	for _, tc := range tests {
		if got := MultiHeadParamCount(tc.d, tc.bias); got != tc.want {
			t.Errorf("MultiHeadParamCount(%d, %v) = %d, want %d", tc.d, tc.bias, got, tc.want)
		}
	}
	// The weights NewMultiHeadWeights draws are exactly that many numbers.
	w := NewMultiHeadWeights(8, 1)
	n := 0
	for _, m := range [][][]float64{w.WQ, w.WK, w.WV, w.WO} {
		n += len(m) * len(m[0])
	}
	n += len(w.BQ) + len(w.BK) + len(w.BV) + len(w.BO)
	if n != MultiHeadParamCount(8, true) {
		t.Errorf("NewMultiHeadWeights(8) holds %d numbers, want %d", n, MultiHeadParamCount(8, true))
	}
}

func TestExplainMultiHeadErrors(t *testing.T) {
	r := random.New(2)
	x := r.Normal(3, 6)
	tests := []struct {
		name  string
		heads int
		w     *MultiHeadWeights
		want  string
	}{
		{"heads do not divide d_model", 4, NewMultiHeadWeights(6, 1), "divisible"},
		{"weights of another width", 2, NewMultiHeadWeights(8, 1), "d_model = 6"},
	}
	for _, tc := range tests {
		if _, err := ExplainMultiHead(x, x, tc.heads, tc.w, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}
