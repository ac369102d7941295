package attention

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"
)

// Dropout applies dropout to attention weights while training (Srivastava
// et al. 2014; on the weights as in Vaswani et al.'s tensor2tensor code and
// BERT, attention_probs_dropout_prob):
//
//	keep_ij ~ Bernoulli(1 − rate)
//	w'_ij   = w_ij · keep_ij / (1 − rate)
//
// Each query then averages the values of a random subset of the keys it
// chose, so no single key can carry a prediction alone; dividing by
// 1 − rate keeps the expected weights, E[w'_ij] = w_ij, so the rows sum to
// 1 on average (not each time). It is the identity when rate is 0 or when
// the graph is not a training graph (scope.IsTraining(g) is false, as in
// inference and evaluation): a trained model predicts with all its weights.
//
// Typical shapes: weights [batch, heads, seq_q, seq_k] → the same.
//
// Introduced in lesson 11 (attention in practice).
func Dropout(scope *model.Scope, weights *graph.Node, rate float64) *graph.Node {
	if !(rate >= 0 && rate < 1) {
		exceptions.Panicf("attention.Dropout: the rate must be in [0, 1), got %g", rate)
	}
	g := weights.Graph()
	if rate == 0 || scope == nil || !scope.IsTraining(g) {
		return weights
	}
	u := scope.RandomUniform(g, shapes.Make(dtypes.Float32, weights.Shape().Dimensions...)) // Shape: like weights, U[0, 1)
	keep := graph.GreaterOrEqual(u, graph.Scalar(g, dtypes.Float32, rate))                  // true with probability 1 − rate
	kept := graph.Where(keep, weights, graph.ZerosLike(weights))
	return graph.DivScalar(kept, 1-rate)
}
