package dates

import (
	"math"
	"testing"
	"time"
)

// smallTransformer is a short run of lesson 09's experiment for tests.
var smallTransformer = TransformerExperiment{TrainSize: 2000, TestSize: 60, TestFraction: 0.2, Steps: 150, Batch: 32, LearningRate: 0.005,
	Seed: 7, DModel: 16, Heads: 2, DFF: 32, Layers: 1}

func TestCharAccuracy(t *testing.T) {
	ts := []Translation{
		{Example: Example{Target: "2026-11-22"}, Output: "2026-11-22"},
		{Example: Example{Target: "1999-01-02"}, Output: "1999-01-03"},
		{Example: Example{Target: "1950-12-31"}, Output: "0000000000"},
	}
	if got, want := CharAccuracy(ts), (10+9+1)/30.0; math.Abs(got-want) > 1e-12 {
		t.Errorf("CharAccuracy = %g, want %g", got, want)
	}
}

// TestTransformerShortTraining trains a small Transformer briefly and
// checks that the loss falls, that every cross-attention row is a
// distribution over the real source characters, that decoding step by
// step writes what the one-graph greedy decoder writes, and that the
// figure draws.
func TestTransformerShortTraining(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model for a few seconds")
	}
	x := smallTransformer
	tr, err := x.fit("")
	if err != nil {
		t.Fatal(err)
	}
	if first, last := tr.History.Loss[0], tr.History.FinalLoss(); !(last < first/2) {
		t.Errorf("loss %.3f → %.3f: want it at least halved", first, last)
	}
	if got, want := tr.History.Params, x.Config().ParamCount(); got != want {
		t.Errorf("trained %d parameters, Config().ParamCount() = %d", got, want)
	}
	test := x.Task().Test
	r, err := x.measure(tr, test)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Translations) != len(test) || len(r.Heads) != 1 || len(r.Heads[0]) != 2 {
		t.Fatalf("%d translations, heads %d×%d", len(r.Translations), len(r.Heads), len(r.Heads[0]))
	}
	if r.ForcedChars < r.GreedyChars-0.05 {
		t.Errorf("teacher forcing %.3f of the characters, greedy %.3f: forcing should not be worse", r.ForcedChars, r.GreedyChars)
	}
	for _, x := range r.Translations[:10] {
		for h := range x.Cross[0] {
			for i, row := range x.Cross[0][h] {
				sum := 0.0
				for s, w := range row {
					if s >= len([]rune(x.Source)) && w != 0 {
						t.Errorf("%q head %d step %d: weight %g on padding position %d", x.Source, h, i, w, s)
					}
					sum += w
				}
				if math.Abs(sum-1) > 1e-3 {
					t.Errorf("%q head %d step %d: weights sum to %g, want 1", x.Source, h, i, sum)
				}
			}
		}
	}
	for _, e := range r.Translations[:3] {
		steps, err := x.DecodeSteps(tr.Store, e.Example)
		if err != nil {
			t.Fatal(err)
		}
		var out []rune
		for i, s := range steps {
			out = append(out, s.Writes)
			if len(s.MaskRow) != i+1 || len(s.SelfWeights) != i+1 || s.Prob <= 0 || s.Prob > 1 {
				t.Errorf("step %d: mask row %d, weights %d×…, probability %g", i, len(s.MaskRow), len(s.SelfWeights), s.Prob)
			}
		}
		if string(out) != e.Output {
			t.Errorf("%q: step by step %q, greedy in one graph %q", e.Source, string(out), e.Output)
		}
	}
	if err := CrossAttentionGrid(r.Translations[0]).Validate(); err != nil {
		t.Errorf("CrossAttentionGrid: %v", err)
	}
}

// BenchmarkLesson09 trains lesson 09's Transformer (no checkpoint) and
// reports the training time, the time per step and the exact-match
// accuracy on the test dates.
//
//	go test -run XXX -bench Lesson09 -benchtime 1x ./lib/dates
func BenchmarkLesson09(b *testing.B) {
	for b.Loop() {
		start := time.Now()
		tr, err := Lesson09.fit("")
		if err != nil {
			b.Fatal(err)
		}
		train := time.Since(start)
		r, err := Lesson09.measure(tr, Lesson09.Task().Test)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(train.Seconds(), "train-s")
		b.ReportMetric(float64((tr.History.Wall-tr.History.Compile).Milliseconds())/float64(Lesson09.Steps-1), "ms/step")
		b.ReportMetric(100*r.Accuracy, "accuracy-%")
		b.ReportMetric(100*r.Alignment.Year, "year-aligned-%")
	}
}
