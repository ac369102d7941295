package seq2seq

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/train"
)

func TestReverseTask(t *testing.T) {
	e, err := ReverseTask(300, 3, 7, 9, 5)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for i, l := range e.Lens {
		seen[l] = true
		if l < 3 || l > 7 {
			t.Fatalf("example %d has length %d, want 3…7", i, l)
		}
		src, in, out := e.Src[i], e.TgtIn[i], e.TgtOut[i]
		if len(src) != 9 || len(in) != 9 || len(out) != 9 {
			t.Fatalf("example %d: widths %d %d %d, want 9", i, len(src), len(in), len(out))
		}
		for k := range 9 {
			if k < l {
				if src[k] < Digit0 || src[k] >= Vocab {
					t.Fatalf("example %d: source id %d at %d is not a digit", i, src[k], k)
				}
				if out[k] != src[l-1-k] {
					t.Fatalf("example %d: target %s is not the reverse of %s", i, Digits(out), Digits(src))
				}
			} else if src[k] != Pad || out[k] != Pad {
				t.Fatalf("example %d: position %d past length %d is not padding: %s / %s", i, k, l, Digits(src), Digits(out))
			}
		}
		if in[0] != Start || (l > 1 && in[1] != out[0]) || (l < 9 && in[l] != Pad) {
			t.Fatalf("example %d: decoder input %s is not ^ + target shifted right (target %s)", i, Digits(in), Digits(out))
		}
	}
	if len(seen) != 5 {
		t.Errorf("lengths seen %v, want all of 3…7", seen)
	}
	again, _ := ReverseTask(300, 3, 7, 9, 5)
	other, _ := ReverseTask(300, 3, 7, 9, 6)
	if fmt.Sprint(again.Src) != fmt.Sprint(e.Src) {
		t.Error("the same seed gave different examples")
	}
	if fmt.Sprint(other.Src) == fmt.Sprint(e.Src) {
		t.Error("seeds 5 and 6 gave the same examples")
	}
	if _, err := ReverseTask(10, 5, 4, 9, 1); err == nil {
		t.Error("minLen > maxLen: want an error")
	}
}

func TestDigits(t *testing.T) {
	if got, want := Digits([]int32{Start, Digit0 + 3, Digit0, Pad}), "^ 3 0 ·"; got != want {
		t.Errorf("Digits = %q, want %q", got, want)
	}
}

// TestLossMatchesFloat64 checks the masked cross-entropy against a loop.
func TestLossMatchesFloat64(t *testing.T) {
	logits := [][][]float32{{{0.5, -1, 2}, {1, 1, 0}}, {{-0.3, 0.2, 0.7}, {3, -2, 0.1}}}
	tgt := [][]int32{{2, 1}, {1, Pad}}
	want, n := 0.0, 0
	for b := range tgt {
		for s, y := range tgt[b] {
			if y == Pad {
				continue
			}
			z := logits[b][s]
			lse := math.Log(math.Exp(float64(z[0])) + math.Exp(float64(z[1])) + math.Exp(float64(z[2])))
			want += lse - float64(z[y])
			n++
		}
	}
	want /= float64(n)
	got := graph.MustExecOnce(backend.Default(), func(tg, lg *graph.Node) *graph.Node { return Loss(tg, lg) },
		tensors.FromValue(tgt), tensors.FromValue(logits))
	if g := float64(tensors.ToScalar[float32](got)); math.Abs(g-want) > 1e-5 {
		t.Errorf("Loss = %.6f, want %.6f (mean over the 3 real tokens)", g, want)
	}
}

// TestSmoothedLossMatchesFloat64: label smoothing puts 1 − ε on the true
// id and ε/V on every id, averaged over the real tokens only. Spreading
// ε over V − 1 ids, counting the padding or leaving ε on the true id out
// would each give another number.
func TestSmoothedLossMatchesFloat64(t *testing.T) {
	logits := [][][]float32{{{0.5, -1, 2, 0}, {1, 1, 0, -2}}, {{-0.3, 0.2, 0.7, 1.5}, {3, -2, 0.1, 0.4}}}
	tgt := [][]int32{{2, 1}, {3, Pad}}
	for _, eps := range []float64{0, 0.1, 0.4} {
		want, n := 0.0, 0
		for b := range tgt {
			for s, y := range tgt[b] {
				if y == Pad {
					continue
				}
				z, lse := logits[b][s], 0.0
				for _, v := range z {
					lse += math.Exp(float64(v))
				}
				lse = math.Log(lse)
				for v := range z {
					q := eps / float64(len(z))
					if v == int(y) {
						q += 1 - eps
					}
					want += q * (lse - float64(z[v]))
				}
				n++
			}
		}
		want /= float64(n)
		got := graph.MustExecOnce(backend.Default(), func(tg, lg *graph.Node) *graph.Node {
			return SmoothedLoss(eps)([]*graph.Node{tg}, []*graph.Node{lg})
		}, tensors.FromValue(tgt), tensors.FromValue(logits))
		if g := float64(tensors.ToScalar[float32](got)); math.Abs(g-want) > 1e-5 {
			t.Errorf("SmoothedLoss(%g) = %.6f, want %.6f", eps, g, want)
		}
	}
}

// run builds a model graph on a fresh seeded store and returns its outputs.
func runModel(t *testing.T, fn func(scope *model.Scope, src, tgtIn *graph.Node) []*graph.Node, e *Examples) []*tensors.Tensor {
	t.Helper()
	store := model.NewStore()
	store.SetParam(model.ParamInitialSeed, int64(4))
	src := tensors.FromFlatDataAndDimensions(flat(e.Src), len(e.Src), e.Width)
	in := tensors.FromFlatDataAndDimensions(flat(e.TgtIn), len(e.Src), e.Width)
	out, err := model.CallOnceN(backend.Default(), store, fn, src, in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestShapesAndAttentionMask(t *testing.T) {
	e, _ := ReverseTask(3, 2, 5, 6, 2)
	for _, cfg := range []Config{
		{Hidden: 8, Embed: 4},
		{Hidden: 8, Embed: 4, Attention: true},
		{Hidden: 8, Embed: 4, Attention: true, Score: attention.Dot, Luong: true},
		{Hidden: 8, Embed: 4, Attention: true, Score: attention.General},
		{Hidden: 8, Embed: 4, Attention: true, Score: attention.Concat, AttnSize: 5},
	} {
		t.Run(cfg.String(), func(t *testing.T) {
			out := runModel(t, func(scope *model.Scope, src, tgtIn *graph.Node) []*graph.Node {
				logits, w := TeacherForced(scope, cfg, src, tgtIn)
				if w == nil {
					w = graph.Zeros(src.Graph(), logits.Shape()) // placeholder
				}
				return []*graph.Node{logits, w}
			}, e)
			if got := fmt.Sprint(out[0].Shape().Dimensions); got != "[3 6 12]" {
				t.Errorf("logits shape %s, want [3 6 12]", got)
			}
			if !cfg.Attention {
				return
			}
			if got := fmt.Sprint(out[1].Shape().Dimensions); got != "[3 6 6]" {
				t.Fatalf("weights shape %s, want [3 6 6]", got)
			}
			w := tensors.MustCopyFlatData[float32](out[1])
			for b, l := range e.Lens {
				for s := range 6 {
					sum := 0.0
					for k := range 6 {
						v := float64(w[(b*6+s)*6+k])
						sum += v
						if k >= l && v != 0 {
							t.Fatalf("example %d step %d: weight %v on padding position %d (length %d)", b, s, v, k, l)
						}
					}
					if math.Abs(sum-1) > 1e-5 {
						t.Fatalf("example %d step %d: weights sum to %v, want 1", b, s, sum)
					}
				}
			}
		})
	}
}

// TestGreedyFollowsTeacherForcing checks that greedy decoding feeds back
// its own argmax: teacher forcing with the greedy output as decoder input
// must give logits whose argmax is that same output.
func TestGreedyFollowsTeacherForcing(t *testing.T) {
	e, _ := ReverseTask(4, 3, 6, 6, 8)
	cfg := Config{Hidden: 8, Embed: 4, Attention: true}
	out := runModel(t, func(scope *model.Scope, src, _ *graph.Node) []*graph.Node {
		toks, _ := Greedy(scope, cfg, src, 6)
		start := graph.BroadcastToDims(graph.Const(src.Graph(), int32(Start)), 4, 1)
		in := graph.Concatenate([]*graph.Node{start, graph.Slice(toks, graph.AxisRange(), graph.AxisRange(0, 5))}, 1) // Shape: [4, 1] + [4, 5] → [4, 6]
		logits, _ := TeacherForced(scope, cfg, src, in)
		return []*graph.Node{toks, graph.ArgMax(logits, -1, toks.DType())}
	}, e)
	g, tf := tensors.MustCopyFlatData[int32](out[0]), tensors.MustCopyFlatData[int32](out[1])
	if fmt.Sprint(g) != fmt.Sprint(tf) {
		t.Errorf("greedy tokens %v, argmax under teacher forcing with them %v; want equal", g, tf)
	}
}

// TestAttentionBeatsBottleneck is the lesson's outcome at a size that runs
// in about 15 s: with a state of 32 numbers, the model without attention
// cannot carry 10 digits (measured 45% of them right), the model with
// attention can (99.5%). Skipped with -short.
func TestAttentionBeatsBottleneck(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two models")
	}
	e, _ := ReverseTask(3000, 2, 10, 10, 3)
	test, _ := ReverseTask(200, 10, 10, 10, 77)
	acc := map[bool]float64{}
	for _, att := range []bool{false, true} {
		cfg := Config{Hidden: 32, Embed: 8, Attention: att}
		tr, err := train.Fit(train.Config{Steps: 400, BatchSize: 64, LearningRate: 0.005, Seed: 2, Quiet: true},
			cfg.TrainModel(), TrainLoss, e.Dataset("reverse-10"))
		if err != nil {
			t.Fatal(err)
		}
		d, err := Decode(tr.Store, cfg, test)
		if err != nil {
			t.Fatal(err)
		}
		acc[att] = Accuracy(test, d).Token
		t.Logf("%s: token accuracy at length 10 = %.3f (final loss %.4f, %s)", cfg, acc[att], tr.History.FinalLoss(), tr.History.Wall)
	}
	if acc[true] < 0.9 || acc[false] > 0.75 {
		t.Errorf("token accuracy at length 10: with attention %.3f (want ≥ 0.9), without %.3f (want ≤ 0.75)", acc[true], acc[false])
	}
}

func TestCurveChecks(t *testing.T) {
	c := &Curve{Name: "m", Points: []LengthPoint{{Len: 3, Correct: Correct{Token: 0.97}}, {Len: 12, Correct: Correct{Token: 0.5}}}}
	cases := []struct {
		err  error
		want string
	}{
		{c.AtLeast(3, 0.95), ""},
		{c.AtLeast(12, 0.9), "50.0% of the tokens right at length 12, expected at least 90%"},
		{c.AtMost(12, 0.75), ""},
		{c.AtMost(3, 0.75), "expected at most 75%"},
	}
	for i, tc := range cases {
		got := ""
		if tc.err != nil {
			got = tc.err.Error()
		}
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("case %d: error %q, want %q", i, got, tc.want)
		}
	}
}

// TrainAll gives, in the order asked, the models Train gives one at a time.
func TestTrainAllEqualsTrain(t *testing.T) {
	t.Setenv("COURSE_CACHE", t.TempDir())
	x := Lesson06
	x.Quiet, x.Steps, x.Examples = true, 6, 400
	cfgs := []Config{x.Config(true), x.Config(false)}
	all, err := x.TrainAll(cfgs...)
	if err != nil {
		t.Fatal(err)
	}
	for i, cfg := range cfgs {
		alone, err := x.Train(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := all[i].History, alone.History; got.Name != want.Name || fmt.Sprint(got.Loss) != fmt.Sprint(want.Loss) {
			t.Errorf("TrainAll[%d] = %s %v, Train(%s) = %s %v", i, got.Name, got.Loss, cfg, want.Name, want.Loss)
		}
	}
}
