package transformer_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/transformer"
)

// The base encoder of the source lesson (the paper's base model with a
// vocabulary of 10,000), counted part by part.
func ExampleConfig_ParamCounts() {
	fmt.Print(transformer.Base().ParamCounts())
	// Output:
	// token embedding            vocab·d = 10000·512            5,120,000
	// positional encoding        fixed sinusoids, not learned           0
	// per layer: self-attention  4·d² + 4·d                     1,050,624
	// per layer: feed-forward    2·d·d_ff + d_ff + d            2,099,712
	// per layer: 2 × LayerNorm   2 × (γ, β) = 4·d                   2,048
	// one encoder layer                                         3,152,384
	// 6 encoder layers           N·layer = 6·3,152,384         18,914,304
	// ───────────────────────────────────────────────────────────────────
	// total                      embedding + layers            24,034,304
}

// LayerNorm gives every row mean 0 and variance 1, whatever its offset and
// scale.
func ExampleLayerNormOf() {
	x := [][]float64{{1, 2, 3, 4, 5}, {100, 200, 300, 400, 500}}
	y, err := transformer.LayerNormOf(x, nil)
	if err != nil {
		panic(err)
	}
	for i := range y {
		fmt.Printf("%.4f  mean, variance %.4f\n", y[i], transformer.MeanVar(y)[i])
	}
	// Output:
	// [-1.4142 -0.7071 0.0000 0.7071 1.4142]  mean, variance [0.0000 1.0000]
	// [-1.4142 -0.7071 0.0000 0.7071 1.4142]  mean, variance [0.0000 1.0000]
}

func ExampleThousands() {
	fmt.Println(transformer.Thousands(24034304))
	// Output:
	// 24,034,304
}
