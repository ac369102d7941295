package attention_test

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
)

// The graph API that models use: the parameters are graph nodes (here
// constants from NewMultiHeadWeights; in a training lesson, variables).
func ExampleMultiHead() {
	flat := make([]float32, 2*5*16)
	for i := range flat {
		flat[i] = float32(i%7) / 7
	}
	x := tensors.FromFlatDataAndDimensions(flat, 2, 5, 16) // [batch 2, seq 5, d_model 16]
	w := attention.NewMultiHeadWeights(16, 1)
	outs := graph.MustExecOnceN(backend.Default(), func(x *graph.Node) []*graph.Node {
		mask := attention.LookAheadMask(x.Graph(), 5)
		out, weights := attention.MultiHead(x, x, x, 4, w.Params(x.Graph())).WithMask(mask).Done()
		return []*graph.Node{out, weights}
	}, x)
	fmt.Println("output ", outs[0].Shape().Dimensions)
	fmt.Println("weights", outs[1].Shape().Dimensions)
	// Output:
	// output  [2 5 16]
	// weights [2 4 5 5]
}

// ExplainMultiHead runs the layer on one sequence and returns plain
// matrices: every head's weights, and the shape after every step.
func ExampleExplainMultiHead() {
	x := random.New(42).Normal(6, 8) // 6 tokens, d_model = 8
	res, err := attention.ExplainMultiHead(x, x, 2, attention.NewMultiHeadWeights(8, 1), nil)
	if err != nil {
		panic(err)
	}
	for _, s := range res.Shapes {
		fmt.Println(s)
	}
	fmt.Printf("%d heads, each row sums to %.4f\n", len(res.Weights), attention.RowSums(res.Weights[1])[0])
	// Output:
	// input    [1 6 8]
	// Q        [1 6 8]
	// Q heads  [1 2 6 4]
	// K heads  [1 2 6 4]
	// weights  [1 2 6 6]
	// heads    [1 2 6 4]
	// concat   [1 6 8]
	// output   [1 6 8]
	// 2 heads, each row sums to 1.0000
}

// Cross-attention: 4 French queries attend to 3 English keys, so every
// head's weights are 4×3; MeanHeads averages them into one matrix.
func ExampleExplainMultiHead_cross() {
	r := random.New(42)
	english, french := r.Normal(3, 6), r.Normal(4, 6)
	res, err := attention.ExplainMultiHead(french, english, 2, attention.NewMultiHeadWeights(6, 42), nil)
	if err != nil {
		panic(err)
	}
	mean := attention.MeanHeads(res.Weights)
	fmt.Printf("%d heads of %d×%d weights, mean %d×%d\n", len(res.Weights), len(res.Weights[0]), len(res.Weights[0][0]), len(mean), len(mean[0]))
	fmt.Printf("output %d×%d: one row per French token\n", len(res.Output), len(res.Output[0]))
	// Output:
	// 2 heads of 4×3 weights, mean 4×3
	// output 4×6: one row per French token
}

// The source's test: batch 2, 10 tokens, d_model 64, 8 heads of d_k = 8.
func ExampleExplainMultiHeadBatch() {
	r := random.New(42)
	x := [][][]float64{r.Normal(10, 64), r.Normal(10, 64)}
	res, err := attention.ExplainMultiHeadBatch(x, 8, attention.NewMultiHeadWeights(64, 1), nil)
	if err != nil {
		panic(err)
	}
	fmt.Print(attention.ShapeLines(res.Shapes))
	fmt.Println("parameters:", res.ParamCount)
	// Output:
	// input    [2 10 64]
	// Q        [2 10 64]
	// K        [2 10 64]
	// V        [2 10 64]
	// Q heads  [2 8 10 8]
	// K heads  [2 8 10 8]
	// V heads  [2 8 10 8]
	// weights  [2 8 10 10]
	// heads    [2 8 10 8]
	// concat   [2 10 64]
	// output   [2 10 64]
	// parameters: 16640
}

// Four d_model×d_model matrices and four bias vectors, whatever the number
// of heads.
func ExampleMultiHeadParamCount() {
	for _, d := range []int{64, 512} {
		fmt.Printf("d_model %3d: %7d weights + %4d biases = %7d\n", d,
			attention.MultiHeadParamCount(d, false), 4*d, attention.MultiHeadParamCount(d, true))
	}
	// Output:
	// d_model  64:   16384 weights +  256 biases =   16640
	// d_model 512: 1048576 weights + 2048 biases = 1050624
}
