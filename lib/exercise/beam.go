package exercise

// The task of lesson 09's beam-search exercise: one step of beam search
// over plain slices of token ids and log-probabilities.

import "slices"

// BeamIn is an input of the beam-search exercise: the beams' tokens so
// far, their total log-probabilities, the model's log-probability of
// every next token after each beam (LogProbs [beams][vocabulary]) and
// the beam width K.
type BeamIn struct {
	Prefixes [][]int
	Scores   []float64
	LogProbs [][]float64
	K        int
}

// BeamOut is BeamStep's result: the kept sequences and their scores, and
// whether the function changed its inputs (compared in the child with
// copies made before the call).
type BeamOut struct {
	Next    [][]int
	Scores  []float64
	Changed bool
}

// beamSpare is the room each prefix gets past its length. Prefixes grown
// by append usually have some; with it, append(prefixes[b], v) writes
// into the caller's array instead of a new one, so that two candidates
// of one beam share their last token — the bug shows in the results.
const beamSpare = 4

// BeamStep: func BeamStep(prefixes [][]int, scores []float64, logProbs [][]float64, k int) (next [][]int, nextScores []float64).
var BeamStep = &Task[func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) (next [][]int, nextScores []float64), BeamIn, BeamOut]{
	ID: "beam-step",
	Call: func(f func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) (next [][]int, nextScores []float64), in BeamIn) BeamOut {
		before := Clone(in)
		for b, p := range in.Prefixes {
			q := make([]int, len(p)+beamSpare)
			copy(q, p)
			for i := len(p); i < len(q); i++ {
				q[i] = -1
			}
			in.Prefixes[b] = q[:len(p)]
		}
		next, scores := f(in.Prefixes, in.Scores, in.LogProbs, in.K)
		changed := !sameRows(in.Prefixes, before.Prefixes) || !slices.Equal(in.Scores, before.Scores) || !sameRows(in.LogProbs, before.LogProbs)
		return BeamOut{Next: next, Scores: scores, Changed: changed}
	},
}

// sameRows reports whether a and b hold the same rows of the same values
// (nil and empty rows alike; a NaN equals nothing).
func sameRows[T comparable](a, b [][]T) bool {
	return slices.EqualFunc(a, b, func(x, y []T) bool { return slices.Equal(x, y) })
}
