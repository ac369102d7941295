package attention

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/random"
)

// refProject returns x·w in float64 loops.
func refProject(x, w [][]float64) [][]float64 {
	y := make([][]float64, len(x))
	for i := range x {
		y[i] = make([]float64, len(w[0]))
		for o := range y[i] {
			for d := range x[i] {
				y[i][o] += x[i][d] * w[d][o]
			}
		}
	}
	return y
}

func TestExplainSelfAttentionMatchesReference(t *testing.T) {
	tests := []struct {
		name            string
		seq, d, dk, dv  int
		mask            [][]float64
		masked          func(i, j int) bool
		noScale         bool
		projectionScale float64
	}{
		{"square projections", 4, 6, 6, 6, nil, nil, false, 0.5},
		{"d_model 5 → d_k 3, d_v 2", 5, 5, 3, 2, nil, nil, false, 0.7},
		{"look-ahead mask", 4, 4, 2, 3, [][]float64{{0, 1, 1, 1}, {0, 0, 1, 1}, {0, 0, 0, 1}, {0, 0, 0, 0}},
			func(i, j int) bool { return j > i }, false, 0.6},
		{"one padding row for every query", 3, 4, 4, 4, [][]float64{{0, 0, 1}},
			func(i, j int) bool { return j == 2 }, false, 0.6},
	}
	for n, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := random.New(uint32(200 + n))
			x := r.Normal(tc.seq, tc.d)
			wq, wk := randomMatrix(r, tc.d, tc.dk, tc.projectionScale), randomMatrix(r, tc.d, tc.dk, tc.projectionScale)
			wv := randomMatrix(r, tc.d, tc.dv, tc.projectionScale)
			var opts *Options
			if tc.mask != nil {
				opts = &Options{Mask: tc.mask}
			}
			got, err := ExplainSelfAttention(x, wq, wk, wv, opts)
			if err != nil {
				t.Fatal(err)
			}
			q, k, v := refProject(x, wq), refProject(x, wk), refProject(x, wv)
			wantOut, wantW := refAttention(q, k, v, tc.masked)
			assertClose(t, "Q", got.Q, q, 1e-5)
			assertClose(t, "K", got.K, k, 1e-5)
			assertClose(t, "V", got.V, v, 1e-5)
			assertClose(t, "Weights", got.Weights, wantW, 1e-5)
			assertClose(t, "Output", got.Output, wantOut, 1e-5)
			// Scores are Q·Kᵀ, Scaled divides them by √d_k.
			for i := range q {
				for j := range k {
					var dot float64
					for d := range q[i] {
						dot += q[i][d] * k[j][d]
					}
					if math.Abs(got.Scores[i][j]-dot) > 1e-5 || math.Abs(got.Scaled[i][j]-dot/math.Sqrt(float64(tc.dk))) > 1e-5 {
						t.Errorf("Scores[%d][%d] = %g, Scaled = %g; want %g and %g", i, j, got.Scores[i][j], got.Scaled[i][j],
							dot, dot/math.Sqrt(float64(tc.dk)))
					}
				}
			}
		})
	}
}

// randomMatrix draws one d_in×d_out matrix of N(0, std²) from r, for
// tests that need projections of different widths.
func randomMatrix(r *random.Source, dIn, dOut int, std float64) [][]float64 {
	m := r.Normal(dIn, dOut)
	for _, row := range m {
		for j := range row {
			row[j] *= std
		}
	}
	return m
}

// The toy example of the source lesson: "the cat sat" with embeddings
// [0.1 0.2 0.3 0.4], [0.5 … 0.8], [0.9 … 1.2] and W ~ N(0, 0.1²) after
// np.random.seed(42). The numbers below were printed by numpy.
func TestExplainSelfAttentionToyMatchesNumpy(t *testing.T) {
	x := [][]float64{{0.1, 0.2, 0.3, 0.4}, {0.5, 0.6, 0.7, 0.8}, {0.9, 1.0, 1.1, 1.2}}
	wq, wk, wv := RandomProjections(4, 4, 0.1, 42)
	assertClose(t, "W_Q row 0", [][]float64{wq[0]}, [][]float64{{0.0496714153, -0.0138264301, 0.0647688538, 0.1523029856}}, 1e-9)
	assertClose(t, "W_V row 3", [][]float64{wv[3]}, [][]float64{{-0.147852199, -0.0719844208, -0.0460638771, 0.1057122226}}, 1e-9)
	got, err := ExplainSelfAttention(x, wq, wk, wv, nil)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "Weights", got.Weights, [][]float64{
		{0.3324748205, 0.3333325957, 0.3341925838},
		{0.3326699527, 0.333332893, 0.3339971543},
		{0.3328651233, 0.333333114, 0.3338017627},
	}, 2e-6)
	assertClose(t, "Output", got.Output, [][]float64{
		{-0.05476957, -0.2163025228, -0.0835847386, 0.0142435991},
		{-0.0547610607, -0.2162468153, -0.0835678362, 0.0142477854},
		{-0.0547525513, -0.2161911078, -0.0835509338, 0.0142519716},
	}, 2e-6)
}

func TestExplainSelfAttentionErrors(t *testing.T) {
	x := random.New(3).Normal(3, 4)
	w44, w43, w53 := random.New(4).Normal(4, 4), random.New(5).Normal(4, 3), random.New(6).Normal(5, 3)
	tests := []struct {
		name       string
		wq, wk, wv [][]float64
		opts       *Options
		want       string
	}{
		{"W_Q with the wrong number of rows", w53, w53, w44, nil, "W_Q has 5 rows, want 4"},
		{"d_k of W_Q and W_K differ", w44, w43, w44, nil, "same d_k"},
		{"mask of the wrong size", w44, w44, w44, &Options{Mask: [][]float64{{0, 1}}}, "Mask row 0 has 2 columns, want 3"},
		{"negative temperature", w44, w44, w44, &Options{Temperature: -1}, "Temperature"},
	}
	for _, tc := range tests {
		if _, err := ExplainSelfAttention(x, tc.wq, tc.wk, tc.wv, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

func TestRandomProjectionsScaleAndOrder(t *testing.T) {
	wq, wk, wv := RandomProjections(3, 2, 0.5, 7)
	r := random.New(7) // the same stream, drawn in the documented order
	for _, tc := range []struct {
		name string
		got  [][]float64
	}{{"W_Q", wq}, {"W_K", wk}, {"W_V", wv}} {
		want := r.Normal(3, 2)
		for i := range want {
			for j := range want[i] {
				if got := tc.got[i][j]; math.Abs(got-0.5*want[i][j]) > 1e-15 {
					t.Errorf("%s[%d][%d] = %g, want 0.5 × %g", tc.name, i, j, got, want[i][j])
				}
			}
		}
	}
}

func TestExplainMultiHeadBatchMatchesReference(t *testing.T) {
	tests := []struct {
		name             string
		batch, seq, d, h int
		mask             [][]float64
		masked           func(i, j int) bool
	}{
		{"batch 2, 4 heads", 2, 5, 8, 4, nil, nil},
		{"batch 3, one head, odd width", 3, 4, 5, 1, nil, nil},
		{"look-ahead mask", 2, 3, 6, 2, [][]float64{{0, 1, 1}, {0, 0, 1}, {0, 0, 0}}, func(i, j int) bool { return j > i }},
	}
	for n, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := random.New(uint32(300 + n))
			var x [][][]float64
			for range tc.batch {
				x = append(x, r.Normal(tc.seq, tc.d))
			}
			w := NewMultiHeadWeights(tc.d, uint32(n+1))
			for i := range w.BQ { // non-zero biases, so that a forgotten bias shows
				w.BQ[i], w.BK[i], w.BV[i], w.BO[i] = 0.05*float64(i%4), 0.1, -0.03*float64(i%3), 0.2
			}
			got, err := ExplainMultiHeadBatch(x, tc.h, w, tc.mask)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Output) != tc.batch || len(got.Weights) != tc.batch {
				t.Fatalf("got %d outputs and %d weights, want %d of each", len(got.Output), len(got.Weights), tc.batch)
			}
			for b := range x {
				wantOut, wantW := refMultiHead(x[b], x[b], tc.h, w, tc.masked)
				assertClose(t, fmt.Sprintf("Output[%d]", b), got.Output[b], wantOut, 1e-5)
				if len(got.Weights[b]) != tc.h {
					t.Fatalf("sequence %d: %d heads of weights, want %d", b, len(got.Weights[b]), tc.h)
				}
				for h := range wantW {
					assertClose(t, fmt.Sprintf("Weights[%d][%d]", b, h), got.Weights[b][h], wantW[h], 1e-5)
				}
			}
			if want := MultiHeadParamCount(tc.d, true); got.ParamCount != want {
				t.Errorf("ParamCount = %d, want %d", got.ParamCount, want)
			}
		})
	}
}

// The shapes of the source's test: batch 2, seq 10, d_model 64, 8 heads.
func TestExplainMultiHeadBatchShapes(t *testing.T) {
	r := random.New(42)
	x := [][][]float64{r.Normal(10, 64), r.Normal(10, 64)}
	res, err := ExplainMultiHeadBatch(x, 8, NewMultiHeadWeights(64, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"input    [2 10 64]", "Q        [2 10 64]", "K        [2 10 64]", "V        [2 10 64]",
		"Q heads  [2 8 10 8]", "K heads  [2 8 10 8]", "V heads  [2 8 10 8]", "weights  [2 8 10 10]",
		"heads    [2 8 10 8]", "concat   [2 10 64]", "output   [2 10 64]",
	}
	if len(res.Shapes) != len(want) {
		t.Fatalf("got %d shapes, want %d: %v", len(res.Shapes), len(want), res.Shapes)
	}
	for i, s := range res.Shapes {
		if s.String() != want[i] {
			t.Errorf("shape %d = %q, want %q", i, s.String(), want[i])
		}
	}
	if res.ParamCount != 4*64*64+4*64 {
		t.Errorf("ParamCount = %d, want 4·64² + 4·64 = %d", res.ParamCount, 4*64*64+4*64)
	}
}

func TestExplainMultiHeadBatchErrors(t *testing.T) {
	r := random.New(8)
	x := [][][]float64{r.Normal(3, 6), r.Normal(3, 6)}
	ragged := [][][]float64{r.Normal(3, 6), r.Normal(2, 6)}
	tests := []struct {
		name  string
		x     [][][]float64
		heads int
		w     *MultiHeadWeights
		mask  [][]float64
		want  string
	}{
		{"empty batch", nil, 2, NewMultiHeadWeights(6, 1), nil, "empty"},
		{"sequences of different lengths", ragged, 2, NewMultiHeadWeights(6, 1), nil, "pad them first"},
		{"heads do not divide d_model", x, 4, NewMultiHeadWeights(6, 1), nil, "divisible"},
		{"weights of another width", x, 2, NewMultiHeadWeights(8, 1), nil, "d_model = 6"},
		{"mask of the wrong size", x, 2, NewMultiHeadWeights(6, 1), [][]float64{{0, 1}, {0, 0}}, "mask has 2 rows, want 3"},
	}
	for _, tc := range tests {
		if _, err := ExplainMultiHeadBatch(tc.x, tc.heads, tc.w, tc.mask); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// The source's toy example: three words, their embeddings as rows of X,
// and untrained projections drawn like np.random.normal(0, 0.1, (4, 4))
// after np.random.seed(42). Small projections give tiny scores, so every
// word spreads its attention almost evenly over the three.
func ExampleExplainSelfAttention() {
	x := [][]float64{{0.1, 0.2, 0.3, 0.4}, {0.5, 0.6, 0.7, 0.8}, {0.9, 1.0, 1.1, 1.2}}
	wq, wk, wv := RandomProjections(4, 4, 0.1, 42)
	s, err := ExplainSelfAttention(x, wq, wk, wv, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("scores  %.5f\n", s.Scores)
	fmt.Printf("weights %.4f\n", s.Weights)
	// Output:
	// scores  [[0.00345 0.00861 0.01376] [0.00616 0.01014 0.01412] [0.00886 0.01167 0.01448]]
	// weights [[0.3325 0.3333 0.3342] [0.3327 0.3333 0.3340] [0.3329 0.3333 0.3338]]
}

func TestToyEmbeddings(t *testing.T) {
	x := ToyEmbeddings([]string{"The", "cat", "sat", "on", "the", "mat", "."}, 5, 9)
	r := random.New(9) // the vectors are drawn in order of first appearance
	want := map[int][]float64{0: r.Normal(1, 5)[0], 1: r.Normal(1, 5)[0], 2: r.Normal(1, 5)[0], 3: r.Normal(1, 5)[0]}
	want[4] = want[0] // "the" is "The"
	want[5], want[6] = r.Normal(1, 5)[0], r.Normal(1, 5)[0]
	if len(x) != 7 {
		t.Fatalf("got %d rows, want 7", len(x))
	}
	for i, row := range x {
		if fmt.Sprint(row) != fmt.Sprint(want[i]) {
			t.Errorf("row %d = %v, want %v", i, row, want[i])
		}
	}
	x[0][0] = 99 // rows are copies: changing one leaves its twin alone
	if x[4][0] == 99 {
		t.Error(`the rows of "The" and "the" share memory`)
	}
}
