package posenc

import (
	"fmt"
	"math"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/internal/eager"
)

// Rotary returns the rotary position embedding (RoPE) of Su et al.,
// "RoFormer: Enhanced Transformer with Rotary Position Embedding" (2021),
// eq. 34, in float64: row r of x, a query or key vector at position
// positions[r], has each pair of its columns (2i, 2i+1) rotated by the
// angle p·θ_i,
//
//	θ_i        = n^(-2i/d)                                   d = len(x[r]), n = base
//	out[2i]    = x[2i]·cos(p·θ_i) − x[2i+1]·sin(p·θ_i)
//	out[2i+1]  = x[2i]·sin(p·θ_i) + x[2i+1]·cos(p·θ_i)
//
// the frequencies of the sinusoidal encoding ([Sinusoidal]), used to turn
// the vector instead of being added to it. Queries and keys are both
// rotated, each by its own position, so that
//
//	⟨R(p)·q, R(p′)·k⟩ = ⟨q, R(p′ − p)·k⟩
//
// (a rotation's transpose is the opposite rotation): the score of a query
// and a key depends on their positions only through p′ − p, the relative
// position, while no vector is ever added to the token's embedding.
// Rotations keep lengths, so each pair keeps its norm.
//
// The pairs are interleaved, (x₀, x₁), (x₂, x₃), …, as the paper writes
// them. GPT-NeoX's and LLaMA's code ("rotate_half") pairs column i with
// column i + d/2 instead: an equivalent permutation of the columns (learned
// projections absorb it), but not the same numbers for a given x.
//
// d must be even; positions may be any integers (negative too) and need
// not be sorted. The paper and most models use n = 10000 ([DefaultBase]).
//
// Typical shapes: x [seq][d_k], positions [seq] → [seq][d_k].
//
// It panics if x is ragged, has an odd width, or has a row count different
// from len(positions), or if base ≤ 0.
//
// Introduced in lesson 10.
func Rotary(x [][]float64, positions []int, base float64) [][]float64 {
	if len(x) != len(positions) {
		panic(fmt.Sprintf("posenc.Rotary: %d rows for %d positions: give one position per row", len(x), len(positions)))
	}
	if len(x) == 0 {
		return [][]float64{}
	}
	d := len(x[0])
	checkRotary("Rotary", d, base)
	out := make([][]float64, len(x))
	for r, row := range x {
		if len(row) != d {
			panic(fmt.Sprintf("posenc.Rotary: row %d has %d columns, row 0 has %d", r, len(row), d))
		}
		out[r] = make([]float64, d)
		for i := 0; i < d/2; i++ {
			angle := float64(positions[r]) * frequency(i, d, base) // p·θ_i, θ_i = n^(-2i/d)
			c, s := math.Cos(angle), math.Sin(angle)
			a, b := row[2*i], row[2*i+1]
			out[r][2*i] = a*c - b*s
			out[r][2*i+1] = a*s + b*c
		}
	}
	return out
}

// checkRotary panics with an explanation on a width or base no rotation has.
func checkRotary(fn string, d int, base float64) {
	if d < 2 || d%2 != 0 {
		panic(fmt.Sprintf("posenc.%s: the vectors must have an even width ≥ 2, rotated in pairs of columns (2i, 2i+1), got %d", fn, d))
	}
	if !(base > 0) || math.IsInf(base, 0) {
		panic(fmt.Sprintf("posenc.%s: the base n must be a positive number (10000 in the paper), got %g", fn, base))
	}
}

// RotaryOf is the graph version of [Rotary]: it rotates the last axis of
// x, in pairs of columns (2i, 2i+1), by the angles p·θ_i of the positions
// of its rows, θ_i = n^(-2i/d) (Su et al., 2021, eq. 34). In a model it
// runs on the queries and keys of every head after the projection and the
// split into heads, so d is d_k, the width of one head (see
// [attention.MultiHeadBuilder.WithRotation]).
//
// positions are integers or floats. Their shape must be the axes of x
// before the last one, or a tail of them: [seq] for x [..., seq, d] (the
// same positions for every batch row and head) or [batch, seq] for x
// [batch, seq, d]. The angles are computed in float64 and their cosines and
// sines converted to x's dtype, so that a float32 model loses no precision
// at large positions.
//
// Typical shapes: x [batch, heads, seq, d_k], positions [seq] (int32) →
// [batch, heads, seq, d_k].
//
// Part of the library behind lesson 10; the lesson does not name it.
func RotaryOf(x, positions *graph.Node, base float64) *graph.Node {
	if x.Rank() < 1 || !x.DType().IsFloat() {
		exceptions.Panicf("posenc.RotaryOf: x must be a float tensor [..., seq, d], got %s", x.Shape())
	}
	d := x.Shape().Dim(-1)
	if d < 2 || d%2 != 0 {
		exceptions.Panicf("posenc.RotaryOf: the last axis of x must have an even width ≥ 2, rotated in pairs of columns (2i, 2i+1), got shape %s", x.Shape())
	}
	if !(base > 0) || math.IsInf(base, 0) {
		exceptions.Panicf("posenc.RotaryOf: the base n must be a positive number (10000 in the paper), got %g", base)
	}
	lead := x.Shape().Dimensions[:x.Rank()-1] // the axes of x before d: [..., seq]
	posDims := positions.Shape().Dimensions
	if positions.Rank() < 1 || positions.Rank() > len(lead) || !slices.Equal(posDims, lead[len(lead)-len(posDims):]) {
		exceptions.Panicf("posenc.RotaryOf: positions %s must give one position per row of x %s: shape [seq], or any tail of %v",
			positions.Shape(), x.Shape(), lead)
	}
	g := x.Graph()
	thetas := make([]float64, d/2)
	for i := range thetas {
		thetas[i] = frequency(i, d, base) // θ_i = n^(-2i/d)
	}
	ones := make([]int, positions.Rank())
	for i := range ones {
		ones[i] = 1
	}
	theta := graph.Reshape(graph.Const(g, thetas), append(ones, d/2)...) // Shape: [1, …, 1, d/2], float64

	pos := graph.ConvertDType(positions, dtypes.Float64)    // Shape: [..., seq]
	angles := graph.Mul(graph.InsertAxes(pos, -1), theta)   // Shape: [..., seq, 1] x [1, …, d/2] → [..., seq, d/2], p·θ_i
	cos := graph.ConvertDType(graph.Cos(angles), x.DType()) // Shape: [..., seq, d/2]
	sin := graph.ConvertDType(graph.Sin(angles), x.DType()) // Shape: [..., seq, d/2]
	for cos.Rank() < x.Rank() {
		cos, sin = graph.InsertAxes(cos, 0), graph.InsertAxes(sin, 0) // Shape: [1, …, seq, d/2]
	}
	half := append(append([]int(nil), lead...), d/2)
	cos, sin = graph.BroadcastToDims(cos, half...), graph.BroadcastToDims(sin, half...) // Shape: [..., seq, d/2]

	pairs := graph.Reshape(x, append(append([]int(nil), lead...), d/2, 2)...) // Shape: [..., seq, d/2, 2], pair i = (x[2i], x[2i+1])
	even := graph.Squeeze(graph.SliceAxis(pairs, -1, graph.AxisElem(0)), -1)  // Shape: [..., seq, d/2], x[2i]
	odd := graph.Squeeze(graph.SliceAxis(pairs, -1, graph.AxisElem(1)), -1)   // Shape: [..., seq, d/2], x[2i+1]
	rotEven := graph.Sub(graph.Mul(even, cos), graph.Mul(odd, sin))           // x[2i]·cos − x[2i+1]·sin
	rotOdd := graph.Add(graph.Mul(even, sin), graph.Mul(odd, cos))            // x[2i]·sin + x[2i+1]·cos
	rotated := graph.Stack([]*graph.Node{rotEven, rotOdd}, -1)                // Shape: [..., seq, d/2, 2]
	return graph.Reshape(rotated, x.Shape().Dimensions...)                    // Shape: [..., seq, d]
}

// RunRotary runs [RotaryOf] once on the course backend in float32, as a
// model computes it: the graph twin of [Rotary], to compare with it.
//
// Typical shapes: x [seq][d_k], positions [seq] → [seq][d_k].
//
// Part of the library behind lesson 10; the lesson does not name it.
func RunRotary(x [][]float64, positions []int, base float64) ([][]float64, error) {
	if err := checkMatrix("x", x, -1); err != nil {
		return nil, err
	}
	if len(x) != len(positions) {
		return nil, fmt.Errorf("posenc.RunRotary: %d rows for %d positions: give one position per row", len(x), len(positions))
	}
	if d := len(x[0]); d%2 != 0 || !(base > 0) {
		return nil, fmt.Errorf("posenc.RunRotary: need an even width and base > 0, got %d and %g", d, base)
	}
	pos := make([]int32, len(positions))
	for i, p := range positions {
		pos[i] = int32(p)
	}
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		return []*graph.Node{RotaryOf(in[0], in[1], base)}
	}, eager.Tensor(x), pos)
	if err != nil {
		return nil, err
	}
	return eager.Matrix(outs[0]), nil
}
