// Package train is the course's one training helper: it trains a GoMLX model
// on an in-memory dataset with Adam, shows progress, records a history and
// keeps the trained weights in a checkpoint so that later notebook cells
// reload them instead of training again.
//
// The pieces:
//
//   - [Dataset]: examples held in memory as columns (one int32 or float32
//     array per input or label, first axis = example), batched in a seeded,
//     reproducible order by [Dataset.Batches].
//   - [Fit]: trains a [Model] with GoMLX's own training loop
//     (ml/train.Trainer and Loop) and its Adam optimiser
//     (ml/train/optimizer) for a fixed number of steps; the first step
//     compiles the training graph (loss, gradients, update of every
//     variable), every later step reuses it. A [Batcher] is a GoMLX
//     training dataset.
//   - progress: in a GoNB notebook one output area updated in place (at
//     most about twice a second) with the step, the loss, the elapsed and
//     remaining time and a small loss curve drawn by lib/viz — no JavaScript,
//     nothing fetched; outside a notebook one plain-text summary line.
//   - [History]: the loss of every step, the wall time, and named metrics
//     the caller adds; saved as JSON next to the weights.
//   - checkpoints: with Config.Name set, Fit deletes any earlier checkpoint
//     of that name, trains from scratch and saves the model's variables as
//     a GoMLX checkpoint (ml/model/checkpoint) under [Dir](name); [Load]
//     reads it back (GoNB runs every cell as a new program, so this is how
//     a later cell gets the trained model). [LoadOrFit] trains only when
//     nothing is saved.
//   - [Predict]: runs a model's graph on a trained store (inference only).
//
// Runs are deterministic given Config.Seed (initial weights) and
// Dataset.Batches' seed (order of the examples) on the pure-Go backend.
//
// Introduced in lesson 06 (the bottleneck, measured).
package train
