package seq2seq

import (
	"fmt"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/attention-in-go/course/lib/train"
	"github.com/attention-in-go/course/lib/viz"
)

// Experiment is lesson 06's measurement: train an encoder–decoder once on
// reversal examples of mixed lengths, then measure its accuracy on fresh
// examples of each length.
//
// Typical shapes: [Lesson06].
//
// Introduced in lesson 06.
type Experiment struct {
	// Width is the longest sequence; training lengths are MinLen…Width.
	Width, MinLen int
	// Examples is the size of the training set; Steps, Batch,
	// LearningRate and Decay configure [train.Fit]; Seed seeds data and
	// weights.
	Examples, Steps, Batch int
	LearningRate           float64
	Decay                  train.Decay
	Seed                   uint32
	// EvalPerLength is the number of fresh test examples per length.
	EvalPerLength int
	// Embed and Hidden are the model sizes.
	Embed, Hidden int
	// Quiet turns off the training progress display.
	Quiet bool
}

// Lesson06 is the experiment of lesson 06: 600 steps of Adam whose
// learning rate falls from 0.003 along a cosine (train.Config.Decay).
// With a constant rate the model with attention stalls short of the
// alignment on some seeds and some CPUs' orders of sums (41–99 % of the
// digits right at length 12 over seeds 1–7); with the decay every seed
// and kernel class measured reaches 97–99 % (docs/PERFORMANCE.md).
//
// Introduced in lesson 06.
var Lesson06 = Experiment{Width: 12, MinLen: 2, Examples: 6000, Steps: 600, Batch: 64, LearningRate: 0.003,
	Decay: train.Cosine, Seed: 2, EvalPerLength: 200, Embed: 16, Hidden: 64}

// Config returns the model of the experiment with or without attention
// (additive score, Bahdanau order).
func (x Experiment) Config(withAttention bool) Config {
	return Config{Embed: x.Embed, Hidden: x.Hidden, Attention: withAttention}
}

// Data returns the training examples.
func (x Experiment) Data() *Examples {
	e, err := ReverseTask(x.Examples, x.MinLen, x.Width, x.Width, x.Seed)
	if err != nil {
		panic(err) // the experiment's own sizes are valid
	}
	return e
}

// Name returns the checkpoint name of a model of the experiment.
func (x Experiment) Name(cfg Config) string {
	n := "lesson06-no-attention"
	if cfg.Attention {
		n = "lesson06-attention-" + string(cfg.withDefaults().Score)
	}
	return n
}

// Train trains cfg from scratch on the experiment's data and saves it
// under [Experiment.Name] (see [train.Fit]).
func (x Experiment) Train(cfg Config) (*train.Trained, error) {
	return train.Fit(x.trainConfig(cfg), cfg.TrainModel(), TrainLoss, x.Data().Dataset(cfg.String()))
}

// TrainAll trains every cfg from scratch, as [Experiment.Train] does, as
// many at a time as the machine has cores ([train.Concurrently]): each
// model is the one it would be trained alone. The results are in the order
// of cfgs.
//
// Introduced in lesson 06.
func (x Experiment) TrainAll(cfgs ...Config) ([]*train.Trained, error) {
	return train.Concurrently(len(cfgs), func(i int) (*train.Trained, error) { return x.Train(cfgs[i]) })
}

// Load returns the model saved by [Experiment.Train], training it first
// when there is none.
func (x Experiment) Load(cfg Config) (*train.Trained, error) {
	return train.LoadOrFit(x.trainConfig(cfg), cfg.TrainModel(), TrainLoss, x.Data().Dataset(cfg.String()))
}

func (x Experiment) trainConfig(cfg Config) train.Config {
	return train.Config{Name: x.Name(cfg), Label: cfg.String(), Steps: x.Steps, BatchSize: x.Batch, LearningRate: x.LearningRate, Decay: x.Decay, Seed: uint64(x.Seed), Quiet: x.Quiet}
}

// Lengths returns MinLen…Width.
func (x Experiment) Lengths() []int {
	var l []int
	for n := x.MinLen; n <= x.Width; n++ {
		l = append(l, n)
	}
	return l
}

// Curve measures a trained model on EvalPerLength fresh examples of every
// length (a seed the training set never used).
func (x Experiment) Curve(t *train.Trained, cfg Config) (*Curve, error) {
	start := time.Now()
	pts, err := AccuracyByLength(t.Store, cfg, x.Lengths(), x.EvalPerLength, x.Width, x.Seed+1000)
	if err != nil {
		return nil, err
	}
	return &Curve{Name: cfg.String(), Points: pts, Train: t.History.Wall, Eval: time.Since(start)}, nil
}

// Curve is the accuracy of one model against the source length.
//
// Introduced in lesson 06.
type Curve struct {
	Name        string
	Points      []LengthPoint
	Train, Eval time.Duration
}

// At returns the point of length n (zero if absent).
func (c *Curve) At(n int) LengthPoint {
	for _, p := range c.Points {
		if p.Len == n {
			return p
		}
	}
	return LengthPoint{}
}

// String is a table: length, token accuracy, sequence accuracy.
func (c *Curve) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (trained in %s)\n length  tokens right  sequences right\n", c.Name, c.Train.Round(time.Second))
	for _, p := range c.Points {
		fmt.Fprintf(&b, " %6d  %11.1f%%  %14.1f%%\n", p.Len, 100*p.Token, 100*p.Sequence)
	}
	return b.String()
}

// AccuracyFigure plots the accuracy of each curve against the source
// length: tokens right (solid) or whole sequences right (sequence = true).
//
// Introduced in lesson 06.
func AccuracyFigure(sequence bool, curves ...*Curve) *viz.Lines {
	what := "tokens right"
	if sequence {
		what = "whole sequences right"
	}
	fig := &viz.Lines{Title: "Reversing digits: accuracy against length", XLabel: "source length (digits)",
		YLabel: what + " (%)", Points: true, Legend: viz.LegendBottomLeft, Width: 14 * vg.Centimeter, Height: 8 * vg.Centimeter}
	for _, c := range curves {
		s := viz.Series{Name: c.Name}
		for _, p := range c.Points {
			v := p.Token
			if sequence {
				v = p.Sequence
			}
			s.X, s.Y = append(s.X, float64(p.Len)), append(s.Y, 100*v)
		}
		fig.Series = append(fig.Series, s)
	}
	return fig
}

// AlignmentFigure is the heat map of a decoded example's attention
// weights: one row per output digit, one column per source digit, the
// weight of each source digit in the context of each output step. For
// reversal a trained model draws the anti-diagonal.
//
// Typical shapes: src, out [len] ids, weights [width][width] (only the
// len × len corner is drawn).
//
// Introduced in lesson 06.
func AlignmentFigure(src, out []int32, weights [][]float64, n int) *viz.Heatmap {
	vals := make([][]float64, n)
	rows, cols := make([]string, n), make([]string, n)
	for t := range n {
		vals[t] = weights[t][:n]
		rows[t] = Digits(out[t : t+1])
		cols[t] = Digits(src[t : t+1])
	}
	return &viz.Heatmap{Values: vals, Rows: rows, Cols: cols, Title: "Attention of each output digit over the source",
		XLabel: "source digit (encoder state)", YLabel: "output digit (decoder step)", FixedRange: true, Min: 0, Max: 1,
		Annotate: viz.AnnotateNever}
}

// Table formats the first n examples as "source → target" lines.
func (e *Examples) Table(n int) string {
	var b strings.Builder
	for i := range min(n, len(e.Src)) {
		fmt.Fprintf(&b, "%-*s → %s\n", 2*e.Width, Digits(e.Src[i]), Digits(e.TgtOut[i]))
	}
	return b.String()
}

// Alignment decodes one fresh example of length n with a trained model
// and returns its attention heat map ([AlignmentFigure]) and a line
// "source → output (right/wrong)".
func (x Experiment) Alignment(t *train.Trained, cfg Config, n int, seed uint32) (*viz.Heatmap, string, error) {
	e, err := ReverseTask(1, n, n, x.Width, seed)
	if err != nil {
		return nil, "", err
	}
	d, err := Decode(t.Store, cfg, e)
	if err != nil {
		return nil, "", err
	}
	verdict := "right"
	if Accuracy(e, d).Sequence < 1 {
		verdict = "wrong"
	}
	line := fmt.Sprintf("source %s → output %s (%s; target %s)", Digits(e.Src[0][:n]), Digits(d.Tokens[0][:n]), verdict, Digits(e.TgtOut[0][:n]))
	return AlignmentFigure(e.Src[0], d.Tokens[0], d.Weights[0], n), line, nil
}

// Curves loads (or, when none is saved, trains) each model and measures
// its [Curve].
func (x Experiment) Curves(cfgs ...Config) ([]*Curve, error) {
	var out []*Curve
	for _, cfg := range cfgs {
		t, err := x.Load(cfg)
		if err != nil {
			return nil, err
		}
		c, err := x.Curve(t, cfg)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// AtLeast returns an error unless the token accuracy at length n is at
// least min: the lesson asserts its outcomes with it.
func (c *Curve) AtLeast(n int, min float64) error {
	if got := c.At(n).Token; got < min {
		return fmt.Errorf("%s: %.1f%% of the tokens right at length %d, expected at least %.0f%%", c.Name, 100*got, n, 100*min)
	}
	return nil
}

// AtMost returns an error unless the token accuracy at length n is at
// most max.
func (c *Curve) AtMost(n int, max float64) error {
	if got := c.At(n).Token; got > max {
		return fmt.Errorf("%s: %.1f%% of the tokens right at length %d, expected at most %.0f%%", c.Name, 100*got, n, 100*max)
	}
	return nil
}
