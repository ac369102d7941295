package check

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/check/internal/reference"
)

// Learner-style solutions of lesson 09's beam-search exercise, written
// separately from the reference, and the usual mistakes, each of which
// must get its hint and less than full points on every grading seed.

// cand is a learner's candidate: beam b extended by token v.
type cand struct {
	b, v  int
	score float64
}

// allCands lists every candidate, beam by beam, token by token.
func allCands(scores []float64, logProbs [][]float64) []cand {
	var cs []cand
	for b, row := range logProbs {
		for v, lp := range row {
			cs = append(cs, cand{b, v, scores[b] + lp})
		}
	}
	return cs
}

// build returns the candidates' sequences, each in a new array.
func build(prefixes [][]int, cs []cand) ([][]int, []float64) {
	var next [][]int
	var scores []float64
	for _, c := range cs {
		seq := make([]int, len(prefixes[c.b])+1)
		copy(seq, prefixes[c.b])
		seq[len(seq)-1] = c.v
		next = append(next, seq)
		scores = append(scores, c.score)
	}
	return next, scores
}

// beamSolution sorts every candidate with the whole rule in the
// comparison.
func beamSolution(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
	cs := allCands(scores, logProbs)
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		if cs[i].b != cs[j].b {
			return cs[i].b < cs[j].b
		}
		return cs[i].v < cs[j].v
	})
	return build(prefixes, cs[:min(k, len(cs))])
}

// beamSelection picks the best remaining candidate k times (the first of
// equal ones in beam-by-beam order) and extends the clipped prefix.
func beamSelection(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
	taken := make([][]bool, len(logProbs))
	for b := range taken {
		taken[b] = make([]bool, len(logProbs[b]))
	}
	var next [][]int
	var out []float64
	for range k {
		bb, bv, found := 0, 0, false
		for b, row := range logProbs {
			for v, lp := range row {
				if !taken[b][v] && (!found || scores[b]+lp > scores[bb]+logProbs[bb][bv]) {
					bb, bv, found = b, v, true
				}
			}
		}
		if !found {
			break
		}
		taken[bb][bv] = true
		next = append(next, append(slices.Clip(prefixes[bb]), bv))
		out = append(out, scores[bb]+logProbs[bb][bv])
	}
	return next, out
}

// stableSorted sorts the candidates by score alone with a stable sort;
// cs's order decides ties.
func stableSorted(cs []cand) []cand {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	return cs
}

func TestBeamStepSolutions(t *testing.T) {
	full(t, beamSpec.Run(beamSolution, true))
	full(t, beamSpec.Run(beamSelection, true))
	// A stable sort of the candidates listed beam by beam keeps the rule.
	full(t, beamSpec.Run(func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		cs := stableSorted(allCands(scores, logProbs))
		return build(prefixes, cs[:min(k, len(cs))])
	}, true))
}

func TestBeamStepHints(t *testing.T) {
	variant := func(vr reference.BeamVariant) beamFunc {
		return func(p [][]int, s []float64, lp [][]float64, k int) ([][]int, []float64) {
			return reference.BeamStep(p, s, lp, k, vr)
		}
	}
	// The beam's score forgotten, the sum returned all the same.
	rankByLogProb := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		cs := allCands(scores, logProbs)
		sort.SliceStable(cs, func(i, j int) bool { return logProbs[cs[i].b][cs[i].v] > logProbs[cs[j].b][cs[j].v] })
		return build(prefixes, cs[:min(k, len(cs))])
	}
	// Each beam's k best, beam after beam.
	kPerBeam := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		var kept []cand
		for b := range logProbs {
			cs := stableSorted(allCands(scores, logProbs)[b*len(logProbs[0]) : (b+1)*len(logProbs[0])])
			kept = append(kept, cs[:min(k, len(cs))]...)
		}
		return build(prefixes, kept)
	}
	// Each beam's best, sorted.
	onePerBeam := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		var kept []cand
		for b := range logProbs {
			kept = append(kept, stableSorted(allCands(scores, logProbs)[b*len(logProbs[0]) : (b+1)*len(logProbs[0])])[0])
		}
		return build(prefixes, stableSorted(kept))
	}
	// An ascending sort cut at k: the k worst.
	kWorst := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		cs := allCands(scores, logProbs)
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].score < cs[j].score })
		return build(prefixes, cs[:min(k, len(cs))])
	}
	// The candidates built with append on the prefix, then sorted: every
	// candidate of a beam ends with its last token.
	appendAll := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		type c struct {
			seq   []int
			score float64
		}
		var cs []c
		for b, row := range logProbs {
			for v, lp := range row {
				cs = append(cs, c{append(prefixes[b], v), scores[b] + lp})
			}
		}
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
		var next [][]int
		var out []float64
		for _, x := range cs[:min(k, len(cs))] {
			next, out = append(next, x.seq), append(out, x.score)
		}
		return next, out
	}
	// The right candidates, each built with append on its prefix.
	appendKept := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		cs := stableSorted(allCands(scores, logProbs))
		var next [][]int
		var out []float64
		for _, c := range cs[:min(k, len(cs))] {
			next, out = append(next, append(prefixes[c.b], c.v)), append(out, c.score)
		}
		return next, out
	}
	// The beam's score added into logProbs, in place.
	addInPlace := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		for b := range logProbs {
			for v := range logProbs[b] {
				logProbs[b][v] += scores[b]
			}
		}
		cs := allCands(make([]float64, len(scores)), logProbs)
		cs = stableSorted(cs)
		return build(prefixes, cs[:min(k, len(cs))])
	}
	// Each kept candidate grows the caller's prefix.
	growPrefixes := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		cs := stableSorted(allCands(scores, logProbs))
		var next [][]int
		var out []float64
		for _, c := range cs[:min(k, len(cs))] {
			prefixes[c.b] = append(slices.Clip(prefixes[c.b]), c.v)
			next, out = append(next, prefixes[c.b]), append(out, c.score)
		}
		return next, out
	}
	// Candidates listed token by token, then sorted stably.
	tokenMajor := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		var cs []cand
		for v := range logProbs[0] {
			for b := range logProbs {
				cs = append(cs, cand{b, v, scores[b] + logProbs[b][v]})
			}
		}
		cs = stableSorted(cs)
		return build(prefixes, cs[:min(k, len(cs))])
	}
	// The k best kept in a sorted list, a new candidate going before the
	// first it is not worse than: equal ones end up last listed first.
	insertion := func(prefixes [][]int, scores []float64, logProbs [][]float64, k int) ([][]int, []float64) {
		var kept []cand
		for _, c := range allCands(scores, logProbs) {
			i := 0
			for i < len(kept) && kept[i].score > c.score {
				i++
			}
			kept = slices.Insert(kept, i, c)
			kept = kept[:min(k, len(kept))]
		}
		return build(prefixes, kept)
	}
	wrong := []hintCase[beamFunc]{
		{"logProbs alone", "log-prob-only", variant(reference.BeamVariant{Score: reference.LogProbOnly})},
		{"ranked by logProbs alone, the sum returned", "log-prob-only", rankByLogProb},
		{"scores[b] · logProbs[b][v]", "product", variant(reference.BeamVariant{Score: reference.ProductScore})},
		{"k per beam", "per-beam", kPerBeam},
		{"k per beam, sorted", "per-beam", variant(reference.BeamVariant{Keep: reference.KPerBeamSorted})},
		{"one per beam", "per-beam", variant(reference.BeamVariant{Keep: reference.OnePerBeam})},
		{"one per beam, sorted", "per-beam", onePerBeam},
		{"beam 0's k best", "per-beam", variant(reference.BeamVariant{Keep: reference.FirstK})},
		{"the k best, worst first", "worst-first", variant(reference.BeamVariant{Keep: reference.BestAscending})},
		{"the k worst", "worst-first", kWorst},
		{"append on the prefix, then sort", "shared-array", appendAll},
		{"append on the prefix of each kept", "shared-array", appendKept},
		{"scores added into logProbs", "changes-input", addInPlace},
		{"the prefixes grown", "changes-input", growPrefixes},
		{"ties: the higher token first", "ties-higher-token", variant(reference.BeamVariant{Ties: reference.LowBeamHighToken})},
		{"ties: the higher beam first", "ties", variant(reference.BeamVariant{Ties: reference.HighBeamLowToken})},
		{"ties: listed token by token", "ties", tokenMajor},
		{"ties: the last listed first", "ties", insertion},
	}
	expectHints(t, beamSpec, beamSolution, wrong)
	expectHintsEverySeed(t, beamSpec, wrong)
}

// TestBeamCasesShowTheMistakes: the visible cases meant to show a mistake
// do (a case renamed or redrawn would silently stop showing it), and the
// hidden cases of many seeds draw what their names say.
func TestBeamCasesShowTheMistakes(t *testing.T) {
	differs := func(vr reference.BeamVariant, in BeamIn) bool {
		return compareBeam(beamVariant(vr)(in), beamRef(in)) != nil
	}
	shows := map[string][]reference.BeamVariant{
		"the worked example": {{Score: reference.LogProbRank}, {Score: reference.LogProbOnly}, {Score: reference.ProductScore},
			{Keep: reference.OnePerBeam}, {Keep: reference.KPerBeamSorted}, {Keep: reference.KWorst}, {Keep: reference.BestAscending}},
		"ties: 5 candidates": {{Ties: reference.LowBeamHighToken}, {Ties: reference.HighBeamLowToken}, {Ties: reference.TokenMajor}, {Ties: reference.Reversed}},
		"ties across beams":  {{Ties: reference.HighBeamLowToken}, {Ties: reference.TokenMajor}, {Ties: reference.Reversed}},
	}
	found := 0
	for _, c := range beamSpec.Cases() {
		for key, vrs := range shows {
			if strings.HasPrefix(c.Name, key) {
				found++
				for _, vr := range vrs {
					if !differs(vr, c.In) {
						t.Errorf("visible case %q: the mistake %+v gives the right answer", c.Name, vr)
					}
				}
			}
		}
	}
	if found != len(shows) {
		t.Errorf("%d of the %d visible cases meant to show mistakes found", found, len(shows))
	}
	// The worked example's numbers, as the exercise's text gives them.
	got := beamRef(beamSpec.Cases()[0].In)
	if want := "[[0 2 0] [0 2 1]] [-1.20397 -1.7148]"; fmt.Sprintf("%v %.6g", got.Next, got.Scores) != want {
		t.Errorf("the worked example gives %v %.6g, the text says %s", got.Next, got.Scores, want)
	}
	// Hidden: every seed's tie case has four candidates tied for the
	// best, two of each of beams 0 and 1, and its prefixes differ.
	for seed := range uint64(mutationSeeds()) {
		cs := beamSpec.hidden(seed + 1)
		tie := cs[0].In
		sel := reference.BeamSelect(tie.Scores, tie.LogProbs, 4, reference.BeamVariant{})
		if sel[0].Rank != sel[3].Rank || sel[0].Beam != 0 || sel[1].Beam != 0 || sel[2].Beam != 1 || sel[3].Beam != 1 {
			t.Errorf("seed %d: the tie case's four best are %+v", seed+1, sel)
		}
		if all := reference.BeamSelect(tie.Scores, tie.LogProbs, 100, reference.BeamVariant{}); all[4].Rank == all[0].Rank {
			t.Errorf("seed %d: the tie case has more than four candidates tied for the best", seed+1)
		}
		for _, c := range cs {
			seen := map[string]bool{}
			for _, p := range c.In.Prefixes {
				seen[fmt.Sprint(p)] = true
			}
			if len(seen) != len(c.In.Prefixes) {
				t.Errorf("seed %d, %s: two beams have the same prefix", seed+1, c.Name)
			}
			if want := len(c.In.Prefixes) * len(c.In.LogProbs[0]); strings.Contains(c.Name, "fewer") != (c.In.K > want) {
				t.Errorf("seed %d, %s: k = %d for %d candidates", seed+1, c.Name, c.In.K, want)
			}
		}
	}
}
