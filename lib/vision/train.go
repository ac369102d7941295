package vision

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/train"
)

// PatchifyFunc cuts one image [H][W] into patches of p×p pixels, each
// flattened: [(H/p)·(W/p)][p·p]. The learner writes it in the exercise.
//
// Part of the library behind lesson 05; the lesson does not name it.
type PatchifyFunc func(img [][]float64, p int) ([][]float64, error)

// Model returns the [ViT] as a lib/train model: inputs {patches [batch, P,
// patch_dim] float32} → {logits [batch, NumClasses]}.
//
// Part of the library behind lesson 05's exercise notebook, which does not name it.
func (c ViTConfig) Model(embed EmbedFunc) train.Model {
	return func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
		return []*graph.Node{ViT(scope.In("vit"), inputs[0], c, embed)}
	}
}

// TrainDataset cuts every image of d into patches with patchify and
// returns the lib/train dataset: inputs {patches}, labels {class}.
//
// Part of the library behind lesson 05's exercise notebook, which does not name it.
func (c ViTConfig) TrainDataset(d *Dataset, patchify PatchifyFunc) (*train.Dataset, error) {
	flat, dims, err := Patches(d, c.Patch, patchify)
	if err != nil {
		return nil, err
	}
	if dims[1] != c.NumPatches() || dims[2] != c.PatchDim() {
		return nil, fmt.Errorf("vision: patchify gave %d patches of %d values, want %d of %d", dims[1], dims[2], c.NumPatches(), c.PatchDim())
	}
	labels := make([]int32, d.Len())
	for i, l := range d.Labels {
		labels[i] = int32(l)
	}
	return &train.Dataset{Name: "shapes", Inputs: []train.Column{train.Floats(flat, dims[1], dims[2])},
		Labels: []train.Column{train.Ints(labels)}}, nil
}

// TrainViT trains a ViT of configuration c on d with lib/train (Adam), the
// images cut by patchify and embedded by embed. opts.Name, when set, keeps
// the weights so that a later cell can reload them (train.Load).
//
// Part of the library behind lesson 05's exercise notebook, which does not name it.
func (c ViTConfig) TrainViT(opts train.Config, d *Dataset, patchify PatchifyFunc, embed EmbedFunc) (*train.Trained, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	ds, err := c.TrainDataset(d, patchify)
	if err != nil {
		return nil, err
	}
	return train.Fit(opts, c.Model(embed), train.CrossEntropy, ds)
}

// Predict returns the predicted class of every image of d: the largest
// logit of the trained model.
//
// Part of the library behind lesson 05's exercise notebook, which does not name it.
func (c ViTConfig) Predict(store *model.Store, d *Dataset, patchify PatchifyFunc, embed EmbedFunc) ([]int, error) {
	flat, dims, err := Patches(d, c.Patch, patchify)
	if err != nil {
		return nil, err
	}
	out, err := train.Predict(store, c.Model(embed), tensors.FromFlatDataAndDimensions(flat, dims...))
	if err != nil {
		return nil, err
	}
	logits := tensors.MustCopyFlatData[float32](out[0])
	pred := make([]int, d.Len())
	for i := range pred {
		for k := 1; k < NumClasses; k++ {
			if logits[i*NumClasses+k] > logits[i*NumClasses+pred[i]] {
				pred[i] = k
			}
		}
	}
	return pred, nil
}

// Accuracy is the fraction of predictions equal to the labels of d.
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
func Accuracy(pred []int, d *Dataset) float64 {
	if d.Len() == 0 {
		return 0
	}
	n := 0
	for i, l := range d.Labels {
		if i < len(pred) && pred[i] == l {
			n++
		}
	}
	return float64(n) / float64(d.Len())
}
