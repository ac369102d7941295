package exercise

// The tasks of lesson 10's exercises: a causal language model's targets
// and loss mask, sampling with temperature and top-k, and attention with
// a key–value cache.

import "slices"

// LMOut is LMTargets' result.
type LMOut struct {
	Inputs, Targets []int
	Mask            []bool
}

// LMTargets: func LMTargets(seq []int, pad int) (inputs, targets []int, mask []bool).
var LMTargets = &Task[func(seq []int, pad int) (inputs, targets []int, mask []bool), TokensIn, LMOut]{
	ID: "lm-targets",
	Call: func(f func(seq []int, pad int) (inputs, targets []int, mask []bool), in TokensIn) LMOut {
		a, b, m := f(in.Tokens, in.Pad)
		return LMOut{a, b, m}
	},
}

// SampleIn is an input of the sampling exercise: logits over the
// vocabulary, the temperature, top-k (0: every token) and the uniform
// numbers Us in [0, 1), one draw each: a draw is reproducible, and many
// of them show the whole distribution (its inverse CDF at each u).
type SampleIn struct {
	Logits      []float64
	Temperature float64
	TopK        int
	Us          []float64
}

// Draw is one draw of a sampler: the uniform number and the id drawn.
type Draw struct {
	U  float64
	ID int
}

// Sample: func Sample(logits []float64, temperature float64, topK int, u float64) int,
// called once per uniform number of the input.
var Sample = &Task[func(logits []float64, temperature float64, topK int, u float64) int, SampleIn, []Draw]{
	ID: "sample",
	Call: func(f func(logits []float64, temperature float64, topK int, u float64) int, in SampleIn) []Draw {
		out := make([]Draw, len(in.Us))
		for i, u := range in.Us {
			out[i] = Draw{U: u, ID: f(slices.Clone(in.Logits), in.Temperature, in.TopK, u)}
		}
		return out
	},
}

// CacheIn is an input of the key–value cache exercise: the cache of the
// positions so far (CacheK [t][d_k], CacheV [t][d_v]) and the new token's
// query, key and value.
type CacheIn struct {
	CacheK, CacheV [][]float64
	Q, K, V        []float64
}

// CacheOut is CachedAttention's result: the new token's output and the
// grown cache.
type CacheOut struct {
	Out            []float64
	CacheK, CacheV [][]float64
}

// CachedAttention: func CachedAttention(cacheK, cacheV [][]float64, q, k, v []float64) (out []float64, newK, newV [][]float64).
var CachedAttention = &Task[func(cacheK, cacheV [][]float64, q, k, v []float64) (out []float64, newK, newV [][]float64), CacheIn, CacheOut]{
	ID: "kv-cache",
	Call: func(f func(cacheK, cacheV [][]float64, q, k, v []float64) (out []float64, newK, newV [][]float64), in CacheIn) CacheOut {
		o, k, v := f(in.CacheK, in.CacheV, in.Q, in.K, in.V)
		return CacheOut{o, k, v}
	},
}
