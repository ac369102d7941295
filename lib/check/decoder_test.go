package check

import (
	"testing"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/transformer"
)

// decoderWith builds a decoder layer with the given mistakes, as a
// learner would write it with the course's graph functions.
func decoderWith(noMask, preNorm, noResidual, ignoreMemory, crossOnX bool) decoderFunc {
	return func(x, memory *graph.Node, heads int, self, cross attention.MultiHeadParams, ffn transformer.FFNParams, norms [3]transformer.LayerNormParams) *graph.Node {
		sub := func(in *graph.Node, norm transformer.LayerNormParams, f func(*graph.Node) *graph.Node) *graph.Node {
			switch {
			case preNorm:
				return graph.Add(in, f(transformer.LayerNorm(in, norm)))
			case noResidual:
				return transformer.LayerNorm(f(in), norm)
			}
			return transformer.AddNorm(in, f(in), norm)
		}
		y := sub(x, norms[0], func(in *graph.Node) *graph.Node {
			b := attention.MultiHead(in, in, in, heads, self)
			if !noMask {
				b = b.WithMask(attention.LookAheadMask(x.Graph(), x.Shape().Dimensions[1]))
			}
			out, _ := b.Done()
			return out
		})
		z := sub(y, norms[1], func(in *graph.Node) *graph.Node {
			q, kv := in, memory
			if crossOnX {
				q = x
			}
			if ignoreMemory {
				kv = in
			}
			out, _ := attention.MultiHead(q, kv, kv, heads, cross).Done()
			return out
		})
		return sub(z, norms[2], func(in *graph.Node) *graph.Node { return transformer.FFN(in, ffn) })
	}
}

func TestDecoderHints(t *testing.T) {
	expectHints(t, decoderSpec, decoderWith(false, false, false, false, false), []hintCase[decoderFunc]{
		{"no look-ahead mask", "future-leaks", decoderWith(true, false, false, false, false)},
		{"pre-norm", "pre-norm", decoderWith(false, true, false, false, false)},
		{"no residual", "no-residual", decoderWith(false, false, true, false, false)},
		{"self instead of cross", "memory-ignored", decoderWith(false, false, false, true, false)},
		{"cross queries from x", "cross-queries-from-x", decoderWith(false, false, false, false, true)},
	})
	for name, f := range map[string]decoderFunc{
		"nil": func(x, m *graph.Node, h int, s, c attention.MultiHeadParams, f transformer.FFNParams, n [3]transformer.LayerNormParams) *graph.Node {
			return nil
		},
		"wrong rank": func(x, m *graph.Node, h int, s, c attention.MultiHeadParams, f transformer.FFNParams, n [3]transformer.LayerNormParams) *graph.Node {
			return graph.ReduceSum(x, -1)
		},
		"stub": func(x, m *graph.Node, h int, s, c attention.MultiHeadParams, f transformer.FFNParams, n [3]transformer.LayerNormParams) *graph.Node {
			panic("TODO: exercise decoder-layer")
		},
	} {
		if res := decoderSpec.Run(f, true); res.Points != 0 {
			t.Errorf("%s: %v points:\n%s", name, res.Points, res.Report())
		}
	}
}
