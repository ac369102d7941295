package train

import (
	"math"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
)

// TestSmoothedCrossEntropy compares with −Σ q_k log p_k worked out in
// float64 for ε = 0.1 and 0.3, and checks that ε = 0 is CrossEntropy.
func TestSmoothedCrossEntropy(t *testing.T) {
	logits := [][]float64{{2, 0, -1}, {0, 3, 1}, {100, 98, 0}}
	labels := []int32{1, 1, 2}
	flat := make([]float32, 0, 9)
	for _, row := range logits {
		for _, z := range row {
			flat = append(flat, float32(z))
		}
	}
	call := func(loss Loss) float64 {
		got, err := graph.CallOnce(backend.Default(), func(l, z *graph.Node) *graph.Node {
			return loss([]*graph.Node{l}, []*graph.Node{z})
		}, tensors.FromFlatDataAndDimensions(labels, 3), tensors.FromFlatDataAndDimensions(flat, 3, 3))
		if err != nil {
			t.Fatal(err)
		}
		return float64(tensors.ToScalar[float32](got))
	}
	for _, eps := range []float64{0, 0.1, 0.3} {
		want := 0.0
		for i, row := range logits {
			m := math.Max(row[0], math.Max(row[1], row[2]))
			sum := 0.0
			for _, z := range row {
				sum += math.Exp(z - m)
			}
			for k, z := range row {
				q := eps / 3
				if k == int(labels[i]) {
					q += 1 - eps
				}
				want -= q * (z - m - math.Log(sum)) / float64(len(logits))
			}
		}
		if got := call(SmoothedCrossEntropy(eps)); math.Abs(got-want) > 1e-4*want {
			t.Errorf("SmoothedCrossEntropy(%g) = %.6f, want %.6f", eps, got, want)
		}
	}
	if a, b := call(SmoothedCrossEntropy(0)), call(CrossEntropy); math.Abs(a-b) > 1e-5*b {
		t.Errorf("SmoothedCrossEntropy(0) = %.6f, CrossEntropy = %.6f: want equal", a, b)
	}
}

// TestWithEntropyBonus against the entropies worked out in float64, a
// masked key (weight 0) included: rows (1/2, 1/2) → ln 2, (1, 0) → 0,
// (1/4, 3/4) → −¼ln¼ − ¾ln¾, (0.1, 0.9); the loss falls by λ times their
// mean, and λ = 0 leaves it unchanged.
func TestWithEntropyBonus(t *testing.T) {
	weights := []float32{0.5, 0.5, 1, 0, 0.25, 0.75, 0.1, 0.9} // [batch 1, heads 2, seq 2, seq 2]
	h := func(p ...float64) float64 {
		s := 0.0
		for _, x := range p {
			if x > 0 {
				s -= x * math.Log(x)
			}
		}
		return s
	}
	meanH := (h(0.5, 0.5) + h(1, 0) + h(0.25, 0.75) + h(0.1, 0.9)) / 4
	base := func(labels, predictions []*graph.Node) *graph.Node { // a constant loss of 2
		return graph.Scalar(predictions[0].Graph(), predictions[0].DType(), 2)
	}
	call := func(loss Loss) float64 {
		got, err := graph.CallOnce(backend.Default(), func(l, z, w *graph.Node) *graph.Node {
			return loss([]*graph.Node{l}, []*graph.Node{z, w})
		}, tensors.FromFlatDataAndDimensions([]int32{0}, 1), tensors.FromFlatDataAndDimensions([]float32{0, 1}, 1, 2),
			tensors.FromFlatDataAndDimensions(weights, 1, 2, 2, 2))
		if err != nil {
			t.Fatal(err)
		}
		return float64(tensors.ToScalar[float32](got))
	}
	for _, lambda := range []float64{0, 0.1, 1} {
		if got, want := call(WithEntropyBonus(base, lambda)), 2-lambda*meanH; math.Abs(got-want) > 1e-6 {
			t.Errorf("λ = %g: %.7f, want %.7f", lambda, got, want)
		}
	}
}
