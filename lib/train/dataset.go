package train

import (
	"fmt"
	"iter"
	"math/rand/v2"

	"github.com/gomlx/gomlx/core/tensors"
	gomlxtrain "github.com/gomlx/gomlx/ml/train"
)

// Column is one input or label of every example of a [Dataset]: a flat
// array holding N examples one after the other, each of shape Dims. Exactly
// one of Int and Float is set.
//
// Typical shapes: token ids, Dims [seq], Int of length N·seq; a mask or a
// target value, Dims [] (one number per example).
//
// Part of the library behind lesson 06; the lesson does not name it.
type Column struct {
	Dims  []int
	Int   []int32
	Float []float32
}

// Ints makes an int32 [Column] of examples of shape dims from data, which
// holds them one after the other.
//
// Part of the library behind lesson 06; the lesson does not name it.
func Ints(data []int32, dims ...int) Column { return Column{Dims: dims, Int: data} }

// Floats makes a float32 [Column] of examples of shape dims from data, which
// holds them one after the other.
//
// Part of the library behind lesson 06; the lesson does not name it.
func Floats(data []float32, dims ...int) Column { return Column{Dims: dims, Float: data} }

// size returns the number of values of one example.
func (c Column) size() int {
	n := 1
	for _, d := range c.Dims {
		n *= d
	}
	return n
}

// len returns the number of values of the column.
func (c Column) len() int {
	if c.Int != nil {
		return len(c.Int)
	}
	return len(c.Float)
}

// gather returns the examples idx as one tensor [len(idx), Dims...].
func (c Column) gather(idx []int) *tensors.Tensor {
	n := c.size()
	dims := append([]int{len(idx)}, c.Dims...)
	if c.Int != nil {
		out := make([]int32, 0, n*len(idx))
		for _, i := range idx {
			out = append(out, c.Int[i*n:(i+1)*n]...)
		}
		return tensors.FromFlatDataAndDimensions(out, dims...)
	}
	out := make([]float32, 0, n*len(idx))
	for _, i := range idx {
		out = append(out, c.Float[i*n:(i+1)*n]...)
	}
	return tensors.FromFlatDataAndDimensions(out, dims...)
}

// Dataset holds N examples in memory: Inputs go to the model, Labels to the
// loss. The i-th example is example i of every column.
//
// Typical shapes: Inputs {source ids [seq], source mask [seq]}, Labels
// {target ids [seq]}.
//
// Introduced in lesson 06.
type Dataset struct {
	Name           string
	Inputs, Labels []Column
}

// Len returns the number of examples, checking that every column holds the
// same number.
func (d *Dataset) Len() (int, error) {
	n := -1
	for k, c := range append(append([]Column{}, d.Inputs...), d.Labels...) {
		if (c.Int == nil) == (c.Float == nil) {
			return 0, fmt.Errorf("train: dataset %q column %d must have exactly one of Int and Float set", d.Name, k)
		}
		if c.size() == 0 || c.len()%c.size() != 0 {
			return 0, fmt.Errorf("train: dataset %q column %d has %d values, not a multiple of its example shape %v", d.Name, k, c.len(), c.Dims)
		}
		m := c.len() / c.size()
		if n >= 0 && m != n {
			return 0, fmt.Errorf("train: dataset %q column %d has %d examples, column 0 has %d", d.Name, k, m, n)
		}
		n = m
	}
	if n <= 0 {
		return 0, fmt.Errorf("train: dataset %q is empty", d.Name)
	}
	return n, nil
}

// Order returns the order in which [Dataset.Batches] visits the examples:
// epoch after epoch, each a permutation of 0…n−1 drawn from seed (PCG), so
// the same seed gives the same batches on every machine.
//
// Part of the library behind lesson 06; the lesson does not name it.
func Order(n int, seed uint64) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		r := rand.New(rand.NewPCG(seed, 0x5eed))
		for {
			if !yield(r.Perm(n)) {
				return
			}
		}
	}
}

// Batch is one batch of examples: one tensor per column, first axis the
// batch. It is GoMLX's training batch, so a [Batcher] feeds GoMLX's
// training loop directly.
//
// Part of the library behind lesson 06; the lesson does not name it.
type Batch = gomlxtrain.Batch

// Batches returns the examples as an endless sequence of batches of
// batchSize examples, shuffled by epoch with [Order](n, seed). Every batch
// is full (an epoch's last examples continue into the next batch), so the
// training graph is compiled once.
//
// Typical shapes: batchSize 64 → inputs [64, seq], labels [64, seq].
//
// Part of the library behind lesson 06; the lesson does not name it.
func (d *Dataset) Batches(batchSize int, seed uint64) (*Batcher, error) {
	n, err := d.Len()
	if err != nil {
		return nil, err
	}
	if batchSize < 1 {
		return nil, fmt.Errorf("train: batch size must be ≥ 1, got %d", batchSize)
	}
	return &Batcher{d: d, n: n, size: batchSize, seed: seed}, nil
}

// Batcher yields the batches of a [Dataset] in a seeded order. It is a
// GoMLX training dataset (github.com/gomlx/gomlx/ml/train.Dataset).
//
// Part of the library behind lesson 06; the lesson does not name it.
type Batcher struct {
	d    *Dataset
	n    int
	size int
	seed uint64
}

// Name is the dataset's name.
func (b *Batcher) Name() string { return b.d.Name }

// Iter returns the batches, endlessly; every call starts again from the
// first.
func (b *Batcher) Iter() iter.Seq2[Batch, error] {
	return func(yield func(Batch, error) bool) {
		var pending []int
		for perm := range Order(b.n, b.seed) {
			pending = append(pending, perm...)
			for len(pending) >= b.size {
				idx := pending[:b.size]
				if !yield(b.d.batch(idx), nil) {
					return
				}
				pending = pending[b.size:]
			}
		}
	}
}

// batch returns the examples idx as a GoMLX batch.
func (d *Dataset) batch(idx []int) Batch {
	var out Batch
	for _, c := range d.Inputs {
		out.Inputs = append(out.Inputs, c.gather(idx))
	}
	for _, c := range d.Labels {
		out.Labels = append(out.Labels, c.gather(idx))
	}
	return out
}

// Slice returns the examples from..to−1 of the inputs as tensors, in
// order: what [Predict] takes.
//
// Part of the library behind lesson 06; the lesson does not name it.
func (d *Dataset) Slice(from, to int) []*tensors.Tensor {
	idx := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		idx = append(idx, i)
	}
	var out []*tensors.Tensor
	for _, c := range d.Inputs {
		out = append(out, c.gather(idx))
	}
	return out
}
