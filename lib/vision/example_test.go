package vision_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/vision"
)

func ExampleGenerate() {
	d, err := vision.Generate(9, 16, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println("images:", d.Len(), "of", d.Size, "×", d.Size)
	fmt.Println("per class:", d.Counts())
	fmt.Println("first label:", vision.Class(d.Labels[0]))
	// Output:
	// images: 9 of 16 × 16
	// per class: [3 3 3]
	// first label: cross
}
