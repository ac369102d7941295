package corpus

import (
	"fmt"
	"math"
)

// NGram is a byte n-gram language model with interpolated absolute
// discounting (Ney, Essen and Kneser, 1994), the baseline lesson 10
// measures its GPT against. The order-1 model is the unigram with add-one
// (Laplace) smoothing over the 256 byte values:
//
//	P₁(c)   = (count(c) + 1) / (N + 256)
//
// and each higher order k mixes the counts after the last k−1 bytes h with
// the order below:
//
//	P_k(c|h) = max(count(h c) − D, 0) / count(h·) + D · types(h·) / count(h·) · P_{k−1}(c|h')
//
// where count(h·) is how often h was followed by anything, types(h·) by how
// many different bytes, and h' is h without its first byte. Subtracting D
// from every seen count frees exactly the mass D·types/count that the lower
// order spreads, so every P_k sums to 1. A history never seen falls back to
// P_{k−1}. D = 0.75 is the usual choice.
//
// Typical sizes: order 1 (unigram), 2 (bigram), 5 (four bytes of history).
//
// Introduced in lesson 10.
type NGram struct {
	Order    int
	Discount float64
	uni      [256]float64          // P₁
	hist     []map[string]*history // hist[k]: histories of k bytes, k = 1 … Order−1
}

// history is what followed one history in the training text.
type history struct {
	total int32
	next  []byte
	count []int32
}

// NewNGram counts the n-grams of text for a model of the given order ≥ 1
// and discount 0 < D < 1 (ignored for order 1).
//
// Introduced in lesson 10.
func NewNGram(text []byte, order int, discount float64) (*NGram, error) {
	if order < 1 {
		return nil, fmt.Errorf("corpus.NewNGram: order must be ≥ 1, got %d", order)
	}
	if order > 1 && !(discount > 0 && discount < 1) {
		return nil, fmt.Errorf("corpus.NewNGram: the discount must be between 0 and 1 (0.75 is usual), got %g", discount)
	}
	m := &NGram{Order: order, Discount: discount}
	var counts [256]int
	for _, c := range text {
		counts[c]++
	}
	for c := range m.uni {
		m.uni[c] = float64(counts[c]+1) / float64(len(text)+256)
	}
	m.hist = make([]map[string]*history, order)
	for k := 1; k < order; k++ {
		hs := map[string]*history{}
		for i := k; i < len(text); i++ {
			h := hs[string(text[i-k:i])]
			if h == nil {
				h = &history{}
				hs[string(text[i-k:i])] = h
			}
			h.total++
			c := text[i]
			found := false
			for j, b := range h.next {
				if b == c {
					h.count[j]++
					found = true
					break
				}
			}
			if !found {
				h.next = append(h.next, c)
				h.count = append(h.count, 1)
			}
		}
		m.hist[k] = hs
	}
	return m, nil
}

// Dist returns P(·|context) over the 256 bytes, using the last Order−1
// bytes of context (fewer at the start of a text).
func (m *NGram) Dist(context []byte) []float64 {
	p := make([]float64, 256)
	copy(p, m.uni[:])
	for k := 1; k < m.Order && k <= len(context); k++ {
		m.hist[k][string(context[len(context)-k:])].interpolate(p, m.Discount)
	}
	return p
}

// interpolate turns p, the order below's distribution, into this
// history's: every count gives up D, and the mass freed, D·types/total,
// goes to p — max(count(c) − D, 0)/total + D·types/total·p(c). An unseen
// history (nil) leaves p as it is.
func (h *history) interpolate(p []float64, discount float64) {
	if h == nil {
		return
	}
	total := float64(h.total)
	lower := discount * float64(len(h.next)) / total
	for c := range p {
		p[c] *= lower
	}
	for j, c := range h.next {
		p[c] += max(float64(h.count[j])-discount, 0) / total
	}
}

// Prob returns P(c|context).
func (m *NGram) Prob(context []byte, c byte) float64 {
	return m.Dist(context)[c]
}

// Log2Probs returns log₂ P(text[i] | text[:i]) for every byte of text: the
// model reads text from its start, as the GPT does.
func (m *NGram) Log2Probs(text []byte) []float64 {
	out := make([]float64, len(text))
	for i := range text {
		out[i] = math.Log2(m.Prob(text[max(0, i-m.Order+1):i], text[i]))
	}
	return out
}

// BitsPerChar returns the mean of −log₂ P(text[i] | text[:i]) over text:
// the number of bits per byte an arithmetic coder driven by the model
// would need. 8 is a model that knows nothing (uniform over 256 bytes).
//
// Introduced in lesson 10.
func (m *NGram) BitsPerChar(text []byte) float64 {
	return BitsPerChar(m.Log2Probs(text))
}

// BitsPerChar returns −mean(log2p): bits per character from the log₂
// probabilities a model gave to each character of a text.
//
// Introduced in lesson 10.
func BitsPerChar(log2p []float64) float64 {
	if len(log2p) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, l := range log2p {
		s -= l
	}
	return s / float64(len(log2p))
}

// String names the model.
func (m *NGram) String() string {
	switch m.Order {
	case 1:
		return "unigram (add-one)"
	case 2:
		return fmt.Sprintf("bigram (abs. discount %.2f)", m.Discount)
	}
	return fmt.Sprintf("%d-gram (abs. discount %.2f)", m.Order, m.Discount)
}
