package transformer

import (
	"fmt"
	"math"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// LayerNormWeights holds concrete values for [LayerNormParams].
//
// Introduced in lesson 05.
type LayerNormWeights struct {
	Gamma, Beta []float64 // [d_model]
}

// NewLayerNormWeights returns the starting point of a LayerNorm: γ = 1 and
// β = 0, so that it only normalises.
//
// Part of the library behind lesson 05; the lesson does not name it.
func NewLayerNormWeights(dModel int) *LayerNormWeights {
	w := &LayerNormWeights{Gamma: make([]float64, dModel), Beta: make([]float64, dModel)}
	for i := range w.Gamma {
		w.Gamma[i] = 1
	}
	return w
}

// Params returns the weights as float32 constants of graph g.
func (w *LayerNormWeights) Params(g *graph.Graph) LayerNormParams {
	return LayerNormParams{Gamma: vectorConst(g, w.Gamma), Beta: vectorConst(g, w.Beta)}
}

// FFNWeights holds concrete values for [FFNParams].
//
// Introduced in lesson 05.
type FFNWeights struct {
	DModel, DFF int
	W1          [][]float64 // [d_model][d_ff]
	B1          []float64   // [d_ff]
	W2          [][]float64 // [d_ff][d_model]
	B2          []float64   // [d_model]
}

// NewFFNWeights draws the weights of a feed-forward network from seed with
// Glorot (Xavier) uniform initialisation, W ~ U(−a, a) with
// a = √(6 / (d_model + d_ff)); biases start at 0.
//
// Introduced in lesson 05.
func NewFFNWeights(dModel, dFF int, seed uint32) *FFNWeights {
	r := random.New(seed)
	return &FFNWeights{
		DModel: dModel, DFF: dFF,
		W1: r.Glorot(dModel, dFF), B1: make([]float64, dFF),
		W2: r.Glorot(dFF, dModel), B2: make([]float64, dModel),
	}
}

// Params returns the weights as float32 constants of graph g.
func (w *FFNWeights) Params(g *graph.Graph) FFNParams {
	return FFNParams{W1: matrixConst(g, w.W1), B1: vectorConst(g, w.B1), W2: matrixConst(g, w.W2), B2: vectorConst(g, w.B2)}
}

// EncoderLayerWeights holds concrete values for [EncoderLayerParams].
//
// Introduced in lesson 05.
type EncoderLayerWeights struct {
	Attention *attention.MultiHeadWeights
	Norm1     *LayerNormWeights
	FFN       *FFNWeights
	Norm2     *LayerNormWeights
}

// NewEncoderLayerWeights draws the weights of one encoder layer from seed:
// [attention.NewMultiHeadWeights] and [NewFFNWeights] (Glorot uniform,
// zero biases) and two [NewLayerNormWeights] (γ = 1, β = 0).
//
// Introduced in lesson 05.
func NewEncoderLayerWeights(dModel, dFF int, seed uint32) *EncoderLayerWeights {
	r := random.New(seed)
	return &EncoderLayerWeights{
		Attention: attention.NewMultiHeadWeights(dModel, r.Uint32()),
		Norm1:     NewLayerNormWeights(dModel),
		FFN:       NewFFNWeights(dModel, dFF, r.Uint32()),
		Norm2:     NewLayerNormWeights(dModel),
	}
}

// Params returns the weights as float32 constants of graph g.
func (w *EncoderLayerWeights) Params(g *graph.Graph) EncoderLayerParams {
	return EncoderLayerParams{
		Attention: w.Attention.Params(g),
		Norm1:     w.Norm1.Params(g),
		FFN:       w.FFN.Params(g),
		Norm2:     w.Norm2.Params(g),
	}
}

// Count returns how many numbers the layer holds: its parameters.
func (w *EncoderLayerWeights) Count() int {
	n := 0
	for _, m := range [][][]float64{w.Attention.WQ, w.Attention.WK, w.Attention.WV, w.Attention.WO, w.FFN.W1, w.FFN.W2} {
		n += len(m) * len(m[0])
	}
	for _, v := range [][]float64{w.Attention.BQ, w.Attention.BK, w.Attention.BV, w.Attention.BO,
		w.FFN.B1, w.FFN.B2, w.Norm1.Gamma, w.Norm1.Beta, w.Norm2.Gamma, w.Norm2.Beta} {
		n += len(v)
	}
	return n
}

// EncoderWeights holds concrete values for [EncoderParams], with the
// configuration they were drawn for.
//
// Introduced in lesson 05.
type EncoderWeights struct {
	Config    Config
	Embedding [][]float64 // [vocab][d_model]
	Layers    []*EncoderLayerWeights
}

// NewEncoderWeights draws the weights of a whole encoder from seed: the
// embedding from N(0, 1/d_model), so that after the √d_model scale of
// [Encoder] its entries have variance 1 like the positional encoding, and
// each layer with [NewEncoderLayerWeights].
//
// It holds every parameter as a float64: use it for small configurations
// (the base configuration would take about 200 MB); [Config.ParamCounts]
// counts without allocating.
//
// Introduced in lesson 05.
func NewEncoderWeights(cfg Config, seed uint32) (*EncoderWeights, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := random.New(seed)
	w := &EncoderWeights{Config: cfg, Embedding: r.Normal(cfg.Vocab, cfg.DModel)}
	scale := 1 / math.Sqrt(float64(cfg.DModel))
	for _, row := range w.Embedding {
		for j := range row {
			row[j] *= scale
		}
	}
	for range cfg.Layers {
		w.Layers = append(w.Layers, NewEncoderLayerWeights(cfg.DModel, cfg.DFF, r.Uint32()))
	}
	return w, nil
}

// Params returns the weights as float32 constants of graph g.
func (w *EncoderWeights) Params(g *graph.Graph) EncoderParams {
	p := EncoderParams{Embedding: matrixConst(g, w.Embedding)}
	for _, l := range w.Layers {
		p.Layers = append(p.Layers, l.Params(g))
	}
	return p
}

// Count returns how many numbers the encoder holds: its parameters, which
// [Config.ParamCounts] predicts as Total.
func (w *EncoderWeights) Count() int {
	n := len(w.Embedding) * len(w.Embedding[0])
	for _, l := range w.Layers {
		n += l.Count()
	}
	return n
}

// check verifies that the weights have the shapes their configuration says.
func (w *EncoderWeights) check() error {
	c := w.Config
	if err := c.Validate(); err != nil {
		return err
	}
	if len(w.Embedding) != c.Vocab || len(w.Embedding[0]) != c.DModel || len(w.Layers) != c.Layers {
		return fmt.Errorf("transformer: the weights do not match their Config (vocab %d, d_model %d, %d layers): use NewEncoderWeights", c.Vocab, c.DModel, c.Layers)
	}
	return nil
}

// uniform returns a rows×cols matrix drawn from U(−a, a).
func matrixConst(g *graph.Graph, m [][]float64) *graph.Node {
	return graph.ConstTensor(g, eager.Tensor(m))
}
func vectorConst(g *graph.Graph, v []float64) *graph.Node {
	return graph.ConstTensor(g, eager.Vector(v))
}
