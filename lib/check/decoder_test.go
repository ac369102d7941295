package check

import (
	"testing"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/transformer"
)

// decoderWith builds a decoder layer with the given mistakes, as a
// learner would write it with the course's graph functions. noResidual
// drops the residual of sublayer 1, 2 or 3, or of all of them (allSublayers).
func decoderWith(noMask, preNorm bool, noResidual int, ignoreMemory, crossOnX bool) decoderFunc {
	return func(x, memory *graph.Node, heads int, self, cross attention.MultiHeadParams, ffn transformer.FFNParams, norms [3]transformer.LayerNormParams) *graph.Node {
		sub := func(at int, in *graph.Node, norm transformer.LayerNormParams, f func(*graph.Node) *graph.Node) *graph.Node {
			switch {
			case preNorm:
				return graph.Add(in, f(transformer.LayerNorm(in, norm)))
			case noResidual == at || noResidual == allSublayers:
				return transformer.LayerNorm(f(in), norm)
			}
			return transformer.AddNorm(in, f(in), norm)
		}
		y := sub(1, x, norms[0], func(in *graph.Node) *graph.Node {
			b := attention.MultiHead(in, in, in, heads, self)
			if !noMask {
				b = b.WithMask(attention.LookAheadMask(x.Graph(), x.Shape().Dimensions[1]))
			}
			out, _ := b.Done()
			return out
		})
		z := sub(2, y, norms[1], func(in *graph.Node) *graph.Node {
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
		return sub(3, z, norms[2], func(in *graph.Node) *graph.Node { return transformer.FFN(in, ffn) })
	}
}

const allSublayers = 9

func TestDecoderHints(t *testing.T) {
	expectHints(t, decoderSpec, decoderWith(false, false, 0, false, false), []hintCase[decoderFunc]{
		{"no look-ahead mask", "future-leaks", decoderWith(true, false, 0, false, false)},
		{"pre-norm", "pre-norm", decoderWith(false, true, 0, false, false)},
		{"no residual", "no-residual", decoderWith(false, false, allSublayers, false, false)},
		{"no residual around the self-attention", "no-residual-self", decoderWith(false, false, 1, false, false)},
		{"no residual around the cross-attention", "no-residual-cross", decoderWith(false, false, 2, false, false)},
		{"no residual around the FFN", "no-residual-ffn", decoderWith(false, false, 3, false, false)},
		{"self instead of cross", "memory-ignored", decoderWith(false, false, 0, true, false)},
		{"cross queries from x", "cross-queries-from-x", decoderWith(false, false, 0, false, true)},
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
