package posenc

import (
	"fmt"
	"math"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/internal/eager"
)

// Lookup returns the rows of an embedding table for a tensor of ids: token
// embeddings when ids are token ids, learned positional embeddings when
// they are positions 0, 1, 2, …
//
//	out[..., :] = table[ids[...], :]
//
// An embedding lookup is a matrix product with one-hot vectors, done as a
// gather. Ids must be in [0, vocab); GoMLX clamps ids out of range instead
// of failing, so check them before (as [TokenAttention.Run] does).
//
// Typical shapes: table [vocab, d_model], ids [batch, seq] (integer) →
// [batch, seq, d_model].
//
// Introduced in lesson 04.
func Lookup(table, ids *graph.Node) *graph.Node {
	if table.Rank() != 2 {
		exceptions.Panicf("posenc.Lookup: the table must be [vocab, d_model], got shape %s", table.Shape())
	}
	if !ids.DType().IsInt() {
		exceptions.Panicf("posenc.Lookup: ids must be integers, got %s", ids.Shape())
	}
	indices := graph.InsertAxes(ids, -1) // Shape: [..., 1], one index into the table's first axis
	return graph.Gather(table, indices)  // Shape: [..., d_model]
}

// InputEmbedding returns the input of a Transformer's first layer:
//
//	x = emb · √d_model + PE[:seq]
//
// emb are the token embeddings (see [Lookup]). Vaswani et al. (2017), §3.4,
// multiply them by √d_model: their table is shared with the output layer
// and initialised small (standard deviation about 1/√d_model), and the
// factor brings its entries to about ±1, the scale of the encoding, so that
// neither drowns the other. pe is [max_len, d_model] with max_len ≥ seq — a
// sinusoidal encoding ([SinusoidalGraph]) or a learned table — and its
// first seq rows are added to every sequence of the batch (§3.5). A nil pe
// only scales, to see what attention does without positions.
//
// Typical shapes: emb [batch, seq, d_model], pe [max_len, d_model] →
// [batch, seq, d_model].
//
// Introduced in lesson 04.
func InputEmbedding(emb, pe *graph.Node) *graph.Node {
	if emb.Rank() < 2 {
		exceptions.Panicf("posenc.InputEmbedding: emb must be [..., seq, d_model], got shape %s", emb.Shape())
	}
	seq, dModel := emb.Shape().Dim(-2), emb.Shape().Dim(-1)
	x := graph.MulScalar(emb, math.Sqrt(float64(dModel))) // Shape: [..., seq, d_model]
	if pe == nil {
		return x
	}
	if pe.Rank() != 2 || pe.Shape().Dim(1) != dModel {
		exceptions.Panicf("posenc.InputEmbedding: pe must be [max_len, d_model = %d], got shape %s", dModel, pe.Shape())
	}
	if pe.Shape().Dim(0) < seq {
		exceptions.Panicf("posenc.InputEmbedding: a sequence of %d tokens needs %d positions, pe has only %d rows: "+
			"use a longer encoding (a learned table cannot extrapolate)", seq, seq, pe.Shape().Dim(0))
	}
	pe = graph.Slice(pe, graph.AxisRange(0, seq)) // Shape: [seq, d_model]
	pe = graph.ConvertDType(pe, x.DType())
	for pe.Rank() < x.Rank() {
		pe = graph.InsertAxes(pe, 0) // Shape: [1, …, seq, d_model]
	}
	pe = graph.BroadcastToDims(pe, x.Shape().Dimensions...) // Shape: [..., seq, d_model], the same for every sequence
	return graph.Add(x, pe)
}

// RunInputEmbedding runs [InputEmbedding] once on one sequence: emb·√d_model
// + pe[:seq], in float32. pe nil only scales.
//
// Typical shapes: emb [seq][d_model], pe [max_len][d_model] → [seq][d_model].
//
// Introduced in lesson 04.
func RunInputEmbedding(emb, pe [][]float64) ([][]float64, error) {
	if err := checkMatrix("emb", emb, -1); err != nil {
		return nil, err
	}
	inputs := []any{eager.Tensor(emb)}
	if pe != nil {
		if err := checkMatrix("pe", pe, len(emb[0])); err != nil {
			return nil, fmt.Errorf("%w (pe must have d_model = %d columns, like emb)", err, len(emb[0]))
		}
		if len(pe) < len(emb) {
			return nil, fmt.Errorf("posenc.RunInputEmbedding: %d tokens need %d positions, pe has %d rows", len(emb), len(emb), len(pe))
		}
		inputs = append(inputs, eager.Tensor(pe))
	}
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		var pe *graph.Node
		if len(in) == 2 {
			pe = in[1]
		}
		return []*graph.Node{InputEmbedding(in[0], pe)}
	}, inputs...)
	if err != nil {
		return nil, err
	}
	return eager.Matrix(outs[0]), nil
}

// Embed returns the rows of table for ids, in plain Go: the eager twin of
// [Lookup] for one sequence.
//
// Typical shapes: table [vocab][d_model], ids [seq] → [seq][d_model].
//
// Introduced in lesson 04.
func Embed(table [][]float64, ids []int) ([][]float64, error) {
	out := make([][]float64, len(ids))
	for i, id := range ids {
		if id < 0 || id >= len(table) {
			return nil, fmt.Errorf("posenc.Embed: id %d at position %d has no row in a table of %d rows: build the table for the whole vocabulary", id, i, len(table))
		}
		out[i] = append([]float64(nil), table[id]...)
	}
	return out, nil
}
