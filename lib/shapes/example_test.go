package shapes_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/shapes"
)

func ExampleGenerate() {
	d, err := shapes.Generate(9, 16, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println("images:", d.Len(), "of", d.Size, "×", d.Size)
	fmt.Println("per class:", d.Counts())
	fmt.Println("first label:", shapes.Class(d.Labels[0]))
	// Output:
	// images: 9 of 16 × 16
	// per class: [3 3 3]
	// first label: cross
}
