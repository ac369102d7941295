package posenc

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// TokenAttention is one self-attention head that reads token ids, the
// smallest model where positional encodings matter:
//
//	x       = E[ids] · √d_model + PE          (E: token embeddings, §3.4–3.5)
//	Q, K, V = x·W_Q, x·W_K, x·W_V
//	weights = softmax(Q·Kᵀ / √d_model)        (optionally with a look-ahead mask)
//	output  = weights · V
//
// Its parameters are random (seeded), not trained: lesson 04 uses it to see
// how the encoding and the mask change the attention pattern, not to learn
// anything. Vaswani et al., "Attention Is All You Need" (2017).
//
// Typical shapes: ids [seq] → weights [seq][seq], output [seq][d_model].
//
// Introduced in lesson 04.
type TokenAttention struct {
	DModel int
	// Base is the base n of the sinusoidal encoding ([DefaultBase]).
	Base float64
	// Embeddings is the token embedding table E, [vocab][d_model], one row
	// per token id.
	Embeddings [][]float64
	// WQ, WK and WV are the query, key and value projections,
	// [d_model][d_model]; they multiply on the right, x·W.
	WQ, WK, WV [][]float64
}

// NewTokenAttention draws the parameters of a [TokenAttention] for a
// vocabulary of vocabSize tokens from seed: embeddings from N(0, 1/d_model),
// as for a table shared with the output layer (so that E·√d_model has
// entries of about ±1, like the encoding), and projections from Glorot
// uniform, U(−a, a) with a = √(6 / 2d_model). It panics if vocabSize < 1
// or dModel < 1.
//
// Introduced in lesson 04.
func NewTokenAttention(vocabSize, dModel int, seed uint32) *TokenAttention {
	if vocabSize < 1 || dModel < 1 {
		panic(fmt.Sprintf("posenc.NewTokenAttention: vocabulary size and d_model must be ≥ 1, got %d and %d", vocabSize, dModel))
	}
	r := random.New(seed)
	emb := r.Normal(vocabSize, dModel)
	for _, row := range emb {
		for j := range row {
			row[j] /= math.Sqrt(float64(dModel))
		}
	}
	glorot := func() [][]float64 { return r.Glorot(dModel, dModel) }
	return &TokenAttention{DModel: dModel, Base: DefaultBase, Embeddings: emb, WQ: glorot(), WK: glorot(), WV: glorot()}
}

// TokenOptions configures [TokenAttention.Run]; nil is the zero value:
// sinusoidal positions, no mask.
type TokenOptions struct {
	// LookAhead masks every later token, as a decoder does.
	LookAhead bool
	// NoPositions leaves the positional encoding out: x = E[ids]·√d_model.
	NoPositions bool
}

// TokenSteps holds every intermediate value of one [TokenAttention.Run].
type TokenSteps struct {
	Embedded  [][]float64 // E[ids]·√d_model            [seq][d_model]
	Positions [][]float64 // PE (zeros with NoPositions) [seq][d_model]
	Input     [][]float64 // Embedded + Positions        [seq][d_model]
	Weights   [][]float64 // attention weights           [seq][seq]
	Output    [][]float64 // Weights·V                   [seq][d_model]
	// Shapes lists the shape after every step of the graph, batch axis
	// included.
	Shapes []attention.NamedShape
}

// Run runs the head on one sequence of token ids (from a text.Vocab, say)
// and returns every step. It computes in float32 on the course backend.
func (m *TokenAttention) Run(ids []int, opts *TokenOptions) (*TokenSteps, error) {
	if opts == nil {
		opts = &TokenOptions{}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("posenc.TokenAttention.Run: no token ids")
	}
	if err := checkMatrix("Embeddings", m.Embeddings, m.DModel); err != nil {
		return nil, err
	}
	for _, w := range []struct {
		name string
		m    [][]float64
	}{{"WQ", m.WQ}, {"WK", m.WK}, {"WV", m.WV}} {
		if err := checkMatrix(w.name, w.m, m.DModel); err != nil {
			return nil, err
		}
		if len(w.m) != m.DModel {
			return nil, fmt.Errorf("posenc.TokenAttention.Run: %s has %d rows, want d_model = %d", w.name, len(w.m), m.DModel)
		}
	}
	flat := make([]int32, len(ids))
	for i, id := range ids {
		if id < 0 || id >= len(m.Embeddings) {
			return nil, fmt.Errorf("posenc.TokenAttention.Run: id %d at position %d has no embedding (the table has %d rows): encode with the vocabulary the model was built for",
				id, i, len(m.Embeddings))
		}
		flat[i] = int32(id)
	}
	seq, d := len(ids), m.DModel
	idsT := tensors.FromFlatDataAndDimensions(flat, 1, seq)
	var shapes []attention.NamedShape
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		g := in[0].Graph()
		table, wq, wk, wv := in[1], in[2], in[3], in[4]
		emb := Lookup(table, in[0])                              // Shape: [1, seq, d_model]
		pe := SinusoidalGraph(g, dtypes.Float32, seq, d, m.Base) // Shape: [seq, d_model]
		if opts.NoPositions {
			pe = graph.ZerosLike(pe)
		}
		embedded := InputEmbedding(emb, nil) // Shape: [1, seq, d_model], E·√d
		x := InputEmbedding(emb, pe)         // Shape: [1, seq, d_model], E·√d + PE
		project := func(w *graph.Node) *graph.Node {
			return graph.Einsum("bsi,io->bso", x, w) // Shape: [1, seq, d_model] x [d_model, d_model] → [1, seq, d_model]
		}
		q, k, v := project(wq), project(wk), project(wv)
		sdp := attention.ScaledDotProduct(q, k, v)
		if opts.LookAhead {
			sdp = sdp.WithMask(attention.LookAheadMask(g, seq))
		}
		out, w := sdp.Done() // Shape: [1, seq, d_model], [1, seq, seq]
		for _, n := range []struct {
			name string
			node *graph.Node
		}{{"ids", in[0]}, {"E[ids]", emb}, {"PE", pe}, {"input", x}, {"Q", q}, {"weights", w}, {"output", out}} {
			shapes = append(shapes, attention.NamedShape{Name: n.name, Dimensions: n.node.Shape().Dimensions})
		}
		return []*graph.Node{embedded, pe, x, w, out}
	}, idsT, eager.Tensor(m.Embeddings), eager.Tensor(m.WQ), eager.Tensor(m.WK), eager.Tensor(m.WV))
	if err != nil {
		return nil, err
	}
	return &TokenSteps{
		Embedded: eager.Matrix(outs[0]), Positions: eager.Matrix(outs[1]), Input: eager.Matrix(outs[2]),
		Weights: eager.Matrix(outs[3]), Output: eager.Matrix(outs[4]), Shapes: shapes,
	}, nil
}
