package posenc_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/posenc"
)

// RoPE turns each pair of columns (2i, 2i+1) of a vector at position p by
// p·θ_i: with d = 4 and n = 100, θ₀ = 1 and θ₁ = 0.1 radian per position.
// The pair (1, 0) becomes (cos pθ, sin pθ).
func ExampleRotary() {
	x := [][]float64{{1, 0, 1, 0}, {1, 0, 1, 0}, {1, 0, 1, 0}}
	for p, row := range posenc.Rotary(x, []int{0, 1, 2}, 100) {
		fmt.Printf("p=%d %7.4f\n", p, row)
	}
	// Output:
	// p=0 [ 1.0000  0.0000  1.0000  0.0000]
	// p=1 [ 0.5403  0.8415  0.9950  0.0998]
	// p=2 [-0.4161  0.9093  0.9801  0.1987]
}

// The slopes of 8 heads halve from 1/2 to 1/256; 6 heads take the 4
// slopes of 4 heads, then every other slope of 8 heads.
func ExampleALiBiSlopes() {
	fmt.Println(posenc.ALiBiSlopes(8))
	fmt.Println(posenc.ALiBiSlopes(6))
	// Output:
	// [0.5 0.25 0.125 0.0625 0.03125 0.015625 0.0078125 0.00390625]
	// [0.25 0.0625 0.015625 0.00390625 0.5 0.125]
}

// The first of 2 heads has slope 1/16: a key d tokens back costs d/16.
// Above the diagonal (later keys) the bias is positive, but a decoder's
// causal mask hides those keys.
func ExampleALiBi() {
	for _, row := range posenc.ALiBi(2, []int{0, 1, 2, 3}, []int{0, 1, 2, 3})[0] {
		fmt.Printf("%7.4f\n", row)
	}
	// Output:
	// [ 0.0000  0.0625  0.1250  0.1875]
	// [-0.0625  0.0000  0.0625  0.1250]
	// [-0.1250 -0.0625  0.0000  0.0625]
	// [-0.1875 -0.1250 -0.0625  0.0000]
}
