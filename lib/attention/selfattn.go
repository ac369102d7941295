package attention

import (
	"fmt"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// ProjectQKV turns one sequence into queries, keys and values with three
// learned matrices (Vaswani et al., "Attention Is All You Need", 2017, §3.2):
//
//	Q = X·W_Q    "what is this token looking for?"
//	K = X·W_K    "what does this token offer to be found by?"
//	V = X·W_V    "what does this token pass on when it is chosen?"
//
// Row i of X is token i; the same three matrices are applied to every token.
// Self-attention then compares every query with every key of the same
// sequence: pass the result to [ScaledDotProduct]. Cross-attention projects
// the queries from one sequence and the keys and values from another, so
// call it twice or use [MultiHead].
//
// Typical shapes: x [batch, seq, d_model], wq and wk [d_model, d_k],
// wv [d_model, d_v] → q and k [batch, seq, d_k], v [batch, seq, d_v]. Any
// number of leading axes works (x [seq, d_model] too): the matrices are
// broadcast over them.
//
// Introduced in lesson 03 (self-attention and multi-head attention).
func ProjectQKV(x, wq, wk, wv *graph.Node) (q, k, v *graph.Node) {
	for _, w := range []struct {
		name string
		node *graph.Node
	}{{"wq", wq}, {"wk", wk}, {"wv", wv}} {
		if w.node.Rank() != 2 || w.node.Shape().Dim(0) != x.Shape().Dim(-1) {
			exceptions.Panicf("attention.ProjectQKV: %s must be [d_model = %d, d_out], got %s (x is %s)",
				w.name, x.Shape().Dim(-1), w.node.Shape(), x.Shape())
		}
	}
	if wq.Shape().Dim(1) != wk.Shape().Dim(1) {
		exceptions.Panicf("attention.ProjectQKV: wq and wk must have the same number of columns d_k, got %s and %s",
			wq.Shape(), wk.Shape())
	}
	q = graph.MatMul(x, wq) // Shape: [..., seq, d_model] x [d_model, d_k] → [..., seq, d_k]
	k = graph.MatMul(x, wk) // Shape: [..., seq, d_model] x [d_model, d_k] → [..., seq, d_k]
	v = graph.MatMul(x, wv) // Shape: [..., seq, d_model] x [d_model, d_v] → [..., seq, d_v]
	return q, k, v
}

// SelfAttentionSteps holds every intermediate of one single-head
// self-attention: the projections, then the steps of [Explain] on them.
type SelfAttentionSteps struct {
	Q, K, V [][]float64 // X·W_Q, X·W_K [seq][d_k]; X·W_V [seq][d_v]
	Steps               // Scores, Scaled, Masked, Weights [seq][seq]; Output [seq][d_v]
}

// ExplainSelfAttention runs single-head self-attention on one sequence x
// [seq][d_model] and returns every intermediate:
//
//	Q, K, V = X·W_Q, X·W_K, X·W_V            ([ProjectQKV])
//	Output  = softmax(Q·Kᵀ / √d_k)·V          ([ScaledDotProduct])
//
// opts is as for [Explain] (mask, temperature, no scale); nil means plain
// attention. It computes in float32 on the course backend.
//
// Typical shapes: x [seq][d_model], wq and wk [d_model][d_k],
// wv [d_model][d_v] → weights [seq][seq], output [seq][d_v].
//
// Introduced in lesson 03.
func ExplainSelfAttention(x, wq, wk, wv [][]float64, opts *Options) (*SelfAttentionSteps, error) {
	if opts == nil {
		opts = &Options{}
	}
	if err := checkMatrix("X", x, -1, -1); err != nil {
		return nil, fmt.Errorf("attention.ExplainSelfAttention: %w", err)
	}
	d := len(x[0])
	for _, w := range []struct {
		name string
		m    [][]float64
	}{{"W_Q", wq}, {"W_K", wk}, {"W_V", wv}} {
		if err := checkMatrix(w.name, w.m, d, -1); err != nil {
			return nil, fmt.Errorf("attention.ExplainSelfAttention: %w (a projection has one row per column of X: d_model = %d)", err, d)
		}
	}
	if len(wq[0]) != len(wk[0]) {
		return nil, fmt.Errorf("attention.ExplainSelfAttention: W_Q has %d columns and W_K %d: queries and keys must have the same d_k",
			len(wq[0]), len(wk[0]))
	}
	temperature := opts.Temperature
	if temperature == 0 {
		temperature = 1
	}
	if temperature < 0 {
		return nil, fmt.Errorf("attention.ExplainSelfAttention: Temperature must be > 0 (or 0 for the default 1), got %g", temperature)
	}
	inputs := []any{eager.Tensor(x), eager.Tensor(wq), eager.Tensor(wk), eager.Tensor(wv)}
	if opts.Mask != nil {
		rows := len(x)
		if len(opts.Mask) == 1 {
			rows = 1
		}
		if err := checkMatrix("Mask", opts.Mask, rows, len(x)); err != nil {
			return nil, fmt.Errorf("attention.ExplainSelfAttention: %w", err)
		}
		inputs = append(inputs, eager.Bools(opts.Mask))
	}
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		q, k, v := ProjectQKV(in[0], in[1], in[2], in[3])
		b := ScaledDotProduct(q, k, v).WithTemperature(temperature)
		if len(in) == 5 {
			b = b.WithMask(in[4])
		}
		if opts.NoScale {
			b = b.WithoutScale()
		}
		s := b.Steps()
		scaled, masked := s.Scaled, s.Masked
		if temperature != 1 { // what the softmax sees
			scaled, masked = graph.DivScalar(scaled, temperature), graph.DivScalar(masked, temperature)
		}
		return []*graph.Node{q, k, v, s.Scores, scaled, masked, s.Weights, s.Output}
	}, inputs...)
	if err != nil {
		return nil, err
	}
	m := make([][][]float64, len(outs))
	for i, o := range outs {
		m[i] = eager.Matrix(o)
	}
	return &SelfAttentionSteps{Q: m[0], K: m[1], V: m[2],
		Steps: Steps{Scores: m[3], Scaled: m[4], Masked: m[5], Weights: m[6], Output: m[7]}}, nil
}

// RandomProjections draws W_Q, W_K and W_V, in that order, each
// [d_in][d_out] with entries from a normal distribution of mean 0 and
// standard deviation std, exactly like numpy's
//
//	np.random.seed(seed)
//	W_q = np.random.normal(0, std, (d_in, d_out))   # then W_k, then W_v
//
// so that a lesson can reproduce the source's untrained projections. A
// common choice of std is 1/√d_in, which keeps the projected vectors at the
// scale of the input.
//
// Introduced in lesson 03.
func RandomProjections(dIn, dOut int, std float64, seed uint32) (wq, wk, wv [][]float64) {
	r := random.New(seed)
	draw := func() [][]float64 {
		m := r.Normal(dIn, dOut)
		for _, row := range m {
			for j := range row {
				row[j] *= std
			}
		}
		return m
	}
	wq = draw()
	wk = draw()
	wv = draw()
	return wq, wk, wv
}

// MultiHeadBatchResult is what [ExplainMultiHeadBatch] returns for a batch
// of sequences.
type MultiHeadBatchResult struct {
	Output  [][][]float64   // [batch][seq][d_model]
	Weights [][][][]float64 // [batch][heads][seq][seq]
	Shapes  []NamedShape    // the shape after every step, in order
	// ParamCount is the number of values in the parameter tensors the
	// graph used — W_Q, W_K, W_V, W_O and their biases — counted from
	// their shapes, to check against [MultiHeadParamCount].
	ParamCount int
}

// ExplainMultiHeadBatch runs [MultiHead] as self-attention on a whole batch
// x [batch][seq][d_model] with the weights w and returns the output, every
// head's weights for every sequence, the shape after every step — the
// projections, the split into heads, the weights, the concatenation, the
// output projection — and the number of parameters the layer holds.
// mask, when not nil, is [seq][seq] (for example [LookAhead]) with
// 1 = masked, shared by the batch and the heads.
//
// Typical shapes: x [batch, seq, d_model] → Q [batch, seq, d_model] →
// heads [batch, heads, seq, d_k] → weights [batch, heads, seq, seq] →
// concat [batch, seq, d_model] → output [batch, seq, d_model], with
// d_k = d_model / heads.
//
// Introduced in lesson 03.
func ExplainMultiHeadBatch(x [][][]float64, heads int, w *MultiHeadWeights, mask [][]float64) (*MultiHeadBatchResult, error) {
	if len(x) == 0 {
		return nil, fmt.Errorf("attention.ExplainMultiHeadBatch: the batch is empty")
	}
	if err := checkMatrix("x[0]", x[0], -1, -1); err != nil {
		return nil, fmt.Errorf("attention.ExplainMultiHeadBatch: %w", err)
	}
	batch, seq, dModel := len(x), len(x[0]), len(x[0][0])
	flat := make([]float32, 0, batch*seq*dModel)
	for b, s := range x {
		if err := checkMatrix(fmt.Sprintf("x[%d]", b), s, seq, dModel); err != nil {
			return nil, fmt.Errorf("attention.ExplainMultiHeadBatch: %w (every sequence of a batch has the same length and width: pad them first)", err)
		}
		for _, row := range s {
			for _, v := range row {
				flat = append(flat, float32(v))
			}
		}
	}
	if w == nil || w.DModel != dModel {
		return nil, fmt.Errorf("attention.ExplainMultiHeadBatch: the weights must be for d_model = %d (the width of x): use NewMultiHeadWeights(%d, seed)", dModel, dModel)
	}
	if heads < 1 || dModel%heads != 0 {
		return nil, fmt.Errorf("attention.ExplainMultiHeadBatch: d_model = %d must be divisible by the number of heads, got %d", dModel, heads)
	}
	inputs := []any{tensors.FromFlatDataAndDimensions(flat, batch, seq, dModel)}
	if mask != nil {
		if err := checkMatrix("mask", mask, seq, seq); err != nil {
			return nil, fmt.Errorf("attention.ExplainMultiHeadBatch: %w", err)
		}
		inputs = append(inputs, eager.Bools(mask))
	}
	var shapes []NamedShape
	params := 0
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		p := w.Params(in[0].Graph())
		for _, n := range []*graph.Node{p.WQ, p.WK, p.WV, p.WO, p.BQ, p.BK, p.BV, p.BO} {
			if n != nil {
				params += n.Shape().Size()
			}
		}
		b := MultiHead(in[0], in[0], in[0], heads, p)
		if len(in) == 2 {
			b = b.WithMask(in[1]) // [seq, seq], the same for every sequence and head
		}
		s := b.Steps()
		for _, n := range []struct {
			name string
			node *graph.Node
		}{{"input", in[0]}, {"Q", s.Q}, {"K", s.K}, {"V", s.V}, {"Q heads", s.QHeads}, {"K heads", s.KHeads},
			{"V heads", s.VHeads}, {"weights", s.Weights}, {"heads", s.Heads}, {"concat", s.Concat}, {"output", s.Output}} {
			shapes = append(shapes, NamedShape{n.name, n.node.Shape().Dimensions})
		}
		return []*graph.Node{s.Output, graph.ConvertDType(s.Weights, dtypes.Float32)}
	}, inputs...)
	if err != nil {
		return nil, err
	}
	// Shape: [batch, seq, d_model] → batch × [seq][d_model]; [batch, heads, seq, seq] → batch·heads × [seq][seq].
	res := &MultiHeadBatchResult{Output: eager.Matrices(outs[0]), Shapes: shapes, ParamCount: params}
	weights := eager.Matrices(outs[1])
	for b := range batch {
		res.Weights = append(res.Weights, weights[b*heads:(b+1)*heads])
	}
	return res, nil
}

// ToyEmbeddings stands in for a learned embedding table: it gives every
// distinct token (compared case-insensitively, so "The" and "the" are one
// word) a random vector of dModel standard normal numbers, drawn from seed
// in the order in which the tokens first appear, and returns one row per
// token. A token that occurs twice gets the same row twice — which is how
// a real embedding layer behaves, and why attention alone cannot tell the
// two occurrences apart.
//
// Typical shapes: tokens [seq] → [seq][d_model].
//
// Introduced in lesson 03.
func ToyEmbeddings(tokens []string, dModel int, seed uint32) [][]float64 {
	r := random.New(seed)
	table := map[string][]float64{}
	x := make([][]float64, len(tokens))
	for i, t := range tokens {
		key := strings.ToLower(t)
		if _, ok := table[key]; !ok {
			table[key] = r.Normal(1, dModel)[0]
		}
		x[i] = append([]float64(nil), table[key]...)
	}
	return x
}

// ShapeLines formats the shapes of a computation one step per line, as
// [ExplainMultiHead] and [ExplainMultiHeadBatch] record them:
//
//	input    [2 10 64]
//	Q heads  [2 8 10 8]
//
// Introduced in lesson 03.
func ShapeLines(shapes []NamedShape) string {
	var b strings.Builder
	for _, s := range shapes {
		b.WriteString(s.String())
		b.WriteByte('\n')
	}
	return b.String()
}
