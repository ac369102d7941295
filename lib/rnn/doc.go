// Package rnn holds the recurrent cells of the encoder–decoder models that
// came before the Transformer: the GRU of Cho et al. (2014) and the LSTM of
// Hochreiter & Schmidhuber (1997), as GoMLX graph functions, and layers that
// run a cell over a sequence.
//
// A cell takes one input vector per example and the previous state and
// returns the next state. A layer unrolls the cell in the graph, one step per
// position: the input projection x·W_x of every position is computed at once
// (one batched matrix product), and only the small recurrent product h·W_h is
// done step by step. A length mask freezes the state on padding, so the last
// state of a padded sequence is the state after its last real token.
//
// Parameters are passed in as graph nodes (a [GRUParams] or [LSTMParams]), so
// the same code runs with constants in tests and with trainable variables
// ([NewGRUParams], [NewLSTMParams]) in training. Vectors are rows: where a
// paper writes W·x for a column vector x, the library computes x·W with the
// transposed matrix, and the gates of one cell are fused into one matrix
// (columns [r | z | n] for the GRU, [i | f | g | o] for the LSTM, the order of
// PyTorch's weights).
//
// Introduced in lesson 06 (the bottleneck, measured).
package rnn
