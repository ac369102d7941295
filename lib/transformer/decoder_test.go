package transformer

import (
	"fmt"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// decoderWeights are the float64 weights of one decoder layer.
type decoderWeights struct {
	self, cross *attention.MultiHeadWeights
	ffn         *FFNWeights
	norms       [3]*LayerNormWeights
}

// newDecoderWeights draws a layer's weights with non-zero biases and
// LayerNorm parameters away from 1 and 0, so that a missing bias or norm
// shows.
func newDecoderWeights(d, dff int, seed uint32) decoderWeights {
	a := NewEncoderLayerWeights(d, dff, seed)
	perturb(a, seed+1)
	b := NewEncoderLayerWeights(d, dff, seed+2)
	perturb(b, seed+3)
	return decoderWeights{self: a.Attention, cross: b.Attention, ffn: a.FFN, norms: [3]*LayerNormWeights{a.Norm1, b.Norm1, a.Norm2}}
}

func (w decoderWeights) params(g *graph.Graph) DecoderLayerParams {
	return DecoderLayerParams{
		SelfAttention: w.self.Params(g), Norm1: w.norms[0].Params(g),
		CrossAttention: w.cross.Params(g), Norm2: w.norms[1].Params(g),
		FFN: w.ffn.Params(g), Norm3: w.norms[2].Params(g),
	}
}

// decoderVariant says which parts the reference leaves out, to show that
// the test notices a missing part.
type decoderVariant struct{ noCausal, selfForCross bool }

// refDecoderLayer is one post-norm decoder layer on one sequence, written
// with the float64 loops of reference_test.go: causal self-attention,
// Add & Norm, cross-attention over memory (source positions with
// memPad[j] excluded), Add & Norm, FFN, Add & Norm.
func refDecoderLayer(y, memory [][]float64, heads int, w decoderWeights, memPad []bool, v decoderVariant) (out [][]float64, self, cross [][][]float64) {
	addNorm := func(a, b [][]float64, n *LayerNormWeights) [][]float64 {
		s := make([][]float64, len(a))
		for i := range a {
			s[i] = make([]float64, len(a[i]))
			for j := range a[i] {
				s[i][j] = a[i][j] + b[i][j]
			}
		}
		return refLayerNorm(s, n.Gamma, n.Beta)
	}
	causal := func(i, j int) bool { return j > i }
	if v.noCausal {
		causal = nil
	}
	a, self := refMultiHead(y, y, heads, w.self, causal)
	u := addNorm(y, a, w.norms[0])
	kv := memory
	if v.selfForCross {
		kv = u
	}
	c, cross := refMultiHead(u, kv, heads, w.cross, func(_, j int) bool { return !v.selfForCross && memPad[j] })
	x := addNorm(u, c, w.norms[1])
	f, _ := refFFN(x, w.ffn)
	return addNorm(x, f, w.norms[2]), self, cross
}

// tensor3 stacks equal-sized matrices into a float32 tensor [n, rows, cols].
func tensor3(ms [][][]float64) *tensors.Tensor {
	var flat []float32
	for _, m := range ms {
		for _, row := range m {
			for _, x := range row {
				flat = append(flat, float32(x))
			}
		}
	}
	return tensors.FromFlatDataAndDimensions(flat, len(ms), len(ms[0]), len(ms[0][0]))
}

func TestDecoderLayerMatchesReference(t *testing.T) {
	tests := []struct{ tgt, src, d, heads, dff int }{{4, 6, 8, 2, 16}, {5, 3, 6, 3, 10}, {1, 4, 4, 1, 8}}
	for n, tc := range tests {
		t.Run(fmt.Sprintf("tgt=%d,src=%d,d=%d,heads=%d", tc.tgt, tc.src, tc.d, tc.heads), func(t *testing.T) {
			r := random.New(uint32(60 + n))
			ys := [][][]float64{r.Normal(tc.tgt, tc.d), r.Normal(tc.tgt, tc.d)}
			mems := [][][]float64{r.Normal(tc.src, tc.d), r.Normal(tc.src, tc.d)}
			// The second sequence's source ends in padding.
			pads := [][]bool{make([]bool, tc.src), make([]bool, tc.src)}
			pads[1][tc.src-1] = true
			padMask := make([][]float64, 2)
			for b := range padMask {
				padMask[b] = make([]float64, tc.src)
				for j, p := range pads[b] {
					if p {
						padMask[b][j] = 1
					}
				}
			}
			w := newDecoderWeights(tc.d, tc.dff, uint32(70+n))
			outs, err := eager.Run("transformer", func(in []*graph.Node) []*graph.Node {
				memMask := graph.InsertAxes(in[2], 1) // Shape: [batch, src] → [batch, 1, src]
				out, self, cross := DecoderLayer(in[0], in[1], tc.heads, w.params(in[0].Graph())).WithMemoryMask(memMask).Done()
				return []*graph.Node{out, self, cross}
			}, tensor3(ys), tensor3(mems), eager.Bools(padMask))
			if err != nil {
				t.Fatal(err)
			}
			gotOut, gotSelf, gotCross := eager.Matrices(outs[0]), eager.Matrices(outs[1]), eager.Matrices(outs[2])
			for b := range ys {
				want, wantSelf, wantCross := refDecoderLayer(ys[b], mems[b], tc.heads, w, pads[b], decoderVariant{})
				assertClose(t, fmt.Sprintf("sequence %d: output", b), gotOut[b], want, 1e-4)
				for h := range tc.heads {
					assertClose(t, fmt.Sprintf("sequence %d, head %d: self-attention weights", b, h), gotSelf[b*tc.heads+h], wantSelf[h], 1e-5)
					assertClose(t, fmt.Sprintf("sequence %d, head %d: cross-attention weights", b, h), gotCross[b*tc.heads+h], wantCross[h], 1e-5)
				}
				// A layer without the causal mask, or one whose second
				// attention reads the decoder instead of the memory, is far
				// from the reference, so the comparison above would fail.
				for _, v := range []decoderVariant{{noCausal: true}, {selfForCross: true}} {
					if tc.tgt == 1 && v.noCausal {
						continue // one token: the causal mask changes nothing
					}
					broken, _, _ := refDecoderLayer(ys[b], mems[b], tc.heads, w, pads[b], v)
					if d := maxDiff(gotOut[b], broken); d < 0.05 {
						t.Errorf("sequence %d: the layer's output is within %g of a layer %+v; the test cannot tell them apart", b, d, v)
					}
				}
			}
		})
	}
}

// The self-attention is causal: changing the last target token changes no
// output before it.
func TestDecoderLayerIsCausal(t *testing.T) {
	const tgt, src, d, heads = 5, 4, 8, 2
	r := random.New(3)
	y, mem := r.Normal(tgt, d), r.Normal(src, d)
	changed := append([][]float64{}, y...)
	changed[tgt-1] = r.Normal(1, d)[0]
	w := newDecoderWeights(d, 16, 9)
	outs, err := eager.Run("transformer", func(in []*graph.Node) []*graph.Node {
		out, _, _ := DecoderLayer(in[0], in[1], heads, w.params(in[0].Graph())).Done()
		return []*graph.Node{out}
	}, tensor3([][][]float64{y, changed}), tensor3([][][]float64{mem, mem}))
	if err != nil {
		t.Fatal(err)
	}
	got := eager.Matrices(outs[0])
	if diff := maxDiff(got[0][:tgt-1], got[1][:tgt-1]); diff > 1e-6 {
		t.Errorf("changing the last target token moved an earlier output by %g: the self-attention looks ahead", diff)
	}
	if diff := maxDiff(got[0][tgt-1:], got[1][tgt-1:]); diff < 1e-3 {
		t.Errorf("changing the last target token moved its own output by only %g", diff)
	}
}

// TestDecoderLayerParamCount: the count PyTorch reports for
// nn.TransformerDecoderLayer(512, 8, 2048) — self_attn and multihead_attn
// (in_proj 3·512·512 + 3·512, out_proj 512·512 + 512 each), linear1
// (512·2048 + 2048), linear2 (2048·512 + 512), norm1–3 (2·512 each) —
// written out here, and the count of the weights the tests draw.
func TestDecoderLayerParamCount(t *testing.T) {
	attn := 3*512*512 + 3*512 + 512*512 + 512
	want := 2*attn + (512*2048 + 2048) + (2048*512 + 512) + 3*2*512
	if got := DecoderLayerParamCount(512, 2048); got != want || got != 4_204_032 {
		t.Errorf("DecoderLayerParamCount(512, 2048) = %d, want %d (4,204,032)", got, want)
	}
	w := newDecoderWeights(6, 10, 1)
	n := 0
	for _, m := range []*attention.MultiHeadWeights{w.self, w.cross} {
		for _, x := range [][][]float64{m.WQ, m.WK, m.WV, m.WO} {
			n += len(x) * len(x[0])
		}
		n += len(m.BQ) + len(m.BK) + len(m.BV) + len(m.BO)
	}
	n += len(w.ffn.W1)*len(w.ffn.W1[0]) + len(w.ffn.W2)*len(w.ffn.W2[0]) + len(w.ffn.B1) + len(w.ffn.B2)
	for _, l := range w.norms {
		n += len(l.Gamma) + len(l.Beta)
	}
	if got := DecoderLayerParamCount(6, 10); got != n {
		t.Errorf("DecoderLayerParamCount(6, 10) = %d, the weights hold %d", got, n)
	}
}
