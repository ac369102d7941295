package train

import (
	"math"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/backend"
)

// TestRateFormulas holds Config.Rate to the schedules as their papers
// write them, computed here independently.
func TestRateFormulas(t *testing.T) {
	// The paper's rate, d^−0.5·min(s^−0.5, s·w^−1.5), is InverseSqrt with
	// LearningRate = (d·w)^−0.5.
	const d, w = 512, 4000
	paper := Config{Steps: 100000, Warmup: w, Decay: InverseSqrt, LearningRate: 1 / math.Sqrt(d*w)}
	for _, s := range []int{1, 10, 1000, 3999, 4000, 4001, 20000, 100000} {
		want := math.Pow(d, -0.5) * min(math.Pow(float64(s), -0.5), float64(s)*math.Pow(w, -1.5))
		if got := paper.Rate(s); math.Abs(got-want) > 1e-12 {
			t.Errorf("InverseSqrt at step %d = %g, the paper's %g", s, got, want)
		}
	}
	// Cosine: 0 at the first step of warm-up, the full rate when the
	// warm-up ends, half of it halfway through the rest, near 0 at the end.
	c := Config{Steps: 110, Warmup: 10, Decay: Cosine, LearningRate: 0.01}
	for _, tc := range []struct {
		step int
		want float64
	}{{1, 0}, {6, 0.005}, {11, 0.01}, {61, 0.005}, {110, 0.01 * (1 + math.Cos(math.Pi*99/100)) / 2}} {
		if got := c.Rate(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Cosine at step %d = %g, want %g", tc.step, got, tc.want)
		}
	}
	// No decay: a ramp, then flat; no warm-up: flat at the default rate.
	n := Config{Steps: 50, Warmup: 4}
	if got := []float64{n.Rate(1), n.Rate(2), n.Rate(4), n.Rate(50)}; !slices.Equal(got, []float64{0.00025, 0.0005, 0.001, 0.001}) {
		t.Errorf("warm-up without decay: %v", got)
	}
	if got := (Config{Steps: 5}).Rate(3); got != 0.001 {
		t.Errorf("constant default rate = %g, want 0.001", got)
	}
}

// TestScheduleInTraining: the rate Fit's training graph uses at every
// step, read back from the optimizer's variable (History.Rate), is
// Config.Rate of that step, for every decay with and without warm-up.
func TestScheduleInTraining(t *testing.T) {
	for _, decay := range []Decay{NoDecay, Cosine, InverseSqrt} {
		for _, warmup := range []int{0, 7} {
			cfg := Config{Steps: 30, BatchSize: 16, LearningRate: 0.05, Seed: 3, Quiet: true, Decay: decay, Warmup: warmup}
			tr, err := Fit(cfg, mlp, bce, xorData())
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.History.Rate) != cfg.Steps {
				t.Fatalf("%v, warm-up %d: %d rates for %d steps", decay, warmup, len(tr.History.Rate), cfg.Steps)
			}
			for i, got := range tr.History.Rate {
				if want := cfg.Rate(i + 1); math.Abs(got-want) > 1e-6*cfg.LearningRate+1e-9 {
					t.Errorf("%v, warm-up %d, step %d: the graph's rate %g, Config.Rate %g", decay, warmup, i+1, got, want)
				}
			}
		}
	}
}

// TestRecipeErrors: settings Fit cannot follow are refused with what to
// change.
func TestRecipeErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Steps: 10, Warmup: 10},
		{Steps: 10, Warmup: -1},
		{Steps: 10, Decay: Decay(7)},
		{Steps: 10, ClipNorm: -1},
		{Steps: 10, WeightDecay: -0.1},
	} {
		cfg.Quiet = true
		if _, err := Fit(cfg, mlp, bce, xorData()); err == nil {
			t.Errorf("Fit(%+v) trained; want an error", cfg)
		}
	}
}

// TestClipByGlobalNorm: gradients (3, 4) and (12) have global norm 13;
// clipped at 6.5 they halve, at 13 or more they are unchanged. Clipping
// each gradient by its own norm, or by the sum of the norms, would give
// other numbers.
func TestClipByGlobalNorm(t *testing.T) {
	for _, tc := range []struct {
		c    float64
		want []float32
	}{{6.5, []float32{1.5, 2, 6}}, {13, []float32{3, 4, 12}}, {100, []float32{3, 4, 12}}, {1.3, []float32{0.3, 0.4, 1.2}}} {
		out := graph.MustExecOnceN(backend.Default(), func(a, b *graph.Node) []*graph.Node {
			return ClipByGlobalNorm([]*graph.Node{a, b}, tc.c)
		}, []float32{3, 4}, []float32{12})
		got := append(tensors.MustCopyFlatData[float32](out[0]), tensors.MustCopyFlatData[float32](out[1])...)
		for i := range got {
			if math.Abs(float64(got[i]-tc.want[i])) > 1e-6 {
				t.Errorf("clip at %g: %v, want %v", tc.c, got, tc.want)
				break
			}
		}
	}
}

// affine is x·W + b with b starting at 0.5 (not 0, so that decaying it
// would show).
func affine(scope *model.Scope, in []*graph.Node) []*graph.Node {
	x := in[0]
	g := x.Graph()
	w := scope.VariableWithShape("w", shapes.Make(dtypes.Float32, 2, 3)).NodeValue(g)
	b := scope.VariableWithValue("b", []float32{0.5, 0.5, 0.5}).NodeValue(g)
	return []*graph.Node{graph.Add(graph.MatMul(x, w), graph.InsertAxes(b, 0))} // Shape: [batch, 2] x [2, 3] → [batch, 3]
}

// zeroLoss has a zero gradient everywhere: Adam's step is 0, so what
// moves the weights is the weight decay alone.
func zeroLoss(_, preds []*graph.Node) *graph.Node {
	return graph.ReduceAllSum(graph.MulScalar(preds[0], 0))
}

// TestWeightDecay: with no gradient, AdamW multiplies every matrix by
// 1 − rate(s)·λ at step s, with the scheduled rate, and leaves the
// vectors (biases) alone. Decaying the biases, ignoring the schedule or
// scaling the decay by Adam's second moment would break one of these.
func TestWeightDecay(t *testing.T) {
	const lambda = 0.5
	cfg := Config{Steps: 12, BatchSize: 16, LearningRate: 0.1, Seed: 5, Quiet: true, Decay: InverseSqrt, Warmup: 4}
	plain, err := Fit(cfg, affine, zeroLoss, xorData())
	if err != nil {
		t.Fatal(err)
	}
	cfg.WeightDecay = lambda
	decayed, err := Fit(cfg, affine, zeroLoss, xorData())
	if err != nil {
		t.Fatal(err)
	}
	factor := 1.0
	for s := 1; s <= cfg.Steps; s++ {
		factor *= 1 - cfg.Rate(s)*lambda
	}
	values := func(tr *Trained, path string) []float32 {
		for v := range tr.Store.IterVariables() {
			if v.Path() == path {
				return tensors.MustCopyFlatData[float32](v.MustValue())
			}
		}
		t.Fatalf("no variable %s", path)
		return nil
	}
	for _, p := range []struct {
		path   string
		factor float64
	}{{"/w", factor}, {"/b", 1}} {
		before, after := values(plain, p.path), values(decayed, p.path)
		for i := range before {
			if want := float64(before[i]) * p.factor; math.Abs(float64(after[i])-want) > 1e-5*math.Abs(want)+1e-7 {
				t.Errorf("%s[%d] = %g after decay, want %g·%g = %g", p.path, i, after[i], before[i], p.factor, want)
				break
			}
		}
	}
}

// TestClipNormIsWired: a clip far below the gradients' norm changes the
// run (Adam alone would undo a constant scaling, but not one that varies
// from step to step), and a clip far above it changes nothing.
func TestClipNormIsWired(t *testing.T) {
	run := func(c float64) []float64 {
		tr, err := Fit(Config{Steps: 25, BatchSize: 16, LearningRate: 0.05, Seed: 3, Quiet: true, ClipNorm: c}, mlp, bce, xorData())
		if err != nil {
			t.Fatal(err)
		}
		return tr.History.Loss
	}
	none, loose, tight := run(0), run(1e6), run(1e-4)
	if !slices.Equal(none, loose) {
		t.Error("a clip of 1e6 changed the run")
	}
	if slices.Equal(none, tight) {
		t.Error("a clip of 1e-4 changed nothing")
	}
}

// TestSGD: with a loss whose gradient is c for every bias, plain SGD
// moves each bias by c·rate(s) at step s, following the schedule, while
// Adam, which divides by the gradient's root mean square, moves it by
// about rate(s) whatever c is. A momentum term, a forgotten schedule or
// Adam left in place would each miss the first expectation.
func TestSGD(t *testing.T) {
	const c = 0.01
	// meanSum's gradient with respect to each bias is c: the mean over
	// the batch of c·Σ_j pred_j.
	meanSum := func(_, preds []*graph.Node) *graph.Node {
		p := preds[0]
		return graph.MulScalar(graph.ReduceAllSum(p), c/float64(p.Shape().Dim(0)))
	}
	bias := func(tr *Trained) []float32 {
		for v := range tr.Store.IterVariables() {
			if v.Path() == "/b" {
				return tensors.MustCopyFlatData[float32](v.MustValue())
			}
		}
		t.Fatal("no variable /b")
		return nil
	}
	cfg := Config{Steps: 10, BatchSize: 16, LearningRate: 0.2, Seed: 5, Quiet: true, Warmup: 3, Decay: Cosine, SGD: true}
	sgd, err := Fit(cfg, affine, meanSum, xorData())
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for s := 1; s <= cfg.Steps; s++ {
		total += cfg.Rate(s)
	}
	for i, b := range bias(sgd) {
		if want := 0.5 - c*total; math.Abs(float64(b)-want) > 1e-6 {
			t.Errorf("SGD: b[%d] = %.7f, want 0.5 − %g·Σ rate = %.7f", i, b, c, want)
		}
	}
	cfg.SGD = false
	adam, err := Fit(cfg, affine, meanSum, xorData())
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range bias(adam) {
		if want := 0.5 - total; math.Abs(float64(b)-want) > 1e-3 {
			t.Errorf("Adam: b[%d] = %.7f, want about 0.5 − Σ rate = %.7f", i, b, want)
		}
	}
}
