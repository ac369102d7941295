package transformer

import (
	"fmt"
	"strings"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/internal/eager"
)

// run builds and executes a graph once on the course backend; a shape
// error comes back as an error starting with "transformer:".
func run(fn func(in []*graph.Node) []*graph.Node, inputs ...any) ([]*tensors.Tensor, error) {
	return eager.Run("transformer", fn, inputs...)
}

// StepShape is the shape of one step of a computation, for printing.
//
// Part of the library behind lesson 05; the lesson does not name it.
type StepShape struct {
	Name       string
	Dimensions []int
}

// StepShapes lists the shapes of the steps of a computation in order.
//
// Part of the library behind lesson 05; the lesson does not name it.
type StepShapes []StepShape

// String formats one step per line, names aligned.
func (s StepShapes) String() string {
	w := 0
	for _, x := range s {
		w = max(w, len([]rune(x.Name)))
	}
	var b strings.Builder
	for _, x := range s {
		fmt.Fprintf(&b, "%s  %v\n", pad(x.Name, w, false), x.Dimensions)
	}
	return b.String()
}

// add appends the shape of n under name.
func (s *StepShapes) add(name string, n *graph.Node) {
	*s = append(*s, StepShape{Name: name, Dimensions: append([]int(nil), n.Shape().Dimensions...)})
}

// checkMatrix verifies that m is a non-ragged matrix with cols columns
// (cols < 0: any width).
func checkMatrix(name string, m [][]float64, cols int) error {
	return eager.CheckMatrix("transformer", name, m, -1, cols)
}

// batchTensor converts one sequence [seq][d] to a float32 tensor [1, seq, d].
func batchTensor(m [][]float64) *tensors.Tensor {
	t := eager.Tensor(m)
	return tensors.FromFlatDataAndDimensions(tensors.MustCopyFlatData[float32](t), 1, len(m), len(m[0]))
}

// flat returns the float32 data of t as float64.
func flat(t *tensors.Tensor) []float64 {
	f := tensors.MustCopyFlatData[float32](t)
	out := make([]float64, len(f))
	for i, v := range f {
		out[i] = float64(v)
	}
	return out
}

// matrices cuts data into consecutive rows×cols matrices, row by row.
func matrices(data []float64, rows, cols int) [][][]float64 {
	n := len(data) / (rows * cols)
	out := make([][][]float64, n)
	for k := range out {
		out[k] = make([][]float64, rows)
		for i := range out[k] {
			start := (k*rows + i) * cols
			out[k][i] = append([]float64(nil), data[start:start+cols]...)
		}
	}
	return out
}
