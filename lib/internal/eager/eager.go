// Package eager runs the library's graph functions once on plain Go values:
// the bridge between the eager functions notebooks call (on [][]float64)
// and the graph code models use (on *graph.Node). lib/attention, lib/posenc
// and lib/transformer share it; notebooks do not need it.
//
// Values cross as float32 tensors, the dtype of the course's graphs, and
// come back as float64 so that printing and testing stay simple.
package eager

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
)

// Run builds fn into a graph, executes it once on the course backend
// ([backend.Default]) with inputs, and returns its outputs. A shape error
// while building (GoMLX panics, and usually reports it as an error) comes
// back as an error prefixed with pkg, the calling package's name.
func Run(pkg string, fn func(in []*graph.Node) []*graph.Node, inputs ...any) (outs []*tensors.Tensor, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", pkg, r)
		}
	}()
	outs, err = graph.CallOnceN(backend.Default(), fn, inputs...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkg, err)
	}
	return outs, nil
}

// Tensor converts a non-empty, non-ragged matrix to a float32 tensor of
// shape [rows, cols].
func Tensor(m [][]float64) *tensors.Tensor {
	rows, cols := len(m), len(m[0])
	flat := make([]float32, 0, rows*cols)
	for _, row := range m {
		for _, x := range row {
			flat = append(flat, float32(x))
		}
	}
	return tensors.FromFlatDataAndDimensions(flat, rows, cols)
}

// Vector converts a vector to a float32 tensor of shape [len(v)].
func Vector(v []float64) *tensors.Tensor {
	flat := make([]float32, len(v))
	for i, x := range v {
		flat[i] = float32(x)
	}
	return tensors.FromFlatDataAndDimensions(flat, len(v))
}

// Bools converts a 0/1 matrix to a Bool tensor of shape [rows, cols]
// (non-zero is true), the form masks take in graphs.
func Bools(m [][]float64) *tensors.Tensor {
	rows, cols := len(m), len(m[0])
	flat := make([]bool, 0, rows*cols)
	for _, row := range m {
		for _, x := range row {
			flat = append(flat, x != 0)
		}
	}
	return tensors.FromFlatDataAndDimensions(flat, rows, cols)
}

// Matrix converts a float32 tensor whose leading axes are all 1 to a matrix
// of its last two axes: [1, …, rows, cols] → [rows][cols].
func Matrix(t *tensors.Tensor) [][]float64 {
	return Matrices(t)[0]
}

// Matrices converts a float32 tensor of rank 2 or more to the matrices of
// its last two axes, the leading axes flattened in row-major order:
// [a, b, rows, cols] → [a·b][rows][cols].
func Matrices(t *tensors.Tensor) [][][]float64 {
	dims := t.Shape().Dimensions
	rows, cols := dims[len(dims)-2], dims[len(dims)-1]
	flat := tensors.MustCopyFlatData[float32](t)
	n := len(flat) / max(rows*cols, 1)
	out := make([][][]float64, n)
	for k := range out {
		m := make([][]float64, rows)
		for i := range m {
			m[i] = make([]float64, cols)
			for j := range m[i] {
				m[i][j] = float64(flat[(k*rows+i)*cols+j])
			}
		}
		out[k] = m
	}
	return out
}

// CheckMatrix verifies that m, called name in messages, is a non-empty,
// non-ragged matrix of rows × cols (a negative rows or cols accepts any).
// Errors start with pkg, the calling package's name.
func CheckMatrix(pkg, name string, m [][]float64, rows, cols int) error {
	if len(m) == 0 || len(m[0]) == 0 {
		return fmt.Errorf("%s: %s is empty", pkg, name)
	}
	if rows >= 0 && len(m) != rows {
		return fmt.Errorf("%s: %s has %d rows, want %d", pkg, name, len(m), rows)
	}
	if cols < 0 {
		cols = len(m[0])
	}
	for i, row := range m {
		if len(row) != cols {
			return fmt.Errorf("%s: %s row %d has %d columns, want %d", pkg, name, i, len(row), cols)
		}
	}
	return nil
}
