// Package classifier trains the sentence classifiers of lesson 8 on the
// reviews of lib/reviews and compares them:
//
//	Transformer:  x = emb·√d (+ PE) → encoder layer (lesson 5) → masked mean → logits
//	Bag of words: x = emb            → masked mean → MLP → logits
//	LSTM:         x = emb            → LSTM (lib/rnn) → last state → logits
//
// The Transformer without positional encoding sees its input as a set, like
// the bag of words: the lesson measures what the positions buy.
//
// Typical shapes: ids [batch, seq] (int32, 0 = padding) → logits [batch, 2].
//
// Introduced in lesson 8 (a Transformer classifier, trained).
package classifier

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
	"github.com/attention-in-go/course/lib/rnn"
	"github.com/attention-in-go/course/lib/transformer"
)

// Kind is a model architecture.
type Kind string

// The models of lesson 8.
const (
	Transformer Kind = "transformer"  // one encoder layer with sinusoidal positions
	NoPositions Kind = "no-positions" // the same without positional encoding
	BagOfWords  Kind = "bag-of-words" // mean of the embeddings, then an MLP
	LSTM        Kind = "lstm"         // an LSTM's last state
)

// Config sizes a model.
type Config struct {
	Kind   Kind
	Vocab  int // ids 0 … Vocab−1, 0 = padding
	DModel int // embedding and model width
	Heads  int // attention heads (Transformer kinds)
	DFF    int // feed-forward width (Transformer kinds), MLP width (bag of words)
	Hidden int // LSTM state
	// Pool turns the encoder's outputs into one vector (Transformer
	// kinds): PoolMean (the default) averages the words, PoolMax takes the
	// largest value of each dimension over the words, PoolCLS prepends a
	// learned [CLS] vector (as BERT) and keeps its output.
	Pool Pooling

	// The attention's options of lesson 11 (Transformer kinds); their
	// zero values are lesson 8's model. Temperature divides the scaled
	// scores (0 means 1), NoScale drops 1/√d_k, AttnDropout is the rate
	// of [attention.Dropout] on the weights while training.
	Temperature float64
	NoScale     bool
	AttnDropout float64
	// QKInit, when positive, multiplies the initial W_Q and W_K (Glorot
	// uniform) by QKInit: with a small value every score starts near 0,
	// and every row of attention weights near uniform.
	QKInit float64
}

// scoreMatrix is W_Q or W_K [d_model, d_model]: Glorot uniform, times
// QKInit when it is set.
func (c Config) scoreMatrix(g *graph.Graph, s *model.Scope, name string) *graph.Node {
	init := initializer.GlorotUniformFn(s)
	if c.QKInit > 0 {
		glorot := init
		init = func(g *graph.Graph, shape shapes.Shape) *graph.Node {
			return graph.MulScalar(glorot(g, shape), c.QKInit)
		}
	}
	return s.WithInitializer(init).VariableWithShape(name, shapes.Make(dtypes.Float32, c.DModel, c.DModel)).NodeValue(g)
}

// Pooling is how a Transformer classifier summarises its sequence.
type Pooling string

// The poolings of the source's classifier.
const (
	PoolMean Pooling = "mean"
	PoolMax  Pooling = "max"
	PoolCLS  Pooling = "cls"
)

// Model returns the classifier as a lib/train model: inputs {ids [batch,
// seq]} → outputs {logits [batch, 2]}, plus the attention weights
// [batch, heads, seq, seq] for the Transformer kinds.
func (c Config) Model() func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
	return func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
		logits, weights := c.Forward(scope.In("%s", c.Kind), inputs[0])
		if weights == nil {
			return []*graph.Node{logits}
		}
		return []*graph.Node{logits, weights}
	}
}

// Forward builds the classifier on ids [batch, seq] and returns logits
// [batch, 2] and, for the Transformer kinds, the attention weights
// [batch, heads, seq, seq].
func (c Config) Forward(scope *model.Scope, ids *graph.Node) (logits, weights *graph.Node) {
	g := ids.Graph()
	seq := ids.Shape().Dim(1)
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
	emb := scope.In("embedding")
	table := emb.WithInitializer(initializer.RandomNormalFn(emb, 1/math.Sqrt(float64(d)))).
		VariableWithShape("table", shapes.Make(dtypes.Float32, c.Vocab, d)).NodeValue(g)
	x := posenc.Lookup(table, ids)                                // Shape: [batch, seq, d_model]
	real := graph.NotEqual(ids, graph.ScalarZero(g, ids.DType())) // Shape: [batch, seq], true for words

	switch c.Kind {
	case Transformer, NoPositions:
		var pe *graph.Node
		if c.Kind == Transformer {
			pe = posenc.SinusoidalGraph(g, x.DType(), seq, d, 10000) // Shape: [seq, d_model]
		}
		x = posenc.InputEmbedding(x, pe)      // Shape: [batch, seq, d_model], x·√d + PE
		mask := attention.PaddingMask(ids, 0) // Shape: [batch, 1, seq], true = padding
		if c.Pool == PoolCLS {
			cls := emb.WithInitializer(initializer.RandomNormalFn(emb, 1)).VariableWithShape("cls", shapes.Make(dtypes.Float32, 1, 1, d)).NodeValue(g)
			batch := ids.Shape().Dim(0)
			cls = graph.BroadcastToDims(cls, batch, 1, d)                     // Shape: [batch, 1, d_model]
			x = graph.Concatenate([]*graph.Node{cls, x}, 1)                   // Shape: [batch, 1+seq, d_model], [CLS] first
			open := graph.BroadcastToDims(graph.Const(g, false), batch, 1, 1) // Shape: [batch, 1, 1], [CLS] is never padding
			mask = graph.Concatenate([]*graph.Node{open, mask}, 2)            // Shape: [batch, 1, 1+seq]
		}
		l := scope.In("layer")
		a, f, n1, n2 := l.In("attention"), l.In("ffn"), l.In("norm1"), l.In("norm2")
		p := transformer.EncoderLayerParams{
			Attention: attention.MultiHeadParams{WQ: c.scoreMatrix(g, a, "wq"), WK: c.scoreMatrix(g, a, "wk"), WV: matrix(a, "wv", d, d), WO: matrix(a, "wo", d, d),
				BQ: vector(a, "bq", d, false), BK: vector(a, "bk", d, false), BV: vector(a, "bv", d, false), BO: vector(a, "bo", d, false)},
			Norm1: transformer.LayerNormParams{Gamma: vector(n1, "gamma", d, true), Beta: vector(n1, "beta", d, false)},
			FFN: transformer.FFNParams{W1: matrix(f, "w1", d, c.DFF), B1: vector(f, "b1", c.DFF, false),
				W2: matrix(f, "w2", c.DFF, d), B2: vector(f, "b2", d, false)},
			Norm2: transformer.LayerNormParams{Gamma: vector(n2, "gamma", d, true), Beta: vector(n2, "beta", d, false)},
		}
		layer := transformer.EncoderLayer(x, c.Heads, p).WithMask(mask)
		if c.Temperature != 0 || c.NoScale || c.AttnDropout != 0 {
			layer = layer.WithAttention(func(a *attention.MultiHeadBuilder) *attention.MultiHeadBuilder {
				if c.Temperature != 0 {
					a = a.WithTemperature(c.Temperature)
				}
				if c.NoScale {
					a = a.WithoutScale()
				}
				return a.WithDropout(scope, c.AttnDropout)
			})
		}
		x, weights = layer.Done()
		switch c.Pool {
		case PoolCLS:
			x = transformer.Pool(x, transformer.PoolCLS) // Shape: [batch, d_model], the [CLS] position
		case PoolMax:
			x = MaskedMax(x, real) // Shape: [batch, d_model]
		default:
			x = MaskedMean(x, real) // Shape: [batch, d_model]
		}
		// The source's head: Linear(d, d/2) → ReLU → Linear(d/2, 2).
		m := scope.In("mlp")
		x = graph.Add(graph.MatMul(x, matrix(m, "w", d, d/2)), graph.ExpandLeftToRank(vector(m, "b", d/2, false), 2)) // Shape: [batch, d_model/2]
		x = graph.Max(x, graph.ScalarZero(g, x.DType()))                                                              // ReLU
		d /= 2
	case BagOfWords:
		m := scope.In("mlp")
		x = MaskedMean(x, real)                                                                                           // Shape: [batch, d_model]
		x = graph.Add(graph.MatMul(x, matrix(m, "w", d, c.DFF)), graph.ExpandLeftToRank(vector(m, "b", c.DFF, false), 2)) // Shape: [batch, d_model] x [d_model, d_ff] → [batch, d_ff]
		x = graph.Max(x, graph.ScalarZero(g, x.DType()))                                                                  // ReLU
		d = c.DFF
	case LSTM:
		p := rnn.NewLSTMParams(scope.In("lstm"), g, d, c.Hidden)
		_, x = rnn.LSTMLayer(x, real, p) // Shape: [batch, hidden], the state after the last word
		d = c.Hidden
	default:
		exceptions.Panicf("classifier: unknown kind %q", c.Kind)
	}
	h := scope.In("head")
	logits = graph.Add(graph.MatMul(x, matrix(h, "w", d, 2)), graph.ExpandLeftToRank(vector(h, "b", 2, false), 2)) // Shape: [batch, d] x [d, 2] → [batch, 2]
	return logits, weights
}

// MaskedMean averages x [batch, seq, d] over the positions where keep
// [batch, seq] is true: the mean of a sentence's words, padding left out.
func MaskedMean(x, keep *graph.Node) *graph.Node {
	k := graph.ConvertDType(keep, x.DType())                         // Shape: [batch, seq]
	sum := graph.ReduceSum(graph.Mul(x, graph.InsertAxes(k, -1)), 1) // Shape: [batch, d]
	n := graph.ReduceAndKeep(k, graph.ReduceSum, -1)                 // Shape: [batch, 1], the number of words
	n = graph.Max(n, graph.ScalarOne(x.Graph(), x.DType()))          // a fully padded row divides by 1, not 0
	return graph.Div(sum, n)                                         // Shape: [batch, d]
}

// MaskedMax takes, for each dimension of x [batch, seq, d], the largest
// value over the positions where keep [batch, seq] is true (a fully padded
// row gives 0).
func MaskedMax(x, keep *graph.Node) *graph.Node {
	k := graph.BroadcastToDims(graph.InsertAxes(keep, -1), x.Shape().Dimensions...) // Shape: [batch, seq, d]
	low := graph.BroadcastToDims(graph.Scalar(x.Graph(), x.DType(), -1e9), x.Shape().Dimensions...)
	m := graph.ReduceMax(graph.Where(k, x, low), 1) // Shape: [batch, d]
	return graph.Where(graph.LessThan(m, graph.Scalar(x.Graph(), x.DType(), -1e8)), graph.ZerosLike(m), m)
}

// String names the model with its size.
func (c Config) String() string {
	return fmt.Sprintf("%s (d_model %d)", c.Kind, c.DModel)
}
