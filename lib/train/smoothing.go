package train

import "github.com/gomlx/gomlx/core/graph"

// SmoothedCrossEntropy returns the cross-entropy [Loss] with label
// smoothing ε (Szegedy et al. 2016; Vaswani et al. 2017 §5.4 use ε = 0.1):
// the target puts 1 − ε on the label and spreads ε evenly over the K
// classes,
//
//	q_k  = (1 − ε)·[k = label] + ε/K
//	loss = mean over the batch of −Σ_k q_k · log softmax(logits)_k
//
// so the loss is smallest at a finite margin between the logits instead of
// an infinite one: the model is discouraged from becoming certain.
// ε = 0 is [CrossEntropy].
//
// Typical shapes: labels {[batch]} and predictions {[batch, classes]} →
// a scalar.
//
// Introduced in lesson 11 (attention in practice).
func SmoothedCrossEntropy(epsilon float64) Loss {
	return func(labels, predictions []*graph.Node) *graph.Node {
		logits := predictions[0]                                                    // Shape: [batch, classes]
		top := graph.StopGradient(graph.ReduceAndKeep(logits, graph.ReduceMax, -1)) // Shape: [batch, 1]
		lse := graph.Add(graph.Log(graph.ReduceAndKeep(graph.Exp(graph.Sub(logits, top)), graph.ReduceSum, -1)), top)
		logp := graph.Sub(logits, lse) // Shape: [batch, classes], log softmax
		classes := logits.Shape().Dimensions[logits.Rank()-1]
		onehot := graph.OneHot(labels[0], classes, logits.DType())                              // Shape: [batch, classes]
		target := graph.AddScalar(graph.MulScalar(onehot, 1-epsilon), epsilon/float64(classes)) // q_k
		return graph.ReduceAllMean(graph.Neg(graph.ReduceSum(graph.Mul(target, logp), -1)))     // mean of −Σ q·log p
	}
}

// WithEntropyBonus returns loss minus λ times the mean entropy of the
// attention weights the model returns second (predictions[1], rows that
// sum to 1):
//
//	H(row) = −Σ_j w_j · ln w_j
//	loss'  = loss − λ · mean over the batch, the heads and the rows of H
//
// An attention regulariser: a positive λ pays the model for spreading its
// attention, against the collapse to one key of lesson 11 (a negative λ
// would push towards collapse). The mean runs over every query row,
// padding queries included, and a weight of 0 (a masked key) adds
// nothing (0·ln 0 = 0). λ = 0 is loss.
//
// Typical shapes: predictions {logits, weights [batch, heads, seq, seq]}
// → a scalar.
//
// Introduced in lesson 11 (attention in practice).
func WithEntropyBonus(loss Loss, lambda float64) Loss {
	if lambda == 0 {
		return loss
	}
	return func(labels, predictions []*graph.Node) *graph.Node {
		if len(predictions) < 2 {
			panic("train.WithEntropyBonus: the model returns no attention weights (predictions[1])")
		}
		w := predictions[1]                                                        // Shape: [batch, heads, seq, seq]
		logw := graph.Log(graph.Max(w, graph.Scalar(w.Graph(), w.DType(), 1e-30))) // ln w, finite at w = 0
		h := graph.Neg(graph.ReduceSum(graph.Mul(w, logw), -1))                    // Shape: [batch, heads, seq], H per row
		return graph.Sub(loss(labels, predictions), graph.MulScalar(graph.ReduceAllMean(h), lambda))
	}
}
