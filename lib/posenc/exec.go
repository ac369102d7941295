package posenc

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
)

// run builds and executes a graph once on the course backend, turning a
// panic raised while building (GoMLX reports shape errors that way) into an
// error.
func run(fn func(in []*graph.Node) []*graph.Node, inputs ...any) (outs []*tensors.Tensor, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("posenc: %v", r)
		}
	}()
	return graph.ExecOnceN(backend.Default(), fn, inputs...)
}

// toTensor converts a matrix to a float32 tensor of shape [rows, cols].
func toTensor(m [][]float64) *tensors.Tensor {
	rows, cols := len(m), len(m[0])
	flat := make([]float32, 0, rows*cols)
	for _, row := range m {
		for _, x := range row {
			flat = append(flat, float32(x))
		}
	}
	return tensors.FromFlatDataAndDimensions(flat, rows, cols)
}

// toMatrix converts a float32 tensor whose leading axes are all 1 to a
// matrix of its last two axes: [1, ..., rows, cols] → [rows][cols].
func toMatrix(t *tensors.Tensor) [][]float64 {
	dims := t.Shape().Dimensions
	rows, cols := dims[len(dims)-2], dims[len(dims)-1]
	flat := tensors.MustCopyFlatData[float32](t)
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
		for j := range m[i] {
			m[i][j] = float64(flat[i*cols+j])
		}
	}
	return m
}

// checkMatrix verifies that m is a non-empty, non-ragged matrix with cols
// columns (cols < 0: any width).
func checkMatrix(name string, m [][]float64, cols int) error {
	if len(m) == 0 || len(m[0]) == 0 {
		return fmt.Errorf("posenc: %s is empty", name)
	}
	if cols < 0 {
		cols = len(m[0])
	}
	for i, row := range m {
		if len(row) != cols {
			return fmt.Errorf("posenc: %s row %d has %d columns, want %d", name, i, len(row), cols)
		}
	}
	return nil
}
