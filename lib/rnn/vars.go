package rnn

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
)

// NewGRUParams creates (or reuses) the trainable variables of a GRU cell in
// scope — "wx", "wh", "bx", "bh" — and returns their values in g. Every
// entry starts uniform in [−1/√hidden, 1/√hidden], PyTorch's default, drawn
// from the store's random generator (seeded by model.ParamInitialSeed).
//
// Typical shapes: in = 16, hidden = 64 → Wx [16, 192], Wh [64, 192].
//
// Introduced in lesson 06.
func NewGRUParams(scope *model.Scope, g *graph.Graph, in, hidden int) GRUParams {
	s := uniform(scope, hidden)
	return GRUParams{
		Wx: variable(s, g, "wx", in, 3*hidden),
		Wh: variable(s, g, "wh", hidden, 3*hidden),
		Bx: variable(s, g, "bx", 3*hidden),
		Bh: variable(s, g, "bh", 3*hidden),
	}
}

// NewLSTMParams creates (or reuses) the trainable variables of an LSTM cell
// in scope — "wx", "wh", "b" — and returns their values in g. Weights start
// uniform in [−1/√hidden, 1/√hidden]; the bias is 0 except the forget gate's,
// which starts at 1 (Jozefowicz et al., 2015) so that the cell remembers by
// default.
//
// Typical shapes: in = 32, hidden = 64 → Wx [32, 256], Wh [64, 256].
//
// Introduced in lesson 06.
func NewLSTMParams(scope *model.Scope, g *graph.Graph, in, hidden int) LSTMParams {
	s := uniform(scope, hidden)
	bias := make([]float32, 4*hidden)
	for j := hidden; j < 2*hidden; j++ {
		bias[j] = 1
	}
	return LSTMParams{
		Wx: variable(s, g, "wx", in, 4*hidden),
		Wh: variable(s, g, "wh", hidden, 4*hidden),
		B:  scope.VariableWithValue("b", bias).NodeValue(g),
	}
}

func uniform(scope *model.Scope, hidden int) *model.Scope {
	k := 1 / math.Sqrt(float64(hidden))
	return scope.WithInitializer(initializer.RandomUniformFn(scope, -k, k))
}

func variable(scope *model.Scope, g *graph.Graph, name string, dims ...int) *graph.Node {
	return scope.VariableWithShape(name, shapes.Make(dtypes.Float32, dims...)).NodeValue(g)
}
