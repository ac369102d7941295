package check

import (
	"fmt"
	"math"
	"sort"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 10's exercises: the shifted
// targets and loss mask of a causal language model, sampling with
// temperature and top-k, and one generation step with a key–value cache.

type (
	// LMOut is LMTargets' result (lib/exercise).
	LMOut = exercise.LMOut
	// SampleIn is an input of the sampling exercise (lib/exercise).
	SampleIn = exercise.SampleIn
	// CacheIn is an input of the key–value cache exercise (lib/exercise).
	CacheIn = exercise.CacheIn
	// CacheOut is CachedAttention's result (lib/exercise).
	CacheOut = exercise.CacheOut
)

func lmVariant(vr reference.LMVariant) func(TokensIn) LMOut {
	return func(in TokensIn) LMOut {
		a, b, m := reference.LMTargets(in.Tokens, in.Pad, vr)
		return LMOut{Inputs: a, Targets: b, Mask: m}
	}
}

func compareLM(got, want LMOut) *Diff {
	if d := compareInts(got.Inputs, want.Inputs); d != nil {
		return prefix("inputs", d)
	}
	if d := compareInts(got.Targets, want.Targets); d != nil {
		return prefix("targets", d)
	}
	if len(got.Mask) != len(want.Mask) {
		return &Diff{Msg: fmt.Sprintf("mask: wrong length: expected %d values (one per target), got %d", len(want.Mask), len(got.Mask))}
	}
	for t := range want.Mask {
		if got.Mask[t] != want.Mask[t] {
			return &Diff{Where: fmt.Sprintf("mask, position %d", t), Want: fmt.Sprint(want.Mask[t]), Got: fmt.Sprint(got.Mask[t])}
		}
	}
	return nil
}

// padded returns tokens(r, n, pads) with the padding id pad.
func padded(r *random.Source, n, pads, pad int) []int {
	s := tokens(r, n, pads)
	for i := n; i < len(s); i++ {
		s[i] = pad
	}
	return s
}

var lmSpec = Register(&Exercise[func(seq []int, pad int) (inputs, targets []int, mask []bool), TokensIn, LMOut]{
	ID: "lm-targets", Title: "a language model's inputs, targets and loss mask", Points: 2,
	Signature: "func LMTargets(seq []int, pad int) (inputs, targets []int, mask []bool)",
	Task:      exercise.LMTargets,
	Reference: lmVariant(reference.LMVariant{}),
	Cases: func() []Case[TokensIn] {
		return []Case[TokensIn]{
			{"5 tokens, no padding", TokensIn{Tokens: []int{104, 101, 108, 108, 111}, Pad: 0}},
			{"3 tokens and 2 padding", TokensIn{Tokens: []int{123, 10, 125, 0, 0}, Pad: 0}},
			{"padding id 256", TokensIn{Tokens: []int{97, 98, 256}, Pad: 256}},
			{"2 tokens: one example", TokensIn{Tokens: []int{40, 41}, Pad: 0}},
		}
	},
	Hidden: func(r *random.Source) []Case[TokensIn] {
		pad := []int{0, 256}[intIn(r, 0, 1)]
		n := intIn(r, 3, 9)
		return []Case[TokensIn]{
			{fmt.Sprintf("%d tokens and some padding (id %d)", n, pad), TokensIn{Tokens: padded(r, n, intIn(r, 1, 4), pad), Pad: pad}},
			{"no padding", TokensIn{Tokens: tokens(r, intIn(r, 2, 9), 0), Pad: 0}},
			{"2 tokens", TokensIn{Tokens: tokens(r, 2, 0), Pad: 0}},
		}
	},
	// lib/corpus cuts lesson 10's text into windows and their shifted
	// targets; lib/train's datasets hold the batches.
	Deny:    []string{"lib/train", "lib/corpus.Windows"},
	Allow:   StdOnly,
	Compare: compareLM,
	Hints: []Hint[TokensIn, LMOut]{
		{Name: "not-shifted", Message: "the target of position t is the next token, seq[t+1]: inputs are seq[:n−1] and targets seq[1:]",
			Wrong: lmVariant(reference.LMVariant{NotShifted: true})},
		{Name: "wrong-way", Message: "shifted the wrong way: the model reads seq[t] and predicts seq[t+1], so inputs = seq[:n−1], targets = seq[1:]",
			Wrong: lmVariant(reference.LMVariant{WrongWay: true})},
		{Name: "mask-on-inputs", Message: "the loss mask says which targets are real: mask[t] = targets[t] != pad (the last real token's target is padding, so it does not count)",
			Wrong: lmVariant(reference.LMVariant{MaskOnInputs: true})},
	},
})

// LMTargets checks the learner's LMTargets: inputs seq[:n−1], targets
// seq[1:], and a loss mask that is true on real targets.
func LMTargets(f func(seq []int, pad int) (inputs, targets []int, mask []bool)) *Result {
	return lmSpec.Check(f)
}

func sampleVariant(vr reference.SampleVariant) func(SampleIn) []exercise.Draw {
	return func(in SampleIn) []exercise.Draw {
		out := make([]exercise.Draw, len(in.Us))
		for i, u := range in.Us {
			out[i] = exercise.Draw{U: u, ID: reference.Sample(in.Logits, in.Temperature, in.TopK, u, vr)}
		}
		return out
	}
}

// compareDraws compares the ids drawn at each uniform number: the same
// inverse CDF, so the same distribution.
func compareDraws(got, want []exercise.Draw) *Diff {
	if len(got) != len(want) {
		return &Diff{Msg: fmt.Sprintf("%d draws, expected %d", len(got), len(want))}
	}
	wrong, first := 0, -1
	for i := range want {
		if got[i].ID != want[i].ID {
			wrong++
			if first < 0 {
				first = i
			}
		}
	}
	if wrong == 0 {
		return nil
	}
	d := &Diff{Where: fmt.Sprintf("the id drawn at u = %.4f", want[first].U), Want: fmt.Sprint(want[first].ID), Got: fmt.Sprint(got[first].ID)}
	if len(want) > 1 {
		d.Where = fmt.Sprintf("%d of %d draws; the first, at u = %.4f", wrong, len(want), want[first].U)
	}
	return d
}

// logs returns the logits ln w_i: probabilities proportional to w at
// temperature 1.
func logs(w ...float64) []float64 {
	out := make([]float64, len(w))
	for i, x := range w {
		out[i] = math.Log(x)
	}
	return out
}

// strata returns n uniform numbers, one in each n-th of [0, 1): together
// they trace the whole distribution of a sampler.
func strata(r *random.Source, n int) []float64 {
	us := make([]float64, n)
	for i := range us {
		us[i] = (float64(i) + r.Float64()) / float64(n)
	}
	return us
}

// awayFromOne is a temperature in [0.3, 0.7] or [1.5, 3]: far enough
// from 1 that dividing, multiplying or dividing late all differ.
func awayFromOne(r *random.Source) float64 {
	if r.Float64() < 0.5 {
		return 0.3 + 0.4*r.Float64()
	}
	return 1.5 + 1.5*r.Float64()
}

// tiedAtCut returns logits whose k-th and (k+1)-th largest are equal, at
// ids in either order, so that top-k's tie rule decides which is kept.
// They are close together (std 0.3), so that at a temperature above 1
// every token, the tied ones too, has a share of the draws.
func tiedAtCut(r *random.Source, n, k int) []float64 {
	l := scaled(r.Normal(1, n)[0], 0.3)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return l[order[a]] > l[order[b]] })
	l[order[k]] = l[order[k-1]]
	return l
}

const draws = 64 // uniform numbers per hidden case

var sampleSpec = Register(&Exercise[func(logits []float64, temperature float64, topK int, u float64) int, SampleIn, []exercise.Draw]{
	ID: "sample", Title: "sampling with temperature and top-k", Points: 3,
	Signature: "func Sample(logits []float64, temperature float64, topK int, u float64) int",
	Task:      exercise.Sample,
	Reference: sampleVariant(reference.SampleVariant{}),
	Cases: func() []Case[SampleIn] {
		// p ∝ 1, 2, 3, 4 at T = 1: cumulative 0.1, 0.3, 0.6, 1.
		l := logs(1, 2, 3, 4)
		one := func(u float64) []float64 { return []float64{u} }
		return []Case[SampleIn]{
			{"T = 1, every token, u = 0.25", SampleIn{Logits: l, Temperature: 1, Us: one(0.25)}},
			{"T = 1, every token, u = 0.65", SampleIn{Logits: l, Temperature: 1, Us: one(0.65)}},
			{"T = 0.5 (p ∝ 1, 4, 9, 16), u = 0.2", SampleIn{Logits: l, Temperature: 0.5, Us: one(0.2)}},
			{"T = 2, u = 0.2", SampleIn{Logits: l, Temperature: 2, Us: one(0.2)}},
			{"top-2 (p = 3/7, 4/7), u = 0.3", SampleIn{Logits: l, Temperature: 1, TopK: 2, Us: one(0.3)}},
			{"top-2 of p ∝ 4, 3, 2, 1 (p = 4/7, 3/7), u = 0.5", SampleIn{Logits: logs(4, 3, 2, 1), Temperature: 1, TopK: 2, Us: one(0.5)}},
			{"top-2 of p ∝ 1, 3, 3, 2: a tie, the lower id kept (p = 1/2, 1/2), u = 0.9", SampleIn{Logits: logs(1, 3, 3, 2), Temperature: 1, TopK: 2, Us: one(0.9)}},
			{"top-1 of 5 logits, u = 0.99", SampleIn{Logits: logs(5, 1, 9, 2, 3), Temperature: 1, TopK: 1, Us: one(0.99)}},
			{"T = 0: greedy", SampleIn{Logits: logs(1, 7, 2), Temperature: 0, Us: one(0.01)}},
			{"T = 0 with a tie: the lower id", SampleIn{Logits: logs(1, 7, 2, 7), Temperature: 0, Us: one(0.5)}},
		}
	},
	// Each hidden case draws at 64 uniform numbers, one in each 64th of
	// [0, 1): the ids drawn trace the whole distribution, which a single
	// draw cannot tell from a wrong one.
	Hidden: func(r *random.Source) []Case[SampleIn] {
		n := intIn(r, 5, 12)
		l := r.Normal(1, n)[0]
		for i := range l {
			l[i] *= 2
		}
		k := intIn(r, 2, n-2)
		big := r.Normal(1, n)[0]
		for i := range big {
			big[i] += 1000
		}
		tied := tiedAtCut(r, n, k)
		t1, t2, t3, t4 := awayFromOne(r), awayFromOne(r), 1.5+1.5*r.Float64(), 0.5+0.8*r.Float64()
		bigK := 0 // every token, or at least two: with one kept, nothing overflows
		if r.Float64() < 0.5 {
			bigK = intIn(r, 2, n-1)
		}
		top := r.Normal(1, n)[0]
		i := intIn(r, 1, n-2) // not id 0: what a NaN comparison leaves
		j := intIn(r, i+1, n-1)
		top[i], top[j] = 9, 9
		return []Case[SampleIn]{
			{fmt.Sprintf("%d logits, T = %.2f", n, t1), SampleIn{Logits: l, Temperature: t1, Us: strata(r, draws)}},
			{fmt.Sprintf("%d logits, T = 1", n), SampleIn{Logits: l, Temperature: 1, Us: strata(r, draws)}},
			{fmt.Sprintf("%d logits, T = %.2f, top-%d", n, t2, k), SampleIn{Logits: l, Temperature: t2, TopK: k, Us: strata(r, draws)}},
			{fmt.Sprintf("top-%d with a tie at the cut, T = %.2f", k, t3), SampleIn{Logits: tied, Temperature: t3, TopK: k, Us: strata(r, draws)}},
			{fmt.Sprintf("logits near 1000, T = %.2f: exp overflows unless the largest is subtracted", t4), SampleIn{Logits: big, Temperature: t4, TopK: bigK, Us: strata(r, draws)}},
			{"T = 0: greedy, two largest logits equal", SampleIn{Logits: top, Temperature: 0, TopK: intIn(r, 0, 3), Us: strata(r, 8)}},
		}
	},
	// lesson 10's sampler (gpt.Sampler's Probs and Pick) is the
	// exercise, and attention.SoftmaxOf its softmax.
	Deny:    []string{"lib/attention.SoftmaxOf", "lib/gpt.Sampler"},
	Allow:   StdOnly,
	Compare: compareDraws,
	Hints: []Hint[SampleIn, []exercise.Draw]{
		{Name: "temperature-times", Message: "divide the logits by the temperature (softmax(logits/T)): a low T sharpens the distribution, a high T flattens it",
			Wrong: sampleVariant(reference.SampleVariant{TemperatureTimes: true})},
		{Name: "temperature-after", Message: "the temperature divides the logits before the softmax, not the probabilities after it",
			Wrong: sampleVariant(reference.SampleVariant{TemperatureAfter: true})},
		{Name: "top-k-ignored", Message: "with topK > 0, keep only the topK largest logits and give the others probability 0",
			Wrong: sampleVariant(reference.SampleVariant{TopKIgnored: true})},
		{Name: "top-k-smallest", Message: "top-k keeps the k largest logits, not the k smallest",
			Wrong: sampleVariant(reference.SampleVariant{TopKSmallest: true})},
		{Name: "ties", Message: "among equal logits the lower id comes first — at the top-k cut and at T = 0: sort the ids with sort.SliceStable, largest logit first, and keep exactly topK",
			Detect: func(in SampleIn, got []exercise.Draw) bool {
				return compareDraws(got, sampleVariant(reference.SampleVariant{TiesHigherFirst: true})(in)) == nil ||
					compareDraws(got, sampleVariant(reference.SampleVariant{TopKThreshold: true})(in)) == nil
			}},
		{Name: "top-k-plus-one", Message: "keep exactly topK tokens: the first topK ids of the sorted order, not topK+1",
			Wrong: sampleVariant(reference.SampleVariant{TopKPlusOne: true})},
		{Name: "not-renormalized", Message: "after dropping tokens, the kept probabilities must sum to 1: take the softmax over the kept tokens only",
			Wrong: sampleVariant(reference.SampleVariant{NotRenormalized: true})},
		{Name: "overflow", Message: "subtract the largest scaled logit before exp: exp(1000/T) is +Inf, and Inf/Inf is NaN",
			Wrong: sampleVariant(reference.SampleVariant{NoMaxSubtraction: true})},
		{Name: "greedy", Message: "temperature 0 is greedy decoding: return the id of the largest logit (dividing by 0 gives NaN or Inf)",
			Detect: func(in SampleIn, got []exercise.Draw) bool { return in.Temperature == 0 }},
	},
})

// Sample checks the learner's Sample: softmax(logits/T) over the top-k
// logits, inverted at u, and the argmax at T = 0.
func Sample(f func(logits []float64, temperature float64, topK int, u float64) int) *Result {
	return sampleSpec.Check(f)
}

type cacheFunc = func(cacheK, cacheV [][]float64, q, k, v []float64) (out []float64, newK, newV [][]float64)

func cacheVariant(vr reference.CacheVariant) func(CacheIn) CacheOut {
	return func(in CacheIn) CacheOut {
		o, k, v := reference.CachedAttention(in.CacheK, in.CacheV, in.Q, in.K, in.V, vr)
		return CacheOut{Out: o, CacheK: k, CacheV: v}
	}
}

func cacheIn(r *random.Source, t, dk, dv int) CacheIn {
	in := CacheIn{Q: r.Normal(1, dk)[0], K: r.Normal(1, dk)[0], V: r.Normal(1, dv)[0]}
	if t > 0 {
		in.CacheK, in.CacheV = r.Normal(t, dk), r.Normal(t, dv)
	}
	return in
}

func compareCache(got, want CacheOut) *Diff {
	if len(got.CacheK) != len(want.CacheK) || len(got.CacheV) != len(want.CacheV) {
		return &Diff{Msg: fmt.Sprintf("the returned cache holds %d keys and %d values, expected %d of each (the old ones and the new token's)",
			len(got.CacheK), len(got.CacheV), len(want.CacheK))}
	}
	if d := Matrix(tol)(got.CacheK, want.CacheK); d != nil {
		return prefix("newK", d)
	}
	if d := Matrix(tol)(got.CacheV, want.CacheV); d != nil {
		return prefix("newV", d)
	}
	if d := Vector(tol)(got.Out, want.Out); d != nil {
		return prefix("out", d)
	}
	return nil
}

var cacheSpec = Register(&Exercise[cacheFunc, CacheIn, CacheOut]{
	ID: "kv-cache", Title: "one generation step with a key–value cache", Points: 3,
	Signature: "func CachedAttention(cacheK, cacheV [][]float64, q, k, v []float64) (out []float64, newK, newV [][]float64)",
	Task:      exercise.CachedAttention,
	Reference: cacheVariant(reference.CacheVariant{}),
	Cases: func() []Case[CacheIn] {
		return []Case[CacheIn]{
			{"3 cached positions, d_k 4, d_v 2", cacheIn(random.New(101), 3, 4, 2)},
			{"an empty cache: the first token", cacheIn(random.New(102), 0, 3, 3)},
			{"6 cached positions, d_k 2, d_v 5", cacheIn(random.New(103), 6, 2, 5)},
		}
	},
	Hidden: func(r *random.Source) []Case[CacheIn] {
		t := intIn(r, 2, 9)
		return []Case[CacheIn]{
			{fmt.Sprintf("%d cached positions", t), cacheIn(r, t, intIn(r, 2, 6), intIn(r, 1, 5))},
			{"an empty cache", cacheIn(r, 0, intIn(r, 1, 5), intIn(r, 1, 5))},
			{"one cached position", cacheIn(r, 1, intIn(r, 2, 6), intIn(r, 1, 4))},
		}
	},
	// lib/gpt's cached step and generator are the graph version.
	Deny:    []string{"lib/attention", "lib/gpt"},
	Allow:   StdOnly,
	Compare: compareCache,
	Hints: []Hint[CacheIn, CacheOut]{
		{Name: "attend-before-append", Message: "append the new key and value first: the new token attends to itself too, as row t of full causal attention does",
			Wrong: cacheVariant(reference.CacheVariant{AttendBeforeAppend: true})},
		{Name: "no-scale", Message: "divide the scores by √d_k before the softmax",
			Wrong: cacheVariant(reference.CacheVariant{NoScale: true})},
		{Name: "cache-not-grown", Message: "return the grown cache (the old keys and values plus the new token's), or the next step forgets this token",
			Wrong: cacheVariant(reference.CacheVariant{CacheNotGrown: true})},
	},
})

// CachedAttention checks the learner's CachedAttention: append the new
// key and value, then attend the query over every cached position.
func CachedAttention(f func(cacheK, cacheV [][]float64, q, k, v []float64) (out []float64, newK, newV [][]float64)) *Result {
	return cacheSpec.Check(f)
}
