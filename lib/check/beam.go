package check

import (
	"fmt"
	"math"
	"sort"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the check of lesson 09's beam-search exercise: one
// step of beam search, the k best extensions of the beams by total
// log-probability, as new sequences.

type (
	// BeamIn is an input of the beam-search exercise (lib/exercise).
	BeamIn = exercise.BeamIn
	// BeamOut is BeamStep's result (lib/exercise).
	BeamOut = exercise.BeamOut
)

type beamFunc = func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) (next [][]int, nextScores []float64)

// beamTol is the tolerance of a score: the learner adds the same two
// numbers as the reference, so only another formulation (exp, then log)
// differs, and by far less.
const beamTol = 1e-9

func beamVariant(vr reference.BeamVariant) func(BeamIn) BeamOut {
	return func(in BeamIn) BeamOut {
		next, scores := reference.BeamStep(in.Prefixes, in.Scores, in.LogProbs, in.K, vr)
		return BeamOut{Next: next, Scores: scores}
	}
}

var beamRef = beamVariant(reference.BeamVariant{})

// compareBeam compares the kept sequences and their scores, rank by rank.
func compareBeam(got, want BeamOut) *Diff {
	switch {
	case got.Changed:
		return &Diff{Msg: "your function changed its inputs (prefixes, scores or logProbs): the caller's beams must stay as they were — build new slices"}
	case len(got.Next) != len(got.Scores):
		return &Diff{Msg: fmt.Sprintf("%d sequences but %d scores: return one score per sequence", len(got.Next), len(got.Scores))}
	case len(got.Next) != len(want.Next):
		return &Diff{Where: "the number of candidates kept", Want: fmt.Sprintf("%d (k, or every candidate when there are fewer)", len(want.Next)),
			Got: fmt.Sprint(len(got.Next))}
	}
	for i := range want.Next {
		if compareInts(got.Next[i], want.Next[i]) != nil || !Close(got.Scores[i], want.Scores[i], beamTol) {
			return &Diff{Where: fmt.Sprintf("candidate %d (best first)", i),
				Want: fmt.Sprintf("%v with score %s", want.Next[i], fmtF(want.Scores[i])),
				Got:  fmt.Sprintf("%v with score %s", got.Next[i], fmtF(got.Scores[i]))}
		}
	}
	return nil
}

// sameScores reports whether got holds want's scores, in order.
func sameScores(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range want {
		if !Close(got[i], want[i], beamTol) {
			return false
		}
	}
	return true
}

// candidateOf returns the beam b and token v of seq when seq is beam b's
// prefix followed by a token of the vocabulary. The cases' prefixes all
// differ, so b is unique.
func candidateOf(in BeamIn, seq []int) (b, v int, ok bool) {
	if len(seq) == 0 {
		return 0, 0, false
	}
	for b, p := range in.Prefixes {
		if compareInts(seq[:len(seq)-1], p) == nil {
			v := seq[len(seq)-1]
			return b, v, v >= 0 && v < len(in.LogProbs[b])
		}
	}
	return 0, 0, false
}

// tiesOtherwise reports whether got keeps candidates of the right scores,
// each a real candidate with its own score, all different, in the order
// of the right scores: what differs is which of equal candidates come
// first.
func tiesOtherwise(in BeamIn, got BeamOut) bool {
	want := beamRef(in)
	if len(got.Next) != len(want.Next) || !sameScores(got.Scores, want.Scores) {
		return false
	}
	seen := map[[2]int]bool{}
	for i, seq := range got.Next {
		b, v, ok := candidateOf(in, seq)
		if !ok || seen[[2]int{b, v}] || !Close(got.Scores[i], in.Scores[b]+in.LogProbs[b][v], beamTol) {
			return false
		}
		seen[[2]int{b, v}] = true
	}
	return true
}

// sharedArrays reports whether got has the right scores and two equal
// sequences: two candidates of one beam built by append on the same
// array, the later token written over the earlier.
func sharedArrays(in BeamIn, got BeamOut) bool {
	want := beamRef(in)
	if len(got.Next) != len(want.Next) || !sameScores(got.Scores, want.Scores) {
		return false
	}
	for i := range got.Next {
		for j := range i {
			if compareInts(got.Next[i], got.Next[j]) == nil {
				return true
			}
		}
	}
	return false
}

// matchesAny reports whether got is the output of one of the variants.
func matchesAny(in BeamIn, got BeamOut, vrs ...reference.BeamVariant) bool {
	for _, vr := range vrs {
		if compareBeam(got, beamVariant(vr)(in)) == nil {
			return true
		}
	}
	return false
}

// Drawing the cases.

// logSoftmax returns z − log Σ exp z. The sum runs over z sorted, so that
// two rows holding the same values in another order give bit-for-bit the
// same log-probabilities: equal logits, exactly equal candidates.
func logSoftmax(z []float64) []float64 {
	s := append([]float64(nil), z...)
	sort.Float64s(s)
	top, sum := s[len(s)-1], 0.0
	for _, x := range s {
		sum += math.Exp(x - top)
	}
	lse := top + math.Log(sum)
	out := make([]float64, len(z))
	for i, x := range z {
		out[i] = x - lse
	}
	return out
}

// beamPrefixes draws n different prefixes of length l over vocab tokens.
func beamPrefixes(r *random.Source, n, l, vocab int) [][]int {
	for {
		ps := make([][]int, n)
		seen := map[string]bool{}
		for i := range ps {
			ps[i] = ids(r, l, vocab)
			seen[fmt.Sprint(ps[i])] = true
		}
		if len(seen) == n {
			return ps
		}
	}
}

// normalRow draws vocab logits of standard deviation sd and returns their
// log-softmax.
func normalRow(r *random.Source, vocab int, sd float64) []float64 {
	z := make([]float64, vocab)
	for i := range z {
		z[i] = sd * r.NormFloat64()
	}
	return logSoftmax(z)
}

// beamTieIn draws two beams of equal score whose next-token logits hold
// the same integers in different orders, the largest twice: four
// candidates tie for the best, beam 0's at tokens a1 < a2, beam 1's at
// c1 < c2 with c1 < a1. The rule keeps beam 0's two first, then beam 1's
// c1 (and c2 when k = 4); a higher token first, a higher beam first, or
// candidates listed token by token all keep others or in another order.
// A third beam, far behind, may be there too.
func beamTieIn(r *random.Source) (BeamIn, string) {
	vocab := intIn(r, 4, 6)
	a1 := intIn(r, 1, vocab-2)
	a2 := intIn(r, a1+1, vocab-1)
	c1 := intIn(r, 0, a1-1)
	c2 := intIn(r, c1+1, vocab-1)
	top := float64(intIn(r, 1, 3))
	lower := make([]float64, vocab-2)
	for i := range lower {
		lower[i] = top - float64(intIn(r, 1, 3))
	}
	row := func(p, q int) []float64 {
		z := make([]float64, vocab)
		rest := append([]float64(nil), lower...)
		shuffle(r, rest)
		for v := range z {
			if v == p || v == q {
				z[v] = top
			} else {
				z[v], rest = rest[0], rest[1:]
			}
		}
		return logSoftmax(z)
	}
	beams := 2 + intIn(r, 0, 1)
	s := -floatIn(r, 0.3, 3)
	in := BeamIn{Prefixes: beamPrefixes(r, beams, intIn(r, 2, 5), vocab), Scores: []float64{s, s},
		LogProbs: [][]float64{row(a1, a2), row(c1, c2)}, K: intIn(r, 3, 4)}
	if beams == 3 {
		in.Scores = append(in.Scores, s-floatIn(r, 3, 4))
		in.LogProbs = append(in.LogProbs, normalRow(r, vocab, 1))
	}
	return in, fmt.Sprintf("ties: beams 0 and 1 of equal score, 4 candidates tie for the best (tokens %d, %d of beam 0; %d, %d of beam 1), k = %d",
		a1, a2, c1, c2, in.K)
}

// beamSpreadIn draws beams of different scores: one ahead (its next
// token uncertain), one far behind whose next token is almost sure — the
// most likely token overall, on the worst beam — and the others between.
func beamSpreadIn(r *random.Source, beams, vocab, k int) BeamIn {
	ahead := intIn(r, 0, beams-1)
	behind := (ahead + intIn(r, 1, beams-1)) % beams
	top := -floatIn(r, 0.3, 2)
	in := BeamIn{Prefixes: beamPrefixes(r, beams, intIn(r, 1, 6), vocab), Scores: make([]float64, beams),
		LogProbs: make([][]float64, beams), K: k}
	for b := range beams {
		switch b {
		case ahead:
			in.Scores[b], in.LogProbs[b] = top, normalRow(r, vocab, 0.5)
		case behind:
			z := make([]float64, vocab)
			for v := range z {
				z[v] = 0.5 * r.NormFloat64()
			}
			z[intIn(r, 0, vocab-1)] = 6
			in.Scores[b], in.LogProbs[b] = top-floatIn(r, 3, 5), logSoftmax(z)
		default:
			in.Scores[b], in.LogProbs[b] = top-floatIn(r, 0, 1.5), normalRow(r, vocab, 1)
		}
	}
	return in
}

// beamFirstIn is a first step: one beam, the start token, score 0.
func beamFirstIn(r *random.Source, vocab, k int) BeamIn {
	return BeamIn{Prefixes: [][]int{{intIn(r, 0, vocab-1)}}, Scores: []float64{0},
		LogProbs: [][]float64{normalRow(r, vocab, 1.5)}, K: k}
}

// beamRandomIn draws beams of random scores and next-token distributions.
func beamRandomIn(r *random.Source, beams, vocab, k int) BeamIn {
	in := BeamIn{Prefixes: beamPrefixes(r, beams, intIn(r, 2, 5), vocab), Scores: make([]float64, beams),
		LogProbs: make([][]float64, beams), K: k}
	for b := range beams {
		in.Scores[b], in.LogProbs[b] = -floatIn(r, 0.5, 4), normalRow(r, vocab, 1)
	}
	return in
}

var beamSpec = Register(&Exercise[beamFunc, BeamIn, BeamOut]{
	ID: "beam-step", Title: "one step of beam search", Points: 3,
	Signature: "func BeamStep(prefixes [][]int, scores []float64, logProbs [][]float64, k int) (next [][]int, nextScores []float64)",
	Task:      exercise.BeamStep,
	Reference: beamRef,
	Cases: func() []Case[BeamIn] {
		// The worked example: beams of probability 0.6 and 0.2.
		worked := func(k int) BeamIn {
			return BeamIn{Prefixes: [][]int{{0, 2}, {0, 1}}, Scores: logs(0.6, 0.2),
				LogProbs: [][]float64{logs(0.5, 0.3, 0.2), logs(0.1, 0.85, 0.05)}, K: k}
		}
		return []Case[BeamIn]{
			{"the worked example: 2 beams, 3 tokens, k = 2 — both kept candidates extend beam 0", worked(2)},
			{"the same with k = 3: beam 1's best is third", worked(3)},
			{"a first step: one beam [1] of score 0, 5 tokens, k = 3", BeamIn{Prefixes: [][]int{{1}}, Scores: []float64{0},
				LogProbs: [][]float64{logs(0.1, 0.4, 0.2, 0.25, 0.05)}, K: 3}},
			{"ties: 5 candidates of probability 1/8 (log(0.25) four times in beam 0), k = 3: beam 0's tokens 0, 1, 2",
				BeamIn{Prefixes: [][]int{{0, 1}, {0, 3}}, Scores: logs(0.5, 0.25),
					LogProbs: [][]float64{logs(0.25, 0.25, 0.25, 0.25), logs(0.5, 0.25, 0.125, 0.125)}, K: 3}},
			{"ties across beams of equal score: beam 0's token 2 before beam 1's token 0, k = 3",
				BeamIn{Prefixes: [][]int{{2, 0}, {2, 1}}, Scores: logs(0.3, 0.3),
					LogProbs: [][]float64{logs(0.2, 0.3, 0.5), logs(0.5, 0.3, 0.2)}, K: 3}},
			{"fewer candidates than k: 2 beams × 2 tokens, k = 5 — all 4, best first",
				BeamIn{Prefixes: [][]int{{3}, {1}}, Scores: logs(0.3, 0.5),
					LogProbs: [][]float64{logs(0.9, 0.1), logs(0.4, 0.6)}, K: 5}},
			{"k = 1: greedy, 3 beams, 4 tokens", beamRandomIn(random.New(901), 3, 4, 1)},
			{"4 beams far apart, 6 tokens, k = 4", beamSpreadIn(random.New(902), 4, 6, 4)},
		}
	},
	// Each seed draws four-way ties (the tie rule, two candidates of one
	// beam kept), beams far apart (the beam's score matters), a first
	// step, fewer candidates than k, and a greedy step.
	Hidden: func(r *random.Source) []Case[BeamIn] {
		tie, tieName := beamTieIn(r)
		beams, vocab := intIn(r, 2, 4), intIn(r, 4, 7)
		spread := beamSpreadIn(r, beams, vocab, intIn(r, 2, beams+1))
		fv := intIn(r, 4, 9)
		first := beamFirstIn(r, fv, intIn(r, 2, min(4, fv-1)))
		fb, fvv := intIn(r, 1, 2), intIn(r, 2, 3)
		few := beamRandomIn(r, fb, fvv, fb*fvv+intIn(r, 1, 3))
		gb := intIn(r, 2, 3)
		greedy := beamRandomIn(r, gb, intIn(r, 3, 6), 1)
		return []Case[BeamIn]{
			{tieName, tie},
			{fmt.Sprintf("%d beams far apart, %d tokens, k = %d", beams, vocab, spread.K), spread},
			{fmt.Sprintf("a first step: one beam, %d tokens, k = %d", fv, first.K), first},
			{fmt.Sprintf("fewer candidates than k: %d × %d (beams × tokens), k = %d", fb, fvv, few.K), few},
			{fmt.Sprintf("k = 1: greedy, %d beams", gb), greedy},
		}
	},
	// lib/dates decodes lesson 09's dates with beam search; lib/transformer
	// holds the greedy decoder.
	Deny:    []string{"lib/dates", "lib/transformer"},
	Allow:   StdOnly,
	Compare: compareBeam,
	Hints: []Hint[BeamIn, BeamOut]{
		{Name: "changes-input", Message: "do not change prefixes, scores or logProbs: keep each candidate's score in a variable of your own, and build its tokens in a new slice — the caller still holds its beams",
			Detect: func(_ BeamIn, got BeamOut) bool { return got.Changed }},
		{Name: "log-prob-only", Message: "rank (and score) a candidate by scores[b] + logProbs[b][v], the whole sequence's log-probability, not by logProbs[b][v] alone: a likely token after an unlikely prefix can be worse than a less likely one after a likely prefix",
			Wrong: beamVariant(reference.BeamVariant{Score: reference.LogProbOnly}),
			Detect: func(in BeamIn, got BeamOut) bool {
				return matchesAny(in, got, reference.BeamVariant{Score: reference.LogProbRank})
			}},
		{Name: "product", Message: "add, do not multiply: a sequence's probability is the product of its tokens' probabilities, so its log-probability is the sum, scores[b] + logProbs[b][v] — the product of two logarithms means nothing (and two negative ones make a positive one)",
			Wrong: beamVariant(reference.BeamVariant{Score: reference.ProductScore})},
		{Name: "per-beam", Message: "keep the k best candidates over all beams together, not k (nor one) per beam: put every beam's extensions in one list, sort it and keep its first k — a good beam may supply several, a poor one none",
			Detect: func(in BeamIn, got BeamOut) bool {
				return matchesAny(in, got, reference.BeamVariant{Keep: reference.KPerBeam}, reference.BeamVariant{Keep: reference.KPerBeamSorted},
					reference.BeamVariant{Keep: reference.OnePerBeam}, reference.BeamVariant{Keep: reference.OnePerBeamSorted},
					reference.BeamVariant{Keep: reference.FirstK})
			}},
		{Name: "worst-first", Message: "best first: the highest score (the log-probability closest to 0) first — sort by decreasing score and keep the first k",
			Detect: func(in BeamIn, got BeamOut) bool {
				want := beamRef(in)
				return !sameScores(got.Scores, want.Scores) &&
					(sameScores(got.Scores, beamVariant(reference.BeamVariant{Keep: reference.BestAscending})(in).Scores) ||
						sameScores(got.Scores, beamVariant(reference.BeamVariant{Keep: reference.KWorst})(in).Scores))
			}},
		{Name: "shared-array", Message: "two of your sequences came out equal: append(prefixes[b], v) writes v into prefixes[b]'s spare capacity when it has some, so every candidate of beam b shares one array and the last token written wins. Copy the prefix: seq := make([]int, len(p)+1); copy(seq, p); seq[len(p)] = v",
			Detect: sharedArrays},
		{Name: "ties-higher-token", Message: "of candidates of equal score, the lower beam index b first, then the lower token id v — not the higher token first",
			Wrong: beamVariant(reference.BeamVariant{Ties: reference.LowBeamHighToken})},
		{Name: "ties", Message: "of candidates of equal score, the lower beam index b first, then the lower token id v: compare b, then v, when the scores are equal (or sort stably the candidates listed beam by beam, token by token) — sort.Slice alone may put equal candidates in any order",
			Detect: tiesOtherwise},
	},
})

// BeamStep checks the learner's BeamStep: the k best extensions of the
// beams over all of them, by total log-probability, best first, ties to
// the lower beam then the lower token, as new slices, the inputs
// unchanged.
func BeamStep(f func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) (next [][]int, nextScores []float64)) *Result {
	return beamSpec.Check(f)
}
