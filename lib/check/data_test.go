package check

import (
	"math"
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
		{"a fixed seed", "seed-ignored", func(count, vocab, maxLen int, _ uint32) ([][]int, error) {
			return sentencesWith(true, 1, 0, 1, 0, true)(count, vocab, maxLen, 42)
		}},
		{"a pattern, not random", "seed-ignored", func(count, vocab, maxLen int, _ uint32) ([][]int, error) {
			if err := reference.SentenceParamsError(count, vocab, maxLen); err != nil {
				return nil, err
			}
			out := make([][]int, count)
			for i := range out {
				out[i] = make([]int, 1+i%maxLen)
				for j := range out[i] {
					out[i][j] = 1 + (i+j)%(vocab-1)
				}
			}
			return out, nil
		}},
		{"long sentences favoured", "not-uniform", skewed(func(r *random.Source, maxLen, _ int) (int, bool) {
			if r.Float64() < 0.3 {
				return maxLen, true
			}
			return 0, false
		})},
		{"low ids favoured", "not-uniform", skewed(func(r *random.Source, _, vocab int) (int, bool) {
			if r.Float64() < 0.3 {
				return -1, true // the token: id 1
			}
			return 0, false
		})},
	})
}

// skewed is a seeded generator that sometimes favours a length (or, with
// -1, token id 1), as override says.
func skewed(override func(r *random.Source, maxLen, vocab int) (int, bool)) sentencesFunc {
	return func(count, vocab, maxLen int, seed uint32) ([][]int, error) {
		if err := reference.SentenceParamsError(count, vocab, maxLen); err != nil {
			return nil, err
		}
		r := random.New(seed)
		draw := func(lo, hi int) int { return lo + int(r.Float64()*float64(hi-lo+1)) }
		out := make([][]int, count)
		for i := range out {
			n := draw(1, maxLen)
			if v, ok := override(r, maxLen, vocab); ok && v > 0 {
				n = v
			}
			out[i] = make([]int, n)
			for j := range out[i] {
				out[i][j] = draw(1, vocab-1)
				if v, ok := override(r, maxLen, vocab); ok && v < 0 {
					out[i][j] = 1
				}
			}
		}
		return out, nil
	}
}

// TestSameSentencesChance compares the formula with an enumeration of
// every pair of outputs of small generators.
func TestSameSentencesChance(t *testing.T) {
	for _, tc := range []struct{ count, vocab, maxLen int }{{1, 2, 1}, {1, 3, 2}, {2, 3, 2}, {1, 4, 3}, {3, 2, 3}} {
		// The chance of each sentence, then of each output of count
		// sentences; two draws agree with chance Σ P(output)².
		var probs []float64
		var walk func(l, left int, p float64)
		walk = func(l, left int, p float64) {
			if left == 0 {
				probs = append(probs, p)
				return
			}
			for range tc.vocab - 1 {
				walk(l, left-1, p/float64(tc.vocab-1))
			}
		}
		for l := 1; l <= tc.maxLen; l++ {
			walk(l, l, 1/float64(tc.maxLen))
		}
		outputs := []float64{1}
		for range tc.count {
			var next []float64
			for _, o := range outputs {
				for _, p := range probs {
					next = append(next, o*p)
				}
			}
			outputs = next
		}
		want := 0.0
		for _, p := range outputs {
			want += p * p
		}
		if got := sameSentencesChance(tc.count, tc.vocab, tc.maxLen); math.Abs(got-want) > 1e-12*want {
			t.Errorf("sameSentencesChance(%d, %d, %d) = %g, enumeration gives %g", tc.count, tc.vocab, tc.maxLen, got, want)
		}
	}
}

// TestChiSquareZ: even draws give deviates near 0 (mean and spread of a
// standard normal over many draws), uneven counts large ones.
func TestChiSquareZ(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var sum, sum2 float64
	const runs = 2000
	for range runs {
		counts := make([]int, 7)
		for range 700 {
			counts[r.IntN(7)]++
		}
		z := chiSquareZ(counts)
		sum += z
		sum2 += z * z
	}
	mean := sum / runs
	sd := math.Sqrt(sum2/runs - mean*mean)
	if math.Abs(mean) > 0.1 || math.Abs(sd-1) > 0.1 {
		t.Errorf("even draws: z has mean %.3f and standard deviation %.3f, want about 0 and 1", mean, sd)
	}
	if z := chiSquareZ([]int{390, 300, 300, 300, 300, 300, 210}); z < 5 {
		t.Errorf("counts 390 … 210 of 2,100: z = %.2f, want above 5", z)
	}
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
