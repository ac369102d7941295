package check

import (
	"math/rand/v2"
	"testing"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/random"
)

// sentencesWith is a generator with one of the usual mistakes.
func sentencesWith(validate bool, loTok, hiTok, loLen, hiLen int, seeded bool) sentencesFunc {
	return func(count, vocab, maxLen int, seed uint32) ([][]int, error) {
		if validate {
			if err := reference.SentenceParamsError(count, vocab, maxLen); err != nil {
				return nil, err
			}
		}
		r := random.New(seed)
		draw := func(lo, hi int) int { return lo + int(r.Float64()*float64(hi-lo+1)) }
		if !seeded {
			draw = func(lo, hi int) int { return lo + rand.IntN(hi-lo+1) }
		}
		out := make([][]int, max(count, 0))
		for i := range out {
			out[i] = make([]int, max(draw(loLen, maxLen+hiLen), 0))
			for j := range out[i] {
				out[i][j] = draw(loTok, vocab-1+hiTok)
			}
		}
		return out, nil
	}
}

func TestSentencesHints(t *testing.T) {
	expectHints(t, sentencesSpec, sentencesWith(true, 1, 0, 1, 0, true), []hintCase[sentencesFunc]{
		{"no validation", "no-validation", sentencesWith(false, 1, 0, 1, 0, true)},
		{"token 0 used", "padding-token", sentencesWith(true, 0, 0, 1, 0, true)},
		{"length 0 possible", "empty-sentence", sentencesWith(true, 1, 0, 0, 0, true)},
		{"maxLen excluded", "exclusive-upper-bound", sentencesWith(true, 1, 0, 1, -1, true)},
		{"vocab−1 excluded", "exclusive-upper-bound", sentencesWith(true, 1, -1, 1, 0, true)},
		{"global generator", "not-seeded", sentencesWith(true, 1, 0, 1, 0, false)},
	})
}

func padSolution(sentences [][]int, padID int) ([][]int, [][]bool) {
	return reference.PadBatch(sentences, padID)
}

func TestPadBatchHints(t *testing.T) {
	expectHints(t, padBatchSpec, padSolution, []hintCase[padBatchFunc]{
		{"mask inverted", "mask-inverted", func(s [][]int, pad int) ([][]int, [][]bool) {
			ids, mask := reference.PadBatch(s, pad)
			for i := range mask {
				for j := range mask[i] {
					mask[i][j] = !mask[i][j]
				}
			}
			return ids, mask
		}},
		{"pads with 0", "pad-id", func(s [][]int, pad int) ([][]int, [][]bool) { return reference.PadBatch(s, 0) }},
		{"appends to the input", "input-changed", func(s [][]int, pad int) ([][]int, [][]bool) {
			_, mask := reference.PadBatch(s, pad)
			var ids [][]int
			for i := range s {
				for len(s[i]) < len(mask[i]) {
					s[i] = append(s[i], pad)
				}
				ids = append(ids, s[i])
			}
			return ids, mask
		}},
	})
}

func TestDescribeHints(t *testing.T) {
	wrap := func(f func(DescribeIn) []float64) describeFunc {
		return func(v []float64) (a, b, c, d, e, g, h float64) {
			o := f(DescribeIn{Values: v})
			return o[0], o[1], o[2], o[3], o[4], o[5], o[6]
		}
	}
	expectHints(t, describeSpec, wrap(describeVariant(false, false, false)), []hintCase[describeFunc]{
		{"np.std", "population-std", wrap(describeVariant(true, false, false))},
		{"unsorted", "unsorted-quantiles", wrap(describeVariant(false, false, true))},
		{"nearest rank", "nearest-rank", wrap(describeVariant(false, true, false))},
		{"0/0 for one value", "one-value", func(v []float64) (a, b, c, d, e, g, h float64) {
			o := describeVariant(false, false, false)(DescribeIn{Values: v})
			if len(v) == 1 {
				zero := 0.0
				o[1] = zero / zero
			}
			return o[0], o[1], o[2], o[3], o[4], o[5], o[6]
		}},
	})
}
