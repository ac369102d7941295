package attention

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
			err = fmt.Errorf("attention: %v", r)
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

// toBoolTensor converts a 0/1 matrix to a Bool tensor (non-zero = true).
func toBoolTensor(m [][]float64) *tensors.Tensor {
	rows, cols := len(m), len(m[0])
	flat := make([]bool, 0, rows*cols)
	for _, row := range m {
		for _, x := range row {
			flat = append(flat, x != 0)
		}
	}
	return tensors.FromFlatDataAndDimensions(flat, rows, cols)
}

// toMatrix converts a float tensor of rank 2 to a matrix of float64.
func toMatrix(t *tensors.Tensor) [][]float64 {
	dims := t.Shape().Dimensions
	rows, cols := dims[0], dims[1]
	t64 := tensors.MustCopyFlatData[float32](t)
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
		for j := range m[i] {
			m[i][j] = float64(t64[i*cols+j])
		}
	}
	return m
}

// checkMatrix verifies that m is a non-ragged rows×cols matrix (cols < 0: any
// width).
func checkMatrix(name string, m [][]float64, rows, cols int) error {
	if len(m) == 0 || len(m[0]) == 0 {
		return fmt.Errorf("attention: %s is empty", name)
	}
	if rows >= 0 && len(m) != rows {
		return fmt.Errorf("attention: %s has %d rows, want %d", name, len(m), rows)
	}
	if cols < 0 {
		cols = len(m[0])
	}
	for i, row := range m {
		if len(row) != cols {
			return fmt.Errorf("attention: %s row %d has %d columns, want %d", name, i, len(row), cols)
		}
	}
	return nil
}

// checkQKV verifies the shapes of q [seq_q][d_k], k [seq_k][d_k], v [seq_k][d_v].
func checkQKV(q, k, v [][]float64) error {
	if err := checkMatrix("Q", q, -1, -1); err != nil {
		return err
	}
	if err := checkMatrix("K", k, -1, len(q[0])); err != nil {
		return fmt.Errorf("%w (K must have d_k = %d columns, like Q)", err, len(q[0]))
	}
	if err := checkMatrix("V", v, len(k), -1); err != nil {
		return fmt.Errorf("%w (V must have one row per key: %d)", err, len(k))
	}
	return nil
}
