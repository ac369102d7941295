package attention_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/attention"
)

// Two orthogonal tokens attend mostly to themselves: the scores Q·Kᵀ form the
// identity, divided by √2 before the softmax.
func ExampleExplain() {
	q := [][]float64{{1, 0}, {0, 1}}
	v := [][]float64{{1, 2}, {3, 4}}
	steps, err := attention.Explain(q, q, v, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("scaled:  %.4f\n", steps.Scaled)
	fmt.Printf("weights: %.4f\n", steps.Weights)
	fmt.Printf("output:  %.4f\n", steps.Output)
	// Output:
	// scaled:  [[0.7071 0.0000] [0.0000 0.7071]]
	// weights: [[0.6698 0.3302] [0.3302 0.6698]]
	// output:  [[1.6605 2.6605] [2.3395 3.3395]]
}

// With the look-ahead mask the first token can only see itself, and every
// masked weight is exactly zero.
func ExampleExplain_lookAhead() {
	x := [][]float64{{1, 0}, {0, 1}, {1, 1}}
	steps, err := attention.Explain(x, x, x, &attention.Options{Mask: attention.LookAhead(3)})
	if err != nil {
		panic(err)
	}
	for _, row := range steps.Weights {
		fmt.Printf("%.3f\n", row)
	}
	// Output:
	// [1.000 0.000 0.000]
	// [0.330 0.670 0.000]
	// [0.248 0.248 0.503]
}

func ExampleLookAhead() {
	for _, row := range attention.LookAhead(4) {
		fmt.Println(row)
	}
	// Output:
	// [0 1 1 1]
	// [0 0 1 1]
	// [0 0 0 1]
	// [0 0 0 0]
}

func ExamplePadding() {
	mask, _ := attention.Padding([][]int{{5, 7, 9, 0}, {3, 4, 0, 0}}, 0)
	fmt.Println(mask)
	// Output:
	// [[0 0 0 1] [0 0 1 1]]
}

// The temperature sharpens (T < 1) or flattens (T > 1) the same logits.
func ExampleSoftmaxOf() {
	for _, t := range []float64{0.5, 1, 2} {
		w, _ := attention.SoftmaxOf([]float64{1, 2, 3}, t)
		fmt.Printf("T=%.1f %.3f\n", t, w)
	}
	// Output:
	// T=0.5 [0.016 0.117 0.867]
	// T=1.0 [0.090 0.245 0.665]
	// T=2.0 [0.186 0.307 0.506]
}
