// Package seq2seq is the recurrent encoder–decoder of lessons 06 and 07: a
// GRU encoder reads the source sequence, a GRU decoder writes the target one
// token at a time, with or without attention over the encoder states, and a
// seeded toy task (reversing digit sequences) to train it on.
//
// Without attention (Cho et al., 2014; Sutskever et al., 2014) the decoder
// sees the source only through the encoder's last state c: every step gets
// the same vector, however long the source. With attention (Bahdanau et al.,
// 2015; Luong et al., 2015) every step computes its own context
//
//	α_t = softmax(score(s, h_1 … h_S)),   c_t = Σ_s α_ts · h_s
//
// from all the encoder states, with any score of lib/attention ([Config]
// Score). Lesson 06 measures the difference: accuracy against source length.
//
// Tokens are int32 ids; 0 is padding in source and target (masked out of
// the attention and the loss), and the decoder starts from [Config].Start.
//
// Introduced in lesson 06 (the bottleneck, measured).
package seq2seq
