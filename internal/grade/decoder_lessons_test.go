package grade

import (
	"testing"
)

// TestDecoderLessonsDenied: the exercises of lessons 9 and 10 flag a
// program that links the library code computing their answer (the
// attention and mask constructors of lib/attention, the decoder layer of
// lib/transformer, the shifted inputs of lib/dates and lib/seq2seq, the
// beam search of lib/dates), and not what the exercise leaves to the
// learner.
func TestDecoderLessonsDenied(t *testing.T) {
	expectDenied(t, []string{"lessons/exercises/09-full-transformer.md", "lessons/exercises/10-gpt-writes-go.md"}, []denyCase{
		{"cross-attention", "lib/attention.Explain", "lib/attention"},
		{"cross-attention", "lib/transformer.DecoderLayer", "lib/transformer"},
		{"cross-attention", "lib/dates.Translate", ""},
		{"decoder-mask", "lib/attention.LookAhead", "lib/attention.LookAhead"},
		{"decoder-mask", "lib/attention.Padding", "lib/attention.Padding"},
		{"decoder-mask", "lib/attention.Explain", ""},
		{"teacher-forcing", "lib/dates.ToArrays", "lib/dates"},
		{"teacher-forcing", "lib/attention.LookAhead", ""},
		{"beam-step", "lib/dates.TransformerExperiment.BeamSearch", "lib/dates"},
		{"beam-step", "lib/transformer.EncoderDecoder.Greedy", "lib/transformer"},
		{"beam-step", "lib/dates.init", ""},
		{"beam-step", "lib/attention.SoftmaxOf", ""},
		{"lm-targets", "lib/train.Ints", "lib/train"},
		{"lm-targets", "lib/corpus.Windows", "lib/corpus.Windows"},
		{"lm-targets", "lib/corpus.BitsPerChar", ""},
		{"sample", "lib/attention.SoftmaxOf", "lib/attention.SoftmaxOf"},
		{"sample", "lib/attention.Explain", ""},
		{"sample", "lib/gpt.Sampler.Pick", "lib/gpt.Sampler"},
		{"sample", "lib/gpt.Sampler.Probs", "lib/gpt.Sampler"},
		{"kv-cache", "lib/gpt.Config.Step", "lib/gpt"},
		{"kv-cache", "lib/attention.Explain", "lib/attention"},
	})
}

// TestDecoderLessonsLibraryCalls grades, through the sandbox, a
// submission of exercise 10 whose key–value-cache step is the last row
// of the library's causal attention (attention.Explain with
// attention.LookAhead): right numbers, flagged, 0 points, while the
// honest exercises beside it keep theirs.
func TestDecoderLessonsLibraryCalls(t *testing.T) {
	body := "func CachedAttention(cacheK, cacheV [][]float64, q, k, v []float64) (out []float64, newK, newV [][]float64) {\n" +
		"\tnewK, newV = append(cacheK, k), append(cacheV, v)\n" +
		"\tqs := make([][]float64, len(newK))\n\tfor i := range qs {\n\t\tqs[i] = q\n\t}\n" +
		"\ts, err := attention.Explain(qs, newK, newV, nil)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n" +
		"\treturn s.Output[len(qs)-1], newK, newV\n}"
	rows := gradeCheat(t, "10-gpt-writes-go", "kv-cache", "import \""+lib+"/attention\"", body)
	expectFlagged(t, rows, "kv-cache", "lib/attention", map[string]string{"lm-targets": "2", "sample": "3"})
}
