package posenc

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/internal/eager"
)

// DefaultBase is the base n of the sinusoids in Vaswani et al. (2017):
// wavelengths grow geometrically from 2π to about 10000·2π.
//
// Introduced in lesson 04.
const DefaultBase = 10000

// Sinusoidal returns the sinusoidal positional encoding of Vaswani et al.,
// "Attention Is All You Need" (2017), §3.5, for positions 0..seqLen-1 in
// dModel dimensions, computed in float64:
//
//	PE(pos, 2i)   = sin(pos / n^(2i/d))
//	PE(pos, 2i+1) = cos(pos / n^(2i/d))        d = dModel, n = base
//
// Column pair (2i, 2i+1) is a sine and a cosine of the same frequency
// ω_i = n^(-2i/d), from 1 radian per position (i = 0) down to nearly 1/n.
// When dModel is odd the last column, 2i = dModel-1, is a sine with no
// cosine partner. The paper uses n = 10000 ([DefaultBase]); any base > 0
// works (lesson 04 also uses n = 100).
//
// Typical shapes: → [seq][d_model], e.g. [50][512].
//
// It panics if seqLen < 0, dModel < 1 or base ≤ 0, like make does for a
// negative length.
//
// Introduced in lesson 04.
func Sinusoidal(seqLen, dModel int, base float64) [][]float64 {
	checkSizes("Sinusoidal", seqLen, dModel, base)
	pe := make([][]float64, seqLen)
	for pos := range pe {
		pe[pos] = sinusoidalRow(pos, dModel, base)
	}
	return pe
}

// sinusoidalRow returns PE(pos, ·), the encoding of one position.
func sinusoidalRow(pos, dModel int, base float64) []float64 {
	row := make([]float64, dModel)
	for j := range row {
		angle := float64(pos) * frequency(j/2, dModel, base) // ω_i = n^(-2i/d), i = j/2
		if j%2 == 0 {
			row[j] = math.Sin(angle)
		} else {
			row[j] = math.Cos(angle)
		}
	}
	return row
}

// frequency returns ω_i = n^(-2i/d), the angular frequency (radians per
// position) of column pair i.
func frequency(i, dModel int, base float64) float64 {
	return math.Pow(base, -float64(2*i)/float64(dModel))
}

// checkSizes panics with an explanation on sizes no encoding has.
func checkSizes(fn string, seqLen, dModel int, base float64) {
	switch {
	case seqLen < 0:
		panic(fmt.Sprintf("posenc.%s: sequence length must be ≥ 0, got %d", fn, seqLen))
	case dModel < 1:
		panic(fmt.Sprintf("posenc.%s: d_model must be ≥ 1, got %d", fn, dModel))
	case !(base > 0) || math.IsInf(base, 0):
		panic(fmt.Sprintf("posenc.%s: the base n must be a positive number (10000 in the paper), got %g", fn, base))
	}
}

// SinusoidalOf is the graph version of [Sinusoidal] for any positions: it
// returns PE(pos, j) for every position in positions, as a new last axis of
// d_model columns:
//
//	ω_j   = n^(-(j - j mod 2)/d)     (2i = j - j mod 2)
//	PE    = sin(pos·ω_j) for even j, cos(pos·ω_j) for odd j
//
// positions may be integer or float; the result has positions' dtype when it
// is a float, float32 otherwise. Vaswani et al. (2017), §3.5.
//
// Typical shapes: positions [seq] → [seq, d_model]; [batch, seq] →
// [batch, seq, d_model].
//
// Introduced in lesson 04.
func SinusoidalOf(positions *graph.Node, dModel int, base float64) *graph.Node {
	if dModel < 1 {
		exceptions.Panicf("posenc.SinusoidalOf: d_model must be ≥ 1, got %d", dModel)
	}
	if !(base > 0) || math.IsInf(base, 0) {
		exceptions.Panicf("posenc.SinusoidalOf: the base n must be a positive number (10000 in the paper), got %g", base)
	}
	g := positions.Graph()
	dtype := positions.DType()
	if !dtype.IsFloat() {
		dtype = dtypes.Float32
	}
	pos := graph.ConvertDType(positions, dtype)

	j := graph.Iota(g, shapes.Make(dtype, dModel), 0)                          // Shape: [d_model], j = 0, 1, …, d-1
	parity := graph.Mod(j, graph.Scalar(g, dtype, 2))                          // Shape: [d_model], j mod 2
	twoI := graph.Sub(j, parity)                                               // Shape: [d_model], 2i = 0, 0, 2, 2, 4, …
	omega := graph.Exp(graph.MulScalar(twoI, -math.Log(base)/float64(dModel))) // Shape: [d_model], n^(-2i/d)

	// One row of frequencies per position: broadcast both to [..., d_model].
	outDims := append(append([]int(nil), pos.Shape().Dimensions...), dModel)
	lead := make([]int, pos.Rank())
	for i := range lead {
		lead[i] = 1
	}
	omega = graph.Reshape(omega, append(lead, dModel)...)                                    // Shape: [1, …, 1, d_model]
	angles := graph.Mul(graph.InsertAxes(pos, -1), omega)                                    // Shape: [..., 1] × [1, …, d_model] → [..., d_model]
	angles = graph.BroadcastToDims(angles, outDims...)                                       // Shape: [..., d_model]
	isSin := graph.Equal(parity, graph.ScalarZero(g, dtype))                                 // Shape: [d_model], true for even j
	isSin = graph.BroadcastToDims(graph.Reshape(isSin, append(lead, dModel)...), outDims...) // Shape: [..., d_model]
	return graph.Where(isSin, graph.Sin(angles), graph.Cos(angles))
}

// SinusoidalGraph returns the encoding of positions 0..seqLen-1 as a graph
// node of the given float dtype: [SinusoidalOf] applied to an Iota. This is
// what a model adds to its token embeddings, computed in the graph for the
// sequence length at hand (see also [InputEmbedding]). Vaswani et al.
// (2017), §3.5.
//
// Typical shapes: → [seq, d_model].
//
// Introduced in lesson 04.
func SinusoidalGraph(g *graph.Graph, dtype dtypes.DType, seqLen, dModel int, base float64) *graph.Node {
	if seqLen < 1 {
		exceptions.Panicf("posenc.SinusoidalGraph: sequence length must be ≥ 1, got %d", seqLen)
	}
	if !dtype.IsFloat() {
		exceptions.Panicf("posenc.SinusoidalGraph: dtype must be a float type, got %s", dtype)
	}
	positions := graph.Iota(g, shapes.Make(dtype, seqLen), 0) // Shape: [seq], 0, 1, …, seq-1
	return SinusoidalOf(positions, dModel, base)              // Shape: [seq, d_model]
}

// RunSinusoidal runs [SinusoidalGraph] once on the course backend in
// float32, as a model computes it, and returns the [seq][d_model] matrix:
// the graph twin of [Sinusoidal], to compare with it.
//
// Introduced in lesson 04.
func RunSinusoidal(seqLen, dModel int, base float64) ([][]float64, error) {
	if seqLen < 1 || dModel < 1 || !(base > 0) {
		return nil, fmt.Errorf("posenc.RunSinusoidal: need seqLen ≥ 1, dModel ≥ 1 and base > 0, got %d, %d, %g", seqLen, dModel, base)
	}
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		return []*graph.Node{SinusoidalGraph(in[0].Graph(), dtypes.Float32, seqLen, dModel, base)}
	}, tensors.FromScalar(float32(0))) // a dummy input: the graph needs none
	if err != nil {
		return nil, err
	}
	return eager.Matrix(outs[0]), nil
}

// Wavelengths returns, for every sine column 2i = 0, 2, 4, … of an encoding
// of dModel dimensions, the wavelength of its sinusoid in positions:
//
//	λ_i = 2π / ω_i = 2π · n^(2i/d)
//
// from 2π ≈ 6.28 for the first pair to almost 2π·n for the last: a
// geometric progression, a straight line on a logarithmic axis. dims holds
// the column indices 2i as float64, ready to plot.
//
// Introduced in lesson 04.
func Wavelengths(dModel int, base float64) (dims, lambdas []float64) {
	checkSizes("Wavelengths", 0, dModel, base)
	for j := 0; j < dModel; j += 2 {
		dims = append(dims, float64(j))
		lambdas = append(lambdas, 2*math.Pi/frequency(j/2, dModel, base))
	}
	return dims, lambdas
}
