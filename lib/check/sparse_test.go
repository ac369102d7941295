package check

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/text"
	"github.com/attention-in-go/course/lib/viz"
)

// sparseLearner is sparse attention written as a learner would, with the
// pattern visible(i, j); dense asks for every score and masks afterwards.
func sparseLearner(visible func(i, j, window, dilation int, global []int) bool, dense bool) sparseFunc {
	return func(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64) {
		for i := range q {
			row, best := make([]float64, len(k)), math.Inf(-1)
			seen := make([]bool, len(k))
			for j := range k {
				see := visible(i, j, window, dilation, global)
				if !see && !dense {
					continue
				}
				s := score(i, j)
				if see {
					row[j], seen[j] = s, true
					best = math.Max(best, s)
				}
			}
			sum := 0.0
			for j := range row {
				if seen[j] {
					row[j] = math.Exp(row[j] - best)
					sum += row[j]
				}
			}
			o := make([]float64, len(v[0]))
			for j := range row {
				row[j] /= sum
				for c := range o {
					o[c] += row[j] * v[j][c]
				}
			}
			weights, out = append(weights, row), append(out, o)
		}
		return out, weights
	}
}

func learnerLongformer(i, j, window, dilation int, global []int) bool {
	if slices.Contains(global, i) || slices.Contains(global, j) {
		return true
	}
	d := absInt(i - j)
	return d <= window*dilation && d%dilation == 0
}

func TestSparseHints(t *testing.T) {
	band := func(i, j, window, dilation int) bool {
		d := absInt(i - j)
		return d <= window*dilation && d%dilation == 0
	}
	expectHints(t, sparseSpec, sparseLearner(learnerLongformer, false), []hintCase[sparseFunc]{
		{"all scores, then masked", "dense", sparseLearner(learnerLongformer, true)},
		{"global rows only", "global-rows-only", sparseLearner(func(i, j, w, d int, g []int) bool {
			return slices.Contains(g, i) || band(i, j, w, d)
		}, false)},
		{"global columns only", "global-columns-only", sparseLearner(func(i, j, w, d int, g []int) bool {
			return slices.Contains(g, j) || band(i, j, w, d)
		}, false)},
		{"a contiguous window of window·dilation", "no-dilation", sparseLearner(func(i, j, w, d int, g []int) bool {
			return learnerLongformer(i, j, w*d, 1, g)
		}, false)},
		{"window counted in positions", "dilation-span", sparseLearner(func(i, j, w, d int, g []int) bool {
			return slices.Contains(g, i) || slices.Contains(g, j) || (absInt(i-j) <= w && absInt(i-j)%d == 0)
		}, false)},
	})
}

// TestSparseEqualsMaskedFullAttention: the reference's sparse attention is
// the course's full attention (lib/attention, float32) with the mask of
// Longformer's pattern, built here from the definition.
func TestSparseEqualsMaskedFullAttention(t *testing.T) {
	for _, c := range sparseSpec.Cases() {
		in := c.In
		n := len(in.Q)
		mask := make([][]float64, n)
		visible := 0
		for i := range mask {
			mask[i] = make([]float64, n)
			for j := range mask[i] {
				if !learnerLongformer(i, j, in.Window, in.Dilation, in.Global) {
					mask[i][j] = 1
				} else {
					visible++
				}
			}
		}
		full, err := attention.Explain(in.Q, in.K, in.V, &attention.Options{Mask: mask})
		if err != nil {
			t.Fatal(err)
		}
		want := sparseSpec.Reference(in)
		if d := Matrix(1e-5)(want.Out, full.Output); d != nil {
			t.Errorf("%s: sparse ≠ masked full attention: %s", c.Name, d)
		}
		if d := Matrix(1e-5)(want.Weights, full.Weights); d != nil {
			t.Errorf("%s: weights: %s", c.Name, d)
		}
		if want.Scores != visible || (len(in.Global) == 0 && n > 2*in.Window*in.Dilation+1 && visible >= n*n) {
			t.Errorf("%s: the reference asks for %d scores, the pattern has %d of %d", c.Name, want.Scores, visible, n*n)
		}
	}
}

// relativeValuesLearner is a learner's solution built on exercise 5's
// RelativeAttention (the learner-style relativeSolution of patterns_test.go).
func relativeValuesLearner(q, k, v, relK, relV [][]float64, maxDist int) (out, weights [][]float64) {
	_, weights = relativeSolution(q, k, v, relK, maxDist)
	for i := range q {
		o := make([]float64, len(v[0]))
		for j := range v {
			a := relV[max(-maxDist, min(maxDist, j-i))+maxDist]
			for c := range o {
				o[c] += weights[i][j] * (v[j][c] + a[c])
			}
		}
		out = append(out, o)
	}
	return out, weights
}

func TestRelativeValuesHints(t *testing.T) {
	values := func(keysRelative bool, row func(i, j, maxDist int) int, weighted bool) relativeValuesFunc {
		return func(q, k, v, relK, relV [][]float64, maxDist int) ([][]float64, [][]float64) {
			var w [][]float64
			if keysRelative {
				_, w = relativeSolution(q, k, v, relK, maxDist)
			} else {
				zero := make([][]float64, len(relK))
				for r := range zero {
					zero[r] = make([]float64, len(relK[r]))
				}
				_, w = relativeSolution(q, k, v, zero, maxDist)
			}
			out := make([][]float64, len(q))
			for i := range q {
				out[i] = make([]float64, len(v[0]))
				for j := range v {
					for c := range out[i] {
						out[i][c] += w[i][j] * v[j][c]
						if row != nil {
							a := relV[row(i, j, maxDist)][c]
							if weighted {
								a *= w[i][j]
							}
							out[i][c] += a
						}
					}
				}
			}
			return out, w
		}
	}
	clip := func(i, j, m int) int { return max(-m, min(m, j-i)) + m }
	expectHints(t, relativeValuesSpec, relativeValuesLearner, []hintCase[relativeValuesFunc]{
		{"relV ignored", "no-relative-values", values(true, nil, false)},
		{"i − j for the values", "values-distance-sign", values(true, func(i, j, m int) int { return clip(j, i, m) }, true)},
		{"a^V added unweighted", "unweighted", values(true, clip, false)},
		{"plain scores", "no-relative-keys", values(false, clip, true)},
	})
}

// TestRelativeValuesConstantShift: with the same value vector c for every
// distance, the output is exercise 5's shifted by c, since each row's
// weights sum to 1.
func TestRelativeValuesConstantShift(t *testing.T) {
	in := relativeValuesIn(7, 6, 4, 3, 2)
	c := []float64{0.5, -1, 2}
	for r := range in.RelV {
		in.RelV[r] = c
	}
	got := relativeValuesSpec.Reference(in)
	plain := relativeSpec.Reference(RelativeIn{Q: in.Q, K: in.K, V: in.V, Rel: in.RelK, MaxDist: in.MaxDist})
	for i := range got.A {
		for d := range got.A[i] {
			if math.Abs(got.A[i][d]-plain.A[i][d]-c[d]) > 1e-12 {
				t.Fatalf("out[%d][%d] = %g, want %g + %g", i, d, got.A[i][d], plain.A[i][d], c[d])
			}
		}
	}
}

// sentenceLearner is the appendix tool as a learner writes it, with the
// course's attention.Explain (float32).
func sentenceLearner(split func(string) []string, pad, mask bool) sentenceFunc {
	return func(sentence string, maxLen int) (*viz.Heatmap, error) {
		if maxLen < 1 {
			return nil, errBad
		}
		tokens := split(sentence)
		if len(tokens) == 0 {
			return nil, errBad
		}
		if len(tokens) > maxLen {
			tokens = tokens[:maxLen]
		}
		m := [][]float64{make([]float64, maxLen)}
		for j := len(tokens); j < maxLen && pad; j++ {
			tokens = append(tokens, text.PadToken)
			if mask {
				m[0][j] = 1
			}
		}
		if !pad {
			m = nil
		}
		x := attention.ToyEmbeddings(tokens, 16, 1)
		s, err := attention.Explain(x, x, x, &attention.Options{Mask: m})
		if err != nil {
			return nil, err
		}
		return &viz.Heatmap{Values: s.Weights, Rows: tokens, Cols: tokens, Title: sentence, XLabel: "key", YLabel: "query",
			FixedRange: true, Min: 0, Max: 1}, nil
	}
}

type badInput struct{}

func (badInput) Error() string { return "bad input" }

var errBad error = badInput{}

func TestSentenceHeatmapHints(t *testing.T) {
	good := sentenceLearner(text.Tokenize, true, true)
	expectHints(t, sentenceSpec, good, []hintCase[sentenceFunc]{
		{"padding not masked", "pad-not-masked", sentenceLearner(text.Tokenize, true, false)},
		{"not padded", "not-padded", sentenceLearner(text.Tokenize, false, false)},
		{"not cut", "not-cut", func(sentence string, maxLen int) (*viz.Heatmap, error) {
			return good(sentence, max(maxLen, len(text.Tokenize(sentence))))
		}},
		{"not cut, the mask [1][maxLen] rejected", "not-cut-error", func(sentence string, maxLen int) (*viz.Heatmap, error) {
			if maxLen >= 1 && len(text.Tokenize(sentence)) > maxLen {
				return nil, errors.New("attention.Explain: the mask is [1][4], want [1][7] or [7][7]")
			}
			return good(sentence, maxLen)
		}},
		{"strings.Fields", "fields", sentenceLearner(strings.Fields, true, true)},
		{"no error", "no-error", func(sentence string, maxLen int) (*viz.Heatmap, error) {
			if maxLen < 1 || strings.TrimSpace(sentence) == "" {
				return &viz.Heatmap{Values: [][]float64{{1}}, Rows: []string{"?"}, Cols: []string{"?"}, FixedRange: true, Max: 1}, nil
			}
			return good(sentence, maxLen)
		}},
		{"colour range free", "free-range", func(sentence string, maxLen int) (*viz.Heatmap, error) {
			h, err := good(sentence, maxLen)
			if h != nil {
				h.FixedRange = false
			}
			return h, err
		}},
	})
}
