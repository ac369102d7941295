package classifier

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/reviews"
	"github.com/attention-in-go/course/lib/train"
	"github.com/attention-in-go/course/lib/viz"
)

// Experiment is lesson 8's comparison: the data split and the sizes and
// training of every model.
type Experiment struct {
	Test         float64 // fraction of the reviews kept for testing
	Seed         uint32  // the split and the initial weights
	Steps, Batch int
	LearningRate float64
	DModel       int
	Heads, DFF   int     // Transformer
	Hidden       int     // LSTM
	Pool         Pooling // Transformer kinds; "" is PoolMean

	// Lesson 11's variants of the Transformer's attention and loss; zero
	// is lesson 8's model. See [Config] for the first three.
	Temperature    float64
	NoScale        bool
	AttnDropout    float64
	LabelSmoothing float64 // ε of train.SmoothedCrossEntropy
	EntropyBonus   float64 // λ of train.WithEntropyBonus
	QKInit         float64 // see [Config]
	SGD            bool    // plain SGD instead of Adam (train.Config.SGD)
	// Tag, when set, names the checkpoints Tag-kind instead of
	// lesson08-kind, so that variants do not overwrite lesson 8's models.
	Tag string
}

// WithPool returns the experiment with the Transformer kinds pooling by p.
func (e Experiment) WithPool(p Pooling) Experiment {
	e.Pool = p
	return e
}

// Lesson8 is the experiment of lesson 8.
var Lesson8 = Experiment{Test: 0.2, Seed: 8, Steps: 400, Batch: 64, LearningRate: 0.003,
	DModel: 32, Heads: 2, DFF: 64, Hidden: 32}

// Kinds are the models lesson 8 compares, in order.
var Kinds = []Kind{Transformer, NoPositions, BagOfWords, LSTM}

// Data returns the split and the vocabulary.
func (e Experiment) Data() (reviews.Set, *reviews.Vocab, error) {
	s, err := reviews.Split(e.Test, e.Seed)
	return s, reviews.NewVocab(), err
}

// Config returns the model of kind k.
func (e Experiment) Config(k Kind) Config {
	return Config{Kind: k, Vocab: len(reviews.NewVocab().Words), DModel: e.DModel, Heads: e.Heads, DFF: e.DFF, Hidden: e.Hidden, Pool: e.Pool,
		Temperature: e.Temperature, NoScale: e.NoScale, AttnDropout: e.AttnDropout, QKInit: e.QKInit}
}

// Name is the checkpoint name of model k.
func (e Experiment) Name(k Kind) string {
	if e.Tag != "" {
		return e.Tag + "-" + string(k)
	}
	if e.Pool != "" && e.Pool != PoolMean && (k == Transformer || k == NoPositions) {
		return "lesson08-" + string(k) + "-" + string(e.Pool)
	}
	return "lesson08-" + string(k)
}

// label names model k in progress lines and figures.
func (e Experiment) label(k Kind) string {
	if e.Tag != "" {
		return e.Tag
	}
	if e.Pool != "" && e.Pool != PoolMean && (k == Transformer || k == NoPositions) {
		return string(k) + " (" + string(e.Pool) + " pooling)"
	}
	return string(k)
}

// dataset encodes reviews for lib/train.
func dataset(name string, v *reviews.Vocab, rs []reviews.Review) (*train.Dataset, error) {
	ids, labels, err := v.Encode(rs)
	if err != nil {
		return nil, err
	}
	return &train.Dataset{Name: name, Inputs: []train.Column{train.Ints(ids, reviews.MaxLen)}, Labels: []train.Column{train.Ints(labels)}}, nil
}

// Train trains model k from scratch on the training reviews and saves it
// under Name(k).
func (e Experiment) Train(k Kind) (*train.Trained, error) {
	s, v, err := e.Data()
	if err != nil {
		return nil, err
	}
	d, err := dataset(string(k), v, s.Train)
	if err != nil {
		return nil, err
	}
	loss := train.CrossEntropy
	if e.LabelSmoothing != 0 {
		loss = train.SmoothedCrossEntropy(e.LabelSmoothing)
	}
	loss = train.WithEntropyBonus(loss, e.EntropyBonus)
	return train.Fit(train.Config{Name: e.Name(k), Label: e.label(k), Steps: e.Steps, BatchSize: e.Batch,
		LearningRate: e.LearningRate, SGD: e.SGD, Seed: uint64(e.Seed)}, e.Config(k).Model(), loss, d)
}

// TrainAll trains a model of every kind from scratch, as
// [Experiment.Train] does, as many at a time as the machine has cores
// ([train.Concurrently]): each model is the one it would be trained alone.
// The results are in the order of kinds.
//
// Introduced in lesson 8.
func (e Experiment) TrainAll(kinds ...Kind) ([]*train.Trained, error) {
	return train.Concurrently(len(kinds), func(i int) (*train.Trained, error) { return e.Train(kinds[i]) })
}

// Predict returns the positive-class probability and the attention
// weights ([review][head][query][key], nil for models without attention)
// of a trained model k on reviews.
func (e Experiment) Predict(t *train.Trained, k Kind, rs []reviews.Review) (positive []float64, weights [][][][]float64, err error) {
	ids, _, err := reviews.NewVocab().Encode(rs)
	if err != nil {
		return nil, nil, err
	}
	outs, err := t.Predict(e.Config(k).Model(), tensors.FromFlatDataAndDimensions(ids, len(rs), reviews.MaxLen))
	if err != nil {
		return nil, nil, err
	}
	logits := tensors.MustCopyFlatData[float32](outs[0]) // [n, 2]
	for i := range rs {
		a, b := float64(logits[2*i]), float64(logits[2*i+1])
		positive = append(positive, 1/(1+math.Exp(a-b))) // softmax of two logits
	}
	if len(outs) > 1 {
		w := tensors.MustCopyFlatData[float32](outs[1]) // [n, heads, seq, seq]
		h, n := e.Heads, reviews.MaxLen
		for i := range rs {
			per := make([][][]float64, h)
			for hh := range h {
				per[hh] = make([][]float64, n)
				for q := range n {
					per[hh][q] = make([]float64, n)
					for kk := range n {
						per[hh][q][kk] = float64(w[((i*h+hh)*n+q)*n+kk])
					}
				}
			}
			weights = append(weights, per)
		}
	}
	return positive, weights, nil
}

// Result is one model's outcome on the test reviews.
type Result struct {
	Kind      Kind
	Name      string  // the kind, and the pooling when not the mean
	Accuracy  float64 // on all test reviews
	Ambiguous float64 // on those whose words also make a review of the other label
	Params    int
	Train     time.Duration
}

// Evaluate loads the trained models and measures them on the test reviews.
func (e Experiment) Evaluate(kinds ...Kind) ([]Result, error) {
	s, _, err := e.Data()
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, k := range kinds {
		t, err := train.Load(e.Name(k))
		if err != nil {
			return nil, err
		}
		p, _, err := e.Predict(t, k, s.Test)
		if err != nil {
			return nil, err
		}
		r := Result{Kind: k, Name: e.label(k), Params: t.History.Params, Train: t.History.Wall}
		right, amb, ambRight := 0, 0, 0
		for i, rv := range s.Test {
			ok := (p[i] >= 0.5) == (rv.Label == 1)
			if ok {
				right++
			}
			if reviews.IsAmbiguous(rv) {
				amb++
				if ok {
					ambRight++
				}
			}
		}
		r.Accuracy = float64(right) / float64(len(s.Test))
		r.Ambiguous = float64(ambRight) / float64(max(amb, 1))
		out = append(out, r)
	}
	return out, nil
}

// Table formats results as a text table.
func Table(rs []Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-26s %10s %18s %8s %9s\n", "model", "test acc.", "ambiguous reviews", "params", "training")
	for _, r := range rs {
		fmt.Fprintf(&b, "%-26s %9.1f%% %17.1f%% %8d %8.1fs\n", r.Name, 100*r.Accuracy, 100*r.Ambiguous, r.Params, r.Train.Seconds())
	}
	return b.String()
}

// Check returns an error unless the lesson's claims hold: the Transformer
// with positions reaches minAcc on the test set and beats the model without
// positions and the bag of words by margin (accuracy points, 0 … 1).
func Check(rs []Result, minAcc, margin float64) error {
	by := map[Kind]Result{}
	for _, r := range rs {
		by[r.Kind] = r
	}
	t := by[Transformer]
	if t.Accuracy < minAcc {
		return fmt.Errorf("classifier: the Transformer with positions reached %.1f%%, want ≥ %.0f%%", 100*t.Accuracy, 100*minAcc)
	}
	for _, k := range []Kind{NoPositions, BagOfWords} {
		if r, ok := by[k]; ok && t.Accuracy-r.Accuracy < margin {
			return fmt.Errorf("classifier: with positions %.1f%%, %s %.1f%%: want a gap of at least %.0f points", 100*t.Accuracy, k, 100*r.Accuracy, 100*margin)
		}
	}
	return nil
}

// AccuracyFigure draws the results as bars: all test reviews and the
// ambiguous ones.
func AccuracyFigure(rs []Result) *viz.Bars {
	b := &viz.Bars{Title: "Test accuracy (chance: 50%)", YLabel: "accuracy (%)", Annotate: true, Format: "%.0f",
		Groups: []viz.BarGroup{{Name: "all test reviews"}, {Name: "same words, other label exists"}}}
	for _, r := range rs {
		b.Labels = append(b.Labels, string(r.Kind))
		b.Groups[0].Values = append(b.Groups[0].Values, 100*r.Accuracy)
		b.Groups[1].Values = append(b.Groups[1].Values, 100*r.Ambiguous)
	}
	return b
}

// AttentionFigure draws the attention of the trained Transformer (mean of
// its heads) on each review, with the predicted sentiment in the title.
func (e Experiment) AttentionFigure(t *train.Trained, sentences ...string) (viz.Figure, error) {
	var rs []reviews.Review
	for _, s := range sentences {
		rs = append(rs, reviews.Parse(s))
	}
	p, w, err := e.Predict(t, Transformer, rs)
	if err != nil {
		return nil, err
	}
	grid := &viz.Grid{Cols: 2, Title: "Where the trained Transformer looks (mean of its heads)"}
	for i, r := range rs {
		n := len(r.Words)
		mean := make([][]float64, n)
		for q := range n {
			mean[q] = make([]float64, n)
			for k := range n {
				for h := range w[i] {
					mean[q][k] += w[i][h][q][k] / float64(len(w[i]))
				}
			}
		}
		verdict := "negative"
		if p[i] >= 0.5 {
			verdict = "positive"
		}
		grid.Figures = append(grid.Figures, &viz.Heatmap{Values: mean, Rows: r.Words, Cols: r.Words, Min: 0, Max: 1, FixedRange: true,
			Title: fmt.Sprintf("%q → %s (%.2f)", r.String(), verdict, p[i]), XLabel: "key", YLabel: "query"})
	}
	return grid, nil
}

// ForwardTimes measures the forward pass of trained models k on a batch of
// batch random reviews of each length, the best of three runs after one
// to compile; the Transformer's positions extend to any length.
func (e Experiment) ForwardTimes(kinds []Kind, lengths []int, batch int) (map[Kind][]time.Duration, error) {
	out := map[Kind][]time.Duration{}
	vocab := len(reviews.NewVocab().Words)
	for _, k := range kinds {
		t, err := train.Load(e.Name(k))
		if err != nil {
			return nil, err
		}
		pr, err := train.NewPredictor(t.Store, e.Config(k).Model())
		if err != nil {
			return nil, err
		}
		r := random.New(1)
		for _, n := range lengths {
			ids := make([]int32, batch*n)
			for i := range ids {
				ids[i] = int32(1 + min(int(r.Float64()*float64(vocab-1)), vocab-2))
			}
			in := tensors.FromFlatDataAndDimensions(ids, batch, n)
			best := time.Duration(1<<63 - 1)
			for run := range 4 {
				start := time.Now()
				if _, err := pr.Predict(in); err != nil {
					return nil, err
				}
				if run > 0 {
					best = min(best, time.Since(start))
				}
			}
			out[k] = append(out[k], best)
		}
	}
	return out, nil
}

// TimesFigure plots forward times against length.
func TimesFigure(lengths []int, times map[Kind][]time.Duration, batch int) *viz.Lines {
	f := &viz.Lines{Title: fmt.Sprintf("Forward pass of %d reviews", batch), XLabel: "sequence length (tokens)", YLabel: "time (ms)", Points: true}
	x := make([]float64, len(lengths))
	for i, n := range lengths {
		x[i] = float64(n)
	}
	for _, k := range []Kind{Transformer, LSTM} {
		ts, ok := times[k]
		if !ok {
			continue
		}
		y := make([]float64, len(ts))
		for i, d := range ts {
			y[i] = float64(d.Microseconds()) / 1000
		}
		f.Series = append(f.Series, viz.Series{Name: string(k), X: x, Y: y})
	}
	return f
}
