package rnn

import (
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// GRUParams holds the parameters of a GRU cell as graph nodes, the three
// gates fused column-wise in the order [r | z | n] (reset, update,
// candidate):
//
//	Wx [in, 3·hidden]   input weights      Bx [3·hidden]  input bias
//	Wh [hidden, 3·hidden] recurrent weights Bh [3·hidden] recurrent bias
//
// Two biases, as in PyTorch and cuDNN: they differ only in the candidate,
// where the recurrent bias sits inside the reset gate's product.
//
// Typical shapes: in = 16 (an embedding), hidden = 64.
//
// Introduced in lesson 06.
type GRUParams struct {
	Wx, Wh, Bx, Bh *graph.Node
}

// Hidden returns the state size of the cell, Wh's first dimension.
func (p GRUParams) Hidden() int { return p.Wh.Shape().Dim(0) }

// GRUCell is one step of the gated recurrent unit of Cho et al., "Learning
// Phrase Representations using RNN Encoder–Decoder for Statistical Machine
// Translation" (EMNLP 2014), in the form PyTorch uses:
//
//	r  = σ(x·W_xr + b_xr + h·W_hr + b_hr)          reset gate
//	z  = σ(x·W_xz + b_xz + h·W_hz + b_hz)          update gate
//	n  = tanh(x·W_xn + b_xn + r ⊙ (h·W_hn + b_hn))  candidate state
//	h' = (1 − z) ⊙ n + z ⊙ h
//
// z near 1 keeps the old state (the path gradients flow along); r near 0
// lets the candidate ignore it. xw is x·W_x + b_x, precomputed: [GRULayer]
// projects every position at once; [GRUStep] takes x.
//
// Typical shapes: xw [batch, 3·hidden], h [batch, hidden] → h' [batch,
// hidden].
//
// Introduced in lesson 06.
func GRUCell(xw, h *graph.Node, p GRUParams) *graph.Node {
	hidden := p.Hidden()
	hw := addBias(graph.MatMul(h, p.Wh), p.Bh) // Shape: [batch, hidden] x [hidden, 3·hidden] → [batch, 3·hidden]
	xr, xz, xn := gates3(xw, hidden)
	hr, hz, hn := gates3(hw, hidden)
	r := graph.Sigmoid(graph.Add(xr, hr))
	z := graph.Sigmoid(graph.Add(xz, hz))
	n := graph.Tanh(graph.Add(xn, graph.Mul(r, hn)))
	return graph.Add(graph.Mul(graph.OneMinus(z), n), graph.Mul(z, h))
}

// GRUStep is [GRUCell] on a raw input x: it computes x·W_x + b_x first.
//
// Typical shapes: x [batch, in], h [batch, hidden] → h' [batch, hidden].
//
// Introduced in lesson 06.
func GRUStep(x, h *graph.Node, p GRUParams) *graph.Node {
	checkGRU("GRUStep", x.Shape().Dim(-1), p)
	xw := addBias(graph.MatMul(x, p.Wx), p.Bx) // Shape: [batch, in] x [in, 3·hidden] → [batch, 3·hidden]
	return GRUCell(xw, h, p)
}

// GRULayer runs a GRU over a sequence, unrolled in the graph:
//
//	h_0 = h0 (zeros when nil),  h_t = GRU(x_t, h_{t-1}),  outputs = [h_1 … h_T]
//
// mask is nil or Bool [batch, seq] with true on real tokens and false on
// padding; on padding the state is carried unchanged (h_t = h_{t-1}), so
// last is the state after each sequence's last real token, and the output
// at a padded position repeats it. The input projection of all positions
// is one matrix product; the loop does only h·W_h.
//
// Typical shapes: x [batch, seq, in], h0 [batch, hidden], mask [batch,
// seq] → outputs [batch, seq, hidden], last [batch, hidden].
//
// Introduced in lesson 06.
func GRULayer(x, h0, mask *graph.Node, p GRUParams) (outputs, last *graph.Node) {
	batch, seq := checkSeq("GRULayer", x, mask)
	checkGRU("GRULayer", x.Shape().Dim(-1), p)
	hidden := p.Hidden()
	xw := addBias(graph.Einsum("bti,ig->btg", x, p.Wx), p.Bx) // Shape: [batch, seq, in] x [in, 3·hidden] → [batch, seq, 3·hidden]
	h := h0
	if h == nil {
		h = graph.Zeros(x.Graph(), shapes.Make(x.DType(), batch, hidden))
	}
	outs := make([]*graph.Node, seq)
	for t := range seq {
		xt := graph.Squeeze(graph.Slice(xw, graph.AxisRange(), graph.AxisElem(t)), 1) // Shape: [batch, 1, 3·hidden] → [batch, 3·hidden]
		next := GRUCell(xt, h, p)
		h = keep(mask, t, next, h)
		outs[t] = h
	}
	return graph.Stack(outs, 1), h // Shape: seq × [batch, hidden] → [batch, seq, hidden]
}

// addBias adds the vector b to the last axis of x.
func addBias(x, b *graph.Node) *graph.Node {
	return graph.Add(x, graph.ExpandLeftToRank(b, x.Rank())) // Shape: [n] → [1, …, n], broadcast over x
}

// gates3 splits [batch, 3·hidden] into its three gates.
func gates3(x *graph.Node, hidden int) (a, b, c *graph.Node) {
	return graph.Slice(x, graph.AxisRange(), graph.AxisRange(0, hidden)),
		graph.Slice(x, graph.AxisRange(), graph.AxisRange(hidden, 2*hidden)),
		graph.Slice(x, graph.AxisRange(), graph.AxisRange(2*hidden, 3*hidden))
}

// keep returns next where mask[:, t] is true and prev elsewhere.
func keep(mask *graph.Node, t int, next, prev *graph.Node) *graph.Node {
	if mask == nil {
		return next
	}
	m := graph.Slice(mask, graph.AxisRange(), graph.AxisElem(t)) // Shape: [batch, seq] → [batch, 1]
	m = graph.BroadcastToDims(m, next.Shape().Dimensions...)     // Shape: [batch, 1] → [batch, hidden]
	return graph.Where(m, next, prev)
}

func checkSeq(fn string, x, mask *graph.Node) (batch, seq int) {
	if x.Rank() != 3 {
		exceptions.Panicf("rnn.%s: x must be [batch, seq, in], got %s", fn, x.Shape())
	}
	batch, seq = x.Shape().Dim(0), x.Shape().Dim(1)
	if mask != nil && (mask.Rank() != 2 || mask.Shape().Dim(0) != batch || mask.Shape().Dim(1) != seq || mask.DType().String() != "Bool") {
		exceptions.Panicf("rnn.%s: mask must be Bool [batch, seq] = [%d, %d] (true on real tokens), got %s", fn, batch, seq, mask.Shape())
	}
	return batch, seq
}

func checkGRU(fn string, in int, p GRUParams) {
	if p.Wx == nil || p.Wh == nil || p.Bx == nil || p.Bh == nil {
		exceptions.Panicf("rnn.%s: GRUParams needs Wx, Wh, Bx and Bh", fn)
	}
	h := p.Wh.Shape().Dim(0)
	if p.Wx.Rank() != 2 || p.Wx.Shape().Dim(0) != in || p.Wx.Shape().Dim(1) != 3*h ||
		p.Wh.Rank() != 2 || p.Wh.Shape().Dim(1) != 3*h || p.Bx.Rank() != 1 || p.Bx.Shape().Dim(0) != 3*h ||
		p.Bh.Rank() != 1 || p.Bh.Shape().Dim(0) != 3*h {
		exceptions.Panicf("rnn.%s: for input size %d want Wx [%d, 3·hidden], Wh [hidden, 3·hidden], Bx and Bh [3·hidden]; got Wx %s, Wh %s, Bx %s, Bh %s",
			fn, in, in, p.Wx.Shape(), p.Wh.Shape(), p.Bx.Shape(), p.Bh.Shape())
	}
}
