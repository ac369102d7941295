package dates

import (
	"math"
	"slices"
	"testing"
)

// toyScorer is a model over 3 tokens whose log-probabilities depend on the
// whole prefix, built so that greedy decoding is not optimal: after the
// tempting first token 0 every continuation is poor.
func toyScorer(prefix []int32) []float64 {
	p := []float64{0.2, 0.3, 0.5}
	switch {
	case len(prefix) == 0:
		p = []float64{0.5, 0.3, 0.2}
	case prefix[0] == 0:
		p = []float64{0.34, 0.33, 0.33}
	case prefix[len(prefix)-1] == 1:
		p = []float64{0.05, 0.05, 0.9}
	}
	out := make([]float64, len(p))
	for i, x := range p {
		out[i] = math.Log(x)
	}
	return out
}

func toyNext(beams [][][]int32) ([][][]float64, error) {
	lp := make([][][]float64, len(beams))
	for e, bs := range beams {
		for _, b := range bs {
			lp[e] = append(lp[e], toyScorer(b))
		}
	}
	return lp, nil
}

// score is the total log-probability of ids under toyScorer.
func score(ids []int32) float64 {
	s := 0.0
	for t, v := range ids {
		s += toyScorer(ids[:t])[v]
	}
	return s
}

// TestBeamSearchAgainstExhaustive: with a beam as wide as every sequence
// (3⁴ = 81) beam search finds the best of all sequences, found here by
// enumerating them; with width 1 it is greedy decoding, done here by
// hand; and a width in between is at least as good as greedy on this
// scorer, whose greedy first choice is a trap.
func TestBeamSearchAgainstExhaustive(t *testing.T) {
	const steps = 4
	var best []int32
	bestScore := math.Inf(-1)
	for code := range 81 {
		ids := make([]int32, steps)
		for i, c := 0, code; i < steps; i, c = i+1, c/3 {
			ids[steps-1-i] = int32(c % 3)
		}
		if s := score(ids); s > bestScore+1e-12 {
			best, bestScore = ids, s
		}
	}
	got, err := beamSearch(2, 81, steps, toyNext)
	if err != nil {
		t.Fatal(err)
	}
	for e := range got {
		if !slices.Equal(got[e].ids, best) || math.Abs(got[e].score-bestScore) > 1e-12 {
			t.Errorf("search %d, width 81: %v (%.4f), want the best of all sequences %v (%.4f)", e, got[e].ids, got[e].score, best, bestScore)
		}
	}
	var greedy []int32
	for range steps {
		lp := toyScorer(greedy)
		greedy = append(greedy, int32(slices.Index(lp, slices.Max(lp))))
	}
	g, _ := beamSearch(1, 1, steps, toyNext)
	if !slices.Equal(g[0].ids, greedy) || math.Abs(g[0].score-score(greedy)) > 1e-12 {
		t.Errorf("width 1: %v (%.4f), want greedy %v (%.4f)", g[0].ids, g[0].score, greedy, score(greedy))
	}
	if slices.Equal(greedy, best) {
		t.Fatal("the toy scorer's greedy path is the best: it cannot tell beam search from greedy")
	}
	w2, _ := beamSearch(1, 2, steps, toyNext)
	if w2[0].score < g[0].score {
		t.Errorf("width 2 scores %.4f, below greedy's %.4f", w2[0].score, g[0].score)
	}
}

// TestBeamSearchTies: with every token equally likely, the earlier beam
// and the lower token win, so the best is all zeros; and the inputs of a
// step are not changed by the next.
func TestBeamSearchTies(t *testing.T) {
	flat := func(beams [][][]int32) ([][][]float64, error) {
		lp := make([][][]float64, len(beams))
		for e, bs := range beams {
			for range bs {
				lp[e] = append(lp[e], []float64{math.Log(0.25), math.Log(0.25), math.Log(0.25), math.Log(0.25)})
			}
		}
		return lp, nil
	}
	got, _ := beamSearch(1, 3, 5, flat)
	if !slices.Equal(got[0].ids, []int32{0, 0, 0, 0, 0}) {
		t.Errorf("equal probabilities: %v, want the lowest tokens", got[0].ids)
	}
}

// TestBeamSearchOnTheModel: on a briefly trained Transformer, width 1 is
// the one-graph greedy decoder's output; each hypothesis's log-probability
// is the teacher-forced one of its output (LogProbs, on the dates whose
// output is right); and CompareBeams counts every wrong date once, as a
// search or a model error.
func TestBeamSearchOnTheModel(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model for a few seconds")
	}
	x := smallTransformer
	x.Steps = 600 // long enough to get some dates right
	tr, err := x.fit("")
	if err != nil {
		t.Fatal(err)
	}
	test := x.Task().Test
	greedy, err := x.TranslateTransformer(tr.Store, test)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := x.BeamSearch(tr.Store, test, 1)
	if err != nil {
		t.Fatal(err)
	}
	target, err := x.LogProbs(tr.Store, test)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for i, h := range hs {
		if h.Output != greedy[i].Output {
			t.Errorf("%q: width 1 wrote %q, the greedy graph %q", test[i].Source, h.Output, greedy[i].Output)
		}
		if h.Output == test[i].Target {
			right++
			if math.Abs(h.LogProb-target[i]) > 1e-4 {
				t.Errorf("%q: hypothesis log-probability %.5f, teacher forcing %.5f", test[i].Source, h.LogProb, target[i])
			}
		}
		if h.LogProb > 0 {
			t.Errorf("%q: log-probability %.5f > 0", test[i].Source, h.LogProb)
		}
	}
	if right == 0 || right == len(test) {
		t.Fatalf("%d of %d right: the test needs some right and some wrong dates", right, len(test))
	}
	rs, err := x.CompareBeams(tr.Store, test, []int{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		wrong := int(math.Round((1 - r.Exact) * float64(len(test))))
		if r.SearchErrors+r.ModelErrors != wrong {
			t.Errorf("width %d: %d search + %d model errors, %d wrong dates", r.Width, r.SearchErrors, r.ModelErrors, wrong)
		}
	}
	// Width 1 in CompareBeams (the greedy graph, its outputs scored by
	// teacher forcing) classifies the wrong dates as BeamSearch's width 1
	// does with the log-probabilities it summed while decoding.
	search := 0
	for i, h := range hs {
		if h.Output != test[i].Target && target[i] > h.LogProb {
			search++
		}
	}
	if rs[0].SearchErrors != search {
		t.Errorf("width 1: %d search errors, %d by BeamSearch's own log-probabilities", rs[0].SearchErrors, search)
	}
	if rs[0].Changed != 0 || rs[0].Exact != float64(right)/float64(len(test)) {
		t.Errorf("width 1: %d changed, exact %.3f; want 0 and %.3f", rs[0].Changed, rs[0].Exact, float64(right)/float64(len(test)))
	}
	if _, err := x.BeamSearch(tr.Store, test, 0); err == nil {
		t.Error("width 0: no error")
	}
}
