package classifier

import (
	"math"
	"reflect"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

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
