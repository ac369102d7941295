package dates

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/seq2seq"
	"github.com/attention-in-go/course/lib/train"
	"github.com/attention-in-go/course/lib/transformer"
	"github.com/attention-in-go/course/lib/viz"
)

// TransformerExperiment is lesson 09's measurement: the whole Transformer
// (lib/transformer's [transformer.EncoderDecoder]) trained on lesson 07's
// dates, decoded greedily and compared with lesson 07's GRU models.
//
// Typical shapes: [Lesson09].
//
// Introduced in lesson 09.
type TransformerExperiment struct {
	// TrainSize, TestSize and TestFraction are the data of [Generate],
	// as in [Experiment].
	TrainSize, TestSize int
	TestFraction        float64
	// Steps, Batch and LearningRate configure [train.Fit]; Seed seeds
	// the data and the initial weights. DataSeed, when not 0, seeds the
	// data instead, so that another Seed trains another model on the same
	// dates.
	Steps, Batch int
	LearningRate float64
	Seed         uint32
	DataSeed     uint32
	// Recipe is how the model trains beyond plain Adam at a constant
	// rate: schedule, dropout, label smoothing, clipping, weight decay.
	Recipe Recipe
	// DModel, Heads, DFF and Layers size the model; Layers is the number
	// of encoder layers and of decoder layers.
	DModel, Heads, DFF, Layers int
}

// Lesson09 is the experiment of lesson 09: lesson 07's data (seed 7),
// a Transformer of width 32 with 2 heads and one encoder and one decoder
// layer, 1 000 steps of 32 dates with [TrainingRecipe] at a peak learning
// rate of 0.003.
//
// Introduced in lesson 09.
var Lesson09 = TransformerExperiment{TrainSize: 8000, TestSize: 500, TestFraction: 0.2, Steps: 1000, Batch: 32, LearningRate: 0.003,
	Recipe: TrainingRecipe, Seed: 7, DModel: 32, Heads: 2, DFF: 64, Layers: 1}

// Config returns the model.
func (x TransformerExperiment) Config() transformer.EncoderDecoder {
	return transformer.EncoderDecoder{SrcVocab: SourceVocab.Size(), TgtVocab: TargetVocab.Size(),
		DModel: x.DModel, Heads: x.Heads, DFF: x.DFF, EncoderLayers: x.Layers, DecoderLayers: x.Layers,
		MaxLen: SourceWidth, Start: int(TargetVocab.Start), Dropout: x.Recipe.Dropout}
}

// Name is the checkpoint name of the model: lesson09-dates-transformer,
// with the seed and the steps when they are not [Lesson09]'s, and the
// recipe (so that a model trained with another recipe is never loaded in
// its place).
func (x TransformerExperiment) Name() string {
	name := "lesson09-dates-transformer"
	if x.Seed != Lesson09.Seed {
		name += fmt.Sprintf("-seed%d", x.Seed)
	}
	if x.Steps != Lesson09.Steps {
		name += fmt.Sprintf("-steps%d", x.Steps)
	}
	return name + "-" + x.Recipe.slug()
}

// data is the experiment's data as an [Experiment] (same generator).
func (x TransformerExperiment) data() Experiment {
	seed := x.Seed
	if x.DataSeed != 0 {
		seed = x.DataSeed
	}
	return Experiment{TrainSize: x.TrainSize, TestSize: x.TestSize, TestFraction: x.TestFraction, Seed: seed}
}

// Task generates the experiment's examples (the same on every call).
func (x TransformerExperiment) Task() *Task { return x.data().Task() }

func (x TransformerExperiment) trainConfig(name string) train.Config {
	return train.Config{Name: name, Label: "dates-transformer", Steps: x.Steps, BatchSize: x.Batch,
		LearningRate: x.LearningRate, Warmup: x.Recipe.Warmup, Decay: x.Recipe.Decay, ClipNorm: x.Recipe.ClipNorm, WeightDecay: x.Recipe.WeightDecay,
		Seed: uint64(x.Seed), Quiet: name == ""}
}

// Train trains the model from scratch with teacher forcing and the loss
// of lesson 06 ([seq2seq.Loss]: cross-entropy over the real target
// characters) and saves it under [TransformerExperiment.Name].
//
// Introduced in lesson 09.
func (x TransformerExperiment) Train() (*train.Trained, error) { return x.fit(x.Name()) }

func (x TransformerExperiment) fit(name string) (*train.Trained, error) {
	data, err := x.data().Dataset()
	if err != nil {
		return nil, err
	}
	data.Name = "dates-transformer"
	return train.Fit(x.trainConfig(name), x.Config().TrainModel(), seq2seq.SmoothedLoss(x.Recipe.LabelSmoothing), data)
}

// Load returns the model saved by [TransformerExperiment.Train], training
// it first when there is none.
//
// Introduced in lesson 09.
func (x TransformerExperiment) Load() (*train.Trained, error) {
	data, err := x.data().Dataset()
	if err != nil {
		return nil, err
	}
	data.Name = "dates-transformer"
	return train.LoadOrFit(x.trainConfig(x.Name()), x.Config().TrainModel(), seq2seq.SmoothedLoss(x.Recipe.LabelSmoothing), data)
}

// TransformerTranslation is a greedy translation by the Transformer with
// the cross-attention of every decoder layer and head. Its Weights (what
// [Aligned] and [AlignmentFigure] read) are the last layer's, averaged
// over the heads.
//
// Typical shapes: Cross [layers][heads][10][17].
//
// Introduced in lesson 09.
type TransformerTranslation struct {
	Translation
	Cross [][][][]float64
}

// Head returns the translation with the weights of one layer and head
// in place of Weights, to measure or draw that head alone.
func (t TransformerTranslation) Head(layer, head int) Translation {
	tr := t.Translation
	tr.Weights = t.Cross[layer][head]
	return tr
}

// TranslateTransformer decodes examples greedily with the trained model
// ([transformer.EncoderDecoder.Greedy]).
//
// Introduced in lesson 09.
func (x TransformerExperiment) TranslateTransformer(store *model.Store, examples []Example) ([]TransformerTranslation, error) {
	a, err := ToArrays(examples)
	if err != nil {
		return nil, err
	}
	cfg := x.Config()
	p, err := train.NewPredictor(store, cfg.GreedyModel(TargetWidth))
	if err != nil {
		return nil, err
	}
	L, H := cfg.DecoderLayers, cfg.Heads
	out := make([]TransformerTranslation, 0, len(examples))
	for from := 0; from < len(examples); from += chunk {
		to := min(from+chunk, len(examples))
		res, err := p.Predict(tensors.FromFlatDataAndDimensions(flat(a.Src[from:to]), to-from, SourceWidth))
		if err != nil {
			return nil, fmt.Errorf("dates.TranslateTransformer: %w", err)
		}
		toks := tensors.MustCopyFlatData[int32](res[0]) // [n, 10]
		ws := tensors.MustCopyFlatData[float32](res[1]) // [n, layers, heads, 10, 17]
		for b := range to - from {
			tr := TransformerTranslation{Translation: Translation{Example: examples[from+b],
				Output: TargetVocab.Decode(toks[b*TargetWidth : (b+1)*TargetWidth])}}
			tr.Cross = unflatten(ws[b*L*H*TargetWidth*SourceWidth:], L, H, TargetWidth, SourceWidth)
			tr.Weights = meanHeads(tr.Cross[L-1])
			out = append(out, tr)
		}
	}
	return out, nil
}

// chunk is the number of dates the Transformer reads per call at
// inference, as [Translate] does.
const chunk = 250

// unflatten reads [a][b][rows][cols] from the front of data.
func unflatten(data []float32, a, b, rows, cols int) [][][][]float64 {
	out := make([][][][]float64, a)
	for i := range a {
		out[i] = make([][][]float64, b)
		for j := range b {
			out[i][j] = make([][]float64, rows)
			for r := range rows {
				out[i][j][r] = make([]float64, cols)
				for c := range cols {
					out[i][j][r][c] = float64(data[((i*b+j)*rows+r)*cols+c])
				}
			}
		}
	}
	return out
}

// meanHeads averages [heads][rows][cols] over the heads.
func meanHeads(w [][][]float64) [][]float64 {
	out := make([][]float64, len(w[0]))
	for r := range out {
		out[r] = make([]float64, len(w[0][r]))
		for _, h := range w {
			for c, v := range h[r] {
				out[r][c] += v / float64(len(w))
			}
		}
	}
	return out
}

// TeacherForcing measures the model as it is trained: every position
// reads the true previous characters. It returns the share of target
// characters predicted right and the share of dates whose ten characters
// are all right.
//
// Introduced in lesson 09.
func (x TransformerExperiment) TeacherForcing(store *model.Store, examples []Example) (chars, exact float64, err error) {
	right, whole := 0, 0
	err = x.forced(store, examples, func(_ int, target []int32, logits [][]float32) {
		all := true
		for t, row := range logits {
			best := 0
			for v := range row {
				if row[v] > row[best] {
					best = v
				}
			}
			if int32(best) == target[t] {
				right++
			} else {
				all = false
			}
		}
		if all {
			whole++
		}
	})
	if err != nil {
		return 0, 0, fmt.Errorf("dates.TeacherForcing: %w", err)
	}
	n := len(examples)
	return float64(right) / float64(n*TargetWidth), float64(whole) / float64(n), nil
}

// forced runs the model with teacher forcing on examples, chunk by chunk,
// and calls visit for each example in order with its target ids and its
// logits, one row [vocab] per target position.
func (x TransformerExperiment) forced(store *model.Store, examples []Example, visit func(i int, target []int32, logits [][]float32)) error {
	a, err := ToArrays(examples)
	if err != nil {
		return err
	}
	p, err := train.NewPredictor(store, x.Config().InspectModel())
	if err != nil {
		return err
	}
	V := TargetVocab.Size()
	for from := 0; from < len(examples); from += chunk {
		to := min(from+chunk, len(examples))
		res, err := p.Predict(tensors.FromFlatDataAndDimensions(flat(a.Src[from:to]), to-from, SourceWidth),
			tensors.FromFlatDataAndDimensions(flat(a.TgtIn[from:to]), to-from, TargetWidth))
		if err != nil {
			return err
		}
		logits := tensors.MustCopyFlatData[float32](res[0]) // [chunk, 10, vocab]
		for b := range to - from {
			rows := make([][]float32, TargetWidth)
			for t := range rows {
				rows[t] = logits[(b*TargetWidth+t)*V : (b*TargetWidth+t+1)*V]
			}
			visit(from+b, a.TgtOut[from+b], rows)
		}
	}
	return nil
}

// CharAccuracy is the share of output characters equal to the target's,
// position by position.
//
// Introduced in lesson 09.
func CharAccuracy(ts []Translation) float64 {
	right, total := 0, 0
	for _, t := range ts {
		out, want := []rune(t.Output), []rune(t.Target)
		for i, c := range want {
			if i < len(out) && out[i] == c {
				right++
			}
			total++
		}
	}
	return float64(right) / float64(max(total, 1))
}

// TransformerResult is the trained Transformer measured on the test set.
//
// Introduced in lesson 09.
type TransformerResult struct {
	Accuracy    float64 // greedy exact match on the test dates
	GreedyChars float64 // greedy: share of characters right
	ForcedChars float64 // teacher forcing: share of characters right
	ForcedExact float64 // teacher forcing: share of dates with all characters right
	// Alignment is [Aligned] of the last decoder layer, heads averaged;
	// Heads the same per layer and head.
	Alignment    Alignment
	Heads        [][]Alignment
	Train        time.Duration
	Params       int
	Steps        int
	Translations []TransformerTranslation
	History      *train.History
}

// Evaluate loads (or trains) the model and measures it on the test dates.
//
// Introduced in lesson 09.
func (x TransformerExperiment) Evaluate() (TransformerResult, error) {
	t, err := x.Load()
	if err != nil {
		return TransformerResult{}, err
	}
	return x.measure(t, x.Task().Test)
}

func (x TransformerExperiment) measure(t *train.Trained, test []Example) (TransformerResult, error) {
	ts, err := x.TranslateTransformer(t.Store, test)
	if err != nil {
		return TransformerResult{}, err
	}
	r := TransformerResult{Train: t.History.Wall, Params: t.History.Params, Steps: t.History.Steps, Translations: ts, History: t.History}
	plain := make([]Translation, len(ts))
	for i, tr := range ts {
		plain[i] = tr.Translation
	}
	r.Accuracy, r.GreedyChars, r.Alignment = Accuracy(plain), CharAccuracy(plain), Aligned(plain)
	cfg := x.Config()
	r.Heads = make([][]Alignment, cfg.DecoderLayers)
	for l := range cfg.DecoderLayers {
		for h := range cfg.Heads {
			for i, tr := range ts {
				plain[i] = tr.Head(l, h)
			}
			r.Heads[l] = append(r.Heads[l], Aligned(plain))
		}
	}
	if r.ForcedChars, r.ForcedExact, err = x.TeacherForcing(t.Store, test); err != nil {
		return TransformerResult{}, err
	}
	return r, nil
}

// CompareTable formats lesson 07's GRU model next to the Transformer:
// parameters, training steps, exact-match accuracy, the alignment
// masses of lesson 07 (for the Transformer: its last decoder layer,
// heads averaged) and the training time.
//
// Introduced in lesson 09.
func CompareTable(rnn Result, tr TransformerResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s  %6s  %5s  %8s  %5s  %5s  %5s  %6s  %8s\n", "model", "params", "steps", "accuracy", "year", "month", "day", "+next", "training")
	row := func(name string, params, steps int, d time.Duration, acc float64, a Alignment) {
		fmt.Fprintf(&b, "%-24s  %6d  %5d  %7.1f%%  %4.0f%%  %4.0f%%  %4.0f%%  %5.0f%%  %7.1fs\n", name, params, steps, 100*acc,
			100*a.Year, 100*a.Month, 100*a.Day, 100*a.Next, d.Seconds())
	}
	row("GRU + "+string(rnn.Kind)+" attention", rnn.Params, rnn.History.Steps, rnn.Train, rnn.Accuracy, rnn.Alignment)
	row("Transformer", tr.Params, tr.Steps, tr.Train, tr.Accuracy, tr.Alignment)
	return b.String()
}

// HeadTable formats the alignment masses of every decoder layer and head.
//
// Introduced in lesson 09.
func HeadTable(r TransformerResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-14s  %5s  %5s  %5s  %5s  %6s\n", "cross-attention", "year", "month", "day", "field", "+next")
	for l, hs := range r.Heads {
		for h, a := range hs {
			fmt.Fprintf(&b, "layer %d head %d   %4.0f%%  %4.0f%%  %4.0f%%  %4.0f%%  %5.0f%%\n", l+1, h+1, 100*a.Year, 100*a.Month, 100*a.Day, 100*a.All, 100*a.Next)
		}
	}
	return b.String()
}

// DecodeStep is one step of greedy decoding: what the decoder reads,
// which earlier positions its newest position may attend to (the new row
// of the causal mask), what it writes and with which probability.
//
// Introduced in lesson 09.
type DecodeStep struct {
	Reads   string // the start mark "^" and the characters written so far
	MaskRow []bool // true: the newest position may attend to that position
	Writes  rune
	Prob    float64
	// SelfWeights are the first decoder layer's self-attention weights of
	// this step, averaged over the heads: [step+1][step+1].
	SelfWeights [][]float64
}

// DecodeSteps decodes one example token by token, calling the model
// once per step on the characters written so far (the shape grows by one
// each call), so that every step can be printed.
//
// Introduced in lesson 09.
func (x TransformerExperiment) DecodeSteps(store *model.Store, e Example) ([]DecodeStep, error) {
	src, err := SourceVocab.Encode(e.Source, SourceWidth)
	if err != nil {
		return nil, err
	}
	p, err := train.NewPredictor(store, x.Config().InspectModel())
	if err != nil {
		return nil, err
	}
	V, H, L := TargetVocab.Size(), x.Heads, x.Layers
	reads := []int32{TargetVocab.Start}
	var steps []DecodeStep
	for t := range TargetWidth {
		n := t + 1
		res, err := p.Predict(tensors.FromFlatDataAndDimensions(src, 1, SourceWidth), tensors.FromFlatDataAndDimensions(reads, 1, n))
		if err != nil {
			return nil, fmt.Errorf("dates.DecodeSteps: %w", err)
		}
		logits := tensors.MustCopyFlatData[float32](res[0])[t*V : n*V] // the newest position
		best, sum := 0, 0.0
		for v := range logits {
			if logits[v] > logits[best] {
				best = v
			}
		}
		for v := range logits {
			sum += math.Exp(float64(logits[v] - logits[best]))
		}
		self := unflatten(tensors.MustCopyFlatData[float32](res[1]), L, H, n, n) // [layers][heads][n][n]
		s := DecodeStep{Reads: "^" + TargetVocab.Decode(reads[1:]), MaskRow: make([]bool, n), Writes: TargetVocab.Chars[best],
			Prob: 1 / sum, SelfWeights: meanHeads(self[0])}
		for j := range n {
			s.MaskRow[j] = true // position t sees 0 … t
		}
		steps = append(steps, s)
		reads = append(reads, int32(best))
	}
	return steps, nil
}

// DecodeTable formats decoding steps, one a line: what the decoder reads,
// the newest row of the causal mask over the ten target positions (■ may
// look, · masked: the future), and what it writes.
//
// Introduced in lesson 09.
func DecodeTable(steps []DecodeStep) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s  %-11s  %-10s  %s\n", "step", "reads", "mask row", "writes (probability)")
	for i, s := range steps {
		row := make([]rune, TargetWidth)
		for j := range row {
			row[j] = '·'
			if j < len(s.MaskRow) && s.MaskRow[j] {
				row[j] = '■'
			}
		}
		fmt.Fprintf(&b, "%4d  %-11s  %s  %c (%.3f)\n", i+1, s.Reads, string(row), s.Writes, s.Prob)
	}
	return b.String()
}

// CrossAttentionGrid draws the cross-attention of every decoder layer and
// head for one translation: output characters (rows) against source
// characters (columns), one heat map per head, a row of heads per layer.
//
// Introduced in lesson 09.
func CrossAttentionGrid(t TransformerTranslation) *viz.Grid {
	g := &viz.Grid{Cols: len(t.Cross[0]), Title: fmt.Sprintf("Cross-attention of the trained Transformer: %q → %s", t.Source, t.Output)}
	for l := range t.Cross {
		for h := range t.Cross[l] {
			g.Figures = append(g.Figures, AlignmentFigure(t.Head(l, h), fmt.Sprintf("decoder layer %d, head %d", l+1, h+1)))
		}
	}
	return g
}

// CheckTransformer returns an error when the Transformer's exact-match
// accuracy is more than margin below the GRU model's, or when none of
// its cross-attention heads puts at least minYear of the year characters'
// attention on the source's year: the assertions of lesson 09.
//
// Introduced in lesson 09.
func CheckTransformer(tr TransformerResult, rnn Result, margin, minYear float64) error {
	var msg string
	if tr.Accuracy < rnn.Accuracy-margin {
		msg += fmt.Sprintf("accuracy %.1f%% is more than %.1f points below the GRU's %.1f%%; ", 100*tr.Accuracy, 100*margin, 100*rnn.Accuracy)
	}
	best := 0.0
	for _, hs := range tr.Heads {
		for _, a := range hs {
			best = max(best, a.Year)
		}
	}
	if best < minYear {
		msg += fmt.Sprintf("no head puts %.0f%% of the year's attention on the year (best %.0f%%); ", 100*minYear, 100*best)
	}
	if msg != "" {
		return fmt.Errorf("dates.CheckTransformer: %s(train again with dates.Lesson09.Train, or with more Steps)", msg)
	}
	return nil
}

// First returns the first test translation written in format f (the
// first one when there is none).
func (r TransformerResult) First(f Format) TransformerTranslation {
	for _, t := range r.Translations {
		if t.Format == f {
			return t
		}
	}
	return r.Translations[0]
}

// ForcingTable compares the model read with teacher forcing (every
// position reads the true previous characters) and free running (greedy:
// it reads its own): characters right, dates right, and wrong characters
// per wrong date. A date is right under one exactly when it is right
// under the other — with every character right the two read the same
// inputs —, so the dates column is equal and the difference is in how
// far one mistake spreads.
//
// Introduced in lesson 09.
func ForcingTable(r TransformerResult) string {
	wrong := (1 - r.Accuracy) * float64(len(r.Translations))
	per := func(chars float64) float64 {
		if wrong == 0 {
			return 0
		}
		return (1 - chars) * float64(TargetWidth*len(r.Translations)) / wrong
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s  %10s  %10s  %s\n", "decoder reads", "characters", "dates", "wrong characters per wrong date")
	fmt.Fprintf(&b, "%-16s  %9.2f%%  %9.1f%%  %.2f\n", "teacher forcing", 100*r.ForcedChars, 100*r.ForcedExact, per(r.ForcedChars))
	fmt.Fprintf(&b, "%-16s  %9.2f%%  %9.1f%%  %.2f\n", "greedy (its own)", 100*r.GreedyChars, 100*r.Accuracy, per(r.GreedyChars))
	return b.String()
}
