package check

import (
	"fmt"
	"math"

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

func sampleVariant(vr reference.SampleVariant) func(SampleIn) int {
	return func(in SampleIn) int { return reference.Sample(in.Logits, in.Temperature, in.TopK, in.U, vr) }
}

func compareID(got, want int) *Diff {
	if got != want {
		return &Diff{Where: "the sampled id", Want: fmt.Sprint(want), Got: fmt.Sprint(got)}
	}
	return nil
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

var sampleSpec = Register(&Exercise[func(logits []float64, temperature float64, topK int, u float64) int, SampleIn, int]{
	ID: "sample", Title: "sampling with temperature and top-k", Points: 3,
	Signature: "func Sample(logits []float64, temperature float64, topK int, u float64) int",
	Task:      exercise.Sample,
	Reference: sampleVariant(reference.SampleVariant{}),
	Cases: func() []Case[SampleIn] {
		// p ∝ 1, 2, 3, 4 at T = 1: cumulative 0.1, 0.3, 0.6, 1.
		l := logs(1, 2, 3, 4)
		return []Case[SampleIn]{
			{"T = 1, every token, u = 0.25", SampleIn{Logits: l, Temperature: 1, U: 0.25}},
			{"T = 1, every token, u = 0.65", SampleIn{Logits: l, Temperature: 1, U: 0.65}},
			{"T = 0.5 (p ∝ 1, 4, 9, 16), u = 0.2", SampleIn{Logits: l, Temperature: 0.5, U: 0.2}},
			{"T = 2, u = 0.2", SampleIn{Logits: l, Temperature: 2, U: 0.2}},
			{"top-2 (p = 3/7, 4/7), u = 0.3", SampleIn{Logits: l, Temperature: 1, TopK: 2, U: 0.3}},
			{"top-2 of p ∝ 4, 3, 2, 1 (p = 4/7, 3/7), u = 0.5", SampleIn{Logits: logs(4, 3, 2, 1), Temperature: 1, TopK: 2, U: 0.5}},
			{"top-1 of 5 logits, u = 0.99", SampleIn{Logits: logs(5, 1, 9, 2, 3), Temperature: 1, TopK: 1, U: 0.99}},
			{"T = 0: greedy", SampleIn{Logits: logs(1, 7, 2), Temperature: 0, U: 0.01}},
		}
	},
	Hidden: func(r *random.Source) []Case[SampleIn] {
		n := intIn(r, 5, 12)
		l := r.Normal(1, n)[0]
		for i := range l {
			l[i] *= 2
		}
		return []Case[SampleIn]{
			{fmt.Sprintf("%d logits, T = 1", n), SampleIn{Logits: l, Temperature: 1, U: r.Float64()}},
			{fmt.Sprintf("%d logits, T = 0.7", n), SampleIn{Logits: l, Temperature: 0.7, U: r.Float64()}},
			{fmt.Sprintf("%d logits, T = 1.5, top-3", n), SampleIn{Logits: l, Temperature: 1.5, TopK: 3, U: r.Float64()}},
			{"top-2, a small u", SampleIn{Logits: l, Temperature: 1, TopK: 2, U: r.Float64() * 0.2}},
			{"T = 0: greedy", SampleIn{Logits: l, Temperature: 0, TopK: intIn(r, 0, 3), U: r.Float64()}},
		}
	},
	// lesson 10's sampler (gpt.Sampler's Probs and Pick) is the
	// exercise, and attention.SoftmaxOf its softmax.
	Deny:    []string{"lib/attention.SoftmaxOf", "lib/gpt.Sampler"},
	Allow:   StdOnly,
	Compare: compareID,
	Hints: []Hint[SampleIn, int]{
		{Name: "temperature-times", Message: "divide the logits by the temperature (softmax(logits/T)): a low T sharpens the distribution, a high T flattens it",
			Wrong: sampleVariant(reference.SampleVariant{TemperatureTimes: true})},
		{Name: "top-k-ignored", Message: "with topK > 0, keep only the topK largest logits and give the others probability 0",
			Wrong: sampleVariant(reference.SampleVariant{TopKIgnored: true})},
		{Name: "top-k-smallest", Message: "top-k keeps the k largest logits, not the k smallest",
			Wrong: sampleVariant(reference.SampleVariant{TopKSmallest: true})},
		{Name: "not-renormalized", Message: "after dropping tokens, the kept probabilities must sum to 1: take the softmax over the kept tokens only",
			Wrong: sampleVariant(reference.SampleVariant{NotRenormalized: true})},
		{Name: "greedy", Message: "temperature 0 is greedy decoding: return the id of the largest logit (dividing by 0 gives NaN or Inf)",
			Detect: func(in SampleIn, got int) bool { return in.Temperature == 0 }},
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
