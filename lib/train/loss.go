package train

import "github.com/gomlx/gomlx/core/graph"

// CrossEntropy is the mean cross-entropy of class logits against integer
// labels, the [Loss] of a classifier:
//
//	loss = mean over the batch of −log softmax(logits)[label]
//	     = mean of logsumexp(logits) − logits[label]
//
// with the log-sum-exp shifted by the largest logit, so that large logits
// do not overflow. labels[0] holds the class of each example (int32),
// predictions[0] the logits.
//
// Typical shapes: labels {[batch]} and predictions {[batch, classes]} →
// a scalar.
//
// Introduced in lesson 08 (the classifier); also the loss of the ViT
// exercise.
func CrossEntropy(labels, predictions []*graph.Node) *graph.Node {
	logits := predictions[0]                                                    // Shape: [batch, classes]
	top := graph.StopGradient(graph.ReduceAndKeep(logits, graph.ReduceMax, -1)) // Shape: [batch, 1]
	lse := graph.Add(graph.Log(graph.ReduceAndKeep(graph.Exp(graph.Sub(logits, top)), graph.ReduceSum, -1)), top)
	classes := logits.Shape().Dimensions[logits.Rank()-1]
	onehot := graph.OneHot(labels[0], classes, logits.DType())                    // Shape: [batch, classes]
	picked := graph.ReduceAndKeep(graph.Mul(onehot, logits), graph.ReduceSum, -1) // Shape: [batch, 1]
	return graph.ReduceAllMean(graph.Sub(lse, picked))
}
