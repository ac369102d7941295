package seq2seq

import (
	"testing"
)

// BenchmarkLesson06 trains lesson 06's two models as the lesson does,
// side by side with [Experiment.TrainAll] (make bench; one iteration takes
// about a minute and a half), and reports each training's time and the
// accuracy at the longest length, so that a slower backend or a model that
// stopped learning shows up as a regression. The time per iteration is
// what the lesson's training cell waits.
//
//	go test -run XXX -bench Lesson06 -benchtime 1x ./lib/seq2seq
func BenchmarkLesson06(b *testing.B) {
	b.Setenv("COURSE_CACHE", b.TempDir())
	x := Lesson06
	x.Quiet = true
	cfgs := []Config{x.Config(false), x.Config(true)}
	for b.Loop() {
		trained, err := x.TrainAll(cfgs...)
		if err != nil {
			b.Fatal(err)
		}
		for i, cfg := range cfgs {
			tr := trained[i]
			c, err := x.Curve(tr, cfg)
			if err != nil {
				b.Fatal(err)
			}
			name := "no-attn"
			if cfg.Attention {
				name = "attn"
			}
			b.ReportMetric(tr.History.Wall.Seconds(), name+"-train-s")
			b.ReportMetric(float64(tr.History.Wall.Milliseconds())/float64(x.Steps), name+"-ms/step")
			b.ReportMetric(100*c.At(x.Width).Token, name+"-acc%@12")
			b.ReportMetric(100*c.At(x.MinLen+2).Token, name+"-acc%@4")
		}
	}
}

// BenchmarkTrainStep measures one training step of lesson 06's models
// (batch 64, sequences of up to 12 digits, GRU states of 64): forward,
// backward and Adam, the graph compiled outside the figure. It trains 40
// steps and reports the time per step after the first (compiling) one.
//
//	go test -run XXX -bench TrainStep ./lib/seq2seq
func BenchmarkTrainStep(b *testing.B) {
	for _, att := range []bool{false, true} {
		name := "no-attention"
		if att {
			name = "attention"
		}
		b.Run(name, func(b *testing.B) {
			b.Setenv("COURSE_CACHE", b.TempDir())
			x := Lesson06
			x.Quiet, x.Steps = true, 40
			var perStep float64
			for b.Loop() {
				tr, err := x.Train(x.Config(att))
				if err != nil {
					b.Fatal(err)
				}
				perStep = float64((tr.History.Wall - tr.History.Compile).Milliseconds()) / float64(x.Steps-1)
			}
			b.ReportMetric(perStep, "ms/step")
		})
	}
}
