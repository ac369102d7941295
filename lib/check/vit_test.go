package check

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/train"
	"github.com/attention-in-go/course/lib/vision"
)

func patchifySolution(img [][]float64, p int) ([][]float64, error) {
	if p < 1 || len(img)%p != 0 || len(img[0])%p != 0 {
		return nil, fmt.Errorf("bad")
	}
	var out [][]float64
	for r := 0; r < len(img); r += p {
		for c := 0; c < len(img[0]); c += p {
			var patch []float64
			for y := r; y < r+p; y++ {
				patch = append(patch, img[y][c:c+p]...)
			}
			out = append(out, patch)
		}
	}
	return out, nil
}

func TestPatchifyHints(t *testing.T) {
	variant := func(f func(PatchIn) PatchOut) patchifyFunc {
		return func(img [][]float64, p int) ([][]float64, error) {
			o := f(PatchIn{Img: img, P: p})
			if o.Err {
				return nil, fmt.Errorf("bad")
			}
			return o.Patches, nil
		}
	}
	expectHints(t, patchifySpec, patchifySolution, []hintCase[patchifyFunc]{
		{"patch grid column by column", "column-order", variant(patchVariant(true, false))},
		{"patches flattened column by column", "patch-transposed", variant(patchVariant(false, true))},
		{"no error", "no-error", func(img [][]float64, p int) ([][]float64, error) {
			if p < 1 {
				return nil, nil
			}
			out, _ := patchifySolution(img[:len(img)/p*p], p)
			return out, nil
		}},
	})
}

func patchEmbedSolution(patches, w, b, cls, pos *graph.Node) *graph.Node {
	batch, d := patches.Shape().Dimensions[0], w.Shape().Dimensions[1]
	x := graph.Add(graph.MatMul(patches, w), graph.ExpandLeftToRank(b, 3))
	c := graph.BroadcastToDims(graph.Reshape(cls, 1, 1, d), batch, 1, d)
	return graph.Add(graph.Concatenate([]*graph.Node{c, x}, 1), graph.ExpandLeftToRank(pos, 3))
}

func TestPatchEmbeddingHints(t *testing.T) {
	with := func(clsLast, noPos, noBias bool) patchEmbedFunc {
		return func(patches, w, b, cls, pos *graph.Node) *graph.Node {
			batch, d := patches.Shape().Dimensions[0], w.Shape().Dimensions[1]
			x := graph.MatMul(patches, w)
			if !noBias {
				x = graph.Add(x, graph.ExpandLeftToRank(b, 3))
			}
			c := graph.BroadcastToDims(graph.Reshape(cls, 1, 1, d), batch, 1, d)
			parts := []*graph.Node{c, x}
			if clsLast {
				parts = []*graph.Node{x, c}
			}
			x = graph.Concatenate(parts, 1)
			if !noPos {
				x = graph.Add(x, graph.ExpandLeftToRank(pos, 3))
			}
			return x
		}
	}
	expectHints(t, patchEmbedSpec, patchEmbedSolution, []hintCase[patchEmbedFunc]{
		{"class token last", "cls-last", with(true, false, false)},
		{"no position embeddings", "no-positions", with(false, true, false)},
		{"no bias", "no-bias", with(false, false, true)},
	})
	if res := patchEmbedSpec.Run(func(p, w, b, c, pos *graph.Node) *graph.Node { return graph.MatMul(p, w) }, false); res.Points != 0 {
		t.Errorf("no class token scored %v:\n%s", res.Points, res.Report())
	}
}

// TestViTLearns trains lib/vision's ViT briefly, with the reference
// patchify and embedding, and requires far better
// than chance (1/3) on unseen images: the model, the loss and the data
// fit together.
func TestViTLearns(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	t.Setenv("COURSE_CACHE", t.TempDir())
	cfg := vision.DefaultViT
	trainSet, _ := vision.Generate(600, 16, 1)
	testSet, _ := vision.Generate(150, 16, 2)
	tr, err := cfg.TrainViT(train.Config{Steps: 150, BatchSize: 50, LearningRate: 3e-3, Seed: 1, Quiet: true}, trainSet, reference.Patchify, patchEmbedSolution)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := cfg.Predict(tr.Store, testSet, reference.Patchify, patchEmbedSolution)
	if err != nil {
		t.Fatal(err)
	}
	if acc := vision.Accuracy(pred, testSet); acc < 0.7 {
		t.Errorf("test accuracy %.3f after 150 steps, want ≥ 0.7 (chance is 0.33)", acc)
	}
	if tr.History.Params < 10000 {
		t.Errorf("%d parameters, want about 20,000", tr.History.Params)
	}
}

// TestViT trains the course's solution once (about 15 s) and checks that
// guessing scores 0 with the "chance" hint.
func TestViT(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	t.Setenv("COURSE_CACHE", t.TempDir())
	solution := func(trainSet, testSet *vision.Dataset) []int {
		cfg := vision.DefaultViT
		tr, err := cfg.TrainViT(train.Config{Steps: 450, BatchSize: 50, LearningRate: 3e-3, Seed: 1, Quiet: true}, trainSet, reference.Patchify, patchEmbedSolution)
		if err != nil {
			panic(err)
		}
		pred, err := cfg.Predict(tr.Store, testSet, reference.Patchify, patchEmbedSolution)
		if err != nil {
			panic(err)
		}
		t.Logf("test accuracy %.3f", vision.Accuracy(pred, testSet))
		return pred
	}
	expectHints(t, vitSpec, solution, []hintCase[vitFunc]{
		{"always bar", "chance", func(_, testSet *vision.Dataset) []int { return make([]int, testSet.Len()) }},
	})
}

// TestViTLabelsHidden: the learner's function gets the test images
// without their labels, in this process and in the grader's child (the
// inputs WriteInputs sends), and cannot score by returning what it got.
func TestViTLabelsHidden(t *testing.T) {
	var got *vision.Dataset
	echo := func(_, testSet *vision.Dataset) []int { got = testSet; return testSet.Labels }
	if r := vitSpec.Check(echo); r.Points != 0 {
		t.Errorf("returning the test labels it was given scored %v:\n%s", r.Points, r.Report())
	}
	full := vitSpec.Cases()[0].In
	if got == nil || len(got.Images) != len(full.Test.Images) || len(got.Labels) != len(full.Test.Labels) {
		t.Fatalf("the learner's function did not get the %d test images", len(full.Test.Images))
	}
	zero := func(labels []int) bool { return !slices.ContainsFunc(labels, func(l int) bool { return l != 0 }) }
	if !zero(got.Labels) {
		t.Error("the learner's function got the test labels")
	}
	if zero(full.Test.Labels) || zero(vitSpec.Reference(full)) {
		t.Error("the case's own test labels are all 0: the reference and the comparison need the real ones")
	}
	var buf bytes.Buffer
	n, err := vitSpec.WriteInputs(&buf, 7)
	if err != nil || n == 0 {
		t.Fatalf("WriteInputs: %d cases, %v", n, err)
	}
	dec := gob.NewDecoder(&buf)
	for i := range n {
		var in ViTIn
		if err := dec.Decode(&in); err != nil {
			t.Fatal(err)
		}
		if len(in.Train.Labels) == 0 || zero(in.Train.Labels) {
			t.Errorf("case %d: the child got no training labels", i)
		}
		if len(in.Test.Labels) != len(in.Test.Images) || !zero(in.Test.Labels) {
			t.Errorf("case %d: the child got the test labels", i)
		}
	}
}
