package reference

import "sort"

// This file holds the reference of lesson 09's beam-search exercise: one
// step of beam search, and its usual mistakes.

// BeamScore is how a candidate (beam b extended by token v) is scored.
type BeamScore int

const (
	// SumScore is the rule: scores[b] + logProbs[b][v], the extended
	// sequence's total log-probability.
	SumScore BeamScore = iota
	// LogProbOnly ranks and scores a candidate by logProbs[b][v] alone,
	// forgetting the beam's score.
	LogProbOnly
	// LogProbRank ranks by logProbs[b][v] alone but returns the sum.
	LogProbRank
	// ProductScore ranks and scores by scores[b] · logProbs[b][v].
	ProductScore
)

// BeamKeep is which candidates a step keeps.
type BeamKeep int

const (
	// KeepBest is the rule: the k best candidates over all beams, best
	// first.
	KeepBest BeamKeep = iota
	// KPerBeam keeps the k best of each beam, beam after beam (k · beams
	// results).
	KPerBeam
	// KPerBeamSorted keeps the k best of each beam, all sorted best first.
	KPerBeamSorted
	// OnePerBeam keeps the best candidate of each beam, beam after beam.
	OnePerBeam
	// OnePerBeamSorted keeps the best candidate of each beam, sorted.
	OnePerBeamSorted
	// FirstK keeps the first k of the candidates listed beam by beam,
	// each beam's sorted: beam 0's k best when it has k tokens.
	FirstK
	// BestAscending keeps the k best, worst of them first.
	BestAscending
	// KWorst keeps the k worst candidates, worst first (an ascending sort
	// cut at k).
	KWorst
)

// BeamTies is the order of candidates of equal score.
type BeamTies int

const (
	// LowBeamLowToken is the rule: the lower beam index first, then the
	// lower token id — the order the candidates are listed in, beam by
	// beam, token by token.
	LowBeamLowToken BeamTies = iota
	// LowBeamHighToken puts the higher token first within a beam.
	LowBeamHighToken
	// HighBeamLowToken puts the higher beam first.
	HighBeamLowToken
	// TokenMajor puts the lower token first, then the lower beam, as
	// candidates listed token by token and sorted stably.
	TokenMajor
	// Reversed puts the last listed first: the higher beam, then the
	// higher token (a running best replaced on ≥).
	Reversed
)

// BeamVariant selects the reference (zero value) or one usual mistake.
type BeamVariant struct {
	Score BeamScore
	Keep  BeamKeep
	Ties  BeamTies
}

// Candidate is beam Beam extended by token Token: Rank orders the
// candidates, Score is what is returned for it.
type Candidate struct {
	Beam, Token int
	Rank, Score float64
}

// BeamCandidates lists every candidate, beam by beam and token by token,
// scored as vr says.
func BeamCandidates(scores []float64, logProbs [][]float64, vr BeamVariant) []Candidate {
	var cs []Candidate
	for b, row := range logProbs {
		for v, lp := range row {
			c := Candidate{Beam: b, Token: v, Rank: scores[b] + lp, Score: scores[b] + lp}
			switch vr.Score {
			case LogProbOnly:
				c.Rank, c.Score = lp, lp
			case LogProbRank:
				c.Rank = lp
			case ProductScore:
				c.Rank, c.Score = scores[b]*lp, scores[b]*lp
			}
			cs = append(cs, c)
		}
	}
	return cs
}

// SortCandidates sorts cs best first: the higher Rank first, ties as
// vr.Ties says.
func SortCandidates(cs []Candidate, ties BeamTies) {
	sort.SliceStable(cs, func(i, j int) bool {
		p, q := cs[i], cs[j]
		if p.Rank != q.Rank {
			return p.Rank > q.Rank
		}
		switch ties {
		case LowBeamHighToken:
			if p.Beam != q.Beam {
				return p.Beam < q.Beam
			}
			return p.Token > q.Token
		case HighBeamLowToken:
			if p.Beam != q.Beam {
				return p.Beam > q.Beam
			}
			return p.Token < q.Token
		case TokenMajor:
			if p.Token != q.Token {
				return p.Token < q.Token
			}
			return p.Beam < q.Beam
		case Reversed:
			if p.Beam != q.Beam {
				return p.Beam > q.Beam
			}
			return p.Token > q.Token
		}
		if p.Beam != q.Beam {
			return p.Beam < q.Beam
		}
		return p.Token < q.Token
	})
}

// BeamSelect returns the candidates one step keeps, in the order it
// returns them.
func BeamSelect(scores []float64, logProbs [][]float64, k int, vr BeamVariant) []Candidate {
	cs := BeamCandidates(scores, logProbs, vr)
	SortCandidates(cs, vr.Ties)
	switch vr.Keep {
	case KPerBeam, KPerBeamSorted, OnePerBeam, OnePerBeamSorted, FirstK:
		each := k
		if vr.Keep == OnePerBeam || vr.Keep == OnePerBeamSorted {
			each = 1
		}
		var kept []Candidate
		for b := range logProbs {
			n := 0
			for _, c := range cs {
				if c.Beam == b && n < each {
					kept = append(kept, c)
					n++
				}
			}
		}
		switch vr.Keep {
		case KPerBeamSorted, OnePerBeamSorted:
			SortCandidates(kept, vr.Ties)
		case FirstK:
			kept = kept[:min(k, len(kept))]
		}
		return kept
	case BestAscending:
		kept := cs[:min(k, len(cs))]
		for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
			kept[i], kept[j] = kept[j], kept[i]
		}
		return kept
	case KWorst:
		for i, j := 0, len(cs)-1; i < j; i, j = i+1, j-1 {
			cs[i], cs[j] = cs[j], cs[i]
		}
		return cs[:min(k, len(cs))]
	}
	return cs[:min(k, len(cs))]
}

// BeamStep is one step of beam search: every beam b extended by every
// token v is a candidate of score scores[b] + logProbs[b][v]; it returns
// the k best candidates over all beams (all of them when there are
// fewer), best first, ties to the lower beam, then the lower token, as
// new sequences prefixes[b] + v, and their scores. The inputs are not
// changed.
func BeamStep(prefixes [][]int, scores []float64, logProbs [][]float64, k int, vr BeamVariant) (next [][]int, nextScores []float64) {
	for _, c := range BeamSelect(scores, logProbs, k, vr) {
		seq := make([]int, len(prefixes[c.Beam])+1)
		copy(seq, prefixes[c.Beam])
		seq[len(seq)-1] = c.Token
		next = append(next, seq)
		nextScores = append(nextScores, c.Score)
	}
	return next, nextScores
}
