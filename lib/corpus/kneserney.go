package corpus

import (
	"fmt"
	"math"
)

// KneserNey is a byte n-gram language model with interpolated Kneser–Ney
// smoothing (Kneser and Ney, 1995; in the interpolated form of Chen and
// Goodman, An Empirical Study of Smoothing Techniques for Language
// Modeling, 1998): [NGram]'s absolute discounting, except that every order
// below the highest counts *continuations* — in how many different
// contexts an n-gram was seen — instead of how often:
//
//	P_k(c|h) = max(N(h c) − D, 0) / N(h·) + D · types(h·) / N(h·) · P_{k−1}(c|h')
//
// with N the raw counts at the highest order used and, below it,
// N(h c) = #{b : b h c was seen}, the number of distinct bytes seen
// before h c. A byte that often follows one frequent word has a large
// raw count but few continuations, so the lower orders, which matter
// for the bytes a longer history was never followed by, no longer echo
// what the higher order already said. The unigram (the empty history)
// interpolates the same way with the uniform 1/256, so every byte keeps
// a chance and every P_k sums to 1.
//
// Typical sizes: orders 4 to 6 on lesson 10's 0.4 MB of Go, D = 0.75.
//
// Introduced in lesson 10.
type KneserNey struct {
	Order    int
	Discount float64
	// raw[k] and cont[k] are the histories of k bytes (k = 0 … Order−1;
	// the empty history at k = 0) with the raw counts and the
	// continuation counts of what followed them.
	raw, cont []map[string]*history
}

// NewKneserNey counts text for a model of the given order ≥ 1 and
// discount 0 < D < 1.
//
// Introduced in lesson 10.
func NewKneserNey(text []byte, order int, discount float64) (*KneserNey, error) {
	if order < 1 {
		return nil, fmt.Errorf("corpus.NewKneserNey: order must be ≥ 1, got %d", order)
	}
	if !(discount > 0 && discount < 1) {
		return nil, fmt.Errorf("corpus.NewKneserNey: the discount must be between 0 and 1 (0.75 is usual), got %g", discount)
	}
	m := &KneserNey{Order: order, Discount: discount, raw: make([]map[string]*history, order), cont: make([]map[string]*history, order)}
	for k := range order {
		m.raw[k] = map[string]*history{}
		for i := k; i < len(text); i++ {
			m.raw[k][string(text[i-k:i])] = m.raw[k][string(text[i-k:i])].add(text[i], 1)
		}
	}
	// The continuations of h c: one for every distinct byte b seen before
	// it, that is one for every (b h, c) of the raw counts one order up.
	for k := range order - 1 {
		m.cont[k] = map[string]*history{}
		for bh, next := range m.raw[k+1] {
			h := bh[1:]
			for _, c := range next.next {
				m.cont[k][h] = m.cont[k][h].add(c, 1)
			}
		}
	}
	return m, nil
}

// add records n more of c after h (a new history when h is nil) and
// returns h.
func (h *history) add(c byte, n int32) *history {
	if h == nil {
		h = &history{}
	}
	h.total += n
	for j, b := range h.next {
		if b == c {
			h.count[j] += n
			return h
		}
	}
	h.next = append(h.next, c)
	h.count = append(h.count, n)
	return h
}

// Dist returns P(·|context) over the 256 bytes, using the last Order−1
// bytes of context (fewer at the start of a text): raw counts for the
// longest history used, continuation counts below it.
func (m *KneserNey) Dist(context []byte) []float64 {
	top := min(len(context), m.Order-1)
	p := make([]float64, 256)
	for c := range p {
		p[c] = 1.0 / 256
	}
	for k := 0; k <= top; k++ {
		counts := m.cont[k]
		if k == top {
			counts = m.raw[k]
		}
		counts[string(context[len(context)-k:])].interpolate(p, m.Discount)
	}
	return p
}

// BitsPerChar returns the mean of −log₂ P(text[i] | text[:i]) over text,
// as [NGram.BitsPerChar].
//
// Introduced in lesson 10.
func (m *KneserNey) BitsPerChar(text []byte) float64 {
	log2p := make([]float64, len(text))
	for i := range text {
		log2p[i] = math.Log2(m.Dist(text[max(0, i-m.Order+1):i])[text[i]])
	}
	return BitsPerChar(log2p)
}

// String names the model.
func (m *KneserNey) String() string {
	return fmt.Sprintf("%d-gram (Kneser–Ney %.2f)", m.Order, m.Discount)
}
