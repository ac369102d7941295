package reference

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/attention-in-go/course/lib/random"
)

// These tests hold the reference of lesson 09's beam-search exercise
// against values worked out by hand, against the order the rule defines
// (every kept candidate beats every dropped one), and, over whole
// searches, against an exhaustive search: with a beam as wide as the
// number of sequences, beam search ranks them all.

func lns(ps ...float64) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = math.Log(p)
	}
	return out
}

func TestBeamStepByHand(t *testing.T) {
	// Beams of probability 0.6 and 0.2; candidates 0.30, 0.18, 0.12 and
	// 0.02, 0.17, 0.01.
	prefixes := [][]int{{0, 2}, {0, 1}}
	scores := lns(0.6, 0.2)
	logProbs := [][]float64{lns(0.5, 0.3, 0.2), lns(0.1, 0.85, 0.05)}
	// Ties: five candidates of probability 1/8.
	tiePrefixes := [][]int{{0, 1}, {0, 3}}
	tieScores := lns(0.5, 0.25)
	tieLogProbs := [][]float64{lns(0.25, 0.25, 0.25, 0.25), lns(0.5, 0.25, 0.125, 0.125)}
	tests := []struct {
		name     string
		prefixes [][]int
		scores   []float64
		logProbs [][]float64
		k        int
		vr       BeamVariant
		want     [][]int
		probs    []float64 // exp of the scores
	}{
		{"k = 2", prefixes, scores, logProbs, 2, BeamVariant{}, [][]int{{0, 2, 0}, {0, 2, 1}}, []float64{0.30, 0.18}},
		{"k = 3", prefixes, scores, logProbs, 3, BeamVariant{}, [][]int{{0, 2, 0}, {0, 2, 1}, {0, 1, 1}}, []float64{0.30, 0.18, 0.17}},
		{"k = 1: greedy", prefixes, scores, logProbs, 1, BeamVariant{}, [][]int{{0, 2, 0}}, []float64{0.30}},
		{"k = 7: all 6", prefixes, scores, logProbs, 7, BeamVariant{},
			[][]int{{0, 2, 0}, {0, 2, 1}, {0, 1, 1}, {0, 2, 2}, {0, 1, 0}, {0, 1, 2}}, []float64{0.30, 0.18, 0.17, 0.12, 0.02, 0.01}},
		{"ties, k = 3", tiePrefixes, tieScores, tieLogProbs, 3, BeamVariant{}, [][]int{{0, 1, 0}, {0, 1, 1}, {0, 1, 2}}, []float64{0.125, 0.125, 0.125}},
		{"ties, k = 6", tiePrefixes, tieScores, tieLogProbs, 6, BeamVariant{},
			[][]int{{0, 1, 0}, {0, 1, 1}, {0, 1, 2}, {0, 1, 3}, {0, 3, 0}, {0, 3, 1}}, []float64{0.125, 0.125, 0.125, 0.125, 0.125, 0.0625}},
		// The usual mistakes.
		{"log-probabilities alone", prefixes, scores, logProbs, 2, BeamVariant{Score: LogProbOnly}, [][]int{{0, 1, 1}, {0, 2, 0}}, []float64{0.85, 0.5}},
		{"ranked by log-probabilities alone", prefixes, scores, logProbs, 2, BeamVariant{Score: LogProbRank}, [][]int{{0, 1, 1}, {0, 2, 0}}, []float64{0.17, 0.30}},
		{"k per beam", prefixes, scores, logProbs, 2, BeamVariant{Keep: KPerBeam}, [][]int{{0, 2, 0}, {0, 2, 1}, {0, 1, 1}, {0, 1, 0}}, []float64{0.30, 0.18, 0.17, 0.02}},
		{"k per beam, sorted", prefixes, scores, logProbs, 2, BeamVariant{Keep: KPerBeamSorted}, [][]int{{0, 2, 0}, {0, 2, 1}, {0, 1, 1}, {0, 1, 0}}, []float64{0.30, 0.18, 0.17, 0.02}},
		{"one per beam", prefixes, scores, logProbs, 2, BeamVariant{Keep: OnePerBeam}, [][]int{{0, 2, 0}, {0, 1, 1}}, []float64{0.30, 0.17}},
		{"beam 0's k best", prefixes, scores, logProbs, 3, BeamVariant{Keep: FirstK}, [][]int{{0, 2, 0}, {0, 2, 1}, {0, 2, 2}}, []float64{0.30, 0.18, 0.12}},
		{"best k ascending", prefixes, scores, logProbs, 2, BeamVariant{Keep: BestAscending}, [][]int{{0, 2, 1}, {0, 2, 0}}, []float64{0.18, 0.30}},
		{"k worst", prefixes, scores, logProbs, 2, BeamVariant{Keep: KWorst}, [][]int{{0, 1, 2}, {0, 1, 0}}, []float64{0.01, 0.02}},
		{"ties: higher token", tiePrefixes, tieScores, tieLogProbs, 3, BeamVariant{Ties: LowBeamHighToken}, [][]int{{0, 1, 3}, {0, 1, 2}, {0, 1, 1}}, []float64{0.125, 0.125, 0.125}},
		{"ties: higher beam", tiePrefixes, tieScores, tieLogProbs, 3, BeamVariant{Ties: HighBeamLowToken}, [][]int{{0, 3, 0}, {0, 1, 0}, {0, 1, 1}}, []float64{0.125, 0.125, 0.125}},
		{"ties: token by token", tiePrefixes, tieScores, tieLogProbs, 3, BeamVariant{Ties: TokenMajor}, [][]int{{0, 1, 0}, {0, 3, 0}, {0, 1, 1}}, []float64{0.125, 0.125, 0.125}},
		{"ties: reversed", tiePrefixes, tieScores, tieLogProbs, 3, BeamVariant{Ties: Reversed}, [][]int{{0, 3, 0}, {0, 1, 3}, {0, 1, 2}}, []float64{0.125, 0.125, 0.125}},
	}
	for _, tt := range tests {
		next, got := BeamStep(tt.prefixes, tt.scores, tt.logProbs, tt.k, tt.vr)
		if fmt.Sprint(next) != fmt.Sprint(tt.want) || len(got) != len(tt.probs) {
			t.Errorf("%s: got %v %v, want %v", tt.name, next, got, tt.want)
			continue
		}
		for i, p := range tt.probs {
			if want := math.Log(p); math.Abs(got[i]-want) > 1e-12 {
				t.Errorf("%s: score %d = %v, want log %v = %v", tt.name, i, got[i], p, want)
			}
		}
	}
	// The product of two logs.
	if _, got := BeamStep(prefixes, scores, logProbs, 1, BeamVariant{Score: ProductScore}); math.Abs(got[0]-math.Log(0.2)*math.Log(0.05)) > 1e-12 {
		t.Errorf("product: %v, want log 0.2 · log 0.05", got)
	}
}

// TestBeamStepKeepsTheBest: on random beams with ties, the reference
// keeps min(k, candidates) different candidates, each with its own
// score, in the rule's order, and none it drops comes before one it
// keeps; it leaves the inputs as they were and returns sequences that
// share no array.
func TestBeamStepKeepsTheBest(t *testing.T) {
	r := random.New(5)
	before := func(p, q Candidate) bool { // p comes first by the rule
		if p.Rank != q.Rank {
			return p.Rank > q.Rank
		}
		return p.Beam < q.Beam || p.Beam == q.Beam && p.Token < q.Token
	}
	for trial := range 500 {
		beams, vocab := 1+int(r.Uint32()%4), 2+int(r.Uint32()%5)
		k := 1 + int(r.Uint32()%uint32(beams*vocab+2))
		prefixes := make([][]int, beams)
		scores := make([]float64, beams)
		logProbs := make([][]float64, beams)
		for b := range beams {
			prefixes[b] = make([]int, 3, 8) // room to append into
			prefixes[b][0] = b
			scores[b] = -float64(r.Uint32() % 3) // few values: ties
			logProbs[b] = make([]float64, vocab)
			for v := range vocab {
				logProbs[b][v] = -float64(1 + r.Uint32()%3)
			}
		}
		keep := fmt.Sprint(prefixes, scores, logProbs)
		next, got := BeamStep(prefixes, scores, logProbs, k, BeamVariant{})
		if fmt.Sprint(prefixes, scores, logProbs) != keep {
			t.Fatalf("trial %d: the inputs changed", trial)
		}
		if len(next) != min(k, beams*vocab) || len(got) != len(next) {
			t.Fatalf("trial %d: %d sequences, %d scores for k = %d of %d candidates", trial, len(next), len(got), k, beams*vocab)
		}
		var kept []Candidate
		seen := map[[2]int]bool{}
		for i, seq := range next {
			b, v := seq[0], seq[len(seq)-1]
			if len(seq) != 4 || !slices.Equal(seq[:3], prefixes[b]) || seen[[2]int{b, v}] || got[i] != scores[b]+logProbs[b][v] {
				t.Fatalf("trial %d: sequence %d is %v with score %v", trial, i, seq, got[i])
			}
			seen[[2]int{b, v}] = true
			kept = append(kept, Candidate{Beam: b, Token: v, Rank: got[i]})
			if i > 0 && !before(kept[i-1], kept[i]) {
				t.Fatalf("trial %d: %+v before %+v", trial, kept[i-1], kept[i])
			}
		}
		for b := range beams {
			for v := range vocab {
				c := Candidate{Beam: b, Token: v, Rank: scores[b] + logProbs[b][v]}
				if !seen[[2]int{b, v}] && before(c, kept[len(kept)-1]) {
					t.Fatalf("trial %d: dropped %+v comes before the kept %+v", trial, c, kept[len(kept)-1])
				}
			}
		}
		next[0][len(next[0])-1] = -1 // writing into one sequence changes no other
		for i := 1; i < len(next); i++ {
			if next[i][len(next[i])-1] == -1 {
				t.Fatalf("trial %d: sequences 0 and %d share an array", trial, i)
			}
		}
	}
}

// TestBeamSearchIsExhaustive runs whole searches on a toy model whose
// next-token distribution depends on the last token: with k at least
// the number of sequences of that length, every step keeps them all, so
// the final beams are every sequence sorted by its log-probability, as
// an exhaustive search finds them; with k = 1 it is greedy decoding.
func TestBeamSearchIsExhaustive(t *testing.T) {
	r := random.New(3)
	const vocab, steps = 3, 4
	next := make([][]float64, vocab) // log P(next | last)
	for last := range next {
		z := make([]float64, vocab)
		sum := 0.0
		for v := range z {
			z[v] = 0.2 + r.Float64()
			sum += z[v]
		}
		next[last] = make([]float64, vocab)
		for v := range z {
			next[last][v] = math.Log(z[v] / sum)
		}
	}
	search := func(k int) ([][]int, []float64) {
		prefixes, scores := [][]int{{0}}, []float64{0}
		for range steps {
			logProbs := make([][]float64, len(prefixes))
			for b, p := range prefixes {
				logProbs[b] = next[p[len(p)-1]]
			}
			prefixes, scores = BeamStep(prefixes, scores, logProbs, k, BeamVariant{})
		}
		return prefixes, scores
	}
	// Exhaustive: every sequence of steps tokens after the start.
	type seq struct {
		ids   []int
		score float64
	}
	all := []seq{{[]int{0}, 0}}
	for range steps {
		var grown []seq
		for _, s := range all {
			for v := range vocab {
				grown = append(grown, seq{append(slices.Clip(s.ids), v), s.score + next[s.ids[len(s.ids)-1]][v]})
			}
		}
		all = grown
	}
	slices.SortStableFunc(all, func(a, b seq) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	beams, scores := search(len(all))
	if len(beams) != len(all) {
		t.Fatalf("%d beams, want %d", len(beams), len(all))
	}
	for i, s := range all {
		if math.Abs(scores[i]-s.score) > 1e-12 {
			t.Fatalf("beam %d: score %v, exhaustive %v (%v against %v)", i, scores[i], s.score, beams[i], s.ids)
		}
	}
	// Greedy: the most likely next token each time.
	greedy, _ := search(1)
	want := []int{0}
	for range steps {
		lp := next[want[len(want)-1]]
		best := 0
		for v := range lp {
			if lp[v] > lp[best] {
				best = v
			}
		}
		want = append(want, best)
	}
	if !slices.Equal(greedy[0], want) {
		t.Errorf("k = 1 gives %v, greedy decoding %v", greedy[0], want)
	}
	// A beam of 3 finds a sequence at least as likely as greedy's.
	_, s1 := search(1)
	_, s3 := search(3)
	if s3[0] < s1[0] {
		t.Errorf("k = 3 finds %v, worse than greedy's %v", s3[0], s1[0])
	}
}
