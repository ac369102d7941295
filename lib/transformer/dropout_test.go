package transformer

import (
	"math"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/backend"
)

// rowsOf copies a [batch, seq, d] tensor into rows of d.
func rowsOf(t *tensors.Tensor) [][]float64 {
	dims := t.Shape().Dimensions
	d := dims[len(dims)-1]
	flat := tensors.MustCopyFlatData[float32](t)
	out := make([][]float64, len(flat)/d)
	for i := range out {
		out[i] = make([]float64, d)
		for j := range d {
			out[i][j] = float64(flat[i*d+j])
		}
	}
	return out
}

// plainNorm is LayerNorm with γ = 1 and β = 0, in float64.
func plainNorm(z []float64) []float64 {
	mean, v := 0.0, 0.0
	for _, x := range z {
		mean += x
	}
	mean /= float64(len(z))
	for _, x := range z {
		v += (x - mean) * (x - mean)
	}
	v /= float64(len(z))
	out := make([]float64, len(z))
	for i, x := range z {
		out[i] = (x - mean) / math.Sqrt(v+LayerNormEpsilon)
	}
	return out
}

// masksExplaining looks for the dropout masks that explain one Add &
// Norm: want = LayerNorm(Σ_p keep_p ⊙ parts[p] · s_p) with s_p = 1/(1 −
// rate) for a dropped part and 1 for a kept one (kept[p]), trying every
// mask of every dropped part. It returns the number of zeros in the masks
// found, or −1 when no mask fits.
func masksExplaining(want []float64, parts [][]float64, dropped []bool, rate float64) int {
	d := len(want)
	var free []int
	for p := range parts {
		if dropped[p] {
			free = append(free, p)
		}
	}
	for bits := 0; bits < 1<<(d*len(free)); bits++ {
		z := make([]float64, d)
		zeros := 0
		for p, part := range parts {
			for j, x := range part {
				if !dropped[p] {
					z[j] += x
					continue
				}
				k := slicesIndex(free, p)
				if bits>>(k*d+j)&1 == 1 {
					z[j] += x / (1 - rate)
				} else {
					zeros++
				}
			}
		}
		got, ok := plainNorm(z), true
		for j := range got {
			if math.Abs(got[j]-want[j]) > 1e-4 {
				ok = false
				break
			}
		}
		if ok {
			return zeros
		}
	}
	return -1
}

func slicesIndex(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// TestResidualDropout: in a training graph, every Add & Norm of the
// encoder and decoder layers, and the encoder's input, is explained by
// dropout masks on the sublayer's output (and on the embeddings) scaled by
// 1/(1 − rate), before the residual addition — and about half the entries
// are dropped at rate 0.5. Dropout after the addition, without the
// rescaling, or on the residual path instead of the sublayer would not
// fit. Outside training, nothing is dropped.
func TestResidualDropout(t *testing.T) {
	const d, dFF, heads, rate = 4, 6, 2, 0.5
	cfg := Config{Vocab: 7, DModel: d, Heads: heads, DFF: dFF, Layers: 1, MaxLen: 4}
	run := func(training bool) []*tensors.Tensor {
		store := model.NewStore()
		store.SetParam(model.ParamInitialSeed, int64(11))
		exec, err := model.NewExec(backend.Default(), store, func(scope *model.Scope, tokens *graph.Node) []*graph.Node {
			g := tokens.Graph()
			scope.Store().SetTraining(g, training)
			p := EncoderParams{Embedding: embeddingVariable(scope.In("emb"), g, cfg.Vocab, d),
				Layers: []EncoderLayerParams{EncoderLayerVariables(scope.In("enc"), g, d, dFF)}}
			es := Encoder(tokens, cfg, p).WithDropout(scope, rate).Steps()
			ls := es.Layers[0]
			y := scope.RandomNormal(g, shapes.Make(dtypes.Float32, 2, 3, d))
			ds := DecoderLayer(y, es.Output, heads, DecoderLayerVariables(scope.In("dec"), g, d, dFF)).WithDropout(scope, rate).Steps()
			return []*graph.Node{es.Input, ls.Attention, ls.Norm1, ls.FFN, ls.Output,
				y, ds.SelfAttention, ds.Norm1, ds.CrossAttention, ds.Norm2, ds.FFN, ds.Output}
		})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Call(tensors.FromFlatDataAndDimensions([]int32{1, 2, 3, 4, 5, 6, 0, 1}, 2, 4))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, training := range []bool{true, false} {
		o := run(training)
		r := make([][][]float64, len(o))
		for i := range o {
			r[i] = rowsOf(o[i])
		}
		type addNorm struct {
			name          string
			out, res, sub int
			residualDrops bool
		}
		checks := []addNorm{
			{"encoder input + attention", 2, 0, 1, true},
			{"encoder FFN", 4, 2, 3, false},
			{"decoder self-attention", 7, 5, 6, false},
			{"decoder cross-attention", 9, 7, 8, false},
			{"decoder FFN", 11, 9, 10, false},
		}
		zeros, total := 0, 0
		for _, c := range checks {
			for row := range r[c.out] {
				parts := [][]float64{r[c.res][row], r[c.sub][row]}
				dropped := []bool{c.residualDrops, true}
				if !training {
					dropped = []bool{false, false}
				}
				z := masksExplaining(r[c.out][row], parts, dropped, rate)
				if z < 0 {
					t.Fatalf("training %v, %s, row %d: no dropout mask explains the output", training, c.name, row)
				}
				zeros += z
				for _, dr := range dropped {
					if dr {
						total += d
					}
				}
			}
		}
		if training && (zeros < total/4 || zeros > 3*total/4) {
			t.Errorf("training: %d of %d entries dropped at rate %g", zeros, total, rate)
		}
		if !training && zeros != 0 {
			t.Errorf("inference: %d entries dropped", zeros)
		}
	}
}

// TestEncoderDecoderDropoutOnlyWhileTraining: with Dropout 0.5, the
// training model's logits differ from Forward's in a training graph and
// equal them outside one, on the same weights; with Dropout 0 they are
// equal in both.
func TestEncoderDecoderDropoutOnlyWhileTraining(t *testing.T) {
	src, tgt := ints([]int32{2, 3, 4, 0}, []int32{5, 6, 0, 0}), ints([]int32{1, 2, 3}, []int32{1, 4, 0})
	for _, rate := range []float64{0, 0.5} {
		c := tiny
		c.Dropout = rate
		store := model.NewStore()
		store.SetParam(model.ParamInitialSeed, int64(3))
		run := func(training bool, m func(*model.Scope, []*graph.Node) []*graph.Node) []float32 {
			exec, err := model.NewExec(backend.Default(), store, func(scope *model.Scope, s, tg *graph.Node) *graph.Node {
				scope.Store().SetTraining(s.Graph(), training)
				return m(scope, []*graph.Node{s, tg})[0]
			})
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.Call(src, tgt)
			if err != nil {
				t.Fatal(err)
			}
			return tensors.MustCopyFlatData[float32](out[0])
		}
		plain := run(false, c.InspectModel())
		for _, training := range []bool{false, true} {
			got := run(training, c.TrainModel())
			same := slices.Equal(got, plain)
			if want := !(training && rate > 0); same != want {
				t.Errorf("dropout %g, training %v: logits equal to Forward's: %v, want %v", rate, training, same, want)
			}
		}
	}
}
