package attention

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/internal/eager"
)

// Options configures the eager [Explain]. The zero value (or nil) is plain
// scaled dot-product attention without a mask.
type Options struct {
	// Mask is [seq_q][seq_k] with 1 where a query must not see a key (any
	// non-zero value counts as 1), or a single row [1][seq_k] that masks the
	// same keys for every query, such as one sequence's padding mask; nil
	// means no mask.
	Mask [][]float64
	// Temperature divides the scaled scores before the softmax; 0 means 1.
	Temperature float64
	// NoScale drops the 1/√d_k factor, to see why it is there.
	NoScale bool
}

// Steps holds every intermediate of one attention over a single sequence, as
// plain matrices to print and plot.
type Steps struct {
	Scores  [][]float64 // Q·Kᵀ                           [seq_q][seq_k]
	Scaled  [][]float64 // Scores / √d_k (and / T)        [seq_q][seq_k]
	Masked  [][]float64 // Scaled, masked entries = -1e9  [seq_q][seq_k]
	Weights [][]float64 // softmax over each row           [seq_q][seq_k]
	Output  [][]float64 // Weights·V                       [seq_q][d_v]
}

// Explain runs [ScaledDotProduct] on one sequence and returns every
// intermediate step:
//
//	Scores = Q·Kᵀ,  Scaled = Scores/√d_k,  Weights = softmax(Scaled),  Output = Weights·V
//
// It computes in float32 on the course backend, like a model would.
//
// Typical shapes: q [seq_q][d_k], k [seq_k][d_k], v [seq_k][d_v].
//
// Introduced in lesson 01.
func Explain(q, k, v [][]float64, opts *Options) (*Steps, error) {
	if opts == nil {
		opts = &Options{}
	}
	if err := checkQKV(q, k, v); err != nil {
		return nil, err
	}
	temperature := opts.Temperature
	if temperature == 0 {
		temperature = 1
	}
	if temperature < 0 {
		return nil, fmt.Errorf("attention.Explain: Temperature must be > 0 (or 0 for the default 1), got %g", temperature)
	}
	inputs := []any{eager.Tensor(q), eager.Tensor(k), eager.Tensor(v)}
	if opts.Mask != nil {
		rows := len(q)
		if len(opts.Mask) == 1 {
			rows = 1 // broadcast over the queries
		}
		if err := checkMatrix("Mask", opts.Mask, rows, len(k)); err != nil {
			return nil, err
		}
		inputs = append(inputs, eager.Bools(opts.Mask))
	}
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		b := ScaledDotProduct(in[0], in[1], in[2]).WithTemperature(temperature)
		if len(in) == 4 {
			b = b.WithMask(in[3])
		}
		if opts.NoScale {
			b = b.WithoutScale()
		}
		s := b.Steps()
		scaled := s.Scaled
		if temperature != 1 {
			scaled = graph.DivScalar(scaled, temperature) // what the softmax sees
		}
		masked := s.Masked
		if temperature != 1 {
			masked = graph.DivScalar(masked, temperature)
		}
		return []*graph.Node{s.Scores, scaled, masked, s.Weights, s.Output}
	}, inputs...)
	if err != nil {
		return nil, err
	}
	return &Steps{
		Scores: eager.Matrix(outs[0]), Scaled: eager.Matrix(outs[1]), Masked: eager.Matrix(outs[2]),
		Weights: eager.Matrix(outs[3]), Output: eager.Matrix(outs[4]),
	}, nil
}

// SoftmaxOf runs [Softmax] on one vector of logits: softmax(x / T).
//
// Introduced in lesson 01.
func SoftmaxOf(logits []float64, temperature float64) ([]float64, error) {
	if len(logits) == 0 {
		return nil, fmt.Errorf("attention.SoftmaxOf: no logits")
	}
	if !(temperature > 0) {
		return nil, fmt.Errorf("attention.SoftmaxOf: temperature must be > 0, got %g", temperature)
	}
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		return []*graph.Node{Softmax(in[0], temperature)}
	}, eager.Tensor([][]float64{logits}))
	if err != nil {
		return nil, err
	}
	return eager.Matrix(outs[0])[0], nil
}

// LookAhead returns the look-ahead mask of [LookAheadMask] as a 0/1 matrix
// (1 = masked): row i has ones at the columns after i. It panics if n < 1,
// like make does for a negative length.
//
// Introduced in lesson 01.
func LookAhead(n int) [][]float64 {
	if n < 1 {
		panic(fmt.Sprintf("attention.LookAhead: sequence length must be ≥ 1, got %d", n))
	}
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		return []*graph.Node{graph.ConvertDType(LookAheadMask(in[0].Graph(), n), in[0].DType())}
	}, tensors.FromScalar(float32(0)))
	if err != nil {
		panic(err)
	}
	return eager.Matrix(outs[0])
}

// Padding returns the padding mask of [PaddingMask] for a batch of token ids
// as a 0/1 matrix [batch][seq] (1 = padding, masked). Every sequence of the
// batch must have the same (padded) length.
//
// Introduced in lesson 01.
func Padding(tokens [][]int, padID int) ([][]float64, error) {
	if len(tokens) == 0 || len(tokens[0]) == 0 {
		return nil, fmt.Errorf("attention.Padding: empty batch")
	}
	flat := make([]int32, 0, len(tokens)*len(tokens[0]))
	for i, row := range tokens {
		if len(row) != len(tokens[0]) {
			return nil, fmt.Errorf("attention.Padding: sequence %d has length %d, sequence 0 has %d: pad every sequence to the same length first",
				i, len(row), len(tokens[0]))
		}
		for _, t := range row {
			flat = append(flat, int32(t))
		}
	}
	in := tensors.FromFlatDataAndDimensions(flat, len(tokens), len(tokens[0]))
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		m := PaddingMask(in[0], padID)                    // Shape: [batch, 1, seq]
		m = graph.Reshape(m, in[0].Shape().Dimensions...) // Shape: [batch, seq]
		return []*graph.Node{graph.ConvertDType(m, dtypes.Float32)}
	}, in)
	if err != nil {
		return nil, err
	}
	return eager.Matrix(outs[0]), nil
}
