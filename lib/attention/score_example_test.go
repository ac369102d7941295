package attention_test

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
)

// One decoder step with the dot score: the state (1, 0) scores 1 against
// the keys (1, 0) and (1, 1) and 0 against (0, 1), so those two share most
// of the weight, and the context leans towards them.
func ExampleAlign() {
	decoder := [][]float64{{1, 0}}
	encoder := [][]float64{{1, 0}, {0, 1}, {1, 1}}
	a, err := attention.Align(decoder, encoder, &attention.ScoreWeights{Kind: attention.Dot})
	if err != nil {
		panic(err)
	}
	fmt.Printf("scores  %.4f\n", a.Scores[0])
	fmt.Printf("weights %.4f\n", a.Weights[0])
	fmt.Printf("context %.4f\n", a.Context[0])
	// Output:
	// scores  [1.0000 0.0000 1.0000]
	// weights [0.4223 0.1554 0.4223]
	// context [0.8446 0.5777]
}

// A batch of two source sentences, the second padded after two words: the
// padded positions get a weight of exactly 0, whatever their scores.
func ExampleAttend() {
	r := random.New(1)
	query := r.Normal(2, 4)                               // [batch 2][hidden 4]
	keys := [][][]float64{r.Normal(4, 4), r.Normal(4, 4)} // [batch 2][seq 4][hidden 4]
	mask := [][]float64{{0, 0, 0, 0}, {0, 0, 1, 1}}
	a, err := attention.Attend(query, keys, keys, attention.NewScoreWeights(attention.Additive, 4, 7), mask)
	if err != nil {
		panic(err)
	}
	for _, row := range a.Weights {
		fmt.Printf("%.3g\n", row)
	}
	fmt.Println("context", len(a.Context), "×", len(a.Context[0]))
	// Output:
	// [0.327 0.281 0.177 0.214]
	// [0.41 0.59 0 0]
	// context 2 × 4
}

// The graph API that models use: the parameters are graph nodes (here
// constants; in a training lesson, variables), the scores of one decoder
// step go through Context.
func ExampleContext() {
	r := random.New(3)
	query := tensors.FromFlatDataAndDimensions(make([]float32, 2*8), 2, 8)     // [batch, hidden_q]
	keys := tensors.FromFlatDataAndDimensions(make([]float32, 2*5*6), 2, 5, 6) // [batch, seq, hidden_k]
	w := attention.DrawScoreWeights(r, attention.Additive, 8, 6, 16, 0)        // attn = 16
	outs := graph.MustExecOnceN(backend.Default(), func(q, k *graph.Node) []*graph.Node {
		p := w.Params(q.Graph())
		scores := attention.AdditiveScore(q, k, p.W1, p.W2, p.V)
		context, weights := attention.Context(scores, k, nil)
		return []*graph.Node{scores, weights, context}
	}, query, keys)
	fmt.Println("scores ", outs[0].Shape().Dimensions)
	fmt.Println("weights", outs[1].Shape().Dimensions)
	fmt.Println("context", outs[2].Shape().Dimensions)
	// Output:
	// scores  [2 5]
	// weights [2 5]
	// context [2 6]
}

// The number of parameters of each score for hidden = attn = 64.
func ExampleScoreWeights_NumParams() {
	for _, kind := range attention.ScoreKinds {
		fmt.Printf("%-8s %5d\n", kind, attention.NewScoreWeights(kind, 64, 1).NumParams())
	}
	// Output:
	// additive  8256
	// dot          0
	// general   4096
	// concat    8256
}
