package viz_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/viz"
)

// The encoder of the base Transformer: six layers.
func ExampleEncoderDiagram() {
	viz.Show(&viz.EncoderDiagram{Layers: 6})
}

// Model sizes written the short way, as on the axis of a timeline.
func ExampleCountLabel() {
	for _, n := range []float64{65e6, 1.5e9, 175e9, 1e12} {
		fmt.Print(viz.CountLabel(n), " ")
	}
	fmt.Println()
	// Output:
	// 65M 1.5B 175B 1T
}
