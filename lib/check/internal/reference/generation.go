package reference

import (
	"math"
	"slices"
	"sort"
)

// This file holds the references of lesson 10's exercises: the shifted
// targets and loss mask of a causal language model, sampling with
// temperature and top-k, and attention with a key–value cache.

// LMVariant selects the reference (zero value) or one usual mistake.
type LMVariant struct {
	NotShifted   bool // targets equal to the inputs
	WrongWay     bool // inputs seq[1:], targets seq[:n−1]
	MaskOnInputs bool // the mask says where the input is not padding
}

// LMTargets turns one token sequence (padded at its end) into a causal
// language model's training example: inputs seq[0 … n−2], targets
// seq[1 … n−1] (position t predicts the next token), and a loss mask that
// is true where the target is a real token, not padding.
func LMTargets(seq []int, pad int, vr LMVariant) (inputs, targets []int, mask []bool) {
	n := max(len(seq)-1, 0)
	inputs, targets = append([]int(nil), seq[:n]...), append([]int(nil), seq[min(1, len(seq)):]...)
	switch {
	case vr.NotShifted:
		targets = append([]int(nil), inputs...)
	case vr.WrongWay:
		inputs, targets = targets, inputs
	}
	mask = make([]bool, n)
	for t := range mask {
		if vr.MaskOnInputs {
			mask[t] = inputs[t] != pad
		} else {
			mask[t] = targets[t] != pad
		}
	}
	return inputs, targets, mask
}

// SampleVariant selects the reference (zero value) or one usual mistake.
type SampleVariant struct {
	TemperatureTimes bool // logits·T instead of logits/T
	TemperatureAfter bool // softmax(logits), then each probability divided by T
	TopKIgnored      bool // every token kept
	TopKSmallest     bool // the k smallest logits kept
	TopKPlusOne      bool // topK+1 tokens kept
	TopKThreshold    bool // every logit ≥ the k-th largest kept: ties at the cut all kept
	TiesHigherFirst  bool // among equal logits, the higher id kept first (and drawn first at T = 0)
	NotRenormalized  bool // softmax over every token, then the others dropped without renormalising
	NoMaxSubtraction bool // exp of the scaled logits as they are: overflows
}

// Sample draws one token id from logits with a given uniform number u in
// [0, 1), so that a draw is reproducible:
//
//  1. temperature 0 is greedy decoding: the id of the largest logit
//     (the lowest id among equal ones);
//  2. topK > 0 keeps the topK largest logits (ties: lower id first) and
//     drops the rest; topK ≤ 0 or ≥ len(logits) keeps every token;
//  3. p = softmax(logits/T) over the kept tokens;
//  4. walking the ids in order, the result is the first kept id whose
//     cumulative probability exceeds u (the last kept id if rounding
//     leaves u above the total).
func Sample(logits []float64, temperature float64, topK int, u float64, vr SampleVariant) int {
	order := make([]int, len(logits))
	for i := range order {
		order[i] = i
	}
	if vr.TiesHigherFirst {
		slices.Reverse(order)
	}
	sort.SliceStable(order, func(a, b int) bool {
		if vr.TopKSmallest {
			return logits[order[a]] < logits[order[b]]
		}
		return logits[order[a]] > logits[order[b]]
	})
	if temperature == 0 {
		return order[0]
	}
	keep := make([]bool, len(logits))
	k := topK
	if vr.TopKPlusOne && k > 0 {
		k++
	}
	if k <= 0 || k >= len(logits) || vr.TopKIgnored {
		k = len(logits)
	}
	for _, i := range order[:k] {
		keep[i] = true
	}
	if vr.TopKThreshold {
		for i, x := range logits {
			if x >= logits[order[k-1]] {
				keep[i] = true
			}
		}
	}
	scaled := make([]float64, len(logits))
	best := math.Inf(-1)
	for i, x := range logits {
		switch {
		case vr.TemperatureTimes:
			scaled[i] = x * temperature
		case vr.TemperatureAfter:
			scaled[i] = x
		default:
			scaled[i] = x / temperature
		}
		if keep[i] || vr.NotRenormalized {
			best = math.Max(best, scaled[i])
		}
	}
	if vr.NoMaxSubtraction {
		best = 0
	}
	p := make([]float64, len(logits))
	sum := 0.0
	for i := range p {
		if keep[i] || vr.NotRenormalized {
			p[i] = math.Exp(scaled[i] - best)
			sum += p[i]
		}
	}
	if vr.TemperatureAfter {
		sum *= temperature
	}
	last, cum := -1, 0.0
	for i := range p {
		if !keep[i] {
			continue
		}
		last = i
		cum += p[i] / sum
		if cum > u {
			return i
		}
	}
	return last
}

// CacheVariant selects the reference (zero value) or one usual mistake.
type CacheVariant struct {
	AttendBeforeAppend bool // the new token attends over the old cache only
	NoScale            bool // scores not divided by √d_k
	CacheNotGrown      bool // the old cache returned
}

// CachedAttention is one generation step of a causal self-attention head
// with a key–value cache: the new token's key k and value v are appended
// to the cache (cacheK [t][d_k], cacheV [t][d_v]), and its query q
// attends over all t+1 positions. The output equals the last row of full
// causal attention recomputed over the whole prefix.
func CachedAttention(cacheK, cacheV [][]float64, q, k, v []float64, vr CacheVariant) (out []float64, newK, newV [][]float64) {
	newK = append(clone(cacheK), append([]float64(nil), k...))
	newV = append(clone(cacheV), append([]float64(nil), v...))
	keys, values := newK, newV
	if vr.AttendBeforeAppend {
		keys, values = cacheK, cacheV
	}
	if len(keys) == 0 {
		out = make([]float64, len(v))
	} else {
		qs := [][]float64{q}
		if vr.NoScale {
			qs = scaleRows(qs, math.Sqrt(float64(len(q))))
		}
		o, _ := MaskedAttention(qs, keys, values, nil)
		out = o[0]
	}
	if vr.CacheNotGrown {
		newK, newV = clone(cacheK), clone(cacheV)
	}
	return out, newK, newV
}

func clone(m [][]float64) [][]float64 {
	out := make([][]float64, len(m))
	for i := range m {
		out[i] = append([]float64(nil), m[i]...)
	}
	return out
}
