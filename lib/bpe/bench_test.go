package bpe

import (
	"fmt"
	"testing"
)

// BenchmarkEncode encodes lesson 10's held-out text (the six test files)
// with tokenizers trained on its training text, and reports MB/s and
// bytes per token.
func BenchmarkEncode(b *testing.B) {
	text := lesson10(b).Test
	for _, vocab := range []int{1024, 4096} {
		for _, preSplit := range []bool{false, true} {
			b.Run(fmt.Sprintf("vocab=%d/preSplit=%v", vocab, preSplit), func(b *testing.B) {
				tok := trainedOn10(b, vocab, preSplit)
				b.SetBytes(int64(len(text)))
				var n int
				for b.Loop() {
					n = len(tok.Encode(text))
				}
				b.ReportMetric(float64(len(text))/float64(n), "bytes/token")
			})
		}
	}
}

// BenchmarkTrain times training on lesson 10's training text: the plain
// reference and the incremental trainer at a vocabulary small enough for
// the plain one, and the incremental one at the lesson's 4,096.
func BenchmarkTrain(b *testing.B) {
	text := lesson10(b).Train
	for _, preSplit := range []bool{false, true} {
		for _, tc := range []struct {
			name  string
			vocab int
			train func([]byte, int, bool) []Merge
		}{
			{"plain", 320, func(t []byte, v int, p bool) []Merge { m, _ := trainPlain(t, v, p); return m }},
			{"fast", 320, trainFast},
			{"fast", 4096, trainFast},
		} {
			b.Run(fmt.Sprintf("%s/vocab=%d/preSplit=%v", tc.name, tc.vocab, preSplit), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					tc.train(text, tc.vocab, preSplit)
				}
			})
		}
	}
}

// BenchmarkSplit times the pre-split alone.
func BenchmarkSplit(b *testing.B) {
	text := lesson10(b).Test
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Split(text)
	}
}
