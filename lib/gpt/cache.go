package gpt

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/posenc"
	"github.com/attention-in-go/course/lib/transformer"
)

// Step is the cached forward pass of one new token per sequence: the keys
// and values of the positions before it are read from a KV cache instead
// of being computed again. For every block,
//
//	h        = LN₁(x)                                 x: the new token only, [batch, 1, d_model]
//	q, k, v  = h·W_Q + b_Q, h·W_K + b_K, h·W_V + b_V  split into heads [batch, heads, 1, d_k]
//	K[pos], V[pos] = k, v                              written into the cache
//	a        = softmax(q·K[0…pos]ᵀ/√d_k)·V[0…pos]      attention over the cache
//	x        = x + a·W_O + b_O;   x = x + FFN(LN₂(x))
//
// With [Rotary] positions q and k are rotated by pos before k is written:
// the cache holds every key rotated at its own position, as the full
// forward pass computes it, and a key is never rotated again. With [ALiBi]
// the scores get −m_h·(pos − j) for every slot j of the cache (the slots
// after pos are masked anyway).
//
// The attention of token pos needs the keys and values of every earlier
// token, and those never change (the causal mask means an earlier token
// never sees a later one): keeping them turns the cost of a new token from
// the whole prefix (full recomputation, [Config.Forward]) into one token's
// projections plus one row of attention. The cache has room for maxLen
// positions; the slots after pos are masked, so one compiled graph serves
// every position.
//
// Typical shapes: tokens [batch] (int32), pos a scalar (int32), caches
// 2·layers tensors K₀, V₀, K₁, V₁, … of [batch, heads, max_len, d_k] →
// logits [batch, vocab] and the updated caches.
//
// Introduced in lesson 10.
func (c Config) Step(p Params, tokens, pos *graph.Node, caches []*graph.Node) (logits *graph.Node, updated []*graph.Node) {
	g := tokens.Graph()
	if len(caches) != 2*c.Layers {
		exceptions.Panicf("gpt.Step: want %d caches (K and V per block), got %d", 2*c.Layers, len(caches))
	}
	batch, maxLen := tokens.Shape().Dim(0), caches[0].Shape().Dim(2)
	dk := c.DModel / c.Heads
	ids := graph.InsertAxes(tokens, -1)                            // Shape: [batch, 1]
	here1 := graph.Reshape(pos, 1)                                 // Shape: [1], the new token's position
	x := c.embed(p, ids, here1)                                    // Shape: [batch, 1, d_model]
	keys := graph.Iota(g, shapes.Make(dtypes.Int32, maxLen), 0)    // Shape: [max_len], 0 … max_len−1
	mask := graph.GreaterThan(keys, pos)                           // Shape: [max_len], true after pos
	here := graph.Reshape(graph.Equal(keys, pos), 1, 1, maxLen, 1) // Shape: [1, 1, max_len, 1], true at pos
	heads := func(y *graph.Node) *graph.Node {
		y = graph.Reshape(y, batch, 1, c.Heads, dk)  // Shape: [batch, 1, heads, d_k]
		return graph.TransposeAllAxes(y, 0, 2, 1, 3) // Shape: [batch, heads, 1, d_k]
	}
	var bias *graph.Node
	if c.Positions == ALiBi {
		bias = posenc.ALiBiOf(c.Heads, here1, keys) // Shape: [heads, 1, max_len], −m_h·(pos − j)
	}
	for l, b := range p.Blocks {
		h := transformer.LayerNorm(x, b.Norm1) // Shape: [batch, 1, d_model]
		q := heads(linear(h, b.Attention.WQ, b.Attention.BQ))
		k := heads(linear(h, b.Attention.WK, b.Attention.BK))
		v := heads(linear(h, b.Attention.WV, b.Attention.BV))
		if c.Positions == Rotary {
			q, k = rotate(q, here1), rotate(k, here1) // Shape: [batch, heads, 1, d_k], turned by pos·θ_i
		}
		kc := write(caches[2*l], k, here)   // Shape: [batch, heads, max_len, d_k], K[pos] = k
		vc := write(caches[2*l+1], v, here) // Shape: [batch, heads, max_len, d_k], V[pos] = v
		updated = append(updated, kc, vc)
		a, _ := attention.ScaledDotProduct(q, kc, vc).WithBias(bias).WithMask(mask).Done() // Shape: [batch, heads, 1, d_k]
		a = graph.TransposeAllAxes(a, 0, 2, 1, 3)                                          // Shape: [batch, 1, heads, d_k]
		a = graph.Reshape(a, batch, 1, c.DModel)                                           // Shape: [batch, 1, d_model]
		x = graph.Add(x, linear(a, b.Attention.WO, b.Attention.BO))
		x = graph.Add(x, transformer.FFN(transformer.LayerNorm(x, b.Norm2), b.FFN)) // Shape: [batch, 1, d_model]
	}
	x = transformer.LayerNorm(x, p.Final)                                              // Shape: [batch, 1, d_model]
	logits = graph.Einsum("bd,vd->bv", graph.Reshape(x, batch, c.DModel), p.Embedding) // Shape: [batch, vocab]
	return logits, updated
}

// write returns cache with row pos (where here is true) replaced by row:
// a select rather than GoMLX's DynamicUpdateSlice, which the pure-Go
// backend does not implement. Shape: cache [batch, heads, max_len, d_k],
// row [batch, heads, 1, d_k] → [batch, heads, max_len, d_k].
func write(cache, row, here *graph.Node) *graph.Node {
	dims := cache.Shape().Dimensions
	return graph.Where(graph.BroadcastToDims(here, dims...), graph.BroadcastToDims(row, dims...), cache)
}

// linear returns x·w + b. Shape: [batch, seq, d_in] x [d_in, d_out] → [batch, seq, d_out].
func linear(x, w, b *graph.Node) *graph.Node {
	y := graph.Einsum("bsi,io->bso", x, w)
	return graph.Add(y, graph.Reshape(b, 1, 1, b.Shape().Dim(0))) // bias [1, 1, d_out]
}

// stepModel is [Config.Step] as a model function: inputs {tokens, pos,
// K₀, V₀, …} → {logits, K₀, V₀, …}.
func (c Config) stepModel() func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
	return func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
		logits, caches := c.Step(c.Params(scope, inputs[0].Graph()), inputs[0], inputs[1], inputs[2:])
		return append([]*graph.Node{logits}, caches...)
	}
}

// tensorShape is a float32 shape of dims.
func tensorShape(dims ...int) shapes.Shape { return shapes.Make(dtypes.Float32, dims...) }
