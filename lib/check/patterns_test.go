package check

import (
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/viz"
)

// hintCase is one wrong implementation and the hint it must get.
type hintCase[F any] struct {
	name, hint string
	f          F
}

// expectHints runs every wrong implementation on the visible and hidden
// cases and requires the expected hint on at least one case and less than
// full points; then requires full points for the solution.
func expectHints[F, In, Out any](t *testing.T, e *Exercise[F, In, Out], solution F, wrong []hintCase[F]) {
	t.Helper()
	if res := e.Run(solution, true); res.Points != float64(e.Points) || res.Status != "ok" {
		t.Errorf("%s: the solution scores %v/%d (%s):\n%s", e.ID, res.Points, e.Points, res.Status, res.Report())
	}
	for _, w := range wrong {
		res := e.Run(w.f, true)
		got := ""
		for _, c := range res.Cases {
			if c.HintName == w.hint {
				got = c.HintName
			}
		}
		if got != w.hint || res.Points >= float64(e.Points) {
			t.Errorf("%s, wrong implementation %q: want hint %q and < %d points, got %v points:\n%s", e.ID, w.name, w.hint, e.Points, res.Points, res.Report())
		}
	}
	expectKilled(t, e, solution, wrong)
}

// mutationSeeds is how many grading seeds expectKilled tries:
// COURSE_MUTATION_SEEDS (make mutation sets 1,000), else 40.
func mutationSeeds() int {
	if n, err := strconv.Atoi(os.Getenv("COURSE_MUTATION_SEEDS")); err == nil && n > 0 {
		return n
	}
	return 40
}

// expectKilled grades each wrong implementation as the grader would, on
// many seeds' hidden cases: it must score below full marks on at least
// 99.9 % of them (on every seed, below 1,000), and the solution must
// score full marks on every one. The rates are logged (go test -v).
func expectKilled[F, In, Out any](t *testing.T, e *Exercise[F, In, Out], solution F, wrong []hintCase[F]) {
	t.Helper()
	if e.Hidden == nil || e.GradeHiddenOnly {
		return
	}
	n := mutationSeeds()
	if !strings.HasSuffix(packageOf(e.Task.Call), "/lib/exercise") && n > 5 {
		n = 5 // graph exercises build graphs per case: a few seeds
	}
	for seed := range uint64(n) {
		if res := e.RunSeed(solution, seed+1); res.Points != float64(e.Points) {
			t.Fatalf("%s: the solution scores %v/%d on seed %d:\n%s", e.ID, res.Points, e.Points, seed+1, res.Report())
		}
	}
	for _, w := range wrong {
		full := 0
		for seed := range uint64(n) {
			if res := e.RunSeed(w.f, seed+1); res.Points >= float64(e.Points) {
				full++
			}
		}
		t.Logf("mutation %s/%s: full marks on %d of %d seeds", e.ID, w.name, full, n)
		if full > n/1000 {
			t.Errorf("%s, wrong implementation %q scores full marks on %d of %d seeds: the hidden cases do not tell it from a right one", e.ID, w.name, full, n)
		}
	}
}

// patternsSolution is a learner-style solution written separately from
// the reference.
func patternsSolution(w [][]float64, threshold float64) (diagonal, local, sparse float64, entropy []float64) {
	n := 0
	for i := range w {
		if i < len(w[i]) {
			diagonal += w[i][i]
			n++
		}
		if i > 0 && i-1 < len(w[i]) {
			local += w[i][i-1]
		}
		if i+1 < len(w[i]) {
			local += w[i][i+1]
		}
		h := 0.0
		for _, x := range w[i] {
			if x > threshold {
				sparse++
			}
			if x != 0 {
				h -= x * math.Log(x)
			}
		}
		entropy = append(entropy, h)
	}
	return diagonal / float64(n), local / float64(len(w)), sparse / float64(len(w)*len(w[0])), entropy
}

func TestPatternsHints(t *testing.T) {
	withRef := func(change func(w [][]float64, thr float64, o *PatternOut)) patternsFunc {
		return func(w [][]float64, thr float64) (float64, float64, float64, []float64) {
			o := patternsRef(PatternIn{W: w, Threshold: thr})
			change(w, thr, &o)
			return o.Diagonal, o.Local, o.Sparse, o.Entropy
		}
	}
	expectHints(t, patternsSpec, patternsSolution, []hintCase[patternsFunc]{
		{"0·log 0 computed", "zero-log", withRef(func(w [][]float64, _ float64, o *PatternOut) {
			for i, row := range w {
				o.Entropy[i] = 0
				for _, x := range row {
					o.Entropy[i] -= x * math.Log(x)
				}
			}
		})},
		{"log2", "log2", withRef(func(_ [][]float64, _ float64, o *PatternOut) {
			for i := range o.Entropy {
				o.Entropy[i] = o.Entropy[i] / math.Ln2
			}
		})},
		{"|i−j| ≤ 1", "local-with-diagonal", withRef(func(w [][]float64, _ float64, o *PatternOut) {
			o.Local = 0
			for i := range w {
				for j := range w[i] {
					if absInt(i-j) <= 1 {
						o.Local += w[i][j]
					}
				}
			}
			o.Local /= float64(len(w))
		})},
		{"previous token only", "one-neighbour", withRef(func(w [][]float64, _ float64, o *PatternOut) {
			o.Local = 0
			for i := 1; i < len(w); i++ {
				if i-1 < len(w[i]) {
					o.Local += w[i][i-1]
				}
			}
			o.Local /= float64(len(w))
		})},
		{"≥ threshold", "threshold-inclusive", withRef(func(w [][]float64, thr float64, o *PatternOut) {
			n := 0
			for _, row := range w {
				for _, x := range row {
					if x >= thr {
						n++
					}
				}
			}
			o.Sparse = float64(n) / float64(len(w)*len(w[0]))
		})},
		{"sum of the diagonal", "diagonal-sum", withRef(func(w [][]float64, _ float64, o *PatternOut) {
			o.Diagonal = 0
			for i := range w {
				if i < len(w[i]) {
					o.Diagonal += w[i][i]
				}
			}
		})},
		{"diagonal divided by the rows", "diagonal-over-rows", withRef(func(w [][]float64, _ float64, o *PatternOut) {
			o.Diagonal = 0
			for i := range w {
				if i < len(w[i]) {
					o.Diagonal += w[i][i]
				}
			}
			o.Diagonal /= float64(len(w))
		})},
	})
}

func heatmapSolution(w [][]float64, queries, keys []string, title string) (*viz.Heatmap, error) {
	return reference.AttentionHeatmap(w, queries, keys, title)
}

func TestHeatmapHints(t *testing.T) {
	expectHints(t, heatmapSpec, heatmapSolution, []hintCase[heatmapFunc]{
		{"labels swapped", "labels-swapped", func(w [][]float64, q, k []string, title string) (*viz.Heatmap, error) {
			h, err := reference.AttentionHeatmap(w, q, k, title)
			if h != nil {
				h.Rows, h.Cols = k, q
			}
			return h, err
		}},
		{"values transposed", "transposed", func(w [][]float64, q, k []string, title string) (*viz.Heatmap, error) {
			h, err := reference.AttentionHeatmap(w, q, k, title)
			if h != nil {
				h.Values = reference.Transpose(w)
			}
			return h, err
		}},
		{"no validation", "no-error", func(w [][]float64, q, k []string, title string) (*viz.Heatmap, error) {
			return &viz.Heatmap{Values: w, Rows: q, Cols: k, Title: title, XLabel: "key", YLabel: "query", FixedRange: true, Max: 1}, nil
		}},
		{"automatic colour range", "free-range", func(w [][]float64, q, k []string, title string) (*viz.Heatmap, error) {
			h, err := reference.AttentionHeatmap(w, q, k, title)
			if h != nil {
				h.FixedRange = false
			}
			return h, err
		}},
	})
	// A heat map that cannot be drawn never passes.
	res := heatmapSpec.Run(func(w [][]float64, q, k []string, title string) (*viz.Heatmap, error) {
		h, err := reference.AttentionHeatmap(w, q, k, title)
		if h != nil {
			h.Min, h.Max = 1, 0
		}
		return h, err
	}, false)
	if res.Cases[0].Passed {
		t.Errorf("a heat map with Min > Max passed:\n%s", res.Report())
	}
	// Errors are accepted whatever their text.
	res = heatmapSpec.Run(func(w [][]float64, q, k []string, title string) (*viz.Heatmap, error) {
		if _, err := reference.AttentionHeatmap(w, q, k, title); err != nil {
			return nil, errors.New("nope")
		}
		return reference.AttentionHeatmap(w, q, k, title)
	}, true)
	if res.Status != "ok" {
		t.Errorf("another error text fails:\n%s", res.Report())
	}
}

func localSolution(q, k, v [][]float64, window int) (out, weights [][]float64) {
	mask := make([][]float64, len(q))
	for i := range mask {
		mask[i] = make([]float64, len(k))
		for j := range mask[i] {
			if absInt(i-j) > window {
				mask[i][j] = 1
			}
		}
	}
	s, err := attention.Explain(q, k, v, &attention.Options{Mask: mask})
	if err != nil {
		panic(err)
	}
	return s.Output, s.Weights
}

func TestLocalHints(t *testing.T) {
	variant := func(f func(WindowIn) attnOut) localFunc {
		return func(q, k, v [][]float64, w int) ([][]float64, [][]float64) {
			o := f(WindowIn{Q: q, K: k, V: v, N: w})
			return o.A, o.B
		}
	}
	expectHints(t, localSpec, localSolution, []hintCase[localFunc]{
		{"causal window", "one-sided", variant(localVariant(func(i, j, w int) bool { return j <= i && i-j <= w }, false))},
		{"|i − j| < window", "window-exclusive", variant(localVariant(func(i, j, w int) bool { return absInt(i-j) < w || i == j }, false))},
		{"no 1/√d_k", "no-scale", variant(localVariant(func(i, j, w int) bool { return absInt(i-j) <= w }, true))},
		{"full attention", "not-masked", variant(localVariant(func(i, j, w int) bool { return true }, false))},
	})
}

func chunkedSolution(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64 {
	var out [][]float64
	for s := 0; s < len(q); s += chunk {
		out = append(out, attend(q[s:min(s+chunk, len(q))], k, v)...)
	}
	return out
}

func TestChunkedHints(t *testing.T) {
	expectHints(t, chunkedSpec, chunkedSolution, []hintCase[chunkedFunc]{
		{"last chunk dropped", "last-chunk-dropped", func(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64 {
			var out [][]float64
			for s := 0; s+chunk <= len(q); s += chunk {
				out = append(out, attend(q[s:s+chunk], k, v)...)
			}
			return out
		}},
		{"keys chunked too", "keys-chunked", func(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64 {
			var out [][]float64
			for s := 0; s < len(q); s += chunk {
				e := min(s+chunk, len(q))
				ke := min(e, len(k))
				if s >= ke {
					break
				}
				out = append(out, attend(q[s:e], k[s:ke], v[s:ke])...)
			}
			return out
		}},
		{"everything at once", "not-chunked", func(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64 {
			return attend(q, k, v)
		}},
	})
}

func relativeSolution(q, k, v, rel [][]float64, maxDist int) (out, weights [][]float64) {
	for i := range q {
		scores := make([]float64, len(k))
		for j := range k {
			d := max(-maxDist, min(maxDist, j-i))
			for c := range q[i] {
				scores[j] += q[i][c] * (k[j][c] + rel[d+maxDist][c])
			}
			scores[j] /= math.Sqrt(float64(len(q[i])))
		}
		w := reference.Softmax(scores, 1)
		o := make([]float64, len(v[0]))
		for j := range w {
			for c := range o {
				o[c] += w[j] * v[j][c]
			}
		}
		out, weights = append(out, o), append(weights, w)
	}
	return out, weights
}

func TestRelativeHints(t *testing.T) {
	variant := func(f func(RelativeIn) attnOut) relativeFunc {
		return func(q, k, v, rel [][]float64, maxDist int) ([][]float64, [][]float64) {
			o := f(RelativeIn{Q: q, K: k, V: v, Rel: rel, MaxDist: maxDist})
			return o.A, o.B
		}
	}
	expectHints(t, relativeSpec, relativeSolution, []hintCase[relativeFunc]{
		{"i − j", "distance-sign", variant(relativeVariant(true, false))},
		{"relative term not scaled", "relative-unscaled", variant(relativeVariant(false, true))},
		{"rel ignored", "no-relative", func(q, k, v, rel [][]float64, maxDist int) ([][]float64, [][]float64) {
			return reference.MaskedAttention(q, k, v, nil)
		}},
		{"no 1/√d_k", "no-scale", func(q, k, v, rel [][]float64, maxDist int) ([][]float64, [][]float64) {
			return reference.RelativeAttention(scaledM(q, math.Sqrt(float64(len(k[0])))), k, v, rel, maxDist)
		}},
	})
	// Without clipping, the index runs out of rel: a panic, reported as such.
	res := relativeSpec.Run(func(q, k, v, rel [][]float64, maxDist int) ([][]float64, [][]float64) {
		return reference.RelativeAttention(q, k, v, rel, 1000) // rel[j−i+1000] is out of range
	}, false)
	if res.Status == "ok" || res.Cases[1].Passed {
		t.Errorf("an unclipped index passed:\n%s", res.Report())
	}
}
