package check

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of the appendix's exercises: synthetic
// sentences with validated parameters, a padded batch with its padding
// mask, and pandas-style summary statistics.

// The inputs and outputs of the appendix's exercises, defined with their
// tasks in lib/exercise.
type (
	SentencesIn  = exercise.SentencesIn
	SentencesOut = exercise.SentencesOut
	PadBatchIn   = exercise.PadBatchIn
	PadBatchOut  = exercise.PadBatchOut
	DescribeIn   = exercise.DescribeIn
)

type sentencesFunc = func(count, vocabSize, maxLen int, seed uint32) ([][]int, error)

func compareSentences(got, want SentencesOut) *Diff {
	switch {
	case want.Err && !got.Err:
		return &Diff{Msg: fmt.Sprintf("count %d, vocab size %d, max length %d are invalid: expected an error, got sentences", want.Count, want.Vocab, want.MaxLen)}
	case want.Err:
		return nil
	case got.Err:
		return &Diff{Msg: fmt.Sprintf("count %d, vocab size %d, max length %d are valid: expected sentences, got an error", want.Count, want.Vocab, want.MaxLen)}
	case len(got.Sentences) != want.Count:
		return &Diff{Where: "number of sentences", Want: fmt.Sprint(want.Count), Got: fmt.Sprint(len(got.Sentences))}
	}
	lengths, tokens := map[int]bool{}, map[int]bool{}
	for i, s := range got.Sentences {
		if len(s) < 1 || len(s) > want.MaxLen {
			return &Diff{Where: fmt.Sprintf("sentence %d, length", i), Want: fmt.Sprintf("1 … %d", want.MaxLen), Got: fmt.Sprint(len(s))}
		}
		lengths[len(s)] = true
		for j, t := range s {
			if t < 1 || t >= want.Vocab {
				return &Diff{Where: fmt.Sprintf("sentence %d, position %d", i, j), Want: fmt.Sprintf("a token id in 1 … %d", want.Vocab-1), Got: fmt.Sprint(t)}
			}
			tokens[t] = true
		}
	}
	if !got.Same {
		return &Diff{Msg: "two calls with the same seed gave different sentences: draw every number from random.New(seed)"}
	}
	if want.Distinct && reflect.DeepEqual(got.Sentences, got.Other) {
		return &Diff{Msg: "two different seeds gave the same sentences: the sentences must depend on the seed (draw every number from random.New(seed))"}
	}
	if want.Coverage {
		if d := unevenSentences(got.Sentences, want.Vocab, want.MaxLen); d != nil {
			return d
		}
		if !lengths[want.MaxLen] || !lengths[1] {
			return &Diff{Msg: fmt.Sprintf("in %d sentences no sentence has length 1 or %d: lengths must run over 1 … maxLen, both included", want.Count, want.MaxLen)}
		}
		if !tokens[want.Vocab-1] || !tokens[1] {
			return &Diff{Msg: fmt.Sprintf("in %d sentences the token id 1 or %d never appears: ids must run over 1 … vocabSize−1, both included", want.Count, want.Vocab-1)}
		}
	}
	return nil
}

var sentencesSpec = Register(&Exercise[sentencesFunc, SentencesIn, SentencesOut]{
	ID: "synthetic-sentences", Title: "synthetic sentences with validated parameters", Points: 3,
	Signature: "func GenerateSentences(count, vocabSize, maxLen int, seed uint32) ([][]int, error)",
	Task:      exercise.GenerateSentences,
	Reference: func(in SentencesIn) SentencesOut {
		return SentencesOut{Err: reference.SentenceParamsError(in.Count, in.Vocab, in.MaxLen) != nil,
			Count: in.Count, Vocab: in.Vocab, MaxLen: in.MaxLen, Coverage: in.Count*(in.MaxLen+1)/2 >= 40*in.Vocab && in.Count >= 40*in.MaxLen,
			Distinct: sameSentencesChance(in.Count, in.Vocab, in.MaxLen) < 1e-9}
	},
	Cases: func() []Case[SentencesIn] {
		return []Case[SentencesIn]{
			{"the source's 100 sentences, vocabulary 50, at most 10 tokens", SentencesIn{Count: 100, Vocab: 50, MaxLen: 10, Seed: 42}},
			{"2,000 sentences, vocabulary 5, at most 4 tokens", SentencesIn{Count: 2000, Vocab: 5, MaxLen: 4, Seed: 1}},
			{"vocabulary 2: one token besides padding", SentencesIn{Count: 20, Vocab: 2, MaxLen: 3, Seed: 7}},
			{"max length 1", SentencesIn{Count: 10, Vocab: 30, MaxLen: 1, Seed: 3}},
			{"count 0 (error)", SentencesIn{Count: 0, Vocab: 50, MaxLen: 10, Seed: 1}},
			{"negative count (error)", SentencesIn{Count: -5, Vocab: 50, MaxLen: 10, Seed: 1}},
			{"vocab size 1 (error: only padding)", SentencesIn{Count: 10, Vocab: 1, MaxLen: 10, Seed: 1}},
			{"max length 0 (error)", SentencesIn{Count: 10, Vocab: 50, MaxLen: 0, Seed: 1}},
		}
	},
	Hidden: func(r *random.Source) []Case[SentencesIn] {
		vocab, maxLen := intIn(r, 3, 8), intIn(r, 2, 8)
		count := 400 * max(vocab, maxLen) // enough that every id and length appears, and a favoured one shows
		seed := r.Uint32()
		return []Case[SentencesIn]{
			{fmt.Sprintf("%d sentences, vocabulary %d, at most %d tokens", count, vocab, maxLen), SentencesIn{Count: count, Vocab: vocab, MaxLen: maxLen, Seed: seed}},
			{"vocabulary 2: one token besides padding", SentencesIn{Count: intIn(r, 5, 30), Vocab: 2, MaxLen: intIn(r, 1, 6), Seed: r.Uint32()}},
			{"max length 1", SentencesIn{Count: intIn(r, 5, 30), Vocab: intIn(r, 3, 60), MaxLen: 1, Seed: r.Uint32()}},
			{"a non-positive count (error)", SentencesIn{Count: -intIn(r, 0, 5), Vocab: 10, MaxLen: 10, Seed: seed}},
			{"vocab size below 2 (error)", SentencesIn{Count: 10, Vocab: intIn(r, -1, 1), MaxLen: 10, Seed: seed}},
			{"a non-positive max length (error)", SentencesIn{Count: 10, Vocab: 10, MaxLen: -intIn(r, 0, 3), Seed: seed}},
		}
	},
	Compare: compareSentences,
	Hints: []Hint[SentencesIn, SentencesOut]{
		{Name: "no-validation", Message: "validate the parameters first: return nil and an error when count < 1, vocabSize < 2 or maxLen < 1",
			Detect: func(in SentencesIn, got SentencesOut) bool {
				return !got.Err && reference.SentenceParamsError(in.Count, in.Vocab, in.MaxLen) != nil
			}},
		{Name: "padding-token", Message: "id 0 is padding: draw token ids from 1 … vocabSize−1, not 0 … vocabSize−1",
			Detect: func(_ SentencesIn, got SentencesOut) bool {
				return hasToken(got.Sentences, func(t int) bool { return t == 0 })
			}},
		{Name: "empty-sentence", Message: "a sentence has at least 1 token: draw the length from 1 … maxLen, not 0 … maxLen",
			Detect: func(_ SentencesIn, got SentencesOut) bool {
				for _, s := range got.Sentences {
					if len(s) == 0 {
						return true
					}
				}
				return false
			}},
		{Name: "exclusive-upper-bound", Message: "both ends are included: lengths 1 … maxLen and ids 1 … vocabSize−1 — an integer in [lo, hi] is lo + int(r.Float64()·(hi−lo+1))",
			Detect: func(in SentencesIn, got SentencesOut) bool {
				if got.Err || len(got.Sentences) != in.Count {
					return false
				}
				longest, top := 0, 0
				for _, s := range got.Sentences {
					longest = max(longest, len(s))
					for _, t := range s {
						top = max(top, t)
					}
				}
				return longest == in.MaxLen-1 || top == in.Vocab-2
			}},
		{Name: "not-seeded", Message: "the same seed must give the same sentences: use random.New(seed), not the time or a global generator",
			Detect: func(_ SentencesIn, got SentencesOut) bool { return !got.Err && !got.Same }},
		{Name: "seed-ignored", Message: "another seed must give other sentences: draw every length and id from random.New(seed) with the seed you are given — not a fixed seed, not a pattern",
			Detect: func(_ SentencesIn, got SentencesOut) bool {
				return !got.Err && got.Same && len(got.Sentences) > 0 && reflect.DeepEqual(got.Sentences, got.Other)
			}},
		{Name: "not-uniform", Message: "every length 1 … maxLen and every id 1 … vocabSize−1 must be equally likely: one draw of lo + int(r.Float64()·(hi−lo+1)) each, nothing favoured",
			Detect: func(in SentencesIn, got SentencesOut) bool {
				return !got.Err && len(got.Sentences) == in.Count && unevenSentences(got.Sentences, in.Vocab, in.MaxLen) != nil
			}},
	},
	Deny:  []string{"lib/synthetic"},
	Allow: []string{"lib/random"},
})

// sameSentencesChance is the chance that two independent draws of count
// sentences (lengths uniform in 1 … maxLen, ids uniform in 1 … vocab−1)
// are equal: p^count, with p = Σ_L (1/maxLen)² (vocab−1)^−L the chance
// that two sentences are.
func sameSentencesChance(count, vocab, maxLen int) float64 {
	if count < 1 || vocab < 2 || maxLen < 1 {
		return 1
	}
	p := 0.0
	for l := 1; l <= maxLen; l++ {
		p += math.Pow(float64(vocab-1), -float64(l)) / float64(maxLen*maxLen)
	}
	return math.Pow(p, float64(count))
}

// unevenSentences tests that the lengths and the ids of sentences are
// spread evenly over 1 … maxLen and 1 … vocab−1: Pearson's χ² test of
// their counts against uniform ones, failing when the statistic is more
// than 5 standard deviations above its mean in the Wilson–Hilferty
// approximation (p < 3·10⁻⁷: a right generator fails one case in
// millions).
func unevenSentences(sentences [][]int, vocab, maxLen int) *Diff {
	lengths := make([]int, maxLen+1)
	ids := make([]int, vocab)
	for _, s := range sentences {
		if len(s) >= 1 && len(s) <= maxLen {
			lengths[len(s)]++
		}
		for _, t := range s {
			if t >= 1 && t < vocab {
				ids[t]++
			}
		}
	}
	for _, c := range []struct {
		what   string
		counts []int
	}{{"lengths", lengths[1:]}, {"token ids", ids[1:]}} {
		if z := chiSquareZ(c.counts); z > 5 {
			lo, hi := slices.Min(c.counts), slices.Max(c.counts)
			return &Diff{Msg: fmt.Sprintf("the %s are not drawn evenly: in %d sentences their counts run from %d to %d (χ² test, z = %.1f)", c.what, len(sentences), lo, hi, z)}
		}
	}
	return nil
}

// chiSquareZ is Pearson's χ² statistic of counts against equal expected
// counts, as a standard normal deviate (Wilson and Hilferty, 1931): 0 for
// a typical uniform draw, large when the counts are uneven.
func chiSquareZ(counts []int) float64 {
	k := float64(len(counts) - 1) // degrees of freedom
	total := 0
	for _, c := range counts {
		total += c
	}
	if k < 1 || total == 0 {
		return 0
	}
	expected := float64(total) / float64(len(counts))
	x := 0.0
	for _, c := range counts {
		x += (float64(c) - expected) * (float64(c) - expected) / expected
	}
	return (math.Cbrt(x/k) - (1 - 2/(9*k))) / math.Sqrt(2/(9*k))
}

func hasToken(s [][]int, bad func(int) bool) bool {
	for _, row := range s {
		for _, t := range row {
			if bad(t) {
				return true
			}
		}
	}
	return false
}

// GenerateSentences checks the learner's GenerateSentences: random
// sentences of 1…maxLen ids in 1…vocabSize−1, deterministic for a seed,
// and an error for bad parameters.
func GenerateSentences(f func(count, vocabSize, maxLen int, seed uint32) ([][]int, error)) *Result {
	return sentencesSpec.Check(f)
}

type padBatchFunc = func(sentences [][]int, padID int) (ids [][]int, mask [][]bool)

func comparePadBatch(got, want PadBatchOut) *Diff {
	if got.InputChanged {
		return &Diff{Msg: "the input sentences were changed: build new rows instead of appending to the caller's slices"}
	}
	if len(got.IDs) != len(want.IDs) || len(got.Mask) != len(want.Mask) {
		return &Diff{Msg: fmt.Sprintf("wrong shape: expected %d rows of ids and of mask, got %d and %d", len(want.IDs), len(got.IDs), len(got.Mask))}
	}
	for i := range want.IDs {
		if len(got.IDs[i]) != len(want.IDs[i]) || len(got.Mask[i]) != len(want.Mask[i]) {
			return &Diff{Msg: fmt.Sprintf("wrong shape: row %d has %d ids and %d mask values, expected %d (the longest sentence)", i, len(got.IDs[i]), len(got.Mask[i]), len(want.IDs[i]))}
		}
		for j := range want.IDs[i] {
			if got.IDs[i][j] != want.IDs[i][j] {
				return &Diff{Where: fmt.Sprintf("ids, row %d, position %d", i, j), Want: fmt.Sprint(want.IDs[i][j]), Got: fmt.Sprint(got.IDs[i][j])}
			}
			if got.Mask[i][j] != want.Mask[i][j] {
				return &Diff{Where: fmt.Sprintf("mask, row %d, position %d", i, j), Want: fmt.Sprint(want.Mask[i][j]), Got: fmt.Sprint(got.Mask[i][j])}
			}
		}
	}
	return nil
}

var padBatchSpec = Register(&Exercise[padBatchFunc, PadBatchIn, PadBatchOut]{
	ID: "pad-batch", Title: "a padded batch and its padding mask", Points: 2,
	Signature: "func PadBatch(sentences [][]int, padID int) (ids [][]int, mask [][]bool)",
	Task:      exercise.PadBatch,
	Reference: func(in PadBatchIn) PadBatchOut {
		ids, mask := reference.PadBatch(in.Sentences, in.PadID)
		return PadBatchOut{IDs: ids, Mask: mask}
	},
	Cases: func() []Case[PadBatchIn] {
		return []Case[PadBatchIn]{
			{"three sentences of lengths 3, 1, 2", PadBatchIn{Sentences: [][]int{{5, 6, 7}, {8}, {9, 3}}, PadID: 0}},
			{"an empty sentence: a fully padded row", PadBatchIn{Sentences: [][]int{{4, 2}, {}, {1}}, PadID: 0}},
			{"all of the same length: no padding", PadBatchIn{Sentences: [][]int{{1, 2}, {3, 4}}, PadID: 0}},
			{"one sentence", PadBatchIn{Sentences: [][]int{{7, 7, 7}}, PadID: 0}},
			{"pad id 99", PadBatchIn{Sentences: [][]int{{1}, {2, 3, 4}}, PadID: 99}},
		}
	},
	Hidden: func(r *random.Source) []Case[PadBatchIn] {
		sentences := func(n, maxLen, vocab int) [][]int {
			out := make([][]int, n)
			for i := range out {
				out[i] = ids(r, intIn(r, 0, maxLen), vocab)
				for j := range out[i] {
					out[i][j]++ // ids 1…vocab: 0 stays the padding
				}
			}
			return out
		}
		n, maxLen := intIn(r, 2, 6), intIn(r, 2, 7)
		last := sentences(n, maxLen, 20)
		last = append(last, ids(r, maxLen+1, 20)) // the longest sentence last
		withEmpty := sentences(intIn(r, 2, 5), maxLen, 9)
		withEmpty[intIn(r, 0, len(withEmpty)-1)] = []int{}
		same := make([][]int, intIn(r, 2, 4))
		for i := range same {
			same[i] = ids(r, 3, 9)
		}
		return []Case[PadBatchIn]{
			{fmt.Sprintf("%d sentences, the longest last", len(last)), PadBatchIn{Sentences: last, PadID: 0}},
			{"an empty sentence: a fully padded row", PadBatchIn{Sentences: withEmpty, PadID: 0}},
			{"all of the same length: no padding", PadBatchIn{Sentences: same, PadID: 0}},
			{"one sentence", PadBatchIn{Sentences: sentences(1, 5, 9), PadID: 0}},
			{"another pad id", PadBatchIn{Sentences: append(sentences(2, 2, 9), ids(r, 4, 9)), PadID: 50 + intIn(r, 0, 49)}}, // the last is the longest: the others are padded
		}
	},
	Compare: comparePadBatch,
	Hints: []Hint[PadBatchIn, PadBatchOut]{
		{Name: "mask-inverted", Message: "the mask is true where there is padding (the course's convention: true = masked), false on real tokens",
			Detect: func(in PadBatchIn, got PadBatchOut) bool {
				_, mask := reference.PadBatch(in.Sentences, in.PadID)
				if len(got.Mask) != len(mask) {
					return false
				}
				for i := range mask {
					if len(got.Mask[i]) != len(mask[i]) {
						return false
					}
					for j := range mask[i] {
						if got.Mask[i][j] == mask[i][j] {
							return false
						}
					}
				}
				return true
			}},
		{Name: "pad-id", Message: "fill with padID, the argument, not with 0",
			Detect: func(in PadBatchIn, got PadBatchOut) bool {
				return in.PadID != 0 && hasToken(got.IDs, func(t int) bool { return t == 0 })
			}},
		{Name: "input-changed", Message: "do not append to the caller's sentences: make a new row of the longest length and copy into it",
			Detect: func(_ PadBatchIn, got PadBatchOut) bool { return got.InputChanged }},
	},
	Deny:  []string{"lib/synthetic", "lib/text.Pad"},
	Allow: StdOnly,
})

// PadBatch checks the learner's PadBatch: sentences padded to the longest
// with padID and the padding mask (true = padding).
func PadBatch(f func(sentences [][]int, padID int) (ids [][]int, mask [][]bool)) *Result {
	return padBatchSpec.Check(f)
}

type describeFunc = func(values []float64) (mean, std, min, q25, median, q75, max float64)

var describeNames = []string{"mean", "std", "min", "25%", "50%", "75%", "max"}

// describeVariant computes the statistics: population divides the
// variance by n; nearest uses the nearest-rank quantile; unsorted takes
// quantiles from the unsorted values.
func describeVariant(population, nearest, unsorted bool) func(DescribeIn) []float64 {
	return func(in DescribeIn) []float64 {
		v := append([]float64(nil), in.Values...)
		sorted := append([]float64(nil), v...)
		sort.Float64s(sorted)
		n := float64(len(v))
		mean, ss := 0.0, 0.0
		for _, x := range v {
			mean += x / n
		}
		for _, x := range v {
			ss += (x - mean) * (x - mean)
		}
		std := 0.0
		switch {
		case population:
			std = math.Sqrt(ss / n)
		case len(v) > 1:
			std = math.Sqrt(ss / (n - 1))
		}
		src := sorted
		if unsorted {
			src = v
		}
		q := func(p float64) float64 {
			pos := p * (n - 1)
			if nearest {
				return src[max(int(math.Ceil(p*n))-1, 0)]
			}
			lo := int(math.Floor(pos))
			hi := min(lo+1, len(src)-1)
			return src[lo] + (pos-float64(lo))*(src[hi]-src[lo])
		}
		return []float64{mean, std, sorted[0], q(0.25), q(0.5), q(0.75), sorted[len(sorted)-1]}
	}
}

func compareDescribe(got, want []float64) *Diff {
	if len(got) != len(want) {
		return &Diff{Msg: fmt.Sprintf("expected %d statistics, got %d", len(want), len(got))}
	}
	for i := range want {
		if d := Vector(tol)(got[i:i+1], want[i:i+1]); d != nil {
			return &Diff{Where: describeNames[i], Want: d.Want, Got: d.Got}
		}
	}
	return nil
}

var describeSpec = Register(&Exercise[describeFunc, DescribeIn, []float64]{
	ID: "describe", Title: "summary statistics, as pandas' describe", Points: 2,
	Signature: "func Describe(values []float64) (mean, std, min, q25, median, q75, max float64)",
	Task:      exercise.Describe,
	Reference: describeVariant(false, false, false),
	Cases: func() []Case[DescribeIn] {
		return []Case[DescribeIn]{
			{"1, 2, 3, 4", DescribeIn{Values: []float64{1, 2, 3, 4}}},
			{"unsorted: 7, 1, 9, 3, 5", DescribeIn{Values: []float64{7, 1, 9, 3, 5}}},
			{"one value", DescribeIn{Values: []float64{42}}},
			{"repeated values", DescribeIn{Values: []float64{2, 2, 2, 8, 8, 1}}},
			{"token ids 1…49, as the source's", DescribeIn{Values: []float64{32, 23, 10, 39, 44, 18, 25, 34, 17, 3, 20, 42, 1, 46, 28, 30, 24}}},
		}
	},
	Hidden: func(r *random.Source) []Case[DescribeIn] {
		// n − 1 not a multiple of 4: the quartiles fall between values,
		// where interpolation and the nearest rank differ.
		n := 4*intIn(r, 1, 9) + intIn(r, 2, 4)
		repeated := make([]float64, intIn(r, 4, 9))
		for i := range repeated {
			repeated[i] = float64(intIn(r, 1, 3))
		}
		return []Case[DescribeIn]{
			{fmt.Sprintf("%d random numbers", n), DescribeIn{Values: scaled(r.Normal(1, n)[0], floatIn(r, 0.5, 20))}},
			{"unsorted integers", DescribeIn{Values: func() []float64 {
				v := make([]float64, intIn(r, 4, 12))
				for i := range v {
					v[i] = float64(intIn(r, 1, 49))
				}
				return v
			}()}},
			{"one value", DescribeIn{Values: []float64{floatIn(r, -50, 50)}}},
			{"repeated values", DescribeIn{Values: repeated}},
		}
	},
	Compare: compareDescribe,
	Hints: []Hint[DescribeIn, []float64]{
		{Name: "population-std", Message: "pandas' std is the sample standard deviation: divide by n − 1, not n (np.std's default)", Wrong: describeVariant(true, false, false)},
		{Name: "unsorted-quantiles", Message: "sort (a copy of) the values before taking quantiles", Wrong: describeVariant(false, false, true)},
		{Name: "nearest-rank", Message: "the quartiles interpolate linearly: at index q·(n−1), between the two neighbouring sorted values", Wrong: describeVariant(false, true, false)},
		{Name: "one-value", Message: "with one value, n − 1 = 0: return std 0 instead of dividing by 0",
			Detect: func(in DescribeIn, got []float64) bool {
				return len(in.Values) == 1 && len(got) > 1 && (math.IsNaN(got[1]) || math.IsInf(got[1], 0))
			}},
	},
	Deny:  []string{"lib/synthetic"},
	Allow: StdOnly,
})

// Describe checks the learner's Describe: mean, sample standard deviation,
// minimum, linearly interpolated quartiles and maximum.
func Describe(f func(values []float64) (mean, std, min, q25, median, q75, max float64)) *Result {
	return describeSpec.Check(f)
}
