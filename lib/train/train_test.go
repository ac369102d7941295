package train

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/checkpoint"
)

// xorData is the four XOR examples, repeated: no line separates them, so a
// model that learns them needs its hidden layer.
func xorData() *Dataset {
	var x, y []float32
	for range 16 {
		for _, p := range [][3]float32{{0, 0, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 0}} {
			x = append(x, p[0], p[1])
			y = append(y, p[2])
		}
	}
	return &Dataset{Name: "xor", Inputs: []Column{Floats(x, 2)}, Labels: []Column{Floats(y)}}
}

// mlp is a 2 → 8 (tanh) → 1 network returning logits [batch].
func mlp(scope *model.Scope, in []*graph.Node) []*graph.Node {
	x := in[0]
	g := x.Graph()
	l1 := scope.In("l1")
	w1 := l1.VariableWithShape("w", shapes.Make(dtypes.Float32, 2, 8)).NodeValue(g)
	b1 := l1.VariableWithShape("b", shapes.Make(dtypes.Float32, 8)).NodeValue(g)
	w2 := scope.In("l2").VariableWithShape("w", shapes.Make(dtypes.Float32, 8, 1)).NodeValue(g)
	h := graph.Tanh(graph.Add(graph.MatMul(x, w1), graph.InsertAxes(b1, 0)))   // Shape: [batch, 2] x [2, 8] → [batch, 8]
	return []*graph.Node{graph.Reshape(graph.MatMul(h, w2), x.Shape().Dim(0))} // Shape: [batch, 8] x [8, 1] → [batch]
}

// bce is the binary cross-entropy of logits, written out.
func bce(labels, preds []*graph.Node) *graph.Node {
	y, z := labels[0], preds[0]
	// log(1 + e^z) − y·z, the stable form of −y·log σ(z) − (1−y)·log(1−σ(z)).
	softplus := graph.Log1P(graph.Exp(z))
	return graph.ReduceAllMean(graph.Sub(softplus, graph.Mul(y, z)))
}

func predictXOR(t *testing.T, tr *Trained) []float32 {
	t.Helper()
	in := tensors.FromFlatDataAndDimensions([]float32{0, 0, 0, 1, 1, 0, 1, 1}, 4, 2)
	out, err := tr.Predict(mlp, in)
	if err != nil {
		t.Fatal(err)
	}
	return tensors.MustCopyFlatData[float32](out[0])
}

func TestFitLearnsXORAndReloads(t *testing.T) {
	t.Setenv("COURSE_CACHE", t.TempDir())
	var out bytes.Buffer
	cfg := Config{Name: "xor-test", Steps: 300, BatchSize: 16, LearningRate: 0.05, Seed: 3, Out: &out}
	tr, err := Fit(cfg, mlp, bce, xorData())
	if err != nil {
		t.Fatal(err)
	}
	if got := len(tr.History.Loss); got != 300 {
		t.Errorf("history has %d losses, want 300", got)
	}
	if tr.History.Params != 2*8+8+8 {
		t.Errorf("Params = %d, want %d", tr.History.Params, 2*8+8+8)
	}
	if l := tr.History.FinalLoss(); l > 0.1 {
		t.Errorf("final loss %.4f, want < 0.1 (XOR not learned)", l)
	}
	if !strings.Contains(out.String(), "xor-test: 300 steps") {
		t.Errorf("summary line = %q, want it to start with the name and steps", out.String())
	}
	got := predictXOR(t, tr)
	for i, want := range []float32{0, 1, 1, 0} {
		if (got[i] > 0) != (want == 1) {
			t.Errorf("XOR example %d: logit %.3f, want the sign of label %v", i, got[i], want)
		}
	}

	loaded, err := Load("xor-test")
	if err != nil {
		t.Fatal(err)
	}
	if !loaded.Loaded || len(loaded.History.Loss) != 300 {
		t.Errorf("Load: Loaded=%v, %d losses; want true, 300", loaded.Loaded, len(loaded.History.Loss))
	}
	again := predictXOR(t, loaded)
	for i := range got {
		if got[i] != again[i] {
			t.Errorf("prediction %d after reload = %v, before = %v; want identical", i, again[i], got[i])
		}
	}
}

// TestCheckpointIsGoMLXs reads what Fit saved with GoMLX's own checkpoint
// package, not through Load: the folder must be a GoMLX checkpoint holding
// the trained values.
func TestCheckpointIsGoMLXs(t *testing.T) {
	t.Setenv("COURSE_CACHE", t.TempDir())
	cfg := Config{Name: "xor-ckpt", Steps: 20, BatchSize: 8, LearningRate: 0.05, Seed: 5, Quiet: true}
	tr, err := Fit(cfg, mlp, bce, xorData())
	if err != nil {
		t.Fatal(err)
	}
	dir, err := Dir(cfg.Name)
	if err != nil {
		t.Fatal(err)
	}
	store := model.NewStore()
	if _, err := checkpoint.Load(store).Dir(dir).Immediate().Done(); err != nil {
		t.Fatalf("GoMLX cannot load the checkpoint in %s: %v", dir, err)
	}
	for _, path := range []string{"/l1/w", "/l1/b", "/l2/w"} {
		want := tensors.MustCopyFlatData[float32](mustValue(t, tr.Store, path))
		got := tensors.MustCopyFlatData[float32](mustValue(t, store, path))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s in the checkpoint = %v, trained = %v", path, got, want)
		}
	}
}

func mustValue(t *testing.T, store *model.Store, path string) *tensors.Tensor {
	t.Helper()
	v := store.GetVariable(path)
	if v == nil {
		t.Fatalf("no variable %s", path)
	}
	val, err := v.Value()
	if err != nil {
		t.Fatal(err)
	}
	return val
}

// TestLoadOrFitRetrainsWithoutCheckpoint: a folder with a history but no
// weights (an interrupted save, an older course version) is retrained,
// not an error.
func TestLoadOrFitRetrainsWithoutCheckpoint(t *testing.T) {
	t.Setenv("COURSE_CACHE", t.TempDir())
	cfg := Config{Name: "xor-half", Steps: 10, BatchSize: 8, Seed: 5, Quiet: true}
	if _, err := Fit(cfg, mlp, bce, xorData()); err != nil {
		t.Fatal(err)
	}
	dir, _ := Dir(cfg.Name)
	saved, _ := filepath.Glob(filepath.Join(dir, "checkpoint-*"))
	if len(saved) == 0 {
		t.Fatalf("Fit saved no checkpoint-* files in %s", dir)
	}
	for _, f := range saved {
		os.Remove(f)
	}
	if _, err := Load(cfg.Name); !errors.Is(err, ErrNotTrained) {
		t.Errorf("Load without weights: error %v, want ErrNotTrained", err)
	}
	tr, err := LoadOrFit(cfg, mlp, bce, xorData())
	if err != nil {
		t.Fatal(err)
	}
	if tr.Loaded {
		t.Error("LoadOrFit loaded a model whose weights are gone; want it retrained")
	}
}

func TestFitIsDeterministic(t *testing.T) {
	cfg := Config{Steps: 40, BatchSize: 8, LearningRate: 0.05, Seed: 9, Quiet: true}
	a, err := Fit(cfg, mlp, bce, xorData())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(cfg, mlp, bce, xorData())
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.History.Loss {
		if a.History.Loss[i] != b.History.Loss[i] {
			t.Fatalf("step %d: loss %v then %v with the same seed, want equal", i, a.History.Loss[i], b.History.Loss[i])
		}
	}
	cfg.Seed = 10
	c, err := Fit(cfg, mlp, bce, xorData())
	if err != nil {
		t.Fatal(err)
	}
	if c.History.Loss[0] == a.History.Loss[0] {
		t.Errorf("seeds 9 and 10 gave the same first loss %v: the seed does not reach the weights", a.History.Loss[0])
	}
}

func TestLoadWithoutTrainingSaysWhatToDo(t *testing.T) {
	t.Setenv("COURSE_CACHE", t.TempDir())
	_, err := Load("never-trained")
	if !errors.Is(err, ErrNotTrained) || !strings.Contains(err.Error(), "run the cell that trains it") {
		t.Errorf("Load error = %v, want ErrNotTrained and a hint", err)
	}
}

func TestBatchesAreSeededAndCoverEveryExample(t *testing.T) {
	ids := make([]int32, 10)
	for i := range ids {
		ids[i] = int32(i)
	}
	d := &Dataset{Name: "ids", Inputs: []Column{Ints(ids)}, Labels: []Column{Ints(ids)}}
	take := func(seed uint64, n int) []int32 {
		b, err := d.Batches(4, seed)
		if err != nil {
			t.Fatal(err)
		}
		var got []int32
		for batch := range b.Iter() {
			in := tensors.MustCopyFlatData[int32](batch.Inputs[0])
			lab := tensors.MustCopyFlatData[int32](batch.Labels[0])
			if fmt.Sprint(in) != fmt.Sprint(lab) {
				t.Fatalf("inputs %v and labels %v of a batch are different examples", in, lab)
			}
			got = append(got, in...)
			if len(got) >= n {
				return got
			}
		}
		return got
	}
	a, b, c := take(1, 20), take(1, 20), take(2, 20)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("seed 1 gave %v then %v, want the same order", a, b)
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Errorf("seeds 1 and 2 gave the same order %v", a)
	}
	for epoch := range 2 {
		seen := map[int32]bool{}
		for _, v := range a[epoch*10 : epoch*10+10] {
			seen[v] = true
		}
		if len(seen) != 10 {
			t.Errorf("epoch %d visits %d distinct examples, want all 10: %v", epoch, len(seen), a[epoch*10:epoch*10+10])
		}
	}
}

func TestDatasetLenErrors(t *testing.T) {
	cases := []struct {
		name string
		d    *Dataset
		want string
	}{
		{"ragged", &Dataset{Name: "r", Inputs: []Column{Ints(make([]int32, 7), 2)}}, "not a multiple"},
		{"mismatch", &Dataset{Name: "m", Inputs: []Column{Ints(make([]int32, 6), 2)}, Labels: []Column{Floats(make([]float32, 4))}}, "column 0 has 3"},
		{"empty", &Dataset{Name: "e"}, "empty"},
	}
	for _, c := range cases {
		if _, err := c.d.Len(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Len error = %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

func TestSmooth(t *testing.T) {
	got := smooth([]float64{4, 2, 6, 8}, 2)
	want := []float64{4, 3, 4, 7}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("smooth[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestProgressHTML(t *testing.T) {
	h := &History{Name: "demo <1>", Steps: 100, Loss: []float64{2, 1.5, 1.2, 1, 0.9, 0.8}, Compile: time.Second}
	got := progressHTML(h, 3*time.Second, false)
	for _, want := range []string{"demo &lt;1&gt;: step 6/100, loss 0.8000", "left", `<img alt="loss curve" src="data:image/png;base64,`} {
		if !strings.Contains(got, want) {
			t.Errorf("progress HTML %.200q… lacks %q", got, want)
		}
	}
	if strings.Contains(progressHTML(&History{Name: "x", Steps: 5, Loss: []float64{1}}, time.Second, false), "<img") {
		t.Error("progress HTML has a loss curve after one step, want text only")
	}
}

// TestCrossEntropy compares with −log softmax worked out in float64, on
// three classes and logits large enough that an unshifted exp(x) would
// overflow float32.
func TestCrossEntropy(t *testing.T) {
	logits := [][]float64{{2, 0, -1}, {0, 3, 1}, {100, 98, 0}}
	labels := []int32{1, 1, 2}
	want := 0.0
	for i, row := range logits {
		sum := 0.0
		for _, z := range row {
			sum += math.Exp(z - row[0])
		}
		want += (math.Log(sum) + row[0] - row[labels[i]]) / float64(len(logits))
	}
	flat := make([]float32, 0, 9)
	for _, row := range logits {
		for _, z := range row {
			flat = append(flat, float32(z))
		}
	}
	got, err := graph.CallOnce(backend.Default(), func(l, z *graph.Node) *graph.Node {
		return CrossEntropy([]*graph.Node{l}, []*graph.Node{z})
	}, tensors.FromFlatDataAndDimensions(labels, 3), tensors.FromFlatDataAndDimensions(flat, 3, 3))
	if err != nil {
		t.Fatal(err)
	}
	if g := float64(tensors.ToScalar[float32](got)); math.Abs(g-want) > 1e-4*want {
		t.Errorf("CrossEntropy = %.6f, want %.6f", g, want)
	}
}

// TestFitStopsOnDivergence: a learning rate far too large makes the loss
// overflow; Fit stops with an error that says what to change instead of
// training on NaNs.
func TestFitStopsOnDivergence(t *testing.T) {
	_, err := Fit(Config{Steps: 200, BatchSize: 8, LearningRate: 1e9, Seed: 1, Quiet: true}, mlp, bce, xorData())
	if err == nil || !strings.HasPrefix(err.Error(), "train.Fit: the loss became") || !strings.HasSuffix(err.Error(), "lower the learning rate") {
		t.Errorf("Fit with learning rate 1e9: error %v, want \"train.Fit: the loss became … lower the learning rate\"", err)
	}
}

// TestFailedRetrainingKeepsTheModel: retraining under a name that already
// holds a model replaces it only once the new one is saved; a training
// that diverges leaves the earlier model loadable, and no half-written
// folder behind.
func TestFailedRetrainingKeepsTheModel(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("COURSE_CACHE", cache)
	cfg := Config{Name: "xor-keep", Steps: 300, BatchSize: 16, LearningRate: 0.05, Seed: 3, Quiet: true}
	tr, err := Fit(cfg, mlp, bce, xorData())
	if err != nil {
		t.Fatal(err)
	}
	before := predictXOR(t, tr)
	bad := cfg
	bad.LearningRate, bad.Steps = 1e9, 200
	if _, err := Fit(bad, mlp, bce, xorData()); err == nil {
		t.Fatal("a learning rate of 1e9 trained without error")
	}
	loaded, err := Load("xor-keep")
	if err != nil {
		t.Fatalf("after a failed retraining: %v", err)
	}
	if len(loaded.History.Loss) != 300 || !slices.Equal(predictXOR(t, loaded), before) {
		t.Errorf("after a failed retraining the model changed: %d losses, want 300 and the same predictions", len(loaded.History.Loss))
	}
	// A successful retraining replaces it.
	again := cfg
	again.Steps = 50
	if _, err := Fit(again, mlp, bce, xorData()); err != nil {
		t.Fatal(err)
	}
	if loaded, err := Load("xor-keep"); err != nil || len(loaded.History.Loss) != 50 {
		t.Errorf("after retraining: %v, want the new 50-step model", err)
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 || entries[0].Name() != "xor-keep" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("cache holds %q, want only xor-keep", names)
	}
}
