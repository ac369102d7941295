package train_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/train"
)

// Batches visit the examples in a seeded order: each epoch is a fresh
// permutation, and a batch that does not fill up continues into the next
// epoch, so every batch has the same size.
func ExampleDataset_Batches() {
	d := &train.Dataset{Name: "ids",
		Inputs: []train.Column{train.Ints([]int32{0, 1, 2, 3, 4}, 1)},
		Labels: []train.Column{train.Floats([]float32{0, 10, 20, 30, 40})}}
	b, err := d.Batches(2, 42)
	if err != nil {
		panic(err)
	}
	n := 0
	for batch := range b.Iter() {
		fmt.Println(batch.Inputs[0].Value(), batch.Labels[0].Value())
		if n++; n == 4 {
			break
		}
	}
	// Output:
	// [[3] [1]] [30 10]
	// [[2] [4]] [20 40]
	// [[0] [1]] [0 10]
	// [[0] [2]] [0 20]
}
