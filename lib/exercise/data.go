package exercise

import (
	"fmt"
	"reflect"
)

// The tasks of the appendix's exercises: synthetic sentences with
// validated parameters, a padded batch with its padding mask, and
// pandas-style summary statistics.

// SentencesIn is an input of the synthetic-sentences exercise.
type SentencesIn struct {
	Count, Vocab, MaxLen int
	Seed                 uint32
}

// SentencesOut is what the check learns from the learner's generator: the
// sentences, whether it returned an error, whether a second call with the
// same seed gave the same sentences, and the sentences of another seed
// ([OtherSeed]). The reference fills only the parameters (Count, Vocab,
// MaxLen, Coverage, Distinct) and Err: the sentences are random, so the
// check verifies their constraints and their spread instead of their
// values.
type SentencesOut struct {
	Sentences            [][]int
	Err, Same            bool
	Other                [][]int // the sentences of seed OtherSeed(in.Seed)
	Count, Vocab, MaxLen int
	Coverage             bool // enough tokens that every id and length should appear, evenly
	Distinct             bool // so many possible outputs that two seeds must differ
}

// OtherSeed is the second seed the synthetic-sentences task calls the
// generator with: it differs from seed in half its bits.
func OtherSeed(seed uint32) uint32 { return seed ^ 0x9e3779b9 }

// GenerateSentences: func GenerateSentences(count, vocabSize, maxLen int, seed uint32) ([][]int, error).
var GenerateSentences = &Task[func(count, vocabSize, maxLen int, seed uint32) ([][]int, error), SentencesIn, SentencesOut]{
	ID: "synthetic-sentences",
	Call: func(f func(count, vocabSize, maxLen int, seed uint32) ([][]int, error), in SentencesIn) SentencesOut {
		s, err := f(in.Count, in.Vocab, in.MaxLen, in.Seed)
		again, err2 := f(in.Count, in.Vocab, in.MaxLen, in.Seed)
		other, _ := f(in.Count, in.Vocab, in.MaxLen, OtherSeed(in.Seed))
		return SentencesOut{Sentences: s, Err: err != nil, Same: (err == nil) == (err2 == nil) && reflect.DeepEqual(s, again), Other: other}
	},
}

// PadBatchIn is an input of the padding exercise.
type PadBatchIn struct {
	Sentences [][]int
	PadID     int
}

// PadBatchOut is PadBatch's result, and whether it changed its input.
type PadBatchOut struct {
	IDs          [][]int
	Mask         [][]bool
	InputChanged bool
}

// PadBatch: func PadBatch(sentences [][]int, padID int) (ids [][]int, mask [][]bool).
var PadBatch = &Task[func(sentences [][]int, padID int) (ids [][]int, mask [][]bool), PadBatchIn, PadBatchOut]{
	ID: "pad-batch",
	Call: func(f func(sentences [][]int, padID int) (ids [][]int, mask [][]bool), in PadBatchIn) PadBatchOut {
		before := fmt.Sprint(in.Sentences)
		ids, mask := f(in.Sentences, in.PadID)
		return PadBatchOut{IDs: ids, Mask: mask, InputChanged: fmt.Sprint(in.Sentences) != before}
	},
}

// DescribeIn is an input of the statistics exercise.
type DescribeIn struct{ Values []float64 }

// Describe: func Describe(values []float64) (mean, std, min, q25, median, q75, max float64),
// its results as one slice in that order.
var Describe = &Task[func(values []float64) (mean, std, min, q25, median, q75, max float64), DescribeIn, []float64]{
	ID: "describe",
	Call: func(f func(values []float64) (mean, std, min, q25, median, q75, max float64), in DescribeIn) []float64 {
		a, b, c, d, e, g, h := f(in.Values)
		return []float64{a, b, c, d, e, g, h}
	},
}
