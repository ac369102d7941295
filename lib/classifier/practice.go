package classifier

import (
	"fmt"
	"math"
	"strings"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/reviews"
	"github.com/attention-in-go/course/lib/train"
	"github.com/attention-in-go/course/lib/viz"
)

// Entropy is how spread out a trained model's attention is on some
// reviews.
//
// Introduced in lesson 11 (attention in practice).
type Entropy struct {
	// PerHead is, for each head, the mean over the reviews and their
	// words (the queries) of the row entropy −Σ_j w_ij·ln w_ij over the
	// keys, in nats: 0 when every word looks at one word only.
	PerHead []float64
	// Uniform is the same mean for weights spread evenly over the words
	// of each review, ln(words): the largest entropy possible.
	Uniform float64
}

// Collapse returns the smallest head entropy as a fraction of Uniform: 1
// for uniform attention, near 0 for a head that has collapsed onto single
// keys.
func (h Entropy) Collapse() float64 {
	low := math.Inf(1)
	for _, x := range h.PerHead {
		low = min(low, x)
	}
	return low / h.Uniform
}

// String formats the entropies, e.g. "head 1 0.84, head 2 1.20 nats (uniform 1.79)".
func (h Entropy) String() string {
	s := ""
	for i, x := range h.PerHead {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("head %d %.2f", i+1, x)
	}
	return fmt.Sprintf("%s nats (uniform %.2f)", s, h.Uniform)
}

// AttentionEntropy measures the entropy of the trained Transformer's
// attention rows on reviews, head by head, over the real words only (the
// padding's keys have weight 0 and its queries are left out):
//
//	H_i = −Σ_j w_ij · ln w_ij      (0·ln 0 = 0)
//
// Typical use: the test reviews, to watch the heads sharpen as the model
// trains, or collapse onto single words.
//
// Introduced in lesson 11.
func (e Experiment) AttentionEntropy(t *train.Trained, k Kind, rs []reviews.Review) (Entropy, error) {
	if len(rs) == 0 {
		return Entropy{}, fmt.Errorf("classifier.AttentionEntropy: no reviews")
	}
	_, w, err := e.Predict(t, k, rs)
	if err != nil {
		return Entropy{}, err
	}
	if w == nil {
		return Entropy{}, fmt.Errorf("classifier.AttentionEntropy: the %s model has no attention", k)
	}
	return entropyOf(e.Heads, rs, w), nil
}

// entropyOf averages the row entropies of weights [review][head][query][key]
// over the words of rs, head by head.
func entropyOf(heads int, rs []reviews.Review, w [][][][]float64) Entropy {
	h := Entropy{PerHead: make([]float64, heads)}
	rows := 0
	for i, r := range rs {
		n := len(r.Words)
		for q := range n {
			for hh := range heads {
				h.PerHead[hh] += attention.RowEntropy(w[i][hh][q])
			}
			h.Uniform += math.Log(float64(n))
			rows++
		}
	}
	for hh := range h.PerHead {
		h.PerHead[hh] /= float64(rows)
	}
	h.Uniform /= float64(rows)
	return h
}

// Variant is one trained Transformer of lesson 11 and what it measured on
// the test reviews.
//
// Introduced in lesson 11.
type Variant struct {
	Name     string
	Steps    int
	Accuracy float64 // on all test reviews
	Entropy  Entropy // of its attention on the test reviews
	Trained  *train.Trained
}

// Measure trains e's Transformer (saved under e.Name) and measures its
// test accuracy and attention entropy; name labels it in tables.
//
// Introduced in lesson 11.
func (e Experiment) Measure(name string) (Variant, error) {
	t, err := e.Train(Transformer)
	if err != nil {
		return Variant{}, err
	}
	return e.measure(name, t)
}

// measure measures the trained model t of e on the test reviews.
func (e Experiment) measure(name string, t *train.Trained) (Variant, error) {
	s, _, err := e.Data()
	if err != nil {
		return Variant{}, err
	}
	p, w, err := e.Predict(t, Transformer, s.Test) // one pass for both measures
	if err != nil {
		return Variant{}, err
	}
	right := 0
	for i, r := range s.Test {
		if (p[i] >= 0.5) == (r.Label == 1) {
			right++
		}
	}
	return Variant{Name: name, Steps: t.History.Steps, Accuracy: float64(right) / float64(len(s.Test)),
		Entropy: entropyOf(e.Heads, s.Test, w), Trained: t}, nil
}

// Reload loads e's Transformer saved by [Experiment.Measure] and measures
// it again, without training: what a later cell calls, since every
// notebook cell runs as a new program.
//
// Introduced in lesson 11.
func (e Experiment) Reload(name string) (Variant, error) {
	t, err := train.Load(e.Name(Transformer))
	if err != nil {
		return Variant{}, err
	}
	return e.measure(name, t)
}

// VariantTable formats variants, one line each:
//
//	variant            steps  test acc.  head 1  head 2  (nats; uniform 1.94)
func VariantTable(vs []Variant) string {
	var b strings.Builder
	if len(vs) == 0 {
		return ""
	}
	fmt.Fprintf(&b, "%-22s %6s %10s", "variant", "steps", "test acc.")
	for h := range vs[0].Entropy.PerHead {
		fmt.Fprintf(&b, " %7s", fmt.Sprintf("head %d", h+1))
	}
	fmt.Fprintf(&b, "  (entropy in nats; uniform %.2f)\n", vs[0].Entropy.Uniform)
	for _, v := range vs {
		fmt.Fprintf(&b, "%-22s %6d %9.1f%%", v.Name, v.Steps, 100*v.Accuracy)
		for _, x := range v.Entropy.PerHead {
			fmt.Fprintf(&b, " %7.2f", x)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// EntropyCurve plots each head's entropy against the training steps of
// variants trained for different numbers of steps, with the uniform
// entropy for reference.
//
// Introduced in lesson 11.
func EntropyCurve(vs []Variant) *viz.Lines {
	f := &viz.Lines{Title: "Attention entropy while training (test reviews)", XLabel: "training steps", YLabel: "mean row entropy (nats)", Points: true}
	if len(vs) == 0 {
		return f
	}
	var x, uniform []float64
	heads := make([][]float64, len(vs[0].Entropy.PerHead))
	for _, v := range vs {
		x = append(x, float64(v.Steps))
		uniform = append(uniform, v.Entropy.Uniform)
		for h, e := range v.Entropy.PerHead {
			heads[h] = append(heads[h], e)
		}
	}
	for h, y := range heads {
		f.Series = append(f.Series, viz.Series{Name: fmt.Sprintf("head %d", h+1), X: x, Y: y})
	}
	f.Series = append(f.Series, viz.Series{Name: "uniform: ln(words)", X: x, Y: uniform, Dashed: true})
	return f
}

// EntropyBars draws each variant's head entropies as grouped bars.
//
// Introduced in lesson 11.
func EntropyBars(vs []Variant) *viz.Bars {
	b := &viz.Bars{Title: "Attention entropy of the trained models (test reviews)", YLabel: "mean row entropy (nats)", Annotate: true, Format: "%.2f"}
	if len(vs) == 0 {
		return b
	}
	for h := range vs[0].Entropy.PerHead {
		b.Groups = append(b.Groups, viz.BarGroup{Name: fmt.Sprintf("head %d", h+1)})
	}
	for _, v := range vs {
		b.Labels = append(b.Labels, v.Name)
		for h, e := range v.Entropy.PerHead {
			b.Groups[h].Values = append(b.Groups[h].Values, e)
		}
	}
	return b
}

// SameStart reports whether the shorter training's losses are the first
// steps of the longer's, exactly: the two runs followed one trajectory.
//
// Introduced in lesson 11.
func SameStart(short, long *train.History) bool {
	if len(short.Loss) > len(long.Loss) {
		return false
	}
	for i, l := range short.Loss {
		if l != long.Loss[i] {
			return false
		}
	}
	return true
}
