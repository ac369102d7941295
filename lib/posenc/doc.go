// Package posenc gives a Transformer the order of its tokens: positional
// encodings (Vaswani et al., "Attention Is All You Need", 2017, §3.5) and
// the embeddings they are added to.
//
// Self-attention is permutation-equivariant: shuffle the input tokens and the
// outputs come out shuffled the same way, so without help "man bites dog" and
// "dog bites man" are the same bag of words. A positional encoding is a
// vector per position, added to the token embedding, that makes the input of
// the first layer depend on where each token stands.
//
// What lives here:
//
//   - Sinusoidal encodings, PE(pos, 2i) = sin(pos / n^(2i/d)) and
//     PE(pos, 2i+1) = cos(pos / n^(2i/d)): [Sinusoidal] in plain float64 Go,
//     [SinusoidalGraph] and [SinusoidalOf] as GoMLX graphs (what models use),
//     [RunSinusoidal] running the graph once for notebooks, and [Table], a
//     table that grows when a longer sequence comes.
//   - Relative positions: [RelativeMap] is the fixed block-diagonal rotation
//     M_k with PE(pos+k) = M_k·PE(pos) for every pos; [CheckRelative]
//     measures how exactly it holds.
//   - Learned positional embeddings, [NewLearned]: a [max_len, d_model] table
//     of parameters, which cannot go past max_len.
//   - Positions inside attention (lesson 10), nothing added to the
//     embedding: rotary embeddings (RoPE), which turn each pair of columns
//     (2i, 2i+1) of a query or key at position p by p·n^(-2i/d) — [Rotary]
//     in float64, [RotaryOf] as a graph, [RunRotary] — and ALiBi's linear
//     biases −m_h·(i − j) on the scores, [ALiBiSlopes], [ALiBi] and
//     [ALiBiOf].
//   - Putting it together: [Lookup] (embedding rows of ids), [InputEmbedding]
//     (emb·√d_model + PE) and [TokenAttention], a single attention head on
//     token ids with or without positions and with or without a look-ahead
//     mask.
//   - Helpers to inspect encodings ([CosineSimilarity], [Wavelengths],
//     [Permute], [RowPermutation], ...) and the lesson's figures
//     ([SinusoidPanels], [VectorPanels], [DimensionSeries]).
//
// Graph functions take and return *graph.Node; eager functions take and
// return [][]float64 and run on the course backend (lib/backend).
//
// Introduced in lesson 04 (positional encoding).
package posenc
