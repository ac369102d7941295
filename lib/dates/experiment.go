package dates

import (
	"fmt"
	"strings"
	"time"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/seq2seq"
	"github.com/attention-in-go/course/lib/train"
	"github.com/attention-in-go/course/lib/viz"
)

// Experiment is lesson 07's measurement: the same small GRU
// encoder–decoder (lib/seq2seq, Bahdanau order) trained on the same dates
// once per attention score function, then decoded greedily on the test
// dates.
//
// Typical shapes: [Lesson07].
//
// Introduced in lesson 07.
type Experiment struct {
	// TrainSize and TestSize are the numbers of examples; TestFraction the share
	// of calendar days kept for the test set ([Generate]).
	TrainSize, TestSize int
	TestFraction        float64
	// Steps, Batch, LearningRate and Decay configure [train.Fit]; Seed
	// seeds the data and the initial weights.
	Steps, Batch int
	LearningRate float64
	Decay        train.Decay
	Seed         uint32
	// Embed and Hidden are the model sizes; AttnSize the size of the
	// additive and concat attention spaces.
	Embed, Hidden, AttnSize int
}

// Lesson07 is the experiment of lesson 07: 700 steps of Adam whose
// learning rate falls from 0.01 along a cosine (train.Config.Decay), which
// lets every score settle where it would otherwise still jump around its
// solution — with a constant rate the general score's exact match ranged
// from 94.2 % to 99.6 % over the kernel classes (AVX-512, AVX2, plain
// Go), with the decay each score gives the same accuracy on all three
// (docs/PERFORMANCE.md).
//
// Introduced in lesson 07.
var Lesson07 = Experiment{TrainSize: 8000, TestSize: 500, TestFraction: 0.2, Steps: 700, Batch: 32, LearningRate: 0.01,
	Decay: train.Cosine, Seed: 7, Embed: 16, Hidden: 32, AttnSize: 32}

// Config returns the seq2seq model of the experiment with the given score.
func (x Experiment) Config(kind attention.ScoreKind) seq2seq.Config {
	return seq2seq.Config{SrcVocab: SourceVocab.Size(), TgtVocab: TargetVocab.Size(), Start: int(TargetVocab.Start),
		Embed: x.Embed, Hidden: x.Hidden, Attention: true, Score: kind, AttnSize: x.AttnSize}
}

// Name is the checkpoint name of the model with the given score.
func (x Experiment) Name(kind attention.ScoreKind) string { return "lesson07-dates-" + string(kind) }

// Task generates the experiment's examples (the same on every call).
func (x Experiment) Task() *Task {
	t, err := Generate(x.TrainSize, x.TestSize, x.TestFraction, x.Seed)
	if err != nil {
		panic(err) // the experiment's own sizes are valid
	}
	return t
}

// Dataset returns the training examples for [train.Fit]: inputs source
// and decoder input, label the target.
func (x Experiment) Dataset() (*train.Dataset, error) {
	a, err := ToArrays(x.Task().Train)
	if err != nil {
		return nil, err
	}
	return &train.Dataset{Name: "dates",
		Inputs: []train.Column{train.Ints(flat(a.Src), SourceWidth), train.Ints(flat(a.TgtIn), TargetWidth)},
		Labels: []train.Column{train.Ints(flat(a.TgtOut), TargetWidth)}}, nil
}

func (x Experiment) trainConfig(name string) train.Config {
	return train.Config{Name: name, Steps: x.Steps, BatchSize: x.Batch, LearningRate: x.LearningRate, Decay: x.Decay, Seed: uint64(x.Seed)}
}

// Train trains the model with the given score from scratch and saves it
// under [Experiment.Name] (see [train.Fit]).
func (x Experiment) Train(kind attention.ScoreKind) (*train.Trained, error) {
	return x.fit(kind, x.Name(kind))
}

// TrainAll trains a model of every kind from scratch, as
// [Experiment.Train] does, as many at a time as the machine has cores
// ([train.Concurrently]): each model is the one it would be trained alone.
// The results are in the order of kinds.
//
// Introduced in lesson 07.
func (x Experiment) TrainAll(kinds ...attention.ScoreKind) ([]*train.Trained, error) {
	return train.Concurrently(len(kinds), func(i int) (*train.Trained, error) { return x.Train(kinds[i]) })
}

func (x Experiment) fit(kind attention.ScoreKind, name string) (*train.Trained, error) {
	data, err := x.Dataset()
	if err != nil {
		return nil, err
	}
	data.Name = x.Name(kind)
	cfg := x.trainConfig(name)
	cfg.Quiet = name == ""
	return train.Fit(cfg, x.Config(kind).TrainModel(), seq2seq.TrainLoss, data)
}

// Load returns the model saved by [Experiment.Train], training it first
// when there is none.
func (x Experiment) Load(kind attention.ScoreKind) (*train.Trained, error) {
	data, err := x.Dataset()
	if err != nil {
		return nil, err
	}
	return train.LoadOrFit(x.trainConfig(x.Name(kind)), x.Config(kind).TrainModel(), seq2seq.TrainLoss, data)
}

// Translation is the greedy output of a model on one example, with the
// attention weights of every output step.
//
// Typical shapes: Weights [10][17] (output characters × source
// characters).
//
// Introduced in lesson 07.
type Translation struct {
	Example
	Output  string
	Weights [][]float64
}

// Right reports whether the whole output is the expected ISO date.
func (t Translation) Right() bool { return t.Output == t.Target }

// Translate decodes examples greedily with a trained model (see
// [seq2seq.Greedy]) and returns the outputs and attention weights.
//
// Introduced in lesson 07.
func Translate(store *model.Store, cfg seq2seq.Config, examples []Example) ([]Translation, error) {
	a, err := ToArrays(examples)
	if err != nil {
		return nil, err
	}
	p, err := train.NewPredictor(store, cfg.GreedyModel(TargetWidth))
	if err != nil {
		return nil, err
	}
	out := make([]Translation, 0, len(examples))
	const chunk = 250
	for from := 0; from < len(examples); from += chunk {
		to := min(from+chunk, len(examples))
		src := tensors.FromFlatDataAndDimensions(flat(a.Src[from:to]), to-from, SourceWidth)
		res, err := p.Predict(src)
		if err != nil {
			return nil, fmt.Errorf("dates.Translate: %w", err)
		}
		toks := tensors.MustCopyFlatData[int32](res[0]) // [n, 10]
		ws := tensors.MustCopyFlatData[float32](res[1]) // [n, 10, 17]
		for b := range to - from {
			tr := Translation{Example: examples[from+b], Output: TargetVocab.Decode(toks[b*TargetWidth : (b+1)*TargetWidth])}
			tr.Weights = make([][]float64, TargetWidth)
			for t := range TargetWidth {
				tr.Weights[t] = make([]float64, SourceWidth)
				for s := range SourceWidth {
					tr.Weights[t][s] = float64(ws[(b*TargetWidth+t)*SourceWidth+s])
				}
			}
			out = append(out, tr)
		}
	}
	return out, nil
}

// Accuracy is the fraction of translations whose whole output is right
// (exact match).
//
// Introduced in lesson 07.
func Accuracy(ts []Translation) float64 {
	right := 0
	for _, t := range ts {
		if t.Right() {
			right++
		}
	}
	return float64(right) / float64(max(len(ts), 1))
}

// Target spans of the ISO output "2026-11-22": which output characters
// write which field.
var (
	isoYear  = Span{0, 4}
	isoMonth = Span{5, 7}
	isoDay   = Span{8, 10}
)

// Alignment is how much attention the output characters of each field
// put on the source characters of the same field, averaged over
// examples: with a weight matrix A [output char t][source char s],
//
//	mass(field) = mean over the output characters t of the field of Σ_{s in the field's source span} A[t][s]
//
// 1 means the year digits of "2026-11-22" look only at the year of
// "Sun, 22 Nov 2026", the month digits only at "Nov", the day digits
// only at "22". The dashes have no field and are left out of All.
//
// The encoder reads left to right, so its state at the character just
// after a field (the "/" after "22", the space after "Nov") has read the
// whole field and is as useful as the field itself. Next is All with
// every source span extended by that one character.
//
// Introduced in lesson 07.
type Alignment struct {
	Year, Month, Day, All float64
	Next                  float64
}

// Aligned measures [Alignment] over translations.
//
// Introduced in lesson 07.
func Aligned(ts []Translation) Alignment {
	var a Alignment
	for _, t := range ts {
		y := spanMass(t.Weights, isoYear, t.Year)
		m := spanMass(t.Weights, isoMonth, t.Month)
		d := spanMass(t.Weights, isoDay, t.Day)
		a.Year, a.Month, a.Day = a.Year+y, a.Month+m, a.Day+d
		a.All += (4*y + 2*m + 2*d) / 8
		next := func(s Span) Span { return Span{s.From, min(s.To+1, len(t.Weights[0]))} }
		a.Next += (4*spanMass(t.Weights, isoYear, next(t.Year)) + 2*spanMass(t.Weights, isoMonth, next(t.Month)) +
			2*spanMass(t.Weights, isoDay, next(t.Day))) / 8
	}
	n := float64(max(len(ts), 1))
	return Alignment{a.Year / n, a.Month / n, a.Day / n, a.All / n, a.Next / n}
}

// spanMass is the mean over the output rows of out of the weight on the
// source columns of src.
func spanMass(w [][]float64, out, src Span) float64 {
	total := 0.0
	for t := out.From; t < out.To; t++ {
		for s := src.From; s < src.To; s++ {
			total += w[t][s]
		}
	}
	return total / float64(out.Len())
}

// Result is one trained variant of the experiment, measured on the test
// set.
//
// Introduced in lesson 07.
type Result struct {
	Kind         attention.ScoreKind
	Accuracy     float64 // exact match on the test dates
	Alignment    Alignment
	Train        time.Duration // wall time of training
	Params, Test int
	Translations []Translation
	History      *train.History // the training run: loss per step
}

// Evaluate loads (or trains) the model of every score kind and measures
// it on the test set.
//
// Part of the library behind lesson 07; the lesson does not name it.
func (x Experiment) Evaluate(kinds ...attention.ScoreKind) ([]Result, error) {
	test := x.Task().Test
	var rs []Result
	for _, k := range kinds {
		t, err := x.Load(k)
		if err != nil {
			return nil, err
		}
		r, err := x.measure(k, t, test)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

func (x Experiment) measure(k attention.ScoreKind, t *train.Trained, test []Example) (Result, error) {
	ts, err := Translate(t.Store, x.Config(k), test)
	if err != nil {
		return Result{}, err
	}
	return Result{Kind: k, Accuracy: Accuracy(ts), Alignment: Aligned(ts), Train: t.History.Wall,
		Params: t.History.Params, Test: len(ts), Translations: ts, History: t.History}, nil
}

// LossCurves draws the training loss of every result (see
// [train.LossCurve]).
//
// Introduced in lesson 07.
func LossCurves(rs []Result) *viz.Lines {
	hs := make([]*train.History, len(rs))
	for i, r := range rs {
		h := *r.History
		h.Name = string(r.Kind)
		hs[i] = &h
	}
	fig := train.LossCurve(hs...)
	fig.Title = "Reading dates: training loss per score function"
	return fig
}

// Table formats results: score, exact-match accuracy, alignment mass per
// field, over the three fields (field) and with the next character
// (+next), training time and parameters.
//
// Introduced in lesson 07.
func Table(rs []Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-9s  %8s  %5s  %5s  %5s  %5s  %6s  %8s  %6s\n", "score", "accuracy", "year", "month", "day", "field", "+next", "training", "params")
	for _, r := range rs {
		a := r.Alignment
		fmt.Fprintf(&b, "%-9s  %7.1f%%  %4.0f%%  %4.0f%%  %4.0f%%  %4.0f%%  %5.0f%%  %7.1fs  %6d\n", r.Kind, 100*r.Accuracy,
			100*a.Year, 100*a.Month, 100*a.Day, 100*a.All, 100*a.Next, r.Train.Seconds(), r.Params)
	}
	return b.String()
}
