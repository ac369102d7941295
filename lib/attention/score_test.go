package attention

import (
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// This file checks the Bahdanau and Luong scores of score.go against an
// independent float64 reference written with plain loops, in the papers'
// notation: W·h means Σ_i h_i·W[i][a] with the course's row-vector storage.

// refScore returns score(q, k) for one query and one key.
func refScore(w *ScoreWeights, q, k []float64) float64 {
	// vᵀ·tanh(x) for a pre-activation x [attn].
	vTanh := func(x []float64) float64 {
		var s float64
		for a := range x {
			s += w.V[a] * math.Tanh(x[a])
		}
		return s
	}
	switch w.Kind {
	case Additive: // vᵀ tanh(W1 h_t + W2 h_s)
		x := make([]float64, len(w.V))
		for a := range x {
			for i := range q {
				x[a] += q[i] * w.W1[i][a]
			}
			for j := range k {
				x[a] += k[j] * w.W2[j][a]
			}
		}
		return vTanh(x)
	case Dot: // h_tᵀ h_s
		var s float64
		for i := range q {
			s += q[i] * k[i]
		}
		return s
	case General: // h_tᵀ W h_s
		var s float64
		for i := range q {
			for j := range k {
				s += q[i] * w.W[i][j] * k[j]
			}
		}
		return s
	case Concat: // vᵀ tanh(W [h_t; h_s])
		pair := append(append([]float64{}, q...), k...)
		x := make([]float64, len(w.V))
		for a := range x {
			for i := range pair {
				x[a] += pair[i] * w.W[i][a]
			}
		}
		return vTanh(x)
	}
	panic("refScore: unknown kind " + string(w.Kind))
}

// refAlign returns the scores, weights and context of every query row b
// over its keys[b] and values[b]; mask[b][s] != 0 hides position s (a row
// with every position hidden gets uniform weights, like the -1e9 fill).
func refAlign(w *ScoreWeights, query [][]float64, keys, values [][][]float64, mask [][]float64) (scores, weights, context [][]float64) {
	for b := range query {
		row := make([]float64, len(keys[b]))
		var kept []float64
		var keptAt []int
		for s := range keys[b] {
			row[s] = refScore(w, query[b], keys[b][s])
			if mask == nil || mask[b][s] == 0 {
				kept, keptAt = append(kept, row[s]), append(keptAt, s)
			}
		}
		wt := make([]float64, len(row))
		if len(kept) == 0 {
			for s := range wt {
				wt[s] = 1 / float64(len(wt))
			}
		} else {
			for n, a := range refSoftmax(kept, 1) {
				wt[keptAt[n]] = a
			}
		}
		c := make([]float64, len(values[b][0]))
		for s, a := range wt {
			for d := range c {
				c[d] += a * values[b][s][d]
			}
		}
		scores, weights, context = append(scores, row), append(weights, wt), append(context, c)
	}
	return scores, weights, context
}

// scoreInputs draws a batch of 3 queries [3][hq], keys [3][seq][hk] and
// values [3][seq][hv].
func scoreInputs(r *random.Source, seq, hq, hk, hv int) (query [][]float64, keys, values [][][]float64) {
	query = r.Normal(3, hq)
	for range 3 {
		keys = append(keys, r.Normal(seq, hk))
		values = append(values, r.Normal(seq, hv))
	}
	return query, keys, values
}

func TestScoresMatchReference(t *testing.T) {
	// Query and key sizes differ (5 and 3) and the attention size is a
	// third number (4), so a transposed or swapped matrix cannot go
	// unnoticed; the dot score needs equal sizes and gets 4 and 4. Row 1
	// has two padded positions, row 2 is all padding.
	mask := [][]float64{{0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 1, 1}, {1, 1, 1, 1, 1, 1}}
	tests := []struct {
		kind         ScoreKind
		hq, hk, attn int
		std          float64
	}{
		{Additive, 5, 3, 4, 0.7},
		{Dot, 4, 4, 0, 0},
		{General, 5, 3, 0, 0.5},
		{Concat, 5, 3, 4, 0.7},
	}
	for _, tc := range tests {
		for _, withMask := range []bool{false, true} {
			name := string(tc.kind)
			var m [][]float64
			if withMask {
				name, m = name+" with padding", mask
			}
			t.Run(name, func(t *testing.T) {
				r := random.New(17)
				query, keys, values := scoreInputs(r, 6, tc.hq, tc.hk, 2)
				w := DrawScoreWeights(r, tc.kind, tc.hq, tc.hk, tc.attn, tc.std)
				got, err := Attend(query, keys, values, w, m)
				if err != nil {
					t.Fatal(err)
				}
				wantS, wantW, wantC := refAlign(w, query, keys, values, m)
				assertClose(t, "Scores", got.Scores, wantS, 1e-5)
				assertClose(t, "Weights", got.Weights, wantW, tol)
				assertClose(t, "Context", got.Context, wantC, 1e-5)
				if len(got.Context) != 3 || len(got.Context[0]) != 2 || len(got.Weights[0]) != 6 {
					t.Errorf("shapes: context [%d][%d], weights [%d][%d], want [3][2] and [3][6]",
						len(got.Context), len(got.Context[0]), len(got.Weights), len(got.Weights[0]))
				}
				for b, row := range got.Weights {
					if s := sum(row); math.Abs(s-1) > 1e-5 {
						t.Errorf("weights of row %d sum to %g, want 1", b, s)
					}
					for s, a := range row {
						if m != nil && m[b][s] != 0 && b < 2 && a != 0 {
							t.Errorf("padded position [%d][%d] has weight %g, want exactly 0", b, s, a)
						}
					}
				}
			})
		}
	}
}

func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

func TestScoresAreNotSaturated(t *testing.T) {
	// The reference comparison above only means something if the weights
	// are spread out: a one-hot softmax hides errors in the scores.
	r := random.New(17)
	query, keys, values := scoreInputs(r, 6, 5, 3, 2)
	w := DrawScoreWeights(r, General, 5, 3, 0, 0.5)
	got, err := Attend(query, keys, values, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	for b, row := range got.Weights {
		if m := max(row[0], row[1], row[2], row[3], row[4], row[5]); m > 0.9 {
			t.Errorf("row %d: largest weight %g: the test inputs saturate the softmax", b, m)
		}
	}
}

func TestConcatIsAdditiveWithStackedW(t *testing.T) {
	// W·[h_t; h_s] = W_top·h_t + W_bottom·h_s: concat with W = [W1; W2]
	// gives the additive score.
	r := random.New(5)
	query, keys, values := scoreInputs(r, 4, 3, 5, 3)
	add := DrawScoreWeights(r, Additive, 3, 5, 2, 0.8)
	cat := &ScoreWeights{Kind: Concat, W: append(append([][]float64{}, add.W1...), add.W2...), V: add.V}
	a, err := Attend(query, keys, values, add, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Attend(query, keys, values, cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "concat scores vs additive scores", c.Scores, a.Scores, 1e-5)
}

func TestGeneralWithIdentityIsDot(t *testing.T) {
	r := random.New(6)
	query, keys, values := scoreInputs(r, 5, 4, 4, 4)
	eye := make([][]float64, 4)
	for i := range eye {
		eye[i] = make([]float64, 4)
		eye[i][i] = 1
	}
	g, err := Attend(query, keys, values, &ScoreWeights{Kind: General, W: eye}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Attend(query, keys, values, &ScoreWeights{Kind: Dot}, nil)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "general(W = I) vs dot", g.Scores, d.Scores, 1e-5)
}

func TestAlignHandComputed(t *testing.T) {
	// Decoder state (1, 0) against keys (1, 0), (0, 1), (1, 1): dot scores
	// 1, 0, 1; weights e/(2e+1), 1/(2e+1), e/(2e+1); context = weighted
	// sum of the keys.
	e := math.E
	wa, wb := e/(2*e+1), 1/(2*e+1)
	got, err := Align([][]float64{{1, 0}}, [][]float64{{1, 0}, {0, 1}, {1, 1}}, &ScoreWeights{Kind: Dot})
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "Scores", got.Scores, [][]float64{{1, 0, 1}}, 1e-6)
	assertClose(t, "Weights", got.Weights, [][]float64{{wa, wb, wa}}, tol)
	assertClose(t, "Context", got.Context, [][]float64{{2 * wa, wb + wa}}, 1e-6)
}

// The two walk-throughs of lesson 02, with the numbers numpy prints for the
// source lesson's code (np.random.seed(42), draws in the same order).
func TestWalkThroughsMatchNumpy(t *testing.T) {
	t.Run("Luong general, My name is John", func(t *testing.T) {
		r := random.New(42)
		enc, dec := r.Normal(4, 6), r.Normal(1, 6)
		w := DrawScoreWeights(r, General, 6, 6, 0, 0.1) // np.random.normal(0, 0.1, (6, 6))
		got, err := Align(dec, enc, w)
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, "Scores", got.Scores, [][]float64{{0.5165228, -0.0711004, -0.1274097, 0.7833753}}, 1e-5)
		assertClose(t, "Weights", got.Weights, [][]float64{{0.2952712, 0.1640664, 0.1550832, 0.3855792}}, 1e-5)
		assertClose(t, "Context", got.Context, [][]float64{{0.0931702, -0.7561878, 0.4118368, 0.3644667, -0.2762056, -0.6461633}}, 1e-5)
	})
	t.Run("dot, I drink milk", func(t *testing.T) {
		r := random.New(42)
		enc, dec := r.Normal(3, 8), r.Normal(1, 8)
		got, err := Align(dec, enc, &ScoreWeights{Kind: Dot})
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, "Scores", got.Scores, [][]float64{{0.2211924, 1.0833145, -2.3933749}}, 1e-5)
		assertClose(t, "Weights", got.Weights, [][]float64{{0.2905811, 0.6881485, 0.0212704}}, 1e-5)
		assertClose(t, "Context", got.Context,
			[][]float64{{-0.2002757, 0.3398691, -0.1500082, 0.0920322, 0.1296403, -1.3894591, -0.726674, -0.1942403}}, 1e-5)
	})
}

func TestAlignRowsAreDecoderSteps(t *testing.T) {
	// Every row of Align is the same as aligning that decoder state alone.
	r := random.New(8)
	enc, dec := r.Normal(5, 3), r.Normal(4, 3)
	w := DrawScoreWeights(r, Additive, 3, 3, 6, 0)
	all, err := Align(dec, enc, w)
	if err != nil {
		t.Fatal(err)
	}
	for i := range dec {
		one, err := Align(dec[i:i+1], enc, w)
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, "row of Align", all.Weights[i:i+1], one.Weights, 1e-6)
	}
}

func TestContextWithPaddingMaskGraph(t *testing.T) {
	// The [batch, 1, seq] mask of PaddingMask works directly.
	scores := tensors.FromFlatDataAndDimensions([]float32{1, 2, 3, 4, 0.5, -1, 2, 0}, 2, 4)
	values := tensors.FromFlatDataAndDimensions([]float32{1, 0, 0, 1, 1, 1, 2, 2, 3, 0, 0, 3, -1, 1, 5, 5}, 2, 4, 2)
	tokens := tensors.FromFlatDataAndDimensions([]int32{7, 8, 9, 0, 4, 5, 0, 0}, 2, 4)
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		c, w := Context(in[0], in[1], PaddingMask(in[2], 0))
		return []*graph.Node{c, w}
	}, scores, values, tokens)
	if err != nil {
		t.Fatal(err)
	}
	// By hand: the softmax over the unpadded positions, 0 on the padding.
	w0, w1 := refSoftmax([]float64{1, 2, 3}, 1), refSoftmax([]float64{0.5, -1}, 1)
	wantWeights := [][]float64{{w0[0], w0[1], w0[2], 0}, {w1[0], w1[1], 0, 0}}
	wantContext := [][]float64{
		{w0[0]*1 + w0[1]*0 + w0[2]*1, w0[0]*0 + w0[1]*1 + w0[2]*1},
		{w1[0]*3 + w1[1]*0, w1[0]*0 + w1[1]*3},
	}
	assertClose(t, "Weights", eager.Matrix(outs[1]), wantWeights, tol)
	assertClose(t, "Context", eager.Matrix(outs[0]), wantContext, 1e-6)
}

func TestScoreWeightsDraw(t *testing.T) {
	t.Run("order and explicit std", func(t *testing.T) {
		w := DrawScoreWeights(random.New(3), Additive, 2, 3, 4, 0.5)
		r := random.New(3)
		w1, w2, v := r.Normal(2, 4), r.Normal(3, 4), r.Normal(4, 1)
		for i := range w1 {
			for a := range w1[i] {
				if w.W1[i][a] != 0.5*w1[i][a] {
					t.Fatalf("W1[%d][%d] = %g, want 0.5·%g (drawn first)", i, a, w.W1[i][a], w1[i][a])
				}
			}
		}
		for j := range w2 {
			for a := range w2[j] {
				if w.W2[j][a] != 0.5*w2[j][a] {
					t.Fatalf("W2[%d][%d] = %g, want 0.5·%g (drawn second)", j, a, w.W2[j][a], w2[j][a])
				}
			}
		}
		for a := range v {
			if w.V[a] != 0.5*v[a][0] {
				t.Fatalf("V[%d] = %g, want 0.5·%g (drawn last)", a, w.V[a], v[a][0])
			}
		}
	})
	t.Run("default std is 1/√fan_in", func(t *testing.T) {
		// General W [hidden_q = 2][hidden_k = 9]: fan_in 9, so 1/3.
		w := DrawScoreWeights(random.New(4), General, 2, 9, 0, 0)
		n := random.New(4).Normal(2, 9)
		if got, want := w.W[1][5], n[1][5]/3; math.Abs(got-want) > 1e-15 {
			t.Errorf("general W[1][5] = %g, want %g/3", got, n[1][5])
		}
		// Concat W [2 + 3][4]: fan_in 5; V [4]: fan_in 4.
		c := DrawScoreWeights(random.New(4), Concat, 2, 3, 4, 0)
		r := random.New(4)
		cw, cv := r.Normal(5, 4), r.Normal(4, 1)
		if got, want := c.W[4][3], cw[4][3]/math.Sqrt(5); math.Abs(got-want) > 1e-15 {
			t.Errorf("concat W[4][3] = %g, want %g", got, want)
		}
		if got, want := c.V[2], cv[2][0]/2; math.Abs(got-want) > 1e-15 {
			t.Errorf("concat V[2] = %g, want %g", got, want)
		}
	})
	t.Run("parameter counts", func(t *testing.T) {
		for _, tc := range []struct {
			w    *ScoreWeights
			want int
		}{
			{NewScoreWeights(Additive, 64, 1), 2*64*64 + 64},
			{NewScoreWeights(Dot, 64, 1), 0},
			{NewScoreWeights(General, 64, 1), 64 * 64},
			{NewScoreWeights(Concat, 64, 1), 128*64 + 64},
			{DrawScoreWeights(random.New(1), Additive, 5, 3, 4, 0), 5*4 + 3*4 + 4},
			{DrawScoreWeights(random.New(1), General, 5, 3, 0, 0), 15},
			{DrawScoreWeights(random.New(1), Concat, 5, 3, 4, 0), 8*4 + 4},
		} {
			if got := tc.w.NumParams(); got != tc.want {
				t.Errorf("%s NumParams() = %d, want %d", tc.w.Kind, got, tc.want)
			}
		}
	})
	t.Run("panics", func(t *testing.T) {
		for _, f := range []func(){
			func() { DrawScoreWeights(random.New(1), Dot, 3, 4, 0, 0) },
			func() { DrawScoreWeights(random.New(1), Additive, 3, 3, 0, 0) },
			func() { DrawScoreWeights(random.New(1), "cosine", 3, 3, 3, 0) },
			func() { NewScoreWeights(General, 0, 1) },
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Error("invalid sizes or kind did not panic")
					}
				}()
				f()
			}()
		}
	})
}

func TestAttendErrors(t *testing.T) {
	r := random.New(2)
	q, k, v := scoreInputs(r, 4, 3, 3, 2)
	ragged := [][][]float64{k[0], k[1], k[2][:3]}
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"nil weights", func() error { _, err := Attend(q, k, v, nil, nil); return err }, "NewScoreWeights"},
		{"ragged batch", func() error { _, err := Attend(q, ragged, v, &ScoreWeights{Kind: Dot}, nil); return err }, "pad them first"},
		{"values of another length", func() error { _, err := Attend(q, k, ragged, &ScoreWeights{Kind: Dot}, nil); return err }, "one vector per key"},
		{"batch mismatch", func() error { _, err := Attend(q[:2], k, v, &ScoreWeights{Kind: Dot}, nil); return err }, "want batch = 2"},
		{"dot with different sizes", func() error {
			_, err := Attend(r.Normal(3, 5), k, v, &ScoreWeights{Kind: Dot}, nil)
			return err
		}, "general or additive"},
		{"general W transposed", func() error {
			_, err := Attend(r.Normal(3, 5), k, v, DrawScoreWeights(r, General, 3, 5, 0, 0), nil)
			return err
		}, "[hidden_q = 5][hidden_k = 3]"},
		{"additive V of the wrong size", func() error {
			w := DrawScoreWeights(r, Additive, 3, 3, 4, 0)
			w.V = w.V[:3]
			_, err := Attend(q, k, v, w, nil)
			return err
		}, "want attn = 4"},
		{"mask of the wrong shape", func() error {
			_, err := Attend(q, k, v, &ScoreWeights{Kind: Dot}, [][]float64{{0, 0, 1}})
			return err
		}, "1 = padding"},
		{"unknown kind", func() error { _, err := Attend(q, k, v, &ScoreWeights{Kind: "cosine"}, nil); return err }, "unknown score kind"},
		{"Align, empty encoder", func() error { _, err := Align(q, nil, &ScoreWeights{Kind: Dot}); return err }, "attention.Align: "},
	}
	for _, tc := range tests {
		err := tc.err()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestScoreGraphShapeErrors(t *testing.T) {
	// The graph functions panic with the expected shapes; run turns the
	// panic into an error.
	q := tensors.FromFlatDataAndDimensions(make([]float32, 2*3), 2, 3)
	k := tensors.FromFlatDataAndDimensions(make([]float32, 2*4*3), 2, 4, 3)
	w := tensors.FromFlatDataAndDimensions(make([]float32, 3*5), 3, 5)
	tests := []struct {
		name string
		fn   func(in []*graph.Node) []*graph.Node
		want string
	}{
		{"keys without batch", func(in []*graph.Node) []*graph.Node {
			return []*graph.Node{DotScore(in[0], graph.Reshape(in[1], 8, 3))}
		}, "keys [batch, seq, hidden_k]"},
		{"general W of the wrong shape", func(in []*graph.Node) []*graph.Node {
			return []*graph.Node{GeneralScore(in[0], in[1], in[2])}
		}, "w must be [3, 3]"},
		{"additive v a matrix", func(in []*graph.Node) []*graph.Node {
			return []*graph.Node{AdditiveScore(in[0], in[1], in[2], in[2], in[2])}
		}, "v must be a vector"},
		{"Score without parameters", func(in []*graph.Node) []*graph.Node {
			return []*graph.Node{Score(Concat, in[0], in[1], ScoreParams{})}
		}, "needs ScoreParams W and V"},
		{"Context with values of another length", func(in []*graph.Node) []*graph.Node {
			c, _ := Context(graph.Reshape(in[2], 3, 5), in[1], nil)
			return []*graph.Node{c}
		}, "scores must be [batch, seq]"},
	}
	for _, tc := range tests {
		_, err := run(tc.fn, q, k, w)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestCompareScores(t *testing.T) {
	r := random.New(0)
	q := r.Normal(2, 16)
	k := [][][]float64{r.Normal(7, 16), r.Normal(7, 16)}
	mask := [][]float64{{0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 1}}
	c, err := CompareScores(q, k, k, 1, mask)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Kinds(), " "); got != "additive dot general concat" {
		t.Errorf("Kinds() = %q, want the order of ScoreKinds", got)
	}
	for i, kind := range ScoreKinds {
		w := NewScoreWeights(kind, 16, 1)
		_, wantW, wantC := refAlign(w, q, k, k, mask)
		assertClose(t, string(kind)+" weights", c[i].Weights, wantW, tol)
		assertClose(t, string(kind)+" context", c[i].Context, wantC, 1e-5)
		if c[i].Params != w.NumParams() {
			t.Errorf("%s Params = %d, want %d", kind, c[i].Params, w.NumParams())
		}
	}
	if w := c.Weights(1); len(w) != 4 || w[2][6] != 0 {
		t.Errorf("Weights(1) = %v, want 4 rows with the padded position at exactly 0", w)
	}
	s := c.String()
	for _, want := range []string{"score", "additive      528  [2 16]     [2 7]      1.0000 1.0000 |", "dot             0  "} {
		if !strings.Contains(s, want) {
			t.Errorf("String() =\n%s\nwant a line containing %q", s, want)
		}
	}
}

// TestPreparedKeysEqualScore: scoring queries against keys prepared once
// gives the scores of Score, for every kind, at several decoder steps
// sharing the one preparation. Sizes differ (query 5, keys 3, attention 4)
// so that a swapped half of concat's W cannot go unnoticed.
func TestPreparedKeysEqualScore(t *testing.T) {
	tests := []struct {
		kind         ScoreKind
		hq, hk, attn int
	}{{Additive, 5, 3, 4}, {Dot, 3, 3, 0}, {General, 5, 3, 0}, {Concat, 5, 3, 4}}
	for _, tc := range tests {
		t.Run(string(tc.kind), func(t *testing.T) {
			r := random.New(23)
			w := DrawScoreWeights(r, tc.kind, tc.hq, tc.hk, tc.attn, 0.7)
			q1, keys, _ := scoreInputs(r, 6, tc.hq, tc.hk, 1)
			q2 := r.Normal(3, tc.hq)
			kt, err := tensor3("keys", keys, 3, 6, tc.hk)
			if err != nil {
				t.Fatal(err)
			}
			outs, err := eager.Run("attention", func(in []*graph.Node) []*graph.Node {
				p := w.Params(in[0].Graph())
				prepared := PrepareKeys(tc.kind, in[0], p)
				return []*graph.Node{
					prepared.Score(in[1]), Score(tc.kind, in[1], in[0], p),
					prepared.Score(in[2]), Score(tc.kind, in[2], in[0], p),
				}
			}, kt, eager.Tensor(q1), eager.Tensor(q2))
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "step 1 scores", eager.Matrix(outs[0]), eager.Matrix(outs[1]), 1e-5)
			assertClose(t, "step 2 scores", eager.Matrix(outs[2]), eager.Matrix(outs[3]), 1e-5)
			if got := eager.Matrix(outs[0]); got[0][0] == eager.Matrix(outs[2])[0][0] {
				t.Errorf("the two steps' queries gave the same score %g: the test cannot tell queries apart", got[0][0])
			}
		})
	}
}
