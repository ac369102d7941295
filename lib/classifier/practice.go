package classifier

import (
	"fmt"
	"math"

	"github.com/attention-in-go/course/lib/reviews"
	"github.com/attention-in-go/course/lib/train"
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
	h := Entropy{PerHead: make([]float64, e.Heads)}
	rows := 0
	for i, r := range rs {
		n := len(r.Words)
		for q := range n {
			for hh := range e.Heads {
				for _, x := range w[i][hh][q] {
					if x > 0 {
						h.PerHead[hh] -= x * math.Log(x)
					}
				}
			}
			h.Uniform += math.Log(float64(n))
			rows++
		}
	}
	for hh := range h.PerHead {
		h.PerHead[hh] /= float64(rows)
	}
	h.Uniform /= float64(rows)
	return h, nil
}
