package exercise

// The tasks of lesson 07's exercises: the Bahdanau-order attention of a
// decoding, and the attention mass an output span puts on a source span.

// DecodingIn is an input of the Bahdanau-order attention exercise: the
// decoder states Dec [steps+1][hidden] (s_0 … s_T), the encoder states
// Enc [src][hidden], Keep [src] (true on real source tokens) and the
// additive score's W1 [hidden][attn], W2 [hidden][attn], V [attn].
type DecodingIn struct {
	Dec, Enc [][]float64
	Keep     []bool
	W1, W2   [][]float64
	V        []float64
}

// BahdanauAttention: func BahdanauAttention(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64) (contexts, weights [][]float64).
var BahdanauAttention = &Task[func(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64) ([][]float64, [][]float64), DecodingIn, Pair[[][]float64, [][]float64]]{
	ID: "bahdanau-attention",
	Call: func(f func(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64) ([][]float64, [][]float64), in DecodingIn) Pair[[][]float64, [][]float64] {
		c, w := f(in.Dec, in.Enc, in.Keep, in.W1, in.W2, in.V)
		return Pair[[][]float64, [][]float64]{A: c, B: w}
	},
}

// SpanIn is an input of the span-mass exercise: attention weights
// [output][source] and an output span and a source span, each
// [From, To).
type SpanIn struct {
	Weights        [][]float64
	OutFrom, OutTo int
	SrcFrom, SrcTo int
}

// SpanMass: func SpanMass(weights [][]float64, outFrom, outTo, srcFrom, srcTo int) float64.
var SpanMass = &Task[func(weights [][]float64, outFrom, outTo, srcFrom, srcTo int) float64, SpanIn, float64]{
	ID: "span-mass",
	Call: func(f func(weights [][]float64, outFrom, outTo, srcFrom, srcTo int) float64, in SpanIn) float64 {
		return f(in.Weights, in.OutFrom, in.OutTo, in.SrcFrom, in.SrcTo)
	},
}
