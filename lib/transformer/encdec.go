package transformer

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/posenc"
	"github.com/attention-in-go/course/lib/train"
)

// Pad is the padding id of the sources and targets of an
// [EncoderDecoder]: masked out of every attention (and, by the loss, of
// training).
//
// Part of the library behind lesson 09; the lesson does not name it.
const Pad = 0

// EncoderDecoder describes the whole Transformer of Vaswani et al.,
// "Attention Is All You Need" (2017), Figure 1: an encoder over the
// source, a decoder over the target that reads the encoder's output
// through cross-attention, and a linear output layer that scores every
// target token:
//
//	memory = Encoder(source)                                     [batch, src, d_model]
//	y₀     = Embedding_tgt[target in]·√d_model + PE              [batch, tgt, d_model]
//	y_l    = DecoderLayer_l(y_{l-1}, memory)   l = 1..N_dec      causal self-attention, cross-attention, FFN
//	logits = y_N·W_out + b_out                                   [batch, tgt, tgt_vocab]
//
// "target in" is the start id followed by the target shifted right by
// one, so that the logits at position t predict target token t from the
// tokens before it (teacher forcing in training, the model's own output
// in [EncoderDecoder.Greedy]).
//
// Source and target have their own embedding tables and the output layer
// its own matrix (the paper ties all three, for a shared vocabulary; see
// [BaseEncoderDecoderCounts]). Id [Pad] = 0 pads both sides.
//
// Typical shapes: source [batch, src] and target in [batch, tgt] int32 →
// logits [batch, tgt, tgt_vocab]; cross-attention weights per decoder
// layer [batch, heads, tgt, src].
//
// Introduced in lesson 09.
type EncoderDecoder struct {
	// SrcVocab and TgtVocab are the numbers of source and target ids,
	// padding (and the target's start id) included.
	SrcVocab, TgtVocab int
	// DModel, Heads and DFF size every layer, as in [Config].
	DModel, Heads, DFF int
	// EncoderLayers and DecoderLayers are the numbers of stacked layers.
	EncoderLayers, DecoderLayers int
	// MaxLen is the longest source or target.
	MaxLen int
	// Start is the target id the decoder reads before the first token.
	Start int
	// Dropout is the rate of the paper's residual dropout (§5.4: on every
	// sublayer's output before its residual addition, and on the sums of
	// embeddings and positions), applied by [EncoderDecoder.TrainModel]
	// while training; 0: none. The paper uses 0.1.
	Dropout float64
}

// Validate reports a configuration that cannot be built.
func (c EncoderDecoder) Validate() error {
	if err := c.encoderConfig().Validate(); err != nil {
		return err
	}
	if c.TgtVocab < 2 || c.SrcVocab < 2 || c.DecoderLayers < 1 {
		return fmt.Errorf("transformer: EncoderDecoder needs SrcVocab, TgtVocab ≥ 2 and DecoderLayers ≥ 1, got %d, %d, %d", c.SrcVocab, c.TgtVocab, c.DecoderLayers)
	}
	if !(c.Dropout >= 0 && c.Dropout < 1) {
		return fmt.Errorf("transformer: EncoderDecoder.Dropout = %g, it must be in [0, 1)", c.Dropout)
	}
	if c.Start <= Pad || c.Start >= c.TgtVocab {
		return fmt.Errorf("transformer: EncoderDecoder.Start = %d must be a target id other than the padding %d (1 … %d)", c.Start, Pad, c.TgtVocab-1)
	}
	return nil
}

// encoderConfig is the configuration of the encoder side.
func (c EncoderDecoder) encoderConfig() Config {
	return Config{Vocab: c.SrcVocab, DModel: c.DModel, Heads: c.Heads, DFF: c.DFF, Layers: c.EncoderLayers, MaxLen: c.MaxLen}
}

// ParamCount is the number of parameters of the model: the two embedding
// tables, the encoder and decoder layers, and the output layer W_out
// [d_model, tgt_vocab] with its bias.
//
// Introduced in lesson 09.
func (c EncoderDecoder) ParamCount() int {
	d := c.DModel
	return (c.SrcVocab+c.TgtVocab)*d + c.EncoderLayers*EncoderLayerParamCount(d, c.DFF) +
		c.DecoderLayers*DecoderLayerParamCount(d, c.DFF) + d*c.TgtVocab + c.TgtVocab
}

// EncoderDecoderParams holds the parameters of an [EncoderDecoder] as
// graph nodes.
//
// Part of the library behind lesson 09; the lesson does not name it.
type EncoderDecoderParams struct {
	Encoder      EncoderParams // the source embedding and the encoder layers
	TgtEmbedding *graph.Node   // [tgt_vocab, d_model]
	Decoder      []DecoderLayerParams
	WOut, BOut   *graph.Node // [d_model, tgt_vocab], [tgt_vocab]

	// drop is the residual dropout of a training graph (TrainModel);
	// zero, no dropout, everywhere else.
	drop residualDropout
}

// Variables creates (or, in a trained store, finds) the model's
// trainable variables in scope and returns them as nodes of g. Matrices
// start Glorot uniform, biases and β at 0, γ at 1, embeddings from
// N(0, 1/d_model) (so that ·√d_model brings them to the scale of the
// positional encoding).
//
// Part of the library behind lesson 09; the lesson does not name it.
func (c EncoderDecoder) Variables(scope *model.Scope, g *graph.Graph) EncoderDecoderParams {
	if err := c.Validate(); err != nil {
		exceptions.Panicf("%v", err)
	}
	d := c.DModel
	p := EncoderDecoderParams{Encoder: EncoderParams{Embedding: embeddingVariable(scope.In("source"), g, c.SrcVocab, d)}}
	enc, dec := scope.In("encoder"), scope.In("decoder")
	for l := range c.EncoderLayers {
		p.Encoder.Layers = append(p.Encoder.Layers, EncoderLayerVariables(enc.In("layer%d", l), g, d, c.DFF))
	}
	p.TgtEmbedding = embeddingVariable(scope.In("target"), g, c.TgtVocab, d)
	for l := range c.DecoderLayers {
		p.Decoder = append(p.Decoder, DecoderLayerVariables(dec.In("layer%d", l), g, d, c.DFF))
	}
	out := scope.In("output")
	p.WOut, p.BOut = matrixVariable(out, g, "w", d, c.TgtVocab), vectorVariable(out, g, "b", c.TgtVocab, 0)
	return p
}

// EncoderLayerVariables creates the variables of one encoder layer in
// scope (attention, norm1, ffn, norm2).
//
// Part of the library behind lesson 09; the lesson does not name it.
func EncoderLayerVariables(scope *model.Scope, g *graph.Graph, dModel, dFF int) EncoderLayerParams {
	return EncoderLayerParams{
		Attention: multiHeadVariables(scope.In("attention"), g, dModel),
		Norm1:     layerNormVariables(scope.In("norm1"), g, dModel),
		FFN:       ffnVariables(scope.In("ffn"), g, dModel, dFF),
		Norm2:     layerNormVariables(scope.In("norm2"), g, dModel),
	}
}

// DecoderLayerVariables creates the variables of one decoder layer in
// scope (self, norm1, cross, norm2, ffn, norm3).
//
// Part of the library behind lesson 09; the lesson does not name it.
func DecoderLayerVariables(scope *model.Scope, g *graph.Graph, dModel, dFF int) DecoderLayerParams {
	return DecoderLayerParams{
		SelfAttention:  multiHeadVariables(scope.In("self"), g, dModel),
		Norm1:          layerNormVariables(scope.In("norm1"), g, dModel),
		CrossAttention: multiHeadVariables(scope.In("cross"), g, dModel),
		Norm2:          layerNormVariables(scope.In("norm2"), g, dModel),
		FFN:            ffnVariables(scope.In("ffn"), g, dModel, dFF),
		Norm3:          layerNormVariables(scope.In("norm3"), g, dModel),
	}
}

func multiHeadVariables(s *model.Scope, g *graph.Graph, d int) attention.MultiHeadParams {
	return attention.MultiHeadParams{
		WQ: matrixVariable(s, g, "wq", d, d), WK: matrixVariable(s, g, "wk", d, d), WV: matrixVariable(s, g, "wv", d, d), WO: matrixVariable(s, g, "wo", d, d),
		BQ: vectorVariable(s, g, "bq", d, 0), BK: vectorVariable(s, g, "bk", d, 0), BV: vectorVariable(s, g, "bv", d, 0), BO: vectorVariable(s, g, "bo", d, 0),
	}
}

func ffnVariables(s *model.Scope, g *graph.Graph, d, dFF int) FFNParams {
	return FFNParams{W1: matrixVariable(s, g, "w1", d, dFF), B1: vectorVariable(s, g, "b1", dFF, 0),
		W2: matrixVariable(s, g, "w2", dFF, d), B2: vectorVariable(s, g, "b2", d, 0)}
}

func layerNormVariables(s *model.Scope, g *graph.Graph, d int) LayerNormParams {
	return LayerNormParams{Gamma: vectorVariable(s, g, "gamma", d, 1), Beta: vectorVariable(s, g, "beta", d, 0)}
}

// matrixVariable is a Glorot-uniform float32 variable [rows, cols].
func matrixVariable(s *model.Scope, g *graph.Graph, name string, rows, cols int) *graph.Node {
	return s.WithInitializer(initializer.GlorotUniformFn(s)).VariableWithShape(name, shapes.Make(dtypes.Float32, rows, cols)).NodeValue(g)
}

// vectorVariable is a float32 variable [n] starting at 0 or 1.
func vectorVariable(s *model.Scope, g *graph.Graph, name string, n int, value float64) *graph.Node {
	init := initializer.Zero
	if value == 1 {
		init = initializer.One
	}
	return s.WithInitializer(init).VariableWithShape(name, shapes.Make(dtypes.Float32, n)).NodeValue(g)
}

// embeddingVariable is a [vocab, d] table drawn from N(0, 1/d).
func embeddingVariable(s *model.Scope, g *graph.Graph, vocab, d int) *graph.Node {
	return s.WithInitializer(initializer.RandomNormalFn(s, 1/math.Sqrt(float64(d)))).
		VariableWithShape("embedding", shapes.Make(dtypes.Float32, vocab, d)).NodeValue(g)
}

// EncoderDecoderSteps holds what one pass of the model computes.
//
// Part of the library behind lesson 09; the lesson does not name it.
type EncoderDecoderSteps struct {
	Memory         *graph.Node   // the encoder's output            [batch, src, d_model]
	EncoderWeights []*graph.Node // per encoder layer               [batch, heads, src, src]
	Input          *graph.Node   // target embedding·√d + PE        [batch, tgt, d_model]
	SelfWeights    []*graph.Node // per decoder layer, causal       [batch, heads, tgt, tgt]
	CrossWeights   []*graph.Node // per decoder layer               [batch, heads, tgt, src]
	Output         *graph.Node   // the last decoder layer's output [batch, tgt, d_model]
	Logits         *graph.Node   // Output·W_out + b_out            [batch, tgt, tgt_vocab]
}

// Forward runs the model on source ids and decoder input ids (teacher
// forcing: the true previous tokens) and returns every step.
//
// Typical shapes: src [batch, src], tgtIn [batch, tgt] int32 → Logits
// [batch, tgt, tgt_vocab].
//
// Introduced in lesson 09.
func (c EncoderDecoder) Forward(p EncoderDecoderParams, src, tgtIn *graph.Node) EncoderDecoderSteps {
	var s EncoderDecoderSteps
	memMask := attention.PaddingMask(src, Pad)                                                                                              // Shape: [batch, 1, src], true on padding
	s.Memory, s.EncoderWeights = Encoder(src, c.encoderConfig(), p.Encoder).WithMask(memMask).WithDropout(p.drop.scope, p.drop.rate).Done() // Shape: [batch, src, d_model]
	c.decode(p, s.Memory, memMask, tgtIn, &s)
	return s
}

// decode runs the decoder stack and the output layer on tgtIn over
// memory, filling the decoder's part of s.
func (c EncoderDecoder) decode(p EncoderDecoderParams, memory, memMask, tgtIn *graph.Node, s *EncoderDecoderSteps) {
	if tgtIn.Rank() != 2 || !tgtIn.DType().IsInt() {
		exceptions.Panicf("transformer.EncoderDecoder: target ids must be integers [batch, tgt], got %s", tgtIn.Shape())
	}
	tgt, d := tgtIn.Shape().Dim(1), c.DModel
	if tgt > c.MaxLen {
		exceptions.Panicf("transformer.EncoderDecoder: a target of %d tokens is longer than MaxLen = %d", tgt, c.MaxLen)
	}
	pe := posenc.SinusoidalGraph(tgtIn.Graph(), dtypes.Float32, tgt, d, posenc.DefaultBase) // Shape: [tgt, d_model]
	s.Input = posenc.InputEmbedding(posenc.Lookup(p.TgtEmbedding, tgtIn), pe)               // Shape: [batch, tgt, d_model], emb·√d + PE
	tgtMask := attention.PaddingMask(tgtIn, Pad)                                            // Shape: [batch, 1, tgt]
	y := p.drop.apply(s.Input)
	s.SelfWeights, s.CrossWeights = nil, nil
	for _, lp := range p.Decoder {
		var self, cross *graph.Node
		y, self, cross = DecoderLayer(y, memory, c.Heads, lp).WithTargetMask(tgtMask).WithMemoryMask(memMask).WithDropout(p.drop.scope, p.drop.rate).Done() // Shape: [batch, tgt, d_model]
		s.SelfWeights, s.CrossWeights = append(s.SelfWeights, self), append(s.CrossWeights, cross)
	}
	s.Output = y
	s.Logits = graph.Add(graph.Einsum("btd,dv->btv", y, p.WOut), graph.Reshape(p.BOut, 1, 1, c.TgtVocab)) // Shape: [batch, tgt, d_model] x [d_model, vocab] → [batch, tgt, vocab]
}

// Greedy decodes steps tokens from the source: the decoder starts from
// the start id and, at step t, reads the t+1 tokens it has so far and
// appends the most likely next token (argmax of the logits at position
// t). Because the self-attention is causal, the logits at positions
// before t are those of the earlier steps: the last pass holds the
// cross-attention weights of every step.
//
// Typical shapes: src [batch, src] → tokens [batch, steps] int32, cross
// weights per decoder layer [batch, heads, steps, src].
//
// Introduced in lesson 09.
func (c EncoderDecoder) Greedy(p EncoderDecoderParams, src *graph.Node, steps int) (tokens *graph.Node, cross []*graph.Node) {
	g := src.Graph()
	memMask := attention.PaddingMask(src, Pad)                                       // Shape: [batch, 1, src]
	memory, _ := Encoder(src, c.encoderConfig(), p.Encoder).WithMask(memMask).Done() // Shape: [batch, src, d_model], computed once
	batch := src.Shape().Dim(0)
	prefix := graph.BroadcastToDims(graph.Const(g, int32(c.Start)), batch, 1) // Shape: [batch, 1], the start id
	var s EncoderDecoderSteps
	for t := range steps {
		c.decode(p, memory, memMask, prefix, &s)                            // Shape: logits [batch, t+1, vocab]
		last := graph.Slice(s.Logits, graph.AxisRange(), graph.AxisElem(t)) // Shape: [batch, 1, vocab]
		next := graph.ArgMax(last, -1, dtypes.Int32)                        // Shape: [batch, 1]
		prefix = graph.Concatenate([]*graph.Node{prefix, next}, 1)          // Shape: [batch, t+2]
	}
	tokens = graph.Slice(prefix, graph.AxisRange(), graph.AxisRange(1)) // Shape: [batch, steps], without the start id
	return tokens, s.CrossWeights
}

// scope is where the model's variables live in a store.
func (c EncoderDecoder) scope(s *model.Scope) *model.Scope { return s.In("transformer") }

// TrainModel is the model for [train.Fit]: inputs {source ids, decoder
// input ids} → {logits [batch, tgt, tgt_vocab]}, with dropout at
// c.Dropout while training.
//
// Introduced in lesson 09.
func (c EncoderDecoder) TrainModel() train.Model {
	return func(scope *model.Scope, in []*graph.Node) []*graph.Node {
		p := c.Variables(c.scope(scope), in[0].Graph())
		p.drop = residualDropout{scope.In("dropout"), c.Dropout}
		return []*graph.Node{c.Forward(p, in[0], in[1]).Logits}
	}
}

// InspectModel is the teacher-forced model with its attention weights, for
// [train.Predict]: inputs {source ids, decoder input ids} → {logits
// [batch, tgt, vocab], decoder self-attention [batch, layers, heads, tgt,
// tgt], cross-attention [batch, layers, heads, tgt, src]}.
//
// Part of the library behind lesson 09; the lesson does not name it.
func (c EncoderDecoder) InspectModel() train.Model {
	return func(scope *model.Scope, in []*graph.Node) []*graph.Node {
		p := c.Variables(c.scope(scope), in[0].Graph())
		s := c.Forward(p, in[0], in[1])
		return []*graph.Node{s.Logits, graph.Stack(s.SelfWeights, 1), graph.Stack(s.CrossWeights, 1)} // Shape: layers × [batch, heads, …] → [batch, layers, heads, …]
	}
}

// GreedyModel is [EncoderDecoder.Greedy] for [train.Predict]: inputs
// {source ids} → {tokens [batch, steps] int32, cross-attention [batch,
// layers, heads, steps, src]}.
//
// Part of the library behind lesson 09; the lesson does not name it.
func (c EncoderDecoder) GreedyModel(steps int) train.Model {
	return func(scope *model.Scope, in []*graph.Node) []*graph.Node {
		p := c.Variables(c.scope(scope), in[0].Graph())
		tokens, cross := c.Greedy(p, in[0], steps)
		return []*graph.Node{tokens, graph.Stack(cross, 1)} // Shape: layers × [batch, heads, steps, src] → [batch, layers, heads, steps, src]
	}
}

// EncoderDecoderCounts is the number of parameters of each part of a whole
// Transformer whose source embedding, target embedding and output layer
// share one matrix, as in the paper (§3.4: "we share the same weight
// matrix between the two embedding layers and the pre-softmax linear
// transformation"), for a vocabulary shared by both languages.
//
// Introduced in lesson 09.
type EncoderDecoderCounts struct {
	Vocab, DModel, DFF, EncoderLayers, DecoderLayers int
	// Embedding is the one shared table, vocab·d_model: the source
	// embedding, the target embedding and (transposed) the output
	// layer's weights.
	Embedding int
	// EncoderLayer and DecoderLayer are one layer of each stack;
	// Encoder and Decoder the whole stacks.
	EncoderLayer, DecoderLayer int
	Encoder, Decoder           int
	// Output is what the output layer adds: 0, its weights are the
	// embedding's and it has no bias.
	Output int
	// Total is Embedding + Encoder + Decoder + Output.
	Total int
	// Untied is the total with three separate matrices (and the output
	// layer's bias), as in lib/transformer's [EncoderDecoder].
	Untied int
}

// BaseEncoderDecoderCounts counts the paper's base model (Vaswani et al.
// 2017, Table 3: d_model 512, 8 heads, d_ff 2048, 6 + 6 layers) with a
// shared vocabulary of vocab tokens (37,000 byte-pair tokens for
// English–German in the paper), tied embeddings, biases in every
// linear map and no final LayerNorm after either stack (PyTorch's
// nn.Transformer adds one to each, 2·2·512 = 2,048 more).
//
// For vocab 37,000: embedding 18,944,000, encoder 18,914,304, decoder
// 25,224,192, total 63,082,496.
//
// Introduced in lesson 09.
func BaseEncoderDecoderCounts(vocab int) EncoderDecoderCounts {
	b := Base()
	c := EncoderDecoderCounts{Vocab: vocab, DModel: b.DModel, DFF: b.DFF, EncoderLayers: b.Layers, DecoderLayers: b.Layers}
	c.Embedding = vocab * c.DModel
	c.EncoderLayer = EncoderLayerParamCount(c.DModel, c.DFF)
	c.DecoderLayer = DecoderLayerParamCount(c.DModel, c.DFF)
	c.Encoder, c.Decoder = c.EncoderLayers*c.EncoderLayer, c.DecoderLayers*c.DecoderLayer
	c.Total = c.Embedding + c.Encoder + c.Decoder + c.Output
	c.Untied = c.Total + 2*c.Embedding + vocab
	return c
}

// String formats the counts as a table: part, formula, count.
func (c EncoderDecoderCounts) String() string {
	rows := [][3]string{
		{"shared embedding (source, target, output)", fmt.Sprintf("vocab·d = %s·%d", Thousands(c.Vocab), c.DModel), Thousands(c.Embedding)},
		{"positional encoding", "fixed sinusoids", "0"},
		{"one encoder layer", "attention + FFN + 2 norms", Thousands(c.EncoderLayer)},
		{fmt.Sprintf("encoder: %d layers", c.EncoderLayers), fmt.Sprintf("%d·%s", c.EncoderLayers, Thousands(c.EncoderLayer)), Thousands(c.Encoder)},
		{"one decoder layer", "2 attentions + FFN + 3 norms", Thousands(c.DecoderLayer)},
		{fmt.Sprintf("decoder: %d layers", c.DecoderLayers), fmt.Sprintf("%d·%s", c.DecoderLayers, Thousands(c.DecoderLayer)), Thousands(c.Decoder)},
		{"output layer", "tied to the embedding, no bias", Thousands(c.Output)},
		{"total", "", Thousands(c.Total)},
		{"(untied: 3 matrices + output bias)", "total + 2·vocab·d + vocab", Thousands(c.Untied)},
	}
	return countTable(rows, len(rows)-2) // the rule above the total
}

// DecoderLayerShapes builds one decoder layer ([DecoderLayer]) with seeded
// weights on a target of tgt tokens and a memory of src tokens, batch
// sequences each, and lists the shape of every step, for printing.
//
// Introduced in lesson 09.
func DecoderLayerShapes(batch, tgt, src, dModel, heads, dFF int) (StepShapes, error) {
	for _, v := range []int{batch, tgt, src, dModel, heads, dFF} {
		if v < 1 {
			return nil, fmt.Errorf("transformer.DecoderLayerShapes: every size must be at least 1, got %v", []int{batch, tgt, src, dModel, heads, dFF})
		}
	}
	if dModel%heads != 0 {
		return nil, fmt.Errorf("transformer.DecoderLayerShapes: d_model = %d must be divisible by the number of heads, got %d", dModel, heads)
	}
	zeros := func(n int) *tensors.Tensor {
		return tensors.FromFlatDataAndDimensions(make([]float32, batch*n*dModel), batch, n, dModel)
	}
	var shapes StepShapes
	_, err := run(func(in []*graph.Node) []*graph.Node {
		g := in[0].Graph()
		p := DecoderLayerParams{
			SelfAttention: attention.NewMultiHeadWeights(dModel, 1).Params(g), Norm1: NewLayerNormWeights(dModel).Params(g),
			CrossAttention: attention.NewMultiHeadWeights(dModel, 2).Params(g), Norm2: NewLayerNormWeights(dModel).Params(g),
			FFN: NewFFNWeights(dModel, dFF, 3).Params(g), Norm3: NewLayerNormWeights(dModel).Params(g),
		}
		s := DecoderLayer(in[0], in[1], heads, p).Steps()
		shapes.add("target input y", in[0])
		shapes.add("memory (encoder output)", in[1])
		shapes.add("masked self-attention", s.SelfAttention)
		shapes.add("  weights (causal)", s.SelfWeights)
		shapes.add("Add & Norm 1", s.Norm1)
		shapes.add("cross-attention", s.CrossAttention)
		shapes.add("  weights (target × source)", s.CrossWeights)
		shapes.add("Add & Norm 2", s.Norm2)
		shapes.add("FFN hidden", s.Hidden)
		shapes.add("FFN", s.FFN)
		shapes.add("Add & Norm 3 = output", s.Output)
		return []*graph.Node{s.Output}
	}, zeros(tgt), zeros(src))
	return shapes, err
}
