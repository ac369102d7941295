// Package transformer builds the encoder of the Transformer (Vaswani et al.,
// "Attention Is All You Need", 2017, §3.1) from the parts the course has
// built so far:
//
//	x₀ = Embedding(tokens)·√d_model + PE                       [batch, seq, d_model]
//	for each of the N layers:
//	    a = MultiHead(x, x, x)                                  self-attention (lib/attention)
//	    x = LayerNorm(x + a)                                    Add & Norm
//	    f = max(0, x·W₁ + b₁)·W₂ + b₂                           position-wise feed-forward
//	    x = LayerNorm(x + f)                                    Add & Norm
//	output = x                                                  [batch, seq, d_model]
//
// As in lib/attention there are two layers:
//
//   - Graph functions take and return *graph.Node and are what models use:
//     [FFN], [LayerNorm], [AddNorm], [EncoderLayer], [Encoder], [Pool].
//     Their parameters are graph nodes ([FFNParams], [LayerNormParams],
//     [EncoderLayerParams], [EncoderParams]), so the same code runs with
//     constants in a lesson and with trainable variables in a training
//     lesson.
//   - Eager functions take and return plain Go slices and run the graph
//     functions once on the course backend, for notebooks: [ExplainFFN],
//     [LayerNormOf], [ExplainEncoderLayer], [ExplainEncoder], [PoolOf].
//
// [Config] describes a model ([Base] is the paper's base encoder) and
// [Config.ParamCounts] counts its parameters part by part; the New…Weights
// functions draw seeded weights for lessons, which run without training.
//
// The encoder is post-norm, as in the paper: LayerNorm(x + Sublayer(x)).
// Dropout (paper §5.4) only acts while training; nothing here applies it.
//
// Introduced in lesson 05 (the Transformer encoder).
package transformer
