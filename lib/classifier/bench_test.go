package classifier

import (
	"testing"
	"time"
)

// BenchmarkLesson8 trains the Transformer of lesson 8 and reports its
// training time, its time per step (the training loop's wall time over its
// steps, the figure to set beside another framework's step) and its test
// accuracy.
func BenchmarkLesson8(b *testing.B) {
	b.Setenv("COURSE_CACHE", b.TempDir())
	for b.Loop() {
		start := time.Now()
		tr, err := Lesson8.Train(Transformer)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "train-s")
		b.ReportMetric(float64(tr.History.Wall.Microseconds())/1000/float64(Lesson8.Steps), "ms/step")
		rs, err := Lesson8.Evaluate(Transformer)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(100*rs[0].Accuracy, "accuracy-%")
	}
}

// BenchmarkForward times the forward pass of 32 reviews of 200 tokens for
// the trained Transformer and LSTM.
func BenchmarkForward(b *testing.B) {
	b.Setenv("COURSE_CACHE", b.TempDir())
	for _, k := range []Kind{Transformer, LSTM} {
		if _, err := Lesson8.Train(k); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		times, err := Lesson8.ForwardTimes([]Kind{Transformer, LSTM}, []int{200}, 32)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(times[Transformer][0].Microseconds())/1000, "transformer-ms")
		b.ReportMetric(float64(times[LSTM][0].Microseconds())/1000, "lstm-ms")
	}
}
