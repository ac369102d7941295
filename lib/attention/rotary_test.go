package attention_test

import (
	"math"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/posenc"
	"github.com/attention-in-go/course/lib/random"
)

// TestMultiHeadRotationMatchesReference runs MultiHead with RoPE
// (posenc.RotaryOf) and, in one case, ALiBi's bias too, and compares with
// the float64 reference that rotates each head's d_k columns of Q and K
// (not the values, not the d_model columns before the split) with
// posenc.Rotary, each by its own positions.
func TestMultiHeadRotationMatchesReference(t *testing.T) {
	tests := []struct {
		name        string
		heads, d    int
		qPos, kPos  []int
		causal      bool
		alibi       bool
		wantChanged bool // the rotation must change the weights (it does unless every position is 0)
	}{
		{"self-attention 2 heads of 8", 2, 16, []int{0, 1, 2, 3, 4}, []int{0, 1, 2, 3, 4}, true, false, true},
		{"one head of 8", 1, 8, []int{0, 1, 2, 3}, []int{0, 1, 2, 3}, false, false, true},
		{"cross: queries at 10…12, keys at 0…5", 4, 16, []int{10, 11, 12}, []int{0, 1, 2, 3, 4, 5}, false, false, true},
		{"RoPE and ALiBi with the causal mask", 4, 16, []int{0, 1, 2, 3, 4, 5}, []int{0, 1, 2, 3, 4, 5}, true, true, true},
		{"every position 0: no rotation", 2, 8, []int{0, 0, 0}, []int{0, 0, 0}, false, false, false},
	}
	rotate := func(x, positions *graph.Node) *graph.Node { return posenc.RotaryOf(x, positions, posenc.DefaultBase) }
	for n, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := random.New(uint32(70 + n))
			q, kv := r.Normal(len(tc.qPos), tc.d), r.Normal(len(tc.kPos), tc.d)
			w := attention.NewMultiHeadWeights(tc.d, uint32(n))
			for i := range w.BQ {
				w.BQ[i], w.BK[i] = 0.1*float64(i%3), -0.05*float64(i%2)
			}
			var masked func(i, j int) bool
			if tc.causal {
				masked = func(i, j int) bool { return j > i }
			}
			var bias [][][]float64
			if tc.alibi {
				bias = posenc.ALiBi(tc.heads, tc.qPos, tc.kPos)
			}
			outs := graph.MustExecOnceN(backend.Default(), func(x, y, qp, kp *graph.Node) []*graph.Node {
				g := x.Graph()
				b := attention.MultiHead(x, y, y, tc.heads, w.Params(g)).WithRotation(rotate, qp, kp)
				plain := attention.MultiHead(x, y, y, tc.heads, w.Params(g))
				if tc.causal {
					b = b.WithMask(attention.LookAheadMask(g, len(tc.qPos)))
					plain = plain.WithMask(attention.LookAheadMask(g, len(tc.qPos)))
				}
				if tc.alibi {
					b = b.WithBias(posenc.ALiBiOf(tc.heads, qp, kp))
				}
				s := b.Steps()
				_, plainW := plain.Done()
				return []*graph.Node{s.Output, s.Weights, plainW}
			}, batch1(q), batch1(kv), int32s(tc.qPos), int32s(tc.kPos))
			rot := func(x [][]float64, query bool) [][]float64 {
				if query {
					return posenc.Rotary(x, tc.qPos, posenc.DefaultBase)
				}
				return posenc.Rotary(x, tc.kPos, posenc.DefaultBase)
			}
			wantOut, wantW := attention.RefMultiHeadWith(q, kv, tc.heads, w, masked, bias, rot)
			gotOut, gotW, plainW := flat(outs[0]), flat(outs[1]), flat(outs[2])
			seqQ, seqK := len(tc.qPos), len(tc.kPos)
			for i := range seqQ {
				for c := range tc.d {
					if g := gotOut[i*tc.d+c]; math.Abs(g-wantOut[i][c]) > 1e-5 {
						t.Errorf("output[%d][%d] = %.7f, want %.7f", i, c, g, wantOut[i][c])
					}
				}
			}
			changed := 0.0
			for h := range tc.heads {
				for i := range seqQ {
					for j := range seqK {
						at := (h*seqQ+i)*seqK + j
						if math.Abs(gotW[at]-wantW[h][i][j]) > 1e-5 {
							t.Errorf("head %d weights[%d][%d] = %.7f, want %.7f", h, i, j, gotW[at], wantW[h][i][j])
						}
						changed = max(changed, math.Abs(gotW[at]-plainW[at]))
					}
				}
			}
			if tc.wantChanged != (changed > 1e-4) {
				t.Errorf("the rotation changes the weights by up to %g; want a change: %v", changed, tc.wantChanged)
			}
		})
	}
}

// batch1 is m as a float32 tensor [1, rows, cols].
func batch1(m [][]float64) *tensors.Tensor {
	var f []float32
	for _, row := range m {
		for _, x := range row {
			f = append(f, float32(x))
		}
	}
	return tensors.FromFlatDataAndDimensions(f, 1, len(m), len(m[0]))
}

func int32s(v []int) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

func flat(t *tensors.Tensor) []float64 {
	f := tensors.MustCopyFlatData[float32](t)
	out := make([]float64, len(f))
	for i, x := range f {
		out[i] = float64(x)
	}
	return out
}
