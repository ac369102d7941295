package attention

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/internal/eager"
)

// run builds and executes a graph once on the course backend; a shape
// error comes back as an error starting with "attention:".
func run(fn func(in []*graph.Node) []*graph.Node, inputs ...any) ([]*tensors.Tensor, error) {
	return eager.Run("attention", fn, inputs...)
}

// checkMatrix verifies that m is a non-ragged rows×cols matrix (cols < 0: any
// width).
func checkMatrix(name string, m [][]float64, rows, cols int) error {
	return eager.CheckMatrix("attention", name, m, rows, cols)
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
