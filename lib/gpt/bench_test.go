package gpt

import (
	"testing"
	"time"

	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/corpus"
)

// BenchmarkLesson10 trains lesson 10's GPT and reports its training time
// and bits per character on the test files.
func BenchmarkLesson10(b *testing.B) {
	b.Setenv("COURSE_CACHE", b.TempDir())
	s, err := corpus.Load()
	if err != nil {
		b.Skip(err)
	}
	e := Lesson10
	if testing.Short() {
		e.Steps = 20
	}
	for b.Loop() {
		start := time.Now()
		t, err := e.Train(s)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "train-s")
		b.ReportMetric(time.Since(start).Seconds()/float64(e.Steps)*1000, "ms/step")
		sc, err := Evaluate(t.Store, e.Model, s.Test, e.Model.Context)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(sc.BitsPerChar(), "bits/char")
	}
}

// BenchmarkGenerate times the generation of 60 bytes after a 4-byte
// prompt, 8 samples at a time, with lesson 10's model size (untrained
// weights: the time does not depend on them), with and without the KV
// cache; the graphs are compiled before the timer starts.
func BenchmarkGenerate(b *testing.B) {
	c := Lesson10.Model
	store := model.NewStore()
	store.SetParam(model.ParamInitialSeed, int64(1))
	g, err := NewGenerator(store, c, c.Context)
	if err != nil {
		b.Fatal(err)
	}
	for _, cached := range []bool{true, false} {
		name := "full"
		if cached {
			name = "cached"
		}
		b.Run(name, func(b *testing.B) {
			if _, err := g.Generate([]byte("\tif "), 60, 8, Sampler{}, 1, cached); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				gen, err := g.Generate([]byte("\tif "), 60, 8, Sampler{}, 1, cached)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(gen.Total().Microseconds())/1000/60, "ms/token")
				b.ReportMetric(float64(gen.MeanTime(56, 64).Microseconds())/1000, "ms/token-at-56+")
			}
		})
	}
}
