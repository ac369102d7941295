package transformer

import (
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/attention"
)

// DecoderLayerParams holds the parameters of one decoder layer as graph
// nodes: the masked self-attention and its LayerNorm, the cross-attention
// over the encoder's output and its LayerNorm, the feed-forward network
// and the third LayerNorm.
//
// Part of the library behind lesson 05's exercises; the exercises do not
// name it.
type DecoderLayerParams struct {
	SelfAttention  attention.MultiHeadParams
	Norm1          LayerNormParams
	CrossAttention attention.MultiHeadParams
	Norm2          LayerNormParams
	FFN            FFNParams
	Norm3          LayerNormParams
}

// DecoderLayerBuilder configures one decoder layer; create it with
// [DecoderLayer], optionally set the padding masks with WithTargetMask and
// WithMemoryMask, and finish with Done (or Steps for every intermediate
// node).
//
// Introduced in lesson 05's exercises, which deny it: exercise 1 asks the
// learner to write it.
type DecoderLayerBuilder struct {
	y, memory              *graph.Node
	heads                  int
	p                      DecoderLayerParams
	targetMask, memoryMask *graph.Node
	drop                   residualDropout
}

// DecoderLayer starts building one layer of the Transformer decoder
// (Vaswani et al., "Attention Is All You Need", 2017, §3.1): three
// sublayers, each followed by Add & Norm (post-norm, as the paper and
// PyTorch's nn.TransformerDecoderLayer with norm_first=False):
//
//	a = MultiHead(y, y, y) with the causal mask   token t sees tokens 0…t of the output
//	u = LayerNorm(y + a)                          Add & Norm
//	c = MultiHead(u, memory, memory)              cross-attention: queries from the decoder,
//	                                              keys and values from the encoder's output
//	v = LayerNorm(u + c)                          Add & Norm
//	f = FFN(v)                                    position-wise feed-forward
//	z = LayerNorm(v + f)                          Add & Norm
//
// The causal (look-ahead) mask is always applied to the self-attention:
// it is what lets a decoder train on a whole target at once and still
// generate one token at a time. The layer keeps the shape of y, so
// layers stack; memory is the same for every layer.
//
// Parameters: see [DecoderLayerParamCount].
//
// Typical shapes: y [batch, tgt, d_model], memory [batch, src, d_model] →
// output [batch, tgt, d_model], self weights [batch, heads, tgt, tgt],
// cross weights [batch, heads, tgt, src].
//
// Introduced in lesson 05's exercises, which deny it: exercise 1 asks the
// learner to write it.
func DecoderLayer(y, memory *graph.Node, heads int, p DecoderLayerParams) *DecoderLayerBuilder {
	return &DecoderLayerBuilder{y: y, memory: memory, heads: heads, p: p}
}

// WithTargetMask adds a Bool mask of the target's padding (true = masked)
// to the self-attention, on top of the causal mask: usually
// attention.PaddingMask(targetTokens, padID), [batch, 1, tgt].
func (b *DecoderLayerBuilder) WithTargetMask(mask *graph.Node) *DecoderLayerBuilder {
	b.targetMask = mask
	return b
}

// WithMemoryMask sets the Bool mask of the source's padding (true =
// masked) for the cross-attention: usually attention.PaddingMask(
// sourceTokens, padID), [batch, 1, src].
func (b *DecoderLayerBuilder) WithMemoryMask(mask *graph.Node) *DecoderLayerBuilder {
	b.memoryMask = mask
	return b
}

// WithDropout applies dropout at rate to the output of each of the three
// sublayers before its residual addition, while training (§5.4, as
// [EncoderLayerBuilder.WithDropout]).
func (b *DecoderLayerBuilder) WithDropout(scope *model.Scope, rate float64) *DecoderLayerBuilder {
	b.drop = residualDropout{scope, rate}
	return b
}

// Done builds the layer and returns its output [batch, tgt, d_model] and
// the weights of its self-attention [batch, heads, tgt, tgt] and of its
// cross-attention [batch, heads, tgt, src].
func (b *DecoderLayerBuilder) Done() (output, selfWeights, crossWeights *graph.Node) {
	s := b.Steps()
	return s.Output, s.SelfWeights, s.CrossWeights
}

// DecoderLayerSteps holds every intermediate node of one decoder layer, in
// order, with their shapes.
//
// Part of the library behind lesson 05's exercises; the exercises do not
// name it.
type DecoderLayerSteps struct {
	SelfAttention  *graph.Node // MultiHead(y, y, y), causal     [batch, tgt, d_model]
	SelfWeights    *graph.Node // its weights                   [batch, heads, tgt, tgt]
	Norm1          *graph.Node // LayerNorm(y + SelfAttention)  [batch, tgt, d_model]
	CrossAttention *graph.Node // MultiHead(Norm1, mem, mem)    [batch, tgt, d_model]
	CrossWeights   *graph.Node // its weights                   [batch, heads, tgt, src]
	Norm2          *graph.Node // LayerNorm(Norm1 + Cross…)     [batch, tgt, d_model]
	Hidden         *graph.Node // max(0, Norm2·W₁ + b₁)         [batch, tgt, d_ff]
	FFN            *graph.Node // Hidden·W₂ + b₂                [batch, tgt, d_model]
	Output         *graph.Node // LayerNorm(Norm2 + FFN)        [batch, tgt, d_model]
}

// Steps builds the layer and returns all of its intermediate nodes.
func (b *DecoderLayerBuilder) Steps() DecoderLayerSteps {
	if b.y.Rank() != 3 || b.memory.Rank() != 3 || b.y.Shape().Dim(0) != b.memory.Shape().Dim(0) || b.y.Shape().Dim(2) != b.memory.Shape().Dim(2) {
		exceptions.Panicf("transformer.DecoderLayer: y must be [batch, tgt, d_model] and memory [batch, src, d_model] with the same batch and d_model, got %s and %s",
			b.y.Shape(), b.memory.Shape())
	}
	causal := attention.LookAheadMask(b.y.Graph(), b.y.Shape().Dim(1)) // Shape: [tgt, tgt], broadcast over batch and heads
	if b.targetMask != nil {
		causal = graph.InsertAxes(causal, 0)           // Shape: [tgt, tgt] → [1, tgt, tgt]
		causal = graph.LogicalOr(causal, b.targetMask) // Shape: [1, tgt, tgt] ∨ [batch, 1, tgt] → [batch, tgt, tgt]
	}
	var s DecoderLayerSteps
	s.SelfAttention, s.SelfWeights = attention.MultiHead(b.y, b.y, b.y, b.heads, b.p.SelfAttention).WithMask(causal).Done() // Shape: [batch, tgt, d_model], [batch, heads, tgt, tgt]
	s.Norm1 = AddNorm(b.y, b.drop.apply(s.SelfAttention), b.p.Norm1)                                                        // Shape: [batch, tgt, d_model]
	cross := attention.MultiHead(s.Norm1, b.memory, b.memory, b.heads, b.p.CrossAttention)
	if b.memoryMask != nil {
		cross = cross.WithMask(b.memoryMask)
	}
	s.CrossAttention, s.CrossWeights = cross.Done()                       // Shape: [batch, tgt, d_model], [batch, heads, tgt, src]
	s.Norm2 = AddNorm(s.Norm1, b.drop.apply(s.CrossAttention), b.p.Norm2) // Shape: [batch, tgt, d_model]
	s.Hidden, s.FFN = ffnSteps(s.Norm2, b.p.FFN)                          // Shape: [batch, tgt, d_ff], [batch, tgt, d_model]
	s.Output = AddNorm(s.Norm2, b.drop.apply(s.FFN), b.p.Norm3)           // Shape: [batch, tgt, d_model]
	return s
}

// DecoderLayerParamCount returns the number of parameters of one decoder
// layer: two multi-head attentions with biases, the FFN and three
// LayerNorms,
//
//	2·(4·d_model² + 4·d_model) + (2·d_model·d_ff + d_ff + d_model) + 3·2·d_model
//
// which for d_model 512, 8 heads (the count does not depend on them) and
// d_ff 2048 is 4,204,032, what PyTorch reports for
// nn.TransformerDecoderLayer(512, 8, 2048).
//
// Part of the library behind lesson 05's exercises; the exercises do not
// name it.
func DecoderLayerParamCount(dModel, dFF int) int {
	return 2*attention.MultiHeadParamCount(dModel, true) + FFNParamCount(dModel, dFF) + 3*LayerNormParamCount(dModel)
}
