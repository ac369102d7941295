package dates

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/viz"
)

// small is a short run of the experiment for tests: a few seconds.
var small = Experiment{TrainSize: 2000, TestSize: 100, TestFraction: 0.2, Steps: 150, Batch: 32, LearningRate: 0.01,
	Seed: 7, Embed: 8, Hidden: 16, AttnSize: 16}

// TestShortTrainingLearns trains the dot-score model briefly and checks
// that the loss falls, that the attention weights of every step are a
// distribution over the real source characters, and that the figures
// draw.
func TestShortTrainingLearns(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model for a few seconds")
	}
	tr, err := small.fit(attention.Dot, "")
	if err != nil {
		t.Fatal(err)
	}
	h := tr.History
	if first, last := h.Loss[0], h.FinalLoss(); !(last < first/2) {
		t.Errorf("loss %.3f → %.3f: want it at least halved", first, last)
	}
	r, err := small.measure(attention.Dot, tr, small.Task().Test)
	if err != nil {
		t.Fatal(err)
	}
	if r.Test != small.TestSize || len(r.Translations) != small.TestSize {
		t.Fatalf("%d translations, want %d", len(r.Translations), small.TestSize)
	}
	for _, x := range r.Translations[:10] {
		for i, row := range x.Weights {
			sum := 0.0
			for s, w := range row {
				if s >= len(x.Source) && w != 0 {
					t.Errorf("%q step %d: weight %g on padding position %d", x.Source, i, w, s)
				}
				sum += w
			}
			if sum < 0.999 || sum > 1.001 {
				t.Errorf("%q step %d: weights sum to %g, want 1", x.Source, i, sum)
			}
		}
	}
	g := AlignmentGrid([]Result{r, r}, 0)
	if err := g.Validate(); err != nil {
		t.Errorf("AlignmentGrid: %v", err)
	}
	if dir := os.Getenv("DATES_FIGURES"); dir != "" { // look at the figures
		if err := viz.Save(g, filepath.Join(dir, "dates_grid.png")); err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkLesson07 trains the additive-score model of lesson 07 (no
// checkpoint) and reports the training time and the exact-match accuracy
// on the test dates.
func BenchmarkLesson07(b *testing.B) {
	for b.Loop() {
		start := time.Now()
		tr, err := Lesson07.fit(attention.Additive, "")
		if err != nil {
			b.Fatal(err)
		}
		train := time.Since(start)
		r, err := Lesson07.measure(attention.Additive, tr, Lesson07.Task().Test)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(train.Seconds(), "train-s")
		b.ReportMetric(100*r.Accuracy, "accuracy-%")
		b.ReportMetric(100*r.Alignment.All, "aligned-%")
	}
}

// TrainAll gives, in the order asked, the models Train gives one at a time.
func TestTrainAllEqualsTrain(t *testing.T) {
	t.Setenv("COURSE_CACHE", t.TempDir())
	x := small
	x.Steps = 6
	kinds := []attention.ScoreKind{attention.Concat, attention.Dot}
	all, err := x.TrainAll(kinds...)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range kinds {
		alone, err := x.Train(k)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := all[i].History, alone.History; got.Name != want.Name || !slices.Equal(got.Loss, want.Loss) {
			t.Errorf("TrainAll[%d] = %s %v, Train(%s) = %s %v", i, got.Name, got.Loss, k, want.Name, want.Loss)
		}
	}
}
