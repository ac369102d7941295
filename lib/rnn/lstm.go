package rnn

import (
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// LSTMParams holds the parameters of an LSTM cell as graph nodes, the four
// gates fused column-wise in the order [i | f | g | o] (input, forget,
// cell candidate, output):
//
//	Wx [in, 4·hidden]  Wh [hidden, 4·hidden]  B [4·hidden]
//
// Typical shapes: in = 32, hidden = 64.
//
// Introduced in lesson 06.
type LSTMParams struct {
	Wx, Wh, B *graph.Node
}

// Hidden returns the state size of the cell, Wh's first dimension.
func (p LSTMParams) Hidden() int { return p.Wh.Shape().Dim(0) }

// LSTMCell is one step of the long short-term memory of Hochreiter &
// Schmidhuber, "Long Short-Term Memory" (Neural Computation, 1997), with the
// forget gate of Gers et al. (2000):
//
//	[i f g o] = x·W_x + h·W_h + b
//	c' = σ(f) ⊙ c + σ(i) ⊙ tanh(g)
//	h' = σ(o) ⊙ tanh(c')
//
// The cell state c is updated by addition only, which lets information and
// gradients cross many steps. xw is x·W_x, precomputed ([LSTMLayer] projects
// every position at once).
//
// Typical shapes: xw [batch, 4·hidden], h and c [batch, hidden] → h', c'
// [batch, hidden].
//
// Introduced in lesson 06.
func LSTMCell(xw, h, c *graph.Node, p LSTMParams) (hNext, cNext *graph.Node) {
	hidden := p.Hidden()
	z := addBias(graph.Add(xw, graph.MatMul(h, p.Wh)), p.B) // Shape: [batch, hidden] x [hidden, 4·hidden] → [batch, 4·hidden]
	part := func(k int) *graph.Node {
		return graph.Slice(z, graph.AxisRange(), graph.AxisRange(k*hidden, (k+1)*hidden))
	}
	i, f, g, o := graph.Sigmoid(part(0)), graph.Sigmoid(part(1)), graph.Tanh(part(2)), graph.Sigmoid(part(3))
	cNext = graph.Add(graph.Mul(f, c), graph.Mul(i, g))
	hNext = graph.Mul(o, graph.Tanh(cNext))
	return hNext, cNext
}

// LSTMLayer runs an LSTM over a sequence, unrolled in the graph, from zero
// states:
//
//	h_0 = c_0 = 0,  (h_t, c_t) = LSTM(x_t, h_{t-1}, c_{t-1}),  outputs = [h_1 … h_T]
//
// mask is nil or Bool [batch, seq], true on real tokens: on padding both
// states are carried unchanged, so last is the hidden state after each
// sequence's last real token.
//
// Typical shapes: x [batch, seq, in], mask [batch, seq] → outputs [batch,
// seq, hidden], last [batch, hidden].
//
// Introduced in lesson 06.
func LSTMLayer(x, mask *graph.Node, p LSTMParams) (outputs, last *graph.Node) {
	batch, seq := checkSeq("LSTMLayer", x, mask)
	if p.Wx == nil || p.Wh == nil || p.B == nil {
		exceptions.Panicf("rnn.LSTMLayer: LSTMParams needs Wx, Wh and B")
	}
	hidden := p.Hidden()
	in := x.Shape().Dim(-1)
	if p.Wx.Rank() != 2 || p.Wx.Shape().Dim(0) != in || p.Wx.Shape().Dim(1) != 4*hidden ||
		p.Wh.Shape().Dim(1) != 4*hidden || p.B.Rank() != 1 || p.B.Shape().Dim(0) != 4*hidden {
		exceptions.Panicf("rnn.LSTMLayer: for input size %d want Wx [%d, 4·hidden], Wh [hidden, 4·hidden], B [4·hidden]; got %s, %s, %s",
			in, in, p.Wx.Shape(), p.Wh.Shape(), p.B.Shape())
	}
	xw := graph.Einsum("bti,ig->btg", x, p.Wx) // Shape: [batch, seq, in] x [in, 4·hidden] → [batch, seq, 4·hidden]
	h := graph.Zeros(x.Graph(), shapes.Make(x.DType(), batch, hidden))
	c := h
	outs := make([]*graph.Node, seq)
	for t := range seq {
		xt := graph.Squeeze(graph.Slice(xw, graph.AxisRange(), graph.AxisElem(t)), 1) // Shape: [batch, 1, 4·hidden] → [batch, 4·hidden]
		hn, cn := LSTMCell(xt, h, c, p)
		h, c = keep(mask, t, hn, h), keep(mask, t, cn, c)
		outs[t] = h
	}
	return graph.Stack(outs, 1), h // Shape: seq × [batch, hidden] → [batch, seq, hidden]
}
