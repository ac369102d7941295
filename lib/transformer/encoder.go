package transformer

import (
	"math"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/posenc"
)

// EncoderLayerParams holds the parameters of one encoder layer as graph
// nodes: the self-attention, the LayerNorm of its Add & Norm, the
// feed-forward network and the LayerNorm of the second Add & Norm.
//
// Introduced in lesson 05.
type EncoderLayerParams struct {
	Attention attention.MultiHeadParams
	Norm1     LayerNormParams
	FFN       FFNParams
	Norm2     LayerNormParams
}

// EncoderLayerBuilder configures one encoder layer; create it with
// [EncoderLayer], set a mask with WithMask and finish with Done (or Steps
// for every intermediate node).
//
// Introduced in lesson 05.
type EncoderLayerBuilder struct {
	x     *graph.Node
	heads int
	p     EncoderLayerParams
	mask  *graph.Node
	// configure, when set, adjusts the self-attention (lesson 11).
	configure func(*attention.MultiHeadBuilder) *attention.MultiHeadBuilder
	drop      residualDropout
}

// EncoderLayer starts building one layer of the Transformer encoder
// (Vaswani et al. 2017, §3.1), two sublayers each followed by Add & Norm:
//
//	a = MultiHead(x, x, x)        self-attention: every token looks at every token
//	y = LayerNorm(x + a)          Add & Norm
//	f = FFN(y)                    position-wise feed-forward
//	z = LayerNorm(y + f)          Add & Norm
//
// The layer keeps the shape of its input, so layers stack.
//
// Parameters: see [EncoderLayerParamCount].
//
// Typical shapes: x [batch, seq, d_model] → output [batch, seq, d_model],
// weights [batch, heads, seq, seq].
//
// Introduced in lesson 05.
func EncoderLayer(x *graph.Node, heads int, p EncoderLayerParams) *EncoderLayerBuilder {
	return &EncoderLayerBuilder{x: x, heads: heads, p: p}
}

// WithMask sets the Bool attention mask (true = masked), as for
// [attention.MultiHeadBuilder.WithMask]: usually the padding mask
// [batch, 1, seq] of [attention.PaddingMask].
func (b *EncoderLayerBuilder) WithMask(mask *graph.Node) *EncoderLayerBuilder {
	b.mask = mask
	return b
}

// WithAttention lets configure set options of the layer's self-attention
// (temperature, no scale, dropout on the weights), for example
//
//	layer.WithAttention(func(a *attention.MultiHeadBuilder) *attention.MultiHeadBuilder {
//		return a.WithDropout(scope, 0.1)
//	})
func (b *EncoderLayerBuilder) WithAttention(configure func(*attention.MultiHeadBuilder) *attention.MultiHeadBuilder) *EncoderLayerBuilder {
	b.configure = configure
	return b
}

// WithDropout applies dropout at rate to the output of each sublayer
// before it is added to the sublayer's input, while training (the
// paper's residual dropout, §5.4; see [EncoderDecoder].Dropout). Steps'
// Attention and FFN are the outputs before dropout.
func (b *EncoderLayerBuilder) WithDropout(scope *model.Scope, rate float64) *EncoderLayerBuilder {
	b.drop = residualDropout{scope, rate}
	return b
}

// Done builds the layer and returns its output [batch, seq, d_model] and
// the attention weights [batch, heads, seq, seq].
func (b *EncoderLayerBuilder) Done() (output, weights *graph.Node) {
	s := b.Steps()
	return s.Output, s.Weights
}

// EncoderLayerSteps holds every intermediate node of one encoder layer, in
// order, with their shapes.
//
// Part of the library behind lesson 05; the lesson does not name it.
type EncoderLayerSteps struct {
	Attention *graph.Node // MultiHead(x, x, x)          [batch, seq, d_model]
	Weights   *graph.Node // attention weights           [batch, heads, seq, seq]
	Norm1     *graph.Node // LayerNorm(x + Attention)    [batch, seq, d_model]
	Hidden    *graph.Node // max(0, Norm1·W₁ + b₁)       [batch, seq, d_ff]
	FFN       *graph.Node // Hidden·W₂ + b₂              [batch, seq, d_model]
	Output    *graph.Node // LayerNorm(Norm1 + FFN)      [batch, seq, d_model]
}

// Steps builds the layer and returns all of its intermediate nodes.
func (b *EncoderLayerBuilder) Steps() EncoderLayerSteps {
	var s EncoderLayerSteps
	mh := attention.MultiHead(b.x, b.x, b.x, b.heads, b.p.Attention)
	if b.mask != nil {
		mh = mh.WithMask(b.mask)
	}
	if b.configure != nil {
		mh = b.configure(mh)
	}
	s.Attention, s.Weights = mh.Done()                           // Shape: [batch, seq, d_model], [batch, heads, seq, seq]
	s.Norm1 = AddNorm(b.x, b.drop.apply(s.Attention), b.p.Norm1) // Shape: [batch, seq, d_model]
	s.Hidden, s.FFN = ffnSteps(s.Norm1, b.p.FFN)                 // Shape: [batch, seq, d_ff], [batch, seq, d_model]
	s.Output = AddNorm(s.Norm1, b.drop.apply(s.FFN), b.p.Norm2)  // Shape: [batch, seq, d_model]
	return s
}

// EncoderParams holds the parameters of a whole encoder as graph nodes:
// the token embedding table [vocab, d_model] and one [EncoderLayerParams]
// per layer. The positional encoding is not a parameter.
//
// Introduced in lesson 05.
type EncoderParams struct {
	Embedding *graph.Node
	Layers    []EncoderLayerParams
}

// EncoderBuilder configures a stacked encoder; create it with [Encoder],
// set a mask with WithMask and finish with Done (or Steps).
//
// Introduced in lesson 05.
type EncoderBuilder struct {
	tokens *graph.Node
	cfg    Config
	p      EncoderParams
	mask   *graph.Node
	drop   residualDropout
}

// Encoder starts building the Transformer encoder (Vaswani et al. 2017,
// §3.1, §3.4, §3.5): token ids are looked up in the embedding table,
// multiplied by √d_model, added to the sinusoidal positional encoding
// ([posenc.SinusoidalGraph], lesson 04) and
// passed through the N layers of [EncoderLayer]:
//
//	x₀ = Embedding[tokens]·√d_model + PE[0..seq-1]
//	x_l = EncoderLayer_l(x_{l-1})      l = 1..N
//
// The √d_model factor (§3.4) brings embeddings whose entries have a
// variance of about 1/d_model to unit variance, the scale of the
// sinusoids, so that neither drowns the other. There is no final
// LayerNorm: each layer already ends with one (post-norm).
//
// cfg gives the number of heads and the longest sequence (MaxLen);
// cfg.Dropout is not applied (see [EncoderBuilder.WithDropout]).
//
// Typical shapes: tokens [batch, seq] (an integer dtype) → output
// [batch, seq, d_model] and, per layer, weights [batch, heads, seq, seq].
//
// Introduced in lesson 05.
func Encoder(tokens *graph.Node, cfg Config, p EncoderParams) *EncoderBuilder {
	return &EncoderBuilder{tokens: tokens, cfg: cfg, p: p}
}

// WithMask sets the Bool attention mask shared by all layers (true =
// masked): usually attention.PaddingMask(tokens, padID), [batch, 1, seq].
func (b *EncoderBuilder) WithMask(mask *graph.Node) *EncoderBuilder {
	b.mask = mask
	return b
}

// WithDropout applies dropout at rate, while training, to the sum of the
// embeddings and the positional encoding and to every sublayer's output
// before its residual addition ([EncoderLayerBuilder.WithDropout]), as
// the paper does (§5.4). Steps' Input is the sum before dropout.
func (b *EncoderBuilder) WithDropout(scope *model.Scope, rate float64) *EncoderBuilder {
	b.drop = residualDropout{scope, rate}
	return b
}

// Done builds the encoder and returns its output [batch, seq, d_model] and
// the attention weights of every layer, each [batch, heads, seq, seq].
func (b *EncoderBuilder) Done() (output *graph.Node, weights []*graph.Node) {
	s := b.Steps()
	for _, l := range s.Layers {
		weights = append(weights, l.Weights)
	}
	return s.Output, weights
}

// EncoderSteps holds every intermediate node of an encoder, in order.
//
// Part of the library behind lesson 05; the lesson does not name it.
type EncoderSteps struct {
	Embedded *graph.Node         // Embedding[tokens]          [batch, seq, d_model]
	Scaled   *graph.Node         // Embedded·√d_model          [batch, seq, d_model]
	Input    *graph.Node         // Scaled + PE, the first layer's input [batch, seq, d_model]
	Layers   []EncoderLayerSteps // one per layer
	Output   *graph.Node         // the last layer's output    [batch, seq, d_model]
}

// Steps builds the encoder and returns all of its intermediate nodes.
func (b *EncoderBuilder) Steps() EncoderSteps {
	if err := b.cfg.Validate(); err != nil {
		exceptions.Panicf("transformer.Encoder: %v", err)
	}
	tokens := b.tokens
	if tokens.Rank() != 2 || !tokens.DType().IsInt() {
		exceptions.Panicf("transformer.Encoder: tokens must be integer ids [batch, seq], got %s", tokens.Shape())
	}
	emb := b.p.Embedding
	if emb == nil || emb.Rank() != 2 || emb.Shape().Dim(1) != b.cfg.DModel {
		exceptions.Panicf("transformer.Encoder: the embedding must be [vocab, d_model = %d]", b.cfg.DModel)
	}
	if len(b.p.Layers) != b.cfg.Layers {
		exceptions.Panicf("transformer.Encoder: %d layers of parameters for a configuration of %d layers", len(b.p.Layers), b.cfg.Layers)
	}
	seq, d := tokens.Shape().Dim(1), b.cfg.DModel
	if seq > b.cfg.MaxLen {
		exceptions.Panicf("transformer.Encoder: a sequence of %d tokens is longer than Config.MaxLen = %d", seq, b.cfg.MaxLen)
	}
	var s EncoderSteps
	s.Embedded = posenc.Lookup(emb, tokens) // Shape: [vocab, d_model] gathered by [batch, seq] → [batch, seq, d_model]
	s.Scaled = graph.MulScalar(s.Embedded, math.Sqrt(float64(d)))
	pe := posenc.SinusoidalGraph(tokens.Graph(), emb.DType(), seq, d, posenc.DefaultBase) // Shape: [seq, d_model]
	pe = graph.Reshape(pe, 1, seq, d)                                                     // Shape: [seq, d_model] → [1, seq, d_model], broadcast over the batch
	s.Input = graph.Add(s.Scaled, pe)
	x := b.drop.apply(s.Input)
	for l := range b.p.Layers {
		layer := EncoderLayer(x, b.cfg.Heads, b.p.Layers[l]).WithMask(b.mask)
		layer.drop = b.drop
		ls := layer.Steps()
		s.Layers = append(s.Layers, ls)
		x = ls.Output
	}
	s.Output = x
	return s
}

// residualDropout is the dropout of the paper's §5.4 on sublayer outputs
// and embeddings: [attention.Dropout] (which works on a tensor of any
// shape) at rate while training, the identity otherwise or without a
// scope.
type residualDropout struct {
	scope *model.Scope
	rate  float64
}

func (d residualDropout) apply(x *graph.Node) *graph.Node {
	if d.scope == nil || d.rate == 0 {
		return x
	}
	return attention.Dropout(d.scope, x, d.rate)
}

// Pooling says how [Pool] turns a sequence of token vectors into one
// vector.
//
// Introduced in lesson 05.
type Pooling int

const (
	// PoolCLS keeps the first token's vector, as BERT does with the [CLS]
	// token it puts in front of every input.
	PoolCLS Pooling = iota
	// PoolMean averages the vectors of all tokens.
	PoolMean
	// PoolMax takes, column by column, the largest value over the tokens.
	PoolMax
)

// String returns the name of the pooling: "cls", "mean" or "max".
func (p Pooling) String() string {
	switch p {
	case PoolCLS:
		return "cls"
	case PoolMean:
		return "mean"
	case PoolMax:
		return "max"
	}
	return "unknown pooling"
}

// Pool reduces an encoder's output to one vector per sequence, which a
// classification head then maps to class scores:
//
//	cls:  x[:, 0, :]        mean: mean over seq        max: max over seq
//
// (Padding tokens are included in mean and max; a classifier over padded
// batches masks them first.)
//
// Typical shapes: x [batch, seq, d_model] → [batch, d_model].
//
// Introduced in lesson 05.
func Pool(x *graph.Node, how Pooling) *graph.Node {
	if x.Rank() != 3 {
		exceptions.Panicf("transformer.Pool: x must be [batch, seq, d_model], got %s", x.Shape())
	}
	switch how {
	case PoolCLS:
		first := graph.Slice(x, graph.AxisRange(), graph.AxisRange(0, 1)) // Shape: [batch, 1, d_model]
		return graph.Reshape(first, x.Shape().Dim(0), x.Shape().Dim(2))   // Shape: [batch, d_model]
	case PoolMean:
		return graph.ReduceMean(x, 1) // Shape: [batch, d_model]
	case PoolMax:
		return graph.ReduceMax(x, 1) // Shape: [batch, d_model]
	}
	exceptions.Panicf("transformer.Pool: unknown pooling %d", int(how))
	return nil
}
