package posenc

import (
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/internal/eager"
)

// run builds and executes a graph once on the course backend; a shape
// error comes back as an error starting with "posenc:".
func run(fn func(in []*graph.Node) []*graph.Node, inputs ...any) ([]*tensors.Tensor, error) {
	return eager.Run("posenc", fn, inputs...)
}

// checkMatrix verifies that m is a non-empty, non-ragged matrix with cols
// columns (cols < 0: any width).
func checkMatrix(name string, m [][]float64, cols int) error {
	return eager.CheckMatrix("posenc", name, m, -1, cols)
}
