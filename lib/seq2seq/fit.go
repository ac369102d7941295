package seq2seq

import (
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/train"
)

// TrainModel is the model for [train.Fit]: inputs {source ids, decoder
// input ids} → {logits}, with teacher forcing ([TeacherForced]).
//
// Typical shapes: inputs [batch, src_len], [batch, tgt_len] → logits
// [batch, tgt_len, tgt_vocab].
//
// Part of the library behind lesson 06; the lesson does not name it.
func (c Config) TrainModel() train.Model {
	return func(scope *model.Scope, in []*graph.Node) []*graph.Node {
		logits, _ := TeacherForced(scope, c, in[0], in[1])
		return []*graph.Node{logits}
	}
}

// GreedyModel is the inference model for [train.Predict]: inputs {source
// ids} → {tokens [batch, steps] int32, attention weights [batch, steps,
// src_len]}, by [Greedy].
//
// Part of the library behind lesson 06; the lesson does not name it.
func (c Config) GreedyModel(steps int) train.Model {
	return func(scope *model.Scope, in []*graph.Node) []*graph.Node {
		tokens, weights := Greedy(scope, c, in[0], steps)
		return []*graph.Node{tokens, weights}
	}
}

// TrainLoss is [Loss] in the form [train.Fit] takes: labels {target ids},
// predictions {logits}.
//
// Part of the library behind lesson 06; the lesson does not name it.
func TrainLoss(labels, predictions []*graph.Node) *graph.Node {
	return Loss(labels[0], predictions[0])
}

// SmoothedLoss is [TrainLoss] with label smoothing ε (Szegedy et al.
// 2016; Vaswani et al. 2017 §5.4 use ε = 0.1): each real target token's
// one-hot target becomes 1 − ε on the true id plus ε/V on every one of the
// V ids,
//
//	L = −(1/N) Σ_{b,t: y_bt ≠ pad} Σ_v q_v · log softmax(logits_bt)_v,   q_v = (1−ε)·[v = y_bt] + ε/V
//
// which keeps the model from driving its logits apart without end: the
// paper notes it "hurts perplexity … but improves accuracy and BLEU".
// ε = 0 is TrainLoss.
//
// Typical shapes: labels {[batch, tgt_len] int32}, predictions {[batch,
// tgt_len, vocab]} → scalar.
//
// Introduced in lesson 09.
func SmoothedLoss(epsilon float64) train.Loss {
	if epsilon == 0 {
		return TrainLoss
	}
	return func(labels, predictions []*graph.Node) *graph.Node {
		tgt, logits := labels[0], predictions[0]
		vocab := logits.Shape().Dim(-1)
		logp := graph.LogSoftmax(logits, -1)
		q := graph.AddScalar(graph.MulScalar(graph.OneHot(tgt, vocab, logp.DType()), 1-epsilon), epsilon/float64(vocab)) // Shape: [batch, tgt, vocab]
		return graph.Neg(realMean(tgt, graph.ReduceSum(graph.Mul(logp, q), -1)))
	}
}
