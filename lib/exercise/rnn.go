package exercise

// The tasks of lesson 06's exercises: one GRU step, and a GRU over a
// padded sequence, on plain Go slices.

// GRUIn is an input of the GRU exercises: one input X [in] and state H
// [hidden] (gru-step) or a sequence Xs [seq][in] with Keep [seq], true on
// real tokens (gru-encode), and the fused weights in lib/rnn's layout,
// columns [r | z | n]: Wx [in][3·hidden], Wh [hidden][3·hidden], Bx and
// Bh [3·hidden].
type GRUIn struct {
	X, H   []float64
	Xs     [][]float64
	Keep   []bool
	Wx, Wh [][]float64
	Bx, Bh []float64
}

// GRUStep: func GRUStep(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64.
var GRUStep = &Task[func(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64, GRUIn, []float64]{
	ID: "gru-step",
	Call: func(f func(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64, in GRUIn) []float64 {
		return f(in.X, in.H, in.Wx, in.Wh, in.Bx, in.Bh)
	},
}

// GRUEncode: func GRUEncode(xs [][]float64, keep []bool, wx, wh [][]float64, bx, bh []float64) (states [][]float64, last []float64).
var GRUEncode = &Task[func(xs [][]float64, keep []bool, wx, wh [][]float64, bx, bh []float64) ([][]float64, []float64), GRUIn, Pair[[][]float64, []float64]]{
	ID: "gru-encode",
	Call: func(f func(xs [][]float64, keep []bool, wx, wh [][]float64, bx, bh []float64) ([][]float64, []float64), in GRUIn) Pair[[][]float64, []float64] {
		s, l := f(in.Xs, in.Keep, in.Wx, in.Wh, in.Bx, in.Bh)
		return Pair[[][]float64, []float64]{A: s, B: l}
	},
}
