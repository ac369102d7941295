package attention

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// MultiHeadParams holds the parameters of one multi-head attention layer as
// graph nodes, so the same layer runs with constants (lessons) or trainable
// variables (training lessons). Projections multiply on the right: x·W.
//
// Shapes: WQ, WK, WV, WO [d_model, d_model]; BQ, BK, BV, BO [d_model], or
// nil for no bias.
//
// Introduced in lesson 03 (self-attention and multi-head attention).
type MultiHeadParams struct {
	WQ, WK, WV, WO *graph.Node
	BQ, BK, BV, BO *graph.Node
}

// MultiHeadBuilder configures one multi-head attention; create it with
// [MultiHead], set options with the With… methods and finish with Done (or
// Steps for every intermediate node).
type MultiHeadBuilder struct {
	q, k, v *graph.Node
	heads   int
	p       MultiHeadParams
	mask    *graph.Node
	bias    *graph.Node

	rotate               Rotation // nil: no rotation
	qPosition, kPosition *graph.Node

	temperature float64 // 0 means 1
	noScale     bool
	dropScope   *model.Scope
	dropRate    float64
}

// MultiHead starts building multi-head attention (Vaswani et al., "Attention
// Is All You Need", 2017, §3.2.2):
//
//	head_i    = Attention(Q·W_Q^i, K·W_K^i, V·W_V^i)        i = 1..h
//	MultiHead = Concat(head_1, …, head_h)·W_O
//
// The d_model columns of each projection are split into h heads of
// d_k = d_model/h columns; each head runs [ScaledDotProduct] on its own
// slice, so the h heads cost about as much as one attention of width d_model
// while each can learn a different pattern. Self-attention passes the same
// sequence as q, k and v; cross-attention passes the decoder's sequence as q
// and the encoder's as k and v.
//
// Parameters: 4·d_model² weights + 4·d_model biases (see [MultiHeadParamCount]).
//
// Typical shapes: q [batch, seq_q, d_model], k and v [batch, seq_k, d_model]
// → output [batch, seq_q, d_model], weights [batch, heads, seq_q, seq_k].
//
// Introduced in lesson 03.
func MultiHead(q, k, v *graph.Node, heads int, p MultiHeadParams) *MultiHeadBuilder {
	return &MultiHeadBuilder{q: q, k: k, v: v, heads: heads, p: p}
}

// WithMask sets a Bool mask, true = masked. It may be [seq_q, seq_k] (for
// example [LookAheadMask]), [batch, seq_q or 1, seq_k] (for example
// [PaddingMask]) — both shared by all heads — or a full
// [batch, heads, seq_q, seq_k].
func (b *MultiHeadBuilder) WithMask(mask *graph.Node) *MultiHeadBuilder {
	b.mask = mask
	return b
}

// WithRotation rotates every head's queries and keys by their positions
// before the scores, as rotary position embeddings (RoPE; Su et al.,
// "RoFormer", 2021) do:
//
//	q_i = rotate(Q·W_Q^i, queryPositions),   k_i = rotate(K·W_K^i, keyPositions)
//	head_i = softmax(q_i·k_iᵀ/√d_k)·(V·W_V^i)
//
// The rotation acts after the projection and the split into heads, per
// head on its d_k columns; the values are not rotated. queryPositions
// [seq_q] and keyPositions [seq_k] are usually int32 (for self-attention,
// the same node twice: 0 … seq−1). A nil rotate means no rotation.
func (b *MultiHeadBuilder) WithRotation(rotate Rotation, queryPositions, keyPositions *graph.Node) *MultiHeadBuilder {
	b.rotate, b.qPosition, b.kPosition = rotate, queryPositions, keyPositions
	return b
}

// WithBias adds bias to every head's scaled scores before the mask and the
// softmax, as [ScaledDotProductBuilder.WithBias]; ALiBi's biases
// (posenc.ALiBiOf) go here. The scores are [batch, heads, seq_q, seq_k]
// and the bias broadcasts to them NumPy-style: [seq_q, seq_k] is shared by
// every head, [heads, seq_q, seq_k] is one bias per head (unlike a rank-3
// mask, which is [batch, seq_q, seq_k]), [batch, heads, seq_q, seq_k] is
// everything.
func (b *MultiHeadBuilder) WithBias(bias *graph.Node) *MultiHeadBuilder {
	b.bias = bias
	return b
}

// WithTemperature divides every head's scaled scores by T > 0 before the
// softmax, as [ScaledDotProductBuilder.WithTemperature]: T > 1 spreads the
// attention, T < 1 sharpens it.
func (b *MultiHeadBuilder) WithTemperature(t float64) *MultiHeadBuilder {
	b.temperature = t
	return b
}

// WithoutScale drops the 1/√d_k factor of every head, to measure what it
// does (lesson 11); no model should.
func (b *MultiHeadBuilder) WithoutScale() *MultiHeadBuilder {
	b.noScale = true
	return b
}

// WithDropout applies [Dropout] at rate to every head's weights in the
// training graphs of scope; inference is unchanged.
func (b *MultiHeadBuilder) WithDropout(scope *model.Scope, rate float64) *MultiHeadBuilder {
	b.dropScope, b.dropRate = scope, rate
	return b
}

// Done builds the layer and returns its output [batch, seq_q, d_model] and
// the attention weights of every head [batch, heads, seq_q, seq_k].
func (b *MultiHeadBuilder) Done() (output, weights *graph.Node) {
	s := b.Steps()
	return s.Output, s.Weights
}

// MultiHeadSteps holds every intermediate node of one multi-head attention,
// in order, with their shapes.
type MultiHeadSteps struct {
	Q, K, V                *graph.Node // projections x·W + b          [batch, seq, d_model]
	QHeads, KHeads, VHeads *graph.Node // split into heads (Q, K rotated by WithRotation) [batch, heads, seq, d_k]
	Weights                *graph.Node // per-head attention weights   [batch, heads, seq_q, seq_k]
	Heads                  *graph.Node // per-head outputs             [batch, heads, seq_q, d_k]
	Concat                 *graph.Node // heads side by side            [batch, seq_q, d_model]
	Output                 *graph.Node // Concat·W_O + b_O              [batch, seq_q, d_model]
}

// Steps builds the layer and returns all of its intermediate nodes.
func (b *MultiHeadBuilder) Steps() MultiHeadSteps {
	q, k, v, h := b.q, b.k, b.v, b.heads
	if q.Rank() != 3 || k.Rank() != 3 || v.Rank() != 3 {
		exceptions.Panicf("attention.MultiHead: q, k, v must be [batch, seq, d_model], got %s, %s, %s",
			q.Shape(), k.Shape(), v.Shape())
	}
	dModel := q.Shape().Dim(-1)
	if h < 1 || dModel%h != 0 {
		exceptions.Panicf("attention.MultiHead: d_model = %d must be divisible by the number of heads (%d)", dModel, h)
	}
	if b.p.WQ == nil || b.p.WK == nil || b.p.WV == nil || b.p.WO == nil {
		exceptions.Panicf("attention.MultiHead: WQ, WK, WV and WO are required")
	}
	var s MultiHeadSteps
	s.Q = project(q, b.p.WQ, b.p.BQ) // Shape: [batch, seq_q, d_model]
	s.K = project(k, b.p.WK, b.p.BK) // Shape: [batch, seq_k, d_model]
	s.V = project(v, b.p.WV, b.p.BV) // Shape: [batch, seq_k, d_model]
	s.QHeads, s.KHeads, s.VHeads = splitHeads(s.Q, h), splitHeads(s.K, h), splitHeads(s.V, h)
	if b.rotate != nil {
		if b.qPosition == nil || b.kPosition == nil {
			exceptions.Panicf("attention.MultiHead: WithRotation needs the positions of the queries and of the keys")
		}
		s.QHeads = b.rotate(s.QHeads, b.qPosition) // Shape: [batch, heads, seq_q, d_k], rotary positions (lesson 10)
		s.KHeads = b.rotate(s.KHeads, b.kPosition) // Shape: [batch, heads, seq_k, d_k]
	}
	sdp := ScaledDotProduct(s.QHeads, s.KHeads, s.VHeads) // each head on its own d_k columns
	if b.mask != nil {
		mask := b.mask
		if mask.Rank() == 3 {
			mask = graph.InsertAxes(mask, 1) // Shape: [batch, 1, seq_q|1, seq_k]: the same for every head
		}
		sdp = sdp.WithMask(mask)
	}
	if b.bias != nil {
		sdp = sdp.WithBias(b.bias)
	}
	if b.temperature != 0 {
		sdp = sdp.WithTemperature(b.temperature)
	}
	if b.noScale {
		sdp = sdp.WithoutScale()
	}
	if b.dropRate != 0 {
		sdp = sdp.WithDropout(b.dropScope, b.dropRate)
	}
	s.Heads, s.Weights = sdp.Done() // Shape: [batch, heads, seq_q, d_k], [batch, heads, seq_q, seq_k]
	s.Concat = mergeHeads(s.Heads)  // Shape: [batch, seq_q, d_model]
	s.Output = project(s.Concat, b.p.WO, b.p.BO)
	return s
}

// project returns x·w + bias. Shape: [batch, seq, d_in] x [d_in, d_out] → [batch, seq, d_out].
func project(x, w, bias *graph.Node) *graph.Node {
	y := graph.Einsum("bsi,io->bso", x, w)
	if bias != nil {
		bias = graph.Reshape(bias, 1, 1, bias.Shape().Dim(0)) // Shape: [d_out] → [1, 1, d_out]
		y = graph.Add(y, bias)                                // Shape: [batch, seq, d_out], bias broadcast over batch and seq
	}
	return y
}

// splitHeads cuts the last axis into h heads of d_k = d_model/h columns.
func splitHeads(x *graph.Node, h int) *graph.Node {
	dims := x.Shape().Dimensions
	batch, seq, dModel := dims[0], dims[1], dims[2]
	x = graph.Reshape(x, batch, seq, h, dModel/h) // Shape: [batch, seq, heads, d_k]
	return graph.TransposeAllAxes(x, 0, 2, 1, 3)  // Shape: [batch, heads, seq, d_k]
}

// mergeHeads is the inverse of splitHeads: the heads side by side again.
func mergeHeads(x *graph.Node) *graph.Node {
	dims := x.Shape().Dimensions
	batch, h, seq, dk := dims[0], dims[1], dims[2], dims[3]
	x = graph.TransposeAllAxes(x, 0, 2, 1, 3) // Shape: [batch, seq, heads, d_k]
	return graph.Reshape(x, batch, seq, h*dk) // Shape: [batch, seq, d_model]
}

// MultiHeadParamCount returns the number of parameters of a multi-head
// attention layer: four d_model×d_model matrices (W_Q, W_K, W_V, W_O) and,
// with biases, four vectors of d_model — 4·d_model² + 4·d_model. It does not
// depend on the number of heads.
//
// Introduced in lesson 03.
func MultiHeadParamCount(dModel int, bias bool) int {
	n := 4 * dModel * dModel
	if bias {
		n += 4 * dModel
	}
	return n
}

// MultiHeadWeights holds concrete values for [MultiHeadParams]: the weights
// of a layer that lessons build without training.
//
// Introduced in lesson 03.
type MultiHeadWeights struct {
	DModel         int
	WQ, WK, WV, WO [][]float64 // [d_model][d_model]
	BQ, BK, BV, BO []float64   // [d_model]
}

// NewMultiHeadWeights draws a layer's weights from seed with Glorot (Xavier)
// uniform initialisation, W ~ U(−a, a) with a = √(6 / (d_in + d_out)), which
// keeps the variance of activations roughly constant through the
// projections; biases start at 0.
//
// Introduced in lesson 03.
func NewMultiHeadWeights(dModel int, seed uint32) *MultiHeadWeights {
	r := random.New(seed)
	matrix := func() [][]float64 { return r.Glorot(dModel, dModel) }
	w := &MultiHeadWeights{DModel: dModel}
	w.WQ, w.WK, w.WV, w.WO = matrix(), matrix(), matrix(), matrix()
	w.BQ, w.BK, w.BV, w.BO = make([]float64, dModel), make([]float64, dModel), make([]float64, dModel), make([]float64, dModel)
	return w
}

// Params returns the weights as float32 constants of graph g.
func (w *MultiHeadWeights) Params(g *graph.Graph) MultiHeadParams {
	m := func(x [][]float64) *graph.Node { return graph.ConstTensor(g, eager.Tensor(x)) }
	v := func(x []float64) *graph.Node {
		return graph.Reshape(graph.ConstTensor(g, eager.Tensor([][]float64{x})), len(x)) // Shape: [1, d] → [d]
	}
	return MultiHeadParams{
		WQ: m(w.WQ), WK: m(w.WK), WV: m(w.WV), WO: m(w.WO),
		BQ: v(w.BQ), BK: v(w.BK), BV: v(w.BV), BO: v(w.BO),
	}
}

// MultiHeadResult is what [ExplainMultiHead] returns for one sequence.
type MultiHeadResult struct {
	Output  [][]float64   // [seq_q][d_model]
	Weights [][][]float64 // [heads][seq_q][seq_k]
	Shapes  []NamedShape  // the shape after every step, in order
}

// NamedShape is the shape of one step of a computation, for printing.
type NamedShape struct {
	Name       string
	Dimensions []int
}

func (n NamedShape) String() string { return fmt.Sprintf("%-8s %v", n.Name, n.Dimensions) }

// ExplainMultiHead runs [MultiHead] with the weights w on one sequence of
// queries q [seq_q][d_model] attending to kv [seq_k][d_model] (pass the same
// matrix twice for self-attention) and returns the output, every head's
// weights and the shapes of every step. opts.Mask, when set, is
// [seq_q][seq_k] or [1][seq_k] with 1 = masked; Temperature and NoScale are
// not supported here.
//
// Introduced in lesson 03.
func ExplainMultiHead(q, kv [][]float64, heads int, w *MultiHeadWeights, opts *Options) (*MultiHeadResult, error) {
	if err := checkQKV(q, kv, kv); err != nil {
		return nil, err
	}
	if w == nil || w.DModel != len(q[0]) {
		return nil, fmt.Errorf("attention.ExplainMultiHead: the weights must be for d_model = %d (the width of q)", len(q[0]))
	}
	if heads < 1 || w.DModel%heads != 0 {
		return nil, fmt.Errorf("attention.ExplainMultiHead: d_model = %d must be divisible by the number of heads, got %d", w.DModel, heads)
	}
	if opts != nil && (opts.Temperature != 0 || opts.NoScale) {
		return nil, fmt.Errorf("attention.ExplainMultiHead: only Options.Mask is supported")
	}
	batch := func(m [][]float64) *tensors.Tensor { // Shape: [seq, d] → [1, seq, d]
		t := eager.Tensor(m)
		return tensors.FromFlatDataAndDimensions(tensors.MustCopyFlatData[float32](t), 1, len(m), len(m[0]))
	}
	inputs := []any{batch(q), batch(kv)}
	if opts != nil && opts.Mask != nil {
		rows := len(q)
		if len(opts.Mask) == 1 {
			rows = 1
		}
		if err := checkMatrix("Mask", opts.Mask, rows, len(kv)); err != nil {
			return nil, err
		}
		inputs = append(inputs, eager.Bools(opts.Mask))
	}
	var shapes []NamedShape
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		b := MultiHead(in[0], in[1], in[1], heads, w.Params(in[0].Graph()))
		if len(in) == 3 {
			b = b.WithMask(in[2]) // [seq_q|1, seq_k], shared by the batch and the heads
		}
		s := b.Steps()
		for _, n := range []struct {
			name string
			node *graph.Node
		}{{"input", in[0]}, {"Q", s.Q}, {"Q heads", s.QHeads}, {"K heads", s.KHeads}, {"weights", s.Weights},
			{"heads", s.Heads}, {"concat", s.Concat}, {"output", s.Output}} {
			shapes = append(shapes, NamedShape{n.name, n.node.Shape().Dimensions})
		}
		return []*graph.Node{s.Output, graph.ConvertDType(s.Weights, dtypes.Float32)}
	}, inputs...)
	if err != nil {
		return nil, err
	}
	// Shape: [1, seq_q, d_model] → [seq_q][d_model]; [1, heads, seq_q, seq_k] → heads × [seq_q][seq_k].
	return &MultiHeadResult{Output: eager.Matrix(outs[0]), Weights: eager.Matrices(outs[1]), Shapes: shapes}, nil
}
