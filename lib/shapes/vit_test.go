package shapes

import (
	"testing"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/internal/reference"
	"github.com/attention-in-go/course/lib/train"
)

func embedForTest(patches, w, b, cls, pos *graph.Node) *graph.Node {
	batch, d := patches.Shape().Dimensions[0], w.Shape().Dimensions[1]
	x := graph.Add(graph.MatMul(patches, w), graph.ExpandLeftToRank(b, 3))
	c := graph.BroadcastToDims(graph.Reshape(cls, 1, 1, d), batch, 1, d)
	return graph.Add(graph.Concatenate([]*graph.Node{c, x}, 1), graph.ExpandLeftToRank(pos, 3))
}

// TestViTLearns trains the exercise's ViT briefly and requires far better
// than chance (1/3) on unseen images: the model, the loss and the data
// fit together.
func TestViTLearns(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	t.Setenv("COURSE_CACHE", t.TempDir())
	cfg := DefaultViT
	trainSet, _ := Generate(600, 16, 1)
	testSet, _ := Generate(150, 16, 2)
	tr, err := cfg.TrainViT(train.Config{Steps: 150, BatchSize: 50, LearningRate: 3e-3, Seed: 1, Quiet: true}, trainSet, reference.Patchify, embedForTest)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := cfg.Predict(tr.Store, testSet, reference.Patchify, embedForTest)
	if err != nil {
		t.Fatal(err)
	}
	if acc := Accuracy(pred, testSet); acc < 0.7 {
		t.Errorf("test accuracy %.3f after 150 steps, want ≥ 0.7 (chance is 0.33)", acc)
	}
	if tr.History.Params < 10000 {
		t.Errorf("%d parameters, want about 20,000", tr.History.Params)
	}
}

func TestViTConfigValidate(t *testing.T) {
	for _, c := range []ViTConfig{{Size: 16, Patch: 5, DModel: 32, Heads: 4, DFF: 8, Layers: 1}, {Size: 16, Patch: 4, DModel: 30, Heads: 4, DFF: 8, Layers: 1}} {
		if c.Validate() == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if err := DefaultViT.Validate(); err != nil {
		t.Error(err)
	}
}
