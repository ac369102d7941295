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
