package attention

import (
	"math"
	"testing"
	"time"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/viz"
)

// scaled returns m with every entry multiplied by s.
func scaled(m [][]float64, s float64) [][]float64 {
	out := make([][]float64, len(m))
	for i, row := range m {
		out[i] = make([]float64, len(row))
		for j, x := range row {
			out[i][j] = s * x
		}
	}
	return out
}

// TestFullAndBlockedMatchReference: both equal the independent float64
// reference, for blocks that divide the length and blocks that do not, and
// for scores large enough (×30) that the online softmax must rescale its
// running sums as the maximum moves.
func TestFullAndBlockedMatchReference(t *testing.T) {
	r := random.New(11)
	for _, tc := range []struct {
		nq, nk, d, dv int
		scale         float64
	}{{7, 7, 4, 3, 1}, {33, 50, 8, 5, 1}, {20, 65, 6, 2, 30}} {
		q, k, v := scaled(r.Normal(tc.nq, tc.d), tc.scale), r.Normal(tc.nk, tc.d), r.Normal(tc.nk, tc.dv)
		want, _ := refAttention(q, k, v, nil)
		got, err := Full(q, k, v)
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, "Full", got, want, 1e-12)
		for _, block := range []int{1, 3, 16, 64, 1000} {
			got, err := Blocked(q, k, v, block)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "Blocked", got, want, 1e-12)
		}
	}
	if _, err := Blocked([][]float64{{1}}, [][]float64{{1}}, [][]float64{{1}}, 0); err == nil {
		t.Error("Blocked with block 0: no error")
	}
	if _, err := Full([][]float64{{1, 2}}, [][]float64{{1}}, [][]float64{{1}}); err == nil {
		t.Error("Full with d_k 2 against 1: no error")
	}
}

// TestAllocatedBytes: a 1 MiB slice counts as at least 1 MiB; Full
// allocates its n² scores (8·n² bytes) and Blocked far less.
func TestAllocatedBytes(t *testing.T) {
	var sink []byte
	if got := AllocatedBytes(func() { sink = make([]byte, 1<<20) }); got < 1<<20 || got > 1<<20+1<<16 {
		t.Errorf("AllocatedBytes(make 1 MiB) = %d", got)
	}
	_ = sink
	r := random.New(3)
	n := 512
	q, k, v := r.Normal(n, 8), r.Normal(n, 8), r.Normal(n, 8)
	full := AllocatedBytes(func() { _, _ = Full(q, k, v) })
	blocked := AllocatedBytes(func() { _, _ = Blocked(q, k, v, 32) })
	if full < uint64(8*n*n) {
		t.Errorf("Full allocated %d bytes, less than its %d-byte score matrix", full, 8*n*n)
	}
	if blocked > uint64(8*n*n)/10 {
		t.Errorf("Blocked allocated %d bytes, want well under the %d of the score matrix", blocked, 8*n*n)
	}
}

// TestFeatureMapAndLinearWeights against values worked out by hand:
// φ(2) = 3, φ(0) = 1, φ(−1) = e^−1; with one dimension, q = 1 and keys
// 1 and −1 the weights are (2·2, 2·e^−1) normalised.
func TestFeatureMapAndLinearWeights(t *testing.T) {
	got := FeatureMap([]float64{2, 0, -1})
	want := []float64{3, 1, math.Exp(-1)}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Fatalf("FeatureMap = %v, want %v", got, want)
		}
	}
	w, err := LinearWeights([][]float64{{1}}, [][]float64{{1}, {-1}})
	if err != nil {
		t.Fatal(err)
	}
	sum := 4 + 2*math.Exp(-1)
	assertClose(t, "LinearWeights", w, [][]float64{{4 / sum, 2 * math.Exp(-1) / sum}}, 1e-15)
}

// TestLinearEqualsItsQuadraticForm: Linear's O(n·d²) computation equals
// LinearWeights(q, k)·V, the O(n²) formula, on random inputs.
func TestLinearEqualsItsQuadraticForm(t *testing.T) {
	r := random.New(5)
	q, k, v := r.Normal(9, 4), r.Normal(13, 4), r.Normal(13, 3)
	w, err := LinearWeights(q, k)
	if err != nil {
		t.Fatal(err)
	}
	want := make([][]float64, len(q))
	for i := range q {
		want[i] = make([]float64, 3)
		for j := range k {
			for c := range 3 {
				want[i][c] += w[i][j] * v[j][c]
			}
		}
	}
	got, err := Linear(q, k, v)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "Linear", got, want, 1e-12)
}

// TestDropoutTrainingOnly: with a training graph the weights are either 0
// or w/(1 − rate), about rate of them dropped; with an inference graph
// (and with rate 0) they pass unchanged.
func TestDropoutTrainingOnly(t *testing.T) {
	const n, rate = 4000, 0.25
	w := make([]float32, n)
	for i := range w {
		w[i] = float32(i%7+1) / 10
	}
	in := tensors.FromFlatDataAndDimensions(w, 1, 1, 1, n)
	run := func(training bool, rate float64) []float32 {
		store := model.NewStore()
		store.SetParam(model.ParamInitialSeed, int64(42))
		exec, err := model.NewExec(backend.Default(), store, func(scope *model.Scope, x *graph.Node) *graph.Node {
			scope.Store().SetTraining(x.Graph(), training)
			return Dropout(scope, x, rate)
		})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Call(in)
		if err != nil {
			t.Fatal(err)
		}
		return tensors.MustCopyFlatData[float32](out[0])
	}
	for _, c := range []struct {
		training bool
		rate     float64
	}{{false, rate}, {true, 0}} {
		got := run(c.training, c.rate)
		for i := range w {
			if got[i] != w[i] {
				t.Fatalf("training %v, rate %g: weight %d = %g, want it unchanged (%g)", c.training, c.rate, i, got[i], w[i])
			}
		}
	}
	got := run(true, rate)
	dropped := 0
	for i := range w {
		switch {
		case got[i] == 0:
			dropped++
		case math.Abs(float64(got[i])-float64(w[i])/(1-rate)) > 1e-6:
			t.Fatalf("training: weight %d = %g, want 0 or %g/(1−%g) = %g", i, got[i], w[i], rate, float64(w[i])/(1-rate))
		}
	}
	// Binomial(4000, 0.25): mean 1000, standard deviation ≈ 27.
	if dropped < 850 || dropped > 1150 {
		t.Errorf("training: %d of %d weights dropped, want about %d", dropped, n, int(rate*n))
	}
}

// TestMeasureCosts on small lengths: Blocked equals Full, Full's bytes
// cover its score matrix, and the table and figures build.
func TestMeasureCosts(t *testing.T) {
	cs, err := MeasureCosts([]int{32, 64}, 8, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.BlockedDiff > 1e-12 {
			t.Errorf("n = %d: |Blocked − Full| = %g", c.N, c.BlockedDiff)
		}
		if c.FullBytes < c.ScoreBytes || c.ScoreBytes != uint64(8*c.N*c.N) {
			t.Errorf("n = %d: Full allocated %d bytes, its scores alone are %d", c.N, c.FullBytes, c.ScoreBytes)
		}
		if !(c.LinearError > 0 && c.LinearError < 2) {
			t.Errorf("n = %d: linear error %g", c.N, c.LinearError)
		}
	}
	if tab := CostTable(cs); len(tab) == 0 {
		t.Error("empty table")
	}
	if _, err := viz.PNG(MemoryFigure(cs, 16)); err != nil {
		t.Error(err)
	}
	if _, err := viz.PNG(TimeFigure(cs)); err != nil {
		t.Error(err)
	}
}

// TestFastestTime: f is called the number of times asked, and the
// fastest call wins wherever it falls.
func TestFastestTime(t *testing.T) {
	const slow = 60 * time.Millisecond
	for _, sleeps := range [][]time.Duration{{0, slow, slow}, {slow, 0, slow}, {slow, slow, 0}} {
		calls := 0
		got := fastestTime(len(sleeps), func() {
			time.Sleep(sleeps[calls])
			calls++
		})
		// The call that does not sleep is far below the others.
		if calls != len(sleeps) || got >= slow/2 {
			t.Errorf("sleeps %v: %d calls, fastest %v", sleeps, calls, got)
		}
	}
}

// TestLinearVersusSoftmax: as the queries grow, the softmax's entropy
// falls and linear attention's error grows; at scale 0 the softmax is
// uniform (entropy ln n) while linear attention still weighs the keys by
// Σ_a φ(k_j)_a (φ(0) = 1).
func TestLinearVersusSoftmax(t *testing.T) {
	s, err := LinearVersusSoftmax(64, 8, []float64{0, 1, 4}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s[0].SoftmaxEntropy-math.Log(64)) > 1e-12 || s[0].Error == 0 {
		t.Errorf("scale 0: %+v, want softmax entropy ln 64 and linear attention different", s[0])
	}
	if !(s[1].SoftmaxEntropy > s[2].SoftmaxEntropy && s[1].Error < s[2].Error) {
		t.Errorf("scale 1 then 4: %+v, %+v: want the entropy to fall and the error to grow", s[1], s[2])
	}
}

// TestMultiHeadWithDropout: the builder's dropout changes the output of a
// training graph and leaves an inference graph's equal to the plain
// layer's; the returned weights are those before the dropout.
func TestMultiHeadWithDropout(t *testing.T) {
	w := NewMultiHeadWeights(8, 1)
	x := tensors.FromFlatDataAndDimensions(func() []float32 {
		r := random.New(2)
		var f []float32
		for _, row := range r.Normal(6, 8) {
			for _, a := range row {
				f = append(f, float32(a))
			}
		}
		return f
	}(), 1, 6, 8)
	run := func(training, dropout bool) (out, weights []float32) {
		store := model.NewStore()
		store.SetParam(model.ParamInitialSeed, int64(3))
		exec, err := model.NewExec(backend.Default(), store, func(scope *model.Scope, x *graph.Node) []*graph.Node {
			scope.Store().SetTraining(x.Graph(), training)
			b := MultiHead(x, x, x, 2, w.Params(x.Graph()))
			if dropout {
				b = b.WithDropout(scope, 0.5)
			}
			o, a := b.Done()
			return []*graph.Node{o, a}
		})
		if err != nil {
			t.Fatal(err)
		}
		outs, err := exec.Call(x)
		if err != nil {
			t.Fatal(err)
		}
		return tensors.MustCopyFlatData[float32](outs[0]), tensors.MustCopyFlatData[float32](outs[1])
	}
	plain, plainW := run(false, false)
	inference, infW := run(false, true)
	training, trainW := run(true, true)
	same := func(a, b []float32) bool {
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	if !same(plain, inference) || !same(plainW, infW) {
		t.Error("inference with dropout differs from the plain layer")
	}
	if same(plain, training) {
		t.Error("training with dropout 0.5 gives the plain layer's output: no dropout applied")
	}
	if !same(plainW, trainW) {
		t.Error("training: the returned weights changed; want those before the dropout")
	}
}

// TestLinearStateIsCausalLinear: the recurrent form, one token at a time,
// gives the masked O(n²) form's rows; its last row is Linear over every
// key; and the state's size does not grow.
func TestLinearStateIsCausalLinear(t *testing.T) {
	r := random.New(11)
	q, k, v := r.Normal(12, 5), r.Normal(12, 5), r.Normal(12, 3)
	want, err := CausalLinear(q, k, v)
	if err != nil {
		t.Fatal(err)
	}
	st := NewLinearState(5, 3)
	got := make([][]float64, len(q))
	for i := range q {
		got[i] = st.Step(q[i], k[i], v[i])
		if st.Size() != 5*3+5 {
			t.Fatalf("after %d tokens the state holds %d floats, want %d", i+1, st.Size(), 5*3+5)
		}
	}
	assertClose(t, "LinearState.Step", got, want, 1e-12)
	all, err := Linear(q[len(q)-1:], k, v)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "the last token against Linear", got[len(got)-1:], all, 1e-12)
	// Token 0 sees only itself: its output is its own value.
	assertClose(t, "the first token", got[:1], v[:1], 1e-12)
	// A step that forgot the mask (the whole sequence's sums) differs.
	full, _ := Linear(q, k, v)
	if math.Abs(full[0][0]-got[0][0]) < 1e-6 {
		t.Error("the causal rows equal the unmasked ones: the test inputs cannot tell them apart")
	}
	if _, err := CausalLinear(q[:3], k, v); err == nil {
		t.Error("CausalLinear with 3 queries and 12 keys: no error")
	}
}
