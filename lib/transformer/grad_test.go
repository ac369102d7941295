package transformer

import (
	"math"
	"testing"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/support/exceptions"
)

// TestLayerNormGradient checks that gradients flow through LayerNorm, as
// training lessons need (GoMLX v0.28.8 has no gradient for Rsqrt): for
// L = Σ LayerNorm(x), ∂L/∂β_j is the number of rows and ∂L/∂γ_j is the sum
// over rows of the normalised x, computed here in float64. Through x, for
// L = Σ_ij c_j·LayerNorm(x)_ij with γ = 1, β = 0 and y the normalised row,
// ∂L/∂x = (c − mean(c) − y·mean(c⊙y)) / σ.
func TestLayerNormGradient(t *testing.T) {
	const rows, d = 3, 5
	x := random.New(4).Normal(rows, d)
	weights := []float64{0.5, -1, 2, 0.25, 1.5}
	exec, err := graph.NewExec(backend.Default(), func(xn, gamma, beta *graph.Node) []*graph.Node {
		ln := LayerNorm(xn, LayerNormParams{Gamma: gamma, Beta: beta})
		loss := graph.ReduceAllSum(ln)
		weighted := graph.ReduceAllSum(graph.Mul(ln, graph.ExpandLeftToRank(graph.Const(xn.Graph(), weights), 2)))
		return append(graph.Gradient(loss, gamma, beta), graph.Gradient(weighted, xn)...)
	})
	if err != nil {
		t.Fatal(err)
	}
	flat := make([]float64, 0, rows*d)
	for _, r := range x {
		flat = append(flat, r...)
	}
	ones, zeros := make([]float64, d), make([]float64, d)
	for j := range ones {
		ones[j] = 1
	}
	var outs []any
	err = exceptions.TryCatch[error](func() {
		res := exec.MustCall(tensors.FromFlatDataAndDimensions(flat, rows, d), tensors.FromFlatDataAndDimensions(ones, d), tensors.FromFlatDataAndDimensions(zeros, d))
		outs = []any{res[0].Value(), res[1].Value(), res[2].Value()}
	})
	if err != nil {
		t.Fatalf("gradient of LayerNorm: %v", err)
	}
	dGamma, dBeta, dX := outs[0].([]float64), outs[1].([]float64), outs[2].([][]float64)
	want := make([]float64, d)
	meanC := 0.0
	for _, c := range weights {
		meanC += c / d
	}
	for i, r := range x {
		mean, variance := 0.0, 0.0
		for _, v := range r {
			mean += v / d
		}
		for _, v := range r {
			variance += (v - mean) * (v - mean) / d
		}
		sigma := math.Sqrt(variance + LayerNormEpsilon)
		meanCY := 0.0
		for j, v := range r {
			want[j] += (v - mean) / sigma
			meanCY += weights[j] * (v - mean) / sigma / d
		}
		for j, v := range r {
			wantX := (weights[j] - meanC - (v-mean)/sigma*meanCY) / sigma
			if math.Abs(dX[i][j]-wantX) > 1e-6 {
				t.Errorf("∂L/∂x[%d][%d] = %g, want %g", i, j, dX[i][j], wantX)
			}
		}
	}
	for j := range d {
		if math.Abs(dBeta[j]-rows) > 1e-9 || math.Abs(dGamma[j]-want[j]) > 1e-6 {
			t.Errorf("dimension %d: ∂L/∂β = %g, ∂L/∂γ = %g; want %d and %g", j, dBeta[j], dGamma[j], rows, want[j])
		}
	}
}
