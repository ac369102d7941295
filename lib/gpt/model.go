// Package gpt is lesson 10's decoder-only language model, a small GPT
// (Radford et al., "Improving Language Understanding by Generative
// Pre-Training", 2018; "Language Models are Unsupervised Multitask
// Learners", 2019), trained on bytes of Go source:
//
//	x₀ = E[ids]·√d + PE                     token embedding (+ positions)
//	x  = x + MultiHead(LN₁(x)) causal        every block: pre-norm,
//	x  = x + FFN(LN₂(x))                     residual stream kept as is
//	logits = LN_f(x) · Eᵀ                    weight-tied output
//
// next to the generation of one byte at a time, with a KV cache
// ([Generator]) and without (full recomputation of the prefix), tested to
// give the same tokens, and sampling (greedy, temperature, top-k, top-p).
//
// The positions ([Positions]) are sinusoidal or learned vectors added to
// the embedding (PE above), none at all, or act inside every block's
// attention instead: rotary embeddings (RoPE) turn each head's queries and
// keys by their positions, ALiBi adds −m_h·(i − j) to each head's scores.
//
// Typical shapes: ids [batch, seq] (int32 bytes) → logits [batch, seq,
// vocab].
//
// Introduced in lesson 10 (a GPT that writes Go).
package gpt

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/posenc"
	"github.com/attention-in-go/course/lib/transformer"
)

// Positions is how the model knows where a token is.
//
// Introduced in lesson 10.
type Positions string

// The positional encodings lesson 10 compares: vectors added to the
// token embedding, or nothing.
const (
	Sinusoidal  Positions = "sinusoidal" // PE of lesson 4, base 10000, any length
	Learned     Positions = "learned"    // a trained table of Context rows: no position beyond it
	NoPositions Positions = "none"       // only the causal mask tells positions apart
)

// Positions that act inside attention instead of on the embedding: no
// vector is added to x₀, no parameter is learned, and any length works
// (Forward and the cache accept sequences longer than Context).
const (
	// Rotary rotates every head's queries and keys by their positions
	// (RoPE; Su et al., "RoFormer", 2021; [posenc.RotaryOf], base 10000)
	// before the scores, so that q·k depends on the relative position.
	Rotary Positions = "rope"
	// ALiBi adds −m_h·(i − j) to the scores of head h, query i, key j
	// (Press et al., "Train Short, Test Long", 2022; [posenc.ALiBiOf],
	// slopes [posenc.ALiBiSlopes] of Heads).
	ALiBi Positions = "alibi"
)

// Config sizes a GPT.
//
// Introduced in lesson 10.
type Config struct {
	Vocab     int // token ids 0 … Vocab−1 (256: bytes)
	DModel    int // width of the residual stream
	Heads     int // attention heads per block
	Layers    int // blocks
	DFF       int // feed-forward width
	Context   int // longest sequence trained on; the learned table's rows
	Positions Positions
}

// BlockParams holds the parameters of one pre-norm block as graph nodes.
//
// Introduced in lesson 10.
type BlockParams struct {
	Norm1     transformer.LayerNormParams
	Attention attention.MultiHeadParams
	Norm2     transformer.LayerNormParams
	FFN       transformer.FFNParams
}

// Params holds every parameter of the model as graph nodes.
//
// Part of the library behind lesson 10; the lesson does not name it.
type Params struct {
	Embedding *graph.Node // E [vocab, d_model], also the output layer
	Positions *graph.Node // learned table [context, d_model]; nil for the other kinds
	Blocks    []BlockParams
	Final     transformer.LayerNormParams // LN_f
}

// Params returns the model's variables of scope as nodes of g, creating
// them the first time (training) and reading them after (inference).
func (c Config) Params(scope *model.Scope, g *graph.Graph) Params {
	d := c.DModel
	matrix := func(s *model.Scope, name string, dims ...int) *graph.Node {
		return s.WithInitializer(initializer.GlorotUniformFn(s)).VariableWithShape(name, shapes.Make(dtypes.Float32, dims...)).NodeValue(g)
	}
	vector := func(s *model.Scope, name string, n int, one bool) *graph.Node {
		init := initializer.Zero
		if one {
			init = initializer.One
		}
		return s.WithInitializer(init).VariableWithShape(name, shapes.Make(dtypes.Float32, n)).NodeValue(g)
	}
	norm := func(s *model.Scope) transformer.LayerNormParams {
		return transformer.LayerNormParams{Gamma: vector(s, "gamma", d, true), Beta: vector(s, "beta", d, false)}
	}
	emb := scope.In("embedding")
	var p Params
	p.Embedding = emb.WithInitializer(initializer.RandomNormalFn(emb, 1/math.Sqrt(float64(d)))).
		VariableWithShape("table", shapes.Make(dtypes.Float32, c.Vocab, d)).NodeValue(g)
	if c.Positions == Learned {
		pos := scope.In("positions")
		p.Positions = pos.WithInitializer(initializer.RandomNormalFn(pos, 0.1)).
			VariableWithShape("table", shapes.Make(dtypes.Float32, c.Context, d)).NodeValue(g)
	}
	for l := range c.Layers {
		s := scope.In("block%d", l)
		a, f := s.In("attention"), s.In("ffn")
		p.Blocks = append(p.Blocks, BlockParams{
			Norm1: norm(s.In("norm1")),
			Attention: attention.MultiHeadParams{WQ: matrix(a, "wq", d, d), WK: matrix(a, "wk", d, d), WV: matrix(a, "wv", d, d), WO: matrix(a, "wo", d, d),
				BQ: vector(a, "bq", d, false), BK: vector(a, "bk", d, false), BV: vector(a, "bv", d, false), BO: vector(a, "bo", d, false)},
			Norm2: norm(s.In("norm2")),
			FFN: transformer.FFNParams{W1: matrix(f, "w1", d, c.DFF), B1: vector(f, "b1", c.DFF, false),
				W2: matrix(f, "w2", c.DFF, d), B2: vector(f, "b2", d, false)},
		})
	}
	p.Final = norm(scope.In("final_norm"))
	return p
}

// Block is one pre-norm decoder block (as GPT-2; Xiong et al., "On Layer
// Normalization in the Transformer Architecture", 2020):
//
//	x = x + MultiHead(LN₁(x), LN₁(x), LN₁(x)) with the causal mask
//	x = x + FFN(LN₂(x))
//
// Unlike lesson 5's post-norm layer, the LayerNorms sit inside the
// branches: the residual stream x itself is never normalised, so the
// gradient reaches the first layer through additions only. The causal
// mask ([attention.LookAheadMask]) lets token t see tokens 0…t, so that
// one forward pass trains every position at once.
//
// Typical shapes: x [batch, seq, d_model] → [batch, seq, d_model],
// weights [batch, heads, seq, seq].
//
// Introduced in lesson 10.
func Block(x *graph.Node, heads int, p BlockParams) (out, weights *graph.Node) {
	return block(x, heads, p, nil)
}

// block is [Block] with positions inside the attention: with, when not
// nil, adds them to the multi-head builder (a rotation, a bias).
func block(x *graph.Node, heads int, p BlockParams, with func(*attention.MultiHeadBuilder) *attention.MultiHeadBuilder) (out, weights *graph.Node) {
	h := transformer.LayerNorm(x, p.Norm1)                       // Shape: [batch, seq, d_model]
	mask := attention.LookAheadMask(x.Graph(), x.Shape().Dim(1)) // Shape: [seq, seq], true above the diagonal
	mh := attention.MultiHead(h, h, h, heads, p.Attention).WithMask(mask)
	if with != nil {
		mh = with(mh)
	}
	a, weights := mh.Done()
	x = graph.Add(x, a)                                                         // Shape: [batch, seq, d_model]
	x = graph.Add(x, transformer.FFN(transformer.LayerNorm(x, p.Norm2), p.FFN)) // Shape: [batch, seq, d_model]
	return x, weights
}

// embed returns x₀ = E[ids]·√d + PE(positions) for ids [batch, seq] and
// their positions [seq] (int32).
func (c Config) embed(p Params, ids, positions *graph.Node) *graph.Node {
	x := posenc.Lookup(p.Embedding, ids) // Shape: [batch, seq, d_model]
	var pe *graph.Node
	switch c.Positions {
	case Sinusoidal:
		pe = posenc.SinusoidalOf(positions, c.DModel, 10000) // Shape: [seq, d_model]
	case Learned:
		pe = posenc.Lookup(p.Positions, positions) // Shape: [seq, d_model]
	case NoPositions, Rotary, ALiBi: // no vector: RoPE and ALiBi act in the attention
	default:
		exceptions.Panicf("gpt: unknown positions %q (want %q, %q, %q, %q or %q)", c.Positions, Sinusoidal, Learned, NoPositions, Rotary, ALiBi)
	}
	return posenc.InputEmbedding(x, pe) // Shape: [batch, seq, d_model], x·√d + PE
}

// ropeBase is the base n of the rotary angles θ_i = n^(-2i/d_k).
const ropeBase = posenc.DefaultBase

// rotate is the rotation of RoPE models as an [attention.Rotation].
func rotate(x, positions *graph.Node) *graph.Node { return posenc.RotaryOf(x, positions, ropeBase) }

// inAttention returns what the positions add to every block's attention
// for the queries and keys at positions [seq] (int32), or nil when they
// add nothing there (sinusoidal, learned, none).
func (c Config) inAttention(positions *graph.Node) func(*attention.MultiHeadBuilder) *attention.MultiHeadBuilder {
	switch c.Positions {
	case Rotary:
		return func(b *attention.MultiHeadBuilder) *attention.MultiHeadBuilder {
			return b.WithRotation(rotate, positions, positions) // q and k of every head turned by their positions
		}
	case ALiBi:
		bias := posenc.ALiBiOf(c.Heads, positions, positions) // Shape: [heads, seq, seq], −m_h·(i − j)
		return func(b *attention.MultiHeadBuilder) *attention.MultiHeadBuilder { return b.WithBias(bias) }
	}
	return nil
}

// Forward runs the whole model on ids [batch, seq] (seq ≤ Context for
// learned positions, any length for the others) and returns the logits
// [batch, seq, vocab] of the next token at every position, and every
// block's attention weights [batch, heads, seq, seq]. This is the full
// recomputation: generating with it reads the whole prefix again for every
// new token.
func (c Config) Forward(p Params, ids *graph.Node) (logits *graph.Node, weights []*graph.Node) {
	g := ids.Graph()
	seq := ids.Shape().Dim(1)
	if c.Positions == Learned && seq > c.Context {
		exceptions.Panicf("gpt: learned positions have %d rows, the sequence has %d tokens", c.Context, seq)
	}
	positions := graph.Iota(g, shapes.Make(dtypes.Int32, seq), 0) // Shape: [seq], 0 … seq−1
	x := c.embed(p, ids, positions)
	with := c.inAttention(positions) // RoPE or ALiBi, the same for every block
	for _, b := range p.Blocks {
		var w *graph.Node
		x, w = block(x, c.Heads, b, with)
		weights = append(weights, w)
	}
	x = transformer.LayerNorm(x, p.Final)                // Shape: [batch, seq, d_model]
	logits = graph.Einsum("bsd,vd->bsv", x, p.Embedding) // Shape: [batch, seq, vocab], h·Eᵀ (weight tying)
	return logits, weights
}

// Model returns the GPT as a lib/train model: inputs {ids [batch, seq]} →
// {logits [batch, seq, vocab]}, for train.CrossEntropy against the next
// bytes [batch, seq].
//
// Introduced in lesson 10.
func (c Config) Model() func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
	return func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
		logits, _ := c.Forward(c.Params(scope, inputs[0].Graph()), inputs[0])
		return []*graph.Node{logits}
	}
}

// AttentionModel is [Config.Model] with every block's attention weights
// stacked after the logits: {logits, weights [layers, batch, heads, seq,
// seq]}.
func (c Config) AttentionModel() func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
	return func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
		logits, ws := c.Forward(c.Params(scope, inputs[0].Graph()), inputs[0])
		return []*graph.Node{logits, graph.Stack(ws, 0)} // Shape: [layers, batch, heads, seq, seq]
	}
}

// ParamCount returns the number of trainable numbers: the embedding (shared
// with the output), the learned positions if any (sinusoidal, RoPE and
// ALiBi positions have no parameters), and per block two LayerNorms,
// attention and FFN, plus the final LayerNorm.
//
// Introduced in lesson 10.
func (c Config) ParamCount() int {
	n := c.Vocab * c.DModel
	if c.Positions == Learned {
		n += c.Context * c.DModel
	}
	block := 2*transformer.LayerNormParamCount(c.DModel) + attention.MultiHeadParamCount(c.DModel, true) + transformer.FFNParamCount(c.DModel, c.DFF)
	return n + c.Layers*block + transformer.LayerNormParamCount(c.DModel)
}

// String names the model with its size.
func (c Config) String() string {
	positions := string(c.Positions)
	switch c.Positions {
	case Rotary:
		positions = "rotary (RoPE)"
	case ALiBi:
		positions = "ALiBi"
	}
	return fmt.Sprintf("GPT: %d blocks, d_model %d, %d heads, d_ff %d, context %d, %s positions, %d parameters",
		c.Layers, c.DModel, c.Heads, c.DFF, c.Context, positions, c.ParamCount())
}
