package classifier

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/backend"
)

// TestMaskedPooling checks the two poolings against values worked out by
// hand: the mean and the max of the real words only (a fully padded row
// gives 0).
func TestMaskedPooling(t *testing.T) {
	exec, err := graph.NewExec(backend.Default(), func(x, keep *graph.Node) []*graph.Node {
		return []*graph.Node{MaskedMean(x, keep), MaskedMax(x, keep)}
	})
	if err != nil {
		t.Fatal(err)
	}
	x := tensors.FromFlatDataAndDimensions([]float32{1, 2, 3, 4, 100, 100, 5, 6, 7, 8, 9, 10, 7, 7, 7, 7, 7, 7}, 3, 3, 2)
	keep := tensors.FromFlatDataAndDimensions([]bool{true, true, false, true, true, true, false, false, false}, 3, 3)
	outs := exec.MustCall(x, keep)
	got := tensors.MustCopyFlatData[float32](outs[0])
	want := []float64{2, 3, 7, 8, 0, 0} // (1+3)/2, (2+4)/2; (5+7+9)/3, (6+8+10)/3; no words
	for i := range want {
		if math.Abs(float64(got[i])-want[i]) > 1e-5 {
			t.Errorf("MaskedMean = %v, want %v", got, want)
			break
		}
	}
	if got, want := tensors.MustCopyFlatData[float32](outs[1]), []float32{3, 4, 9, 10, 0, 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("MaskedMax = %v, want %v (padding's 100 left out)", got, want)
	}
}

// TestLesson8Claims trains the four models of lesson 8 (about 15 s) and
// checks what the lesson says: positions make the Transformer right, and
// models blind to word order stay near the ceiling the ambiguous reviews
// impose.
func TestLesson8Claims(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four models (about 15 s); skipped with -short")
	}
	t.Setenv("COURSE_CACHE", t.TempDir())
	trained, err := Lesson8.TrainAll(Kinds...)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range Kinds {
		tr := trained[i]
		if tr.History.Name != Lesson8.label(k) {
			t.Errorf("TrainAll(Kinds...)[%d] is %q, want %q", i, tr.History.Name, Lesson8.label(k))
		}
		if tr.History.Loss[len(tr.History.Loss)-1] >= tr.History.Loss[0] {
			t.Errorf("%s: the loss did not fall: %v → %v", k, tr.History.Loss[0], tr.History.Loss[len(tr.History.Loss)-1])
		}
	}
	rs, err := Lesson8.Evaluate(Kinds...)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(rs, 0.95, 0.2); err != nil {
		t.Errorf("%v\n%s", err, Table(rs))
	}
	for _, p := range []Pooling{PoolMax, PoolCLS} {
		e := Lesson8.WithPool(p)
		if _, err := e.Train(Transformer); err != nil {
			t.Fatal(err)
		}
		r, err := e.Evaluate(Transformer)
		if err != nil {
			t.Fatal(err)
		}
		if r[0].Accuracy < 0.9 {
			t.Errorf("%s pooling: %.1f%%, want ≥ 90%%", p, 100*r[0].Accuracy)
		}
	}
	for _, r := range rs {
		if r.Kind == NoPositions && r.Accuracy > 0.7 {
			t.Errorf("the Transformer without positions reached %.1f%%: above what order-blind models can (about 64%%)\n%s", 100*r.Accuracy, Table(rs))
		}
	}
}

// TestLesson11VariantsKeepLesson8 checks that lesson 8's experiment keeps
// its checkpoint names and plain attention, and that a Tag renames.
func TestLesson11VariantsKeepLesson8(t *testing.T) {
	if got := Lesson8.Name(Transformer); got != "lesson08-transformer" {
		t.Errorf("Lesson8.Name = %q, want lesson08-transformer", got)
	}
	c := Lesson8.Config(Transformer)
	if c.Temperature != 0 || c.NoScale || c.AttnDropout != 0 {
		t.Errorf("Lesson8's config has lesson 11's options set: %+v", c)
	}
	e := Lesson8
	e.Tag = "lesson11-x"
	if got := e.Name(Transformer); got != "lesson11-x-transformer" {
		t.Errorf("tagged Name = %q, want lesson11-x-transformer", got)
	}
}

// TestAttentionEntropy trains a few steps and compares the per-head
// entropy with attention.AnalyzePattern's, computed from the predicted
// weights of each review cut to its words.
func TestAttentionEntropy(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model briefly")
	}
	t.Setenv("COURSE_CACHE", t.TempDir())
	e := Lesson8
	e.Steps, e.Tag, e.AttnDropout = 20, "entropy-test", 0.1
	tr, err := e.Train(Transformer)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := e.Data()
	if err != nil {
		t.Fatal(err)
	}
	rs := s.Test[:50]
	got, err := e.AttentionEntropy(tr, Transformer, rs)
	if err != nil {
		t.Fatal(err)
	}
	_, w, err := e.Predict(tr, Transformer, rs)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, e.Heads)
	uniform, rows := 0.0, 0
	for i, r := range rs {
		n := len(r.Words)
		for h := range e.Heads {
			cut := make([][]float64, n)
			for q := range n {
				cut[q] = w[i][h][q][:n]
			}
			p, err := attention.AnalyzePattern(cut, 0.1)
			if err != nil {
				t.Fatal(err)
			}
			want[h] += p.MeanEntropy * float64(n)
		}
		uniform += float64(n) * math.Log(float64(n))
		rows += n
	}
	for h := range want {
		if math.Abs(got.PerHead[h]-want[h]/float64(rows)) > 1e-9 {
			t.Errorf("head %d: entropy %.6f, AnalyzePattern gives %.6f", h+1, got.PerHead[h], want[h]/float64(rows))
		}
	}
	if math.Abs(got.Uniform-uniform/float64(rows)) > 1e-12 {
		t.Errorf("uniform %.6f, want %.6f", got.Uniform, uniform/float64(rows))
	}
	if c := got.Collapse(); !(c > 0 && c <= 1) {
		t.Errorf("Collapse() = %v, want in (0, 1]", c)
	}
	v, err := e.Reload("reloaded")
	if err != nil {
		t.Fatal(err)
	}
	full, err := e.AttentionEntropy(tr, Transformer, s.Test)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := e.Evaluate(Transformer)
	if err != nil {
		t.Fatal(err)
	}
	if v.Accuracy != ev[0].Accuracy {
		t.Errorf("Reload: accuracy %v, Evaluate %v", v.Accuracy, ev[0].Accuracy)
	}
	if v.Steps != 20 || v.Name != "reloaded" || math.Abs(v.Entropy.PerHead[0]-full.PerHead[0]) > 1e-6 {
		t.Errorf("Reload: %d steps, %q, entropy %v; want 20, \"reloaded\", %v", v.Steps, v.Name, v.Entropy, full)
	}
}

// TestQKInitScalesOnlyTheScoreWeights: the same seed with QKInit = 0.001
// starts W_Q and W_K at a thousandth of lesson 8's (Glorot) values, every
// other variable (W_V, W_O, the embedding, the feed-forward weights) the
// same, and the scores near 0: attention starts uniform over the words.
func TestQKInitScalesOnlyTheScoreWeights(t *testing.T) {
	const scale = 0.001
	initial := func(qk float64) (map[string][]float32, []float32) {
		c := Lesson8.Config(Transformer)
		c.QKInit = qk
		store := model.NewStore()
		store.SetParam(model.ParamInitialSeed, int64(7))
		exec, err := model.NewExec(backend.Default(), store, func(scope *model.Scope, ids *graph.Node) []*graph.Node {
			logits, w := c.Forward(scope, ids)
			return []*graph.Node{logits, w}
		})
		if err != nil {
			t.Fatal(err)
		}
		ids := tensors.FromFlatDataAndDimensions([]int32{5, 9, 14, 3, 0, 0, 5, 9, 14, 3, 0, 0}, 2, 6)
		out, err := exec.Call(ids)
		if err != nil {
			t.Fatal(err)
		}
		vars := map[string][]float32{}
		for v := range store.IterVariables() {
			if v.Shape().DType == dtypes.Float32 { // not the random generator's state
				vars[v.Path()] = tensors.MustCopyFlatData[float32](v.MustValue())
			}
		}
		return vars, tensors.MustCopyFlatData[float32](out[1])
	}
	glorot, _ := initial(0)
	small, weights := initial(scale)
	scaled := 0
	for path, want := range glorot {
		got, ok := small[path]
		if !ok {
			t.Fatalf("%s missing with QKInit", path)
		}
		factor := float32(1)
		if strings.HasSuffix(path, "/wq") || strings.HasSuffix(path, "/wk") {
			factor = scale
			scaled++
		}
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i]*factor)); d > 1e-6*math.Abs(float64(want[i])) {
				t.Fatalf("%s[%d] = %g, want %g·%g", path, i, got[i], factor, want[i])
			}
		}
	}
	if scaled != 2 {
		t.Fatalf("scaled %d matrices, want W_Q and W_K", scaled)
	}
	// Weights [1, heads, 6, 6]: each query's row over the 4 words is
	// uniform to within 1e-4, and the padding gets nothing.
	for r := 0; r < len(weights); r += 6 {
		for j, w := range weights[r : r+6] {
			want := 0.25
			if j >= 4 {
				want = 0
			}
			if math.Abs(float64(w)-want) > 1e-4 {
				t.Fatalf("row %d: weight %d = %g, want %g", r/6, j, w, want)
			}
		}
	}
}
