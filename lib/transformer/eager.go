package transformer

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// FFNResult is what [ExplainFFN] returns for one sequence.
//
// Introduced in lesson 05.
type FFNResult struct {
	Hidden [][]float64 // max(0, x·W₁ + b₁)   [seq][d_ff]
	Output [][]float64 // Hidden·W₂ + b₂      [seq][d_model]
	Shapes StepShapes
}

// ExplainFFN runs [FFN] with the weights w on one sequence x [seq][d_model]
// and returns the hidden layer after the ReLU, the output and the shapes.
//
// Introduced in lesson 05.
func ExplainFFN(x [][]float64, w *FFNWeights) (*FFNResult, error) {
	if err := checkMatrix("x", x, -1); err != nil {
		return nil, err
	}
	if w == nil || w.DModel != len(x[0]) {
		return nil, fmt.Errorf("transformer.ExplainFFN: the weights must be for d_model = %d (the width of x)", len(x[0]))
	}
	var shapes StepShapes
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		hidden, out := ffnSteps(in[0], w.Params(in[0].Graph()))
		shapes.add("x", in[0])
		shapes.add("hidden = max(0, x·W₁ + b₁)", hidden)
		shapes.add("output = hidden·W₂ + b₂", out)
		return []*graph.Node{hidden, out}
	}, batchTensor(x))
	if err != nil {
		return nil, err
	}
	seq := len(x)
	return &FFNResult{
		Hidden: matrices(flat(outs[0]), seq, w.DFF)[0],
		Output: matrices(flat(outs[1]), seq, w.DModel)[0],
		Shapes: shapes,
	}, nil
}

// LayerNormOf runs [LayerNorm] on the rows of x [rows][d] with the weights
// w (nil: γ = 1, β = 0, plain normalisation).
//
// Introduced in lesson 05.
func LayerNormOf(x [][]float64, w *LayerNormWeights) ([][]float64, error) {
	if err := checkMatrix("x", x, -1); err != nil {
		return nil, err
	}
	if w == nil {
		w = NewLayerNormWeights(len(x[0]))
	}
	if len(w.Gamma) != len(x[0]) || len(w.Beta) != len(x[0]) {
		return nil, fmt.Errorf("transformer.LayerNormOf: γ and β must have %d values (the width of x), have %d and %d", len(x[0]), len(w.Gamma), len(w.Beta))
	}
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		return []*graph.Node{LayerNorm(in[0], w.Params(in[0].Graph()))}
	}, eager.Tensor(x))
	if err != nil {
		return nil, err
	}
	return matrices(flat(outs[0]), len(x), len(x[0]))[0], nil
}

// MeanVar returns the mean and the (biased) variance of every row of x, as
// a [rows][2] matrix, ready for viz.Table with the column labels "mean"
// and "variance". After [LayerNorm] with γ = 1 and β = 0 every row has
// mean 0 and variance 1.
//
// Introduced in lesson 05.
func MeanVar(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i, row := range x {
		var mean, v float64
		for _, a := range row {
			mean += a
		}
		mean /= float64(len(row))
		for _, a := range row {
			v += (a - mean) * (a - mean)
		}
		out[i] = []float64{mean, v / float64(len(row))}
	}
	return out
}

// LayerResult is what [ExplainEncoderLayer] returns for one sequence.
//
// Introduced in lesson 05.
type LayerResult struct {
	Attention [][]float64   // MultiHead(x, x, x)         [seq][d_model]
	Norm1     [][]float64   // LayerNorm(x + Attention)   [seq][d_model]
	Hidden    [][]float64   // the FFN's hidden layer     [seq][d_ff]
	FFN       [][]float64   // FFN(Norm1)                 [seq][d_model]
	Output    [][]float64   // LayerNorm(Norm1 + FFN)     [seq][d_model]
	Weights   [][][]float64 // attention weights          [heads][seq][seq]
	Shapes    StepShapes
}

// ExplainEncoderLayer runs [EncoderLayer] with the weights w and heads
// heads on one sequence x [seq][d_model] and returns every intermediate
// and the shapes of every step (with the batch axis of size 1).
//
// Introduced in lesson 05.
func ExplainEncoderLayer(x [][]float64, heads int, w *EncoderLayerWeights) (*LayerResult, error) {
	if err := checkMatrix("x", x, -1); err != nil {
		return nil, err
	}
	d := len(x[0])
	if w == nil || w.Attention == nil || w.FFN == nil || w.Attention.DModel != d || w.FFN.DModel != d {
		return nil, fmt.Errorf("transformer.ExplainEncoderLayer: the weights must be for d_model = %d (the width of x)", d)
	}
	if heads < 1 || d%heads != 0 {
		return nil, fmt.Errorf("transformer.ExplainEncoderLayer: d_model = %d must be divisible by the number of heads, got %d", d, heads)
	}
	var shapes StepShapes
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		s := EncoderLayer(in[0], heads, w.Params(in[0].Graph())).Steps()
		shapes.add("input x", in[0])
		shapes.add("self-attention", s.Attention)
		shapes.add("  weights", s.Weights)
		shapes.add("Add & Norm", s.Norm1)
		shapes.add("FFN hidden", s.Hidden)
		shapes.add("FFN", s.FFN)
		shapes.add("Add & Norm = output", s.Output)
		return []*graph.Node{s.Attention, s.Norm1, s.Hidden, s.FFN, s.Output, s.Weights}
	}, batchTensor(x))
	if err != nil {
		return nil, err
	}
	seq := len(x)
	m := func(t *tensors.Tensor, cols int) [][]float64 { return matrices(flat(t), seq, cols)[0] }
	return &LayerResult{
		Attention: m(outs[0], d), Norm1: m(outs[1], d), Hidden: m(outs[2], w.FFN.DFF),
		FFN: m(outs[3], d), Output: m(outs[4], d),
		Weights: matrices(flat(outs[5]), seq, seq), Shapes: shapes,
	}, nil
}

// EncoderOptions configures [ExplainEncoder]; nil means no mask.
//
// Introduced in lesson 05.
type EncoderOptions struct {
	// MaskPadding masks, in every layer, the keys whose token is PadID
	// ([attention.PaddingMask]).
	MaskPadding bool
	PadID       int
}

// EncoderResult is what [ExplainEncoder] returns for a batch.
//
// Introduced in lesson 05.
type EncoderResult struct {
	Output  [][][]float64     // [batch][seq][d_model]
	Weights [][][][][]float64 // [layer][batch][heads][seq][seq]
	Layers  [][][][]float64   // every layer's output [layer][batch][seq][d_model]
	Shapes  StepShapes        // the shape after every step, in order
}

// HeadMean returns, for sequence b of the batch, every layer's attention
// weights averaged over the heads: [layer][seq][seq]. Each row still sums
// to 1.
func (r *EncoderResult) HeadMean(b int) [][][]float64 {
	out := make([][][]float64, len(r.Weights))
	for l, layer := range r.Weights {
		heads := layer[b]
		out[l] = make([][]float64, len(heads[0]))
		for i := range out[l] {
			out[l][i] = make([]float64, len(heads[0][i]))
			for _, h := range heads {
				for j, v := range h[i] {
					out[l][i][j] += v / float64(len(heads))
				}
			}
		}
	}
	return out
}

// ExplainEncoder runs [Encoder] with the weights w on a batch of token ids
// [batch][seq] (every sequence padded to the same length) and returns the
// output, every layer's output and attention weights, and the shape after
// every step.
//
// Introduced in lesson 05.
func ExplainEncoder(tokens [][]int, w *EncoderWeights, opts *EncoderOptions) (*EncoderResult, error) {
	if w == nil {
		return nil, fmt.Errorf("transformer.ExplainEncoder: no weights: use NewEncoderWeights")
	}
	if err := w.check(); err != nil {
		return nil, err
	}
	cfg := w.Config
	if len(tokens) == 0 || len(tokens[0]) == 0 {
		return nil, fmt.Errorf("transformer.ExplainEncoder: empty batch")
	}
	batch, seq := len(tokens), len(tokens[0])
	ids := make([]int32, 0, batch*seq)
	for i, row := range tokens {
		if len(row) != seq {
			return nil, fmt.Errorf("transformer.ExplainEncoder: sequence %d has %d tokens, sequence 0 has %d: pad every sequence to the same length", i, len(row), seq)
		}
		for _, t := range row {
			if t < 0 || t >= cfg.Vocab {
				return nil, fmt.Errorf("transformer.ExplainEncoder: token id %d in sequence %d is outside the vocabulary 0..%d", t, i, cfg.Vocab-1)
			}
			ids = append(ids, int32(t))
		}
	}
	if seq > cfg.MaxLen {
		return nil, fmt.Errorf("transformer.ExplainEncoder: sequences of %d tokens are longer than Config.MaxLen = %d", seq, cfg.MaxLen)
	}
	var shapes StepShapes
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		b := Encoder(in[0], cfg, w.Params(in[0].Graph()))
		if opts != nil && opts.MaskPadding {
			b = b.WithMask(attention.PaddingMask(in[0], opts.PadID))
		}
		s := b.Steps()
		shapes.add("tokens", in[0])
		shapes.add("embedding", s.Embedded)
		shapes.add("× √d_model", s.Scaled)
		shapes.add("+ positional encoding", s.Input)
		res := []*graph.Node{s.Output}
		for l, ls := range s.Layers {
			name := fmt.Sprintf("layer %d ", l+1)
			shapes.add(name+"self-attention", ls.Attention)
			shapes.add(name+"  weights", ls.Weights)
			shapes.add(name+"Add & Norm", ls.Norm1)
			shapes.add(name+"FFN hidden", ls.Hidden)
			shapes.add(name+"FFN", ls.FFN)
			shapes.add(name+"Add & Norm", ls.Output)
			res = append(res, ls.Weights, ls.Output)
		}
		shapes.add("output", s.Output)
		return res
	}, tensors.FromFlatDataAndDimensions(ids, batch, seq))
	if err != nil {
		return nil, err
	}
	r := &EncoderResult{Shapes: shapes}
	r.Output = matrices(flat(outs[0]), seq, cfg.DModel)
	for l := range cfg.Layers {
		ws := matrices(flat(outs[1+2*l]), seq, seq) // [batch·heads][seq][seq]
		var perBatch [][][][]float64
		for b := range batch {
			perBatch = append(perBatch, ws[b*cfg.Heads:(b+1)*cfg.Heads])
		}
		r.Weights = append(r.Weights, perBatch)
		r.Layers = append(r.Layers, matrices(flat(outs[2+2*l]), seq, cfg.DModel))
	}
	return r, nil
}

// PoolOf runs [Pool] on a batch of encoder outputs x [batch][seq][d_model]
// and returns one vector per sequence, [batch][d_model].
//
// Introduced in lesson 05.
func PoolOf(x [][][]float64, how Pooling) ([][]float64, error) {
	if len(x) == 0 {
		return nil, fmt.Errorf("transformer.PoolOf: empty batch")
	}
	seq := len(x[0])
	var rows [][]float64
	for i, m := range x {
		if len(m) != seq {
			return nil, fmt.Errorf("transformer.PoolOf: sequence %d has %d tokens, sequence 0 has %d", i, len(m), seq)
		}
		rows = append(rows, m...)
	}
	if err := checkMatrix("x", rows, -1); err != nil {
		return nil, err
	}
	d := len(rows[0])
	in := tensors.FromFlatDataAndDimensions(tensors.MustCopyFlatData[float32](eager.Tensor(rows)), len(x), seq, d)
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		return []*graph.Node{Pool(in[0], how)}
	}, in)
	if err != nil {
		return nil, err
	}
	return matrices(flat(outs[0]), len(x), d)[0], nil
}

// RandomTokens returns a batch of token ids drawn uniformly from
// 0..vocab-1 with the course's seeded generator, like torch.randint(0,
// vocab, (batch, seq)): an input for trying a model out before there is
// text to feed it.
//
// Typical shapes: → [batch][seq].
//
// Introduced in lesson 05.
func RandomTokens(batch, seq, vocab int, seed uint32) [][]int {
	r := random.New(seed)
	ids := make([][]int, batch)
	for b := range ids {
		ids[b] = make([]int, seq)
		for i := range ids[b] {
			ids[b][i] = min(int(r.Float64()*float64(vocab)), vocab-1)
		}
	}
	return ids
}
