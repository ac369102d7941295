package gpt

import (
	"fmt"
	"strings"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/corpus"
	"github.com/attention-in-go/course/lib/train"
)

// Attention returns every head's attention weights of the model on one
// window of text (at most Context bytes for learned positions), as
// [layer][head][query][key].
//
// Introduced in lesson 10.
func Attention(store *model.Store, c Config, text []byte) ([][][][]float64, error) {
	p, err := train.NewPredictor(store, c.AttentionModel())
	if err != nil {
		return nil, err
	}
	return attentionOf(p, c, text)
}

// attentionOf is [Attention] with a predictor of c.AttentionModel(),
// compiled once for many windows of one length.
func attentionOf(p *train.Predictor, c Config, text []byte) ([][][][]float64, error) {
	ids := make([]int32, len(text))
	for i, b := range text {
		ids[i] = int32(b)
	}
	out, err := p.Predict(tensors.FromFlatDataAndDimensions(ids, 1, len(text)))
	if err != nil {
		return nil, err
	}
	w := tensors.MustCopyFlatData[float32](out[1]) // [layers, 1, heads, seq, seq]
	n := len(text)
	res := make([][][][]float64, c.Layers)
	for l := range res {
		res[l] = make([][][]float64, c.Heads)
		for h := range res[l] {
			res[l][h] = make([][]float64, n)
			for q := range n {
				res[l][h][q] = make([]float64, n)
				for k := range n {
					res[l][h][q][k] = float64(w[((l*c.Heads+h)*n+q)*n+k])
				}
			}
		}
	}
	return res, nil
}

// A Pattern names, for query i of a window, the key a head of that kind
// would attend to, or −1 where the pattern says nothing.
//
// Introduced in lesson 10.
type Pattern struct {
	Name string
	Key  func(text []byte, i int) int
}

// Patterns are the attention patterns lesson 10 measures in every head.
//
// Introduced in lesson 10.
var Patterns = []Pattern{
	{"previous byte", func(_ []byte, i int) int { return i - 1 }},
	{"same byte", func(_ []byte, i int) int { return i }},
	{"start of the line", func(t []byte, i int) int { // the newline that began the line of byte i
		for k := i - 1; k >= 0; k-- {
			if t[k] == '\n' {
				return k
			}
		}
		return -1
	}},
	{"open bracket", func(t []byte, i int) int { // the innermost bracket still open at byte i
		depth := 0
		for k := i; k >= 0; k-- {
			switch t[k] {
			case ')', ']', '}':
				depth++
			case '(', '[', '{':
				if depth == 0 {
					return k
				}
				depth--
			}
		}
		return -1
	}},
}

// HeadPattern is how much of one head's attention goes where a pattern
// says, on average over the queries the pattern applies to (excluding
// query 0, which can only attend to itself), and how much a uniform causal
// head (1/(i+1) on each key) would give it.
//
// Introduced in lesson 10.
type HeadPattern struct {
	Layer, Head int
	Pattern     string
	Mass        float64
	Uniform     float64
}

// MeasurePatterns averages, over windows of the test text, each head's
// attention on each pattern's key, and returns for each head its pattern
// with the largest mass relative to the uniform head's.
//
// Introduced in lesson 10.
func MeasurePatterns(store *model.Store, c Config, text []byte, windows int) ([]HeadPattern, error) {
	seq := c.Context
	type acc struct{ mass, uni, n float64 }
	sums := make([][][]acc, c.Layers)
	for l := range sums {
		sums[l] = make([][]acc, c.Heads)
		for h := range sums[l] {
			sums[l][h] = make([]acc, len(Patterns))
		}
	}
	pred, err := train.NewPredictor(store, c.AttentionModel())
	if err != nil {
		return nil, err
	}
	stride := max(seq, (len(text)-seq)/max(1, windows))
	for w := 0; w < windows && w*stride+seq <= len(text); w++ {
		win := text[w*stride : w*stride+seq]
		att, err := attentionOf(pred, c, win)
		if err != nil {
			return nil, err
		}
		for p, pat := range Patterns {
			for i := 1; i < seq; i++ {
				k := pat.Key(win, i)
				if k < 0 || k > i {
					continue
				}
				for l := range c.Layers {
					for h := range c.Heads {
						a := &sums[l][h][p]
						a.mass += att[l][h][i][k]
						a.uni += 1 / float64(i+1)
						a.n++
					}
				}
			}
		}
	}
	var out []HeadPattern
	for l := range c.Layers {
		for h := range c.Heads {
			best := HeadPattern{Layer: l, Head: h}
			for p, pat := range Patterns {
				a := sums[l][h][p]
				if a.n == 0 {
					continue
				}
				m, u := a.mass/a.n, a.uni/a.n
				if best.Pattern == "" || m/u > best.Mass/best.Uniform {
					best = HeadPattern{Layer: l, Head: h, Pattern: pat.Name, Mass: m, Uniform: u}
				}
			}
			out = append(out, best)
		}
	}
	return out, nil
}

// PatternTable prints [MeasurePatterns]'s result, one head a line.
//
// Introduced in lesson 10.
func PatternTable(ps []HeadPattern) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "block %d head %d: %-18s %.2f of its attention (a uniform head: %.2f, ×%.1f)\n",
			p.Layer, p.Head, p.Pattern, p.Mass, p.Uniform, p.Mass/p.Uniform)
	}
	return b.String()
}

// PositionResult is the bits per character of one positional encoding at
// each position of a window.
//
// Introduced in lesson 10.
type PositionResult struct {
	Positions Positions
	Seq       int       // the window evaluated
	Bits      []float64 // bits per character at each position of the window
}

// Mean returns the bits per character over positions [from, to).
func (r PositionResult) Mean(from, to int) float64 {
	s := 0.0
	for _, b := range r.Bits[from:to] {
		s += b
	}
	return s / float64(to-from)
}

// ByPosition evaluates the model on windows of seq bytes of text, one
// after the other, every position of each scored, and averages the bits
// per character at each position of the window.
//
// Introduced in lesson 10.
func ByPosition(store *model.Store, c Config, text []byte, seq int) (PositionResult, error) {
	s, err := evaluate(store, c, text, seq, seq)
	if err != nil {
		return PositionResult{}, err
	}
	r := PositionResult{Positions: c.Positions, Seq: seq, Bits: make([]float64, seq)}
	n := make([]float64, seq)
	for j, lp := range s.Log2P {
		r.Bits[j%seq] -= lp
		n[j%seq]++
	}
	for j := range r.Bits {
		r.Bits[j] /= n[j]
	}
	return r, nil
}

// PositionsExperiment is lesson 10's extrapolation question: the same
// small GPT with each positional encoding, trained on windows of Context
// bytes for 1 000 steps with lesson 09's recipe (warm-up, cosine decay,
// clipping, weight decay), and evaluated on windows of 2·Context
// ([Experiment.RunExtrapolation]).
//
// Introduced in lesson 10.
var PositionsExperiment = Experiment{Name: "lesson10-positions",
	Model:  Config{Vocab: 256, DModel: 32, Heads: 2, Layers: 2, DFF: 64, Context: 32, Positions: Sinusoidal},
	Stride: 16, Steps: 1000, Batch: 32, LearningRate: 0.003, Seed: 10,
	Warmup: 100, Decay: train.Cosine, ClipNorm: 1, WeightDecay: 0.1}

// WithPositions returns the experiment with positions p, named after them.
func (e Experiment) WithPositions(p Positions) Experiment {
	e.Model.Positions = p
	e.Name += "-" + string(p)
	return e
}

// Extrapolate evaluates the trained model of e at Context and, unless its
// positions are learned (a table of Context rows has no row for position
// Context), at 2·Context.
//
// Part of the library behind lesson 10; the lesson does not name it.
func (e Experiment) Extrapolate(store *model.Store, s *corpus.Split) ([]PositionResult, error) {
	var out []PositionResult
	for _, seq := range []int{e.Model.Context, 2 * e.Model.Context} {
		if e.Model.Positions == Learned && seq > e.Model.Context {
			break
		}
		r, err := ByPosition(store, e.Model, s.Test, seq)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// BestHead returns the head of ps whose pattern is name with the largest
// mass, and false when no head shows that pattern.
//
// Introduced in lesson 10.
func BestHead(ps []HeadPattern, name string) (HeadPattern, bool) {
	var best HeadPattern
	found := false
	for _, p := range ps {
		if p.Pattern == name && (!found || p.Mass > best.Mass) {
			best, found = p, true
		}
	}
	return best, found
}
