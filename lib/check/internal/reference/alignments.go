package reference

import "math"

// This file holds the references of lesson 07's exercises: the
// attention of a decoding in Bahdanau's order, and the attention mass an
// output span puts on a source span.

// BahdanauVariant selects the reference (zero value) or one usual mistake.
type BahdanauVariant struct {
	Luong       bool // step t scores with the new state s_t instead of s_{t−1}
	NoMask      bool // padding attended
	MaskAfter   bool // padded weights zeroed after the softmax, not renormalised
	StepSoftmax bool // softmax over the decoder steps (each source column) instead of the source
	W1W2Swapped bool // the decoder state through W2 and the encoder states through W1
	Scaled      bool // the scores divided by √d_attn, as in scaled dot-product attention
}

// BahdanauAttention is the attention of a decoding of T steps in
// Bahdanau's order: dec holds s_0 … s_T, and step t = 1 … T scores the
// encoder states with the previous state s_{t−1}:
//
//	e_ts = v·tanh(s_{t−1}·W1 + h_s·W2),  α_t = softmax_s(e_t, padding masked),  c_t = Σ_s α_ts h_s
//
// It returns the contexts [T][hidden] and the weights [T][src].
func BahdanauAttention(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64, vr BahdanauVariant) (contexts, weights [][]float64) {
	queries := dec[:len(dec)-1]
	if vr.Luong {
		queries = dec[1:]
	}
	scores := make([][]float64, len(queries))
	for t, q := range queries {
		if vr.W1W2Swapped {
			scores[t] = AdditiveScores(q, enc, w2, w1, v)
		} else {
			scores[t] = AdditiveScores(q, enc, w1, w2, v)
		}
		if vr.Scaled {
			for s := range scores[t] {
				scores[t][s] /= math.Sqrt(float64(len(v)))
			}
		}
		if !vr.NoMask && !vr.MaskAfter {
			for s := range scores[t] {
				if !keep[s] {
					scores[t][s] = -1e9
				}
			}
		}
	}
	if vr.StepSoftmax {
		weights = Transpose(softmaxRows(Transpose(scores)))
	} else {
		weights = softmaxRows(scores)
	}
	if vr.MaskAfter {
		for t := range weights {
			for s := range weights[t] {
				if !keep[s] {
					weights[t][s] = 0
				}
			}
		}
	}
	for t := range weights {
		c := make([]float64, len(enc[0]))
		for s, h := range enc {
			for i := range c {
				c[i] += weights[t][s] * h[i]
			}
		}
		contexts = append(contexts, c)
	}
	return contexts, weights
}

// SpanVariant selects the reference (zero value) or one usual mistake.
type SpanVariant struct {
	Sum        bool // the total over the output rows, not their mean
	Inclusive  bool // To taken as the last position, not one past it
	InclusiveN bool // To taken as the last position, the mean still over To − From rows
	Transposed bool // weights read as [source][output]
}

// SpanMass is the mean over the output rows t in [outFrom, outTo) of the
// weight on the source columns s in [srcFrom, srcTo):
//
//	mass = 1/(outTo − outFrom) · Σ_t Σ_s weights[t][s]
func SpanMass(weights [][]float64, outFrom, outTo, srcFrom, srcTo int, v SpanVariant) float64 {
	rows := outTo - outFrom
	if v.Inclusive || v.InclusiveN {
		outTo, srcTo = outTo+1, srcTo+1
	}
	if v.Inclusive {
		rows++
	}
	total := 0.0
	for t := outFrom; t < outTo; t++ {
		for s := srcFrom; s < srcTo; s++ {
			if v.Transposed {
				total += weights[s][t]
			} else {
				total += weights[t][s]
			}
		}
	}
	if v.Sum {
		return total
	}
	return total / float64(rows)
}
