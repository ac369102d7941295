package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/exercise/withlib"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/viz"
)

// This file holds the checks of lesson 03's exercises: attention pattern
// analysis, an attention heat map tool, local (windowed) attention,
// chunked attention and relative position attention.

// The inputs and outputs of lesson 03's exercises, defined with their
// tasks in lib/exercise and lib/exercise/withlib.
type (
	PatternIn  = exercise.PatternIn
	PatternOut = exercise.PatternOut
	HeatmapIn  = withlib.HeatmapIn
	HeatmapOut = withlib.HeatmapOut
	WindowIn   = exercise.WindowIn
	ChunkedIn  = exercise.ChunkedIn
	ChunkedOut = exercise.ChunkedOut
	RelativeIn = exercise.RelativeIn
)

// patternsFunc is the learner's function type.
type patternsFunc = func(w [][]float64, threshold float64) (diagonal, local, sparse float64, entropy []float64)

// patternWeights returns softmax rows of random scores [rows][cols],
// scaled by sharp (larger: peakier rows); causal zeroes the upper
// triangle before normalising.
func patternWeights(seed uint32, rows, cols int, sharp float64, causal bool) [][]float64 {
	return patternWeightsFrom(random.New(seed), rows, cols, sharp, causal)
}

func patternWeightsFrom(r *random.Source, rows, cols int, sharp float64, causal bool) [][]float64 {
	s := r.Normal(rows, cols)
	w := make([][]float64, rows)
	for i := range s {
		w[i] = make([]float64, cols)
		sum := 0.0
		for j := range s[i] {
			if causal && j > i {
				continue
			}
			w[i][j] = math.Exp(sharp * s[i][j])
			sum += w[i][j]
		}
		for j := range w[i] {
			w[i][j] /= sum
		}
	}
	return w
}

func patternsRef(in PatternIn) PatternOut {
	d, l, s, e := reference.AttentionPatterns(in.W, in.Threshold)
	return PatternOut{Diagonal: d, Local: l, Sparse: s, Entropy: e}
}

// patternsWith returns the reference with one result replaced.
func patternsWith(change func(in PatternIn, out *PatternOut)) func(PatternIn) PatternOut {
	return func(in PatternIn) PatternOut {
		out := patternsRef(in)
		change(in, &out)
		return out
	}
}

func comparePatterns(got, want PatternOut) *Diff {
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"diagonal", got.Diagonal, want.Diagonal}, {"local", got.Local, want.Local}, {"sparse", got.Sparse, want.Sparse}} {
		if d := Vector(tol)([]float64{c.got}, []float64{c.want}); d != nil {
			return &Diff{Where: c.name, Want: d.Want, Got: d.Got}
		}
	}
	if d := Vector(tol)(got.Entropy, want.Entropy); d != nil {
		return prefix("entropy", &Diff{Msg: d.Msg, Where: strings.Replace(d.Where, "position", "row", 1), Want: d.Want, Got: d.Got})
	}
	return nil
}

var patternsSpec = Register(&Exercise[patternsFunc, PatternIn, PatternOut]{
	ID: "patterns", Title: "attention pattern analysis", Points: 3,
	Signature: "func AttentionPatterns(w [][]float64, threshold float64) (diagonal, local, sparse float64, entropy []float64)",
	Task:      exercise.AttentionPatterns,
	Reference: patternsRef,
	Cases: func() []Case[PatternIn] {
		quarter := [][]float64{{0.25, 0.25, 0.25, 0.25}, {0.25, 0.25, 0.25, 0.25}, {0.5, 0.25, 0.25, 0}, {0.1, 0.2, 0.3, 0.4}}
		return []Case[PatternIn]{
			{"identity 3×3: a head that attends to itself", PatternIn{W: [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, Threshold: 0.1}},
			{"random 5×5 head", PatternIn{W: patternWeights(1, 5, 5, 1, false), Threshold: 0.1}},
			{"causal 6×6 head (exact zeros above the diagonal)", PatternIn{W: patternWeights(2, 6, 6, 1.5, true), Threshold: 0.1}},
			{"weights equal to the threshold 0.25", PatternIn{W: quarter, Threshold: 0.25}},
			{"one token", PatternIn{W: [][]float64{{1}}, Threshold: 0.1}},
			{"non-square cross-attention 3×5", PatternIn{W: patternWeights(3, 3, 5, 1, false), Threshold: 0.2}},
		}
	},
	Hidden: func(r *random.Source) []Case[PatternIn] {
		n, rows, cols := intIn(r, 3, 9), intIn(r, 2, 8), intIn(r, 2, 8)
		for rows == cols {
			cols = intIn(r, 2, 8)
		}
		return []Case[PatternIn]{
			{fmt.Sprintf("random %d×%d head", n, n), PatternIn{W: patternWeightsFrom(r, n, n, floatIn(r, 0.5, 2), false), Threshold: floatIn(r, 0.05, 0.3)}},
			{fmt.Sprintf("sharp causal %d×%d head", n, n), PatternIn{W: patternWeightsFrom(r, n, n, floatIn(r, 3, 5), true), Threshold: 0.1}},
			{"weights equal to the threshold", PatternIn{W: [][]float64{{0.5, 0.5}, {0.5, 0.5}, {1, 0}}, Threshold: 0.5}},
			{"one token", PatternIn{W: [][]float64{{1}}, Threshold: floatIn(r, 0.05, 0.5)}},
			{fmt.Sprintf("non-square cross-attention %d×%d", rows, cols), PatternIn{W: patternWeightsFrom(r, rows, cols, 1, false), Threshold: floatIn(r, 0.1, 0.4)}},
		}
	},
	Compare: comparePatterns,
	Hints: []Hint[PatternIn, PatternOut]{
		{Name: "zero-log", Message: "math.Log(0) is −Inf and 0·(−Inf) is NaN: a masked weight of 0 contributes 0 to the entropy (skip w = 0)",
			Detect: func(_ PatternIn, got PatternOut) bool { return hasNaN(got.Entropy) }},
		{Name: "log2", Message: "the entropy is in bits: use the natural logarithm math.Log (nats), not math.Log2",
			Wrong: patternsWith(func(_ PatternIn, o *PatternOut) {
				for i := range o.Entropy {
					o.Entropy[i] /= math.Ln2
				}
			})},
		{Name: "local-with-diagonal", Message: "local counts the two neighbours |i − j| = 1 only, not the token itself (i = j)",
			Wrong: patternsWith(func(in PatternIn, o *PatternOut) {
				for i, row := range in.W {
					if i < len(row) {
						o.Local += row[i] / float64(len(in.W))
					}
				}
			})},
		{Name: "one-neighbour", Message: "local counts both neighbours of token i, j = i − 1 and j = i + 1",
			Wrong: patternsWith(func(in PatternIn, o *PatternOut) {
				o.Local = 0
				for i := 1; i < len(in.W); i++ {
					if i-1 < len(in.W[i]) {
						o.Local += in.W[i][i-1] / float64(len(in.W))
					}
				}
			})},
		{Name: "threshold-inclusive", Message: "sparse counts the weights strictly above the threshold (w > threshold, not ≥)",
			Wrong: patternsWith(func(in PatternIn, o *PatternOut) {
				n, all := 0, 0
				for _, row := range in.W {
					for _, x := range row {
						all++
						if x >= in.Threshold {
							n++
						}
					}
				}
				o.Sparse = float64(n) / float64(all)
			})},
		{Name: "diagonal-sum", Message: "diagonal is the mean of the diagonal weights, not their sum: divide by the number of rows that have a diagonal cell",
			Wrong: patternsWith(func(in PatternIn, o *PatternOut) { o.Diagonal *= float64(min(len(in.W), len(in.W[0]))) })},
		{Name: "diagonal-over-rows", Message: "in a non-square matrix only min(rows, columns) rows have a diagonal cell: average over those",
			Wrong: patternsWith(func(in PatternIn, o *PatternOut) {
				o.Diagonal *= float64(min(len(in.W), len(in.W[0]))) / float64(len(in.W))
			})},
	},
	Deny:  []string{"lib/attention.AnalyzePattern", "lib/attention.AnalyzeHeads"},
	Allow: StdOnly,
})

// AttentionPatterns checks the learner's AttentionPatterns: the mean
// diagonal, the mean mass on the two neighbours, the fraction of weights
// above a threshold and the entropy of each row.
func AttentionPatterns(f func(w [][]float64, threshold float64) (diagonal, local, sparse float64, entropy []float64)) *Result {
	return patternsSpec.Check(f)
}

type heatmapFunc = func(w [][]float64, queries, keys []string, title string) (*viz.Heatmap, error)

func heatmapRef(in HeatmapIn) HeatmapOut {
	h, err := reference.AttentionHeatmap(in.W, in.Queries, in.Keys, in.Title)
	return withlib.HeatmapResult(h, err, false)
}

func compareHeatmap(got, want HeatmapOut) *Diff {
	return compareHeatmapWithin(0, "the labels do not match the matrix, or it is empty")(got, want)
}

// compareHeatmapWithin compares heat maps, their values within tol; why
// says when an error is expected.
func compareHeatmapWithin(tol float64, why string) func(got, want HeatmapOut) *Diff {
	return func(got, want HeatmapOut) *Diff {
		switch {
		case want.Err && !got.Err:
			return &Diff{Msg: "expected an error (" + why + "), got a heat map"}
		case want.Err:
			return nil
		case got.Err:
			return &Diff{Msg: "expected a heat map, got the error: " + got.ErrText}
		case got.Nil:
			return &Diff{Msg: "expected a heat map, got nil"}
		case got.DrawErr != "":
			return &Diff{Msg: "the heat map cannot be drawn: " + got.DrawErr}
		}
		if d := Matrix(tol)(got.Values, want.Values); d != nil {
			return prefix("Values", d)
		}
		for _, s := range []struct{ name, got, want string }{
			{"Rows", strings.Join(got.Rows, " "), strings.Join(want.Rows, " ")},
			{"Cols", strings.Join(got.Cols, " "), strings.Join(want.Cols, " ")},
			{"Title", got.Title, want.Title}, {"XLabel", got.XLabel, want.XLabel}, {"YLabel", got.YLabel, want.YLabel},
		} {
			if s.got != s.want || (s.name == "Rows" && len(got.Rows) != len(want.Rows)) || (s.name == "Cols" && len(got.Cols) != len(want.Cols)) {
				return &Diff{Where: s.name, Want: fmt.Sprintf("%q", s.want), Got: fmt.Sprintf("%q", s.got)}
			}
		}
		if !got.FixedRange || got.Min != 0 || got.Max != 1 {
			return &Diff{Where: "colour range", Want: "FixedRange true, Min 0, Max 1",
				Got: fmt.Sprintf("FixedRange %v, Min %g, Max %g", got.FixedRange, got.Min, got.Max)}
		}
		return nil
	}
}

var heatmapSpec = Register(&Exercise[heatmapFunc, HeatmapIn, HeatmapOut]{
	ID: "heatmap", Title: "an attention heat map tool", Points: 2,
	Signature: "func AttentionHeatmap(w [][]float64, queries, keys []string, title string) (*viz.Heatmap, error)",
	Task:      withlib.AttentionHeatmap,
	Reference: heatmapRef,
	Cases: func() []Case[HeatmapIn] {
		cat := []string{"the", "cat", "sat"}
		return []Case[HeatmapIn]{
			{"self-attention 3×3", HeatmapIn{W: patternWeights(6, 3, 3, 1, false), Queries: cat, Keys: cat, Title: "the cat sat"}},
			{"non-square cross-attention 4×3", HeatmapIn{W: patternWeights(7, 4, 3, 1, false), Queries: []string{"Le", "chat", "est", "assis"}, Keys: cat, Title: "French → English"}},
			{"one token", HeatmapIn{W: [][]float64{{1}}, Queries: []string{"hi"}, Keys: []string{"hi"}, Title: ""}},
			{"3 query labels for 4 rows (error)", HeatmapIn{W: patternWeights(8, 4, 3, 1, false), Queries: cat, Keys: cat, Title: "bad"}},
			{"4 key labels for 3 columns (error)", HeatmapIn{W: patternWeights(9, 3, 3, 1, false), Queries: cat, Keys: []string{"a", "b", "c", "d"}, Title: "bad"}},
			{"empty matrix (error)", HeatmapIn{W: nil, Queries: nil, Keys: nil, Title: "empty"}},
		}
	},
	Hidden: func(r *random.Source) []Case[HeatmapIn] {
		words := []string{"a", "the", "cat", "sat", "on", "mat", "le", "chat", "est", "assis", "sur", "tapis"}
		labels := func(n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = words[intIn(r, 0, len(words)-1)] + fmt.Sprint(i)
			}
			return out
		}
		n, rows, cols := intIn(r, 2, 6), intIn(r, 2, 5), intIn(r, 2, 6)
		for rows == cols {
			cols = intIn(r, 2, 6)
		}
		self := labels(n)
		return []Case[HeatmapIn]{
			{fmt.Sprintf("self-attention %d×%d", n, n), HeatmapIn{W: patternWeightsFrom(r, n, n, 1, false), Queries: self, Keys: self, Title: "head " + fmt.Sprint(intIn(r, 0, 7))}},
			{fmt.Sprintf("non-square cross-attention %d×%d", rows, cols), HeatmapIn{W: patternWeightsFrom(r, rows, cols, 2, false), Queries: labels(rows), Keys: labels(cols), Title: "cross"}},
			{"one token", HeatmapIn{W: [][]float64{{1}}, Queries: []string{"x"}, Keys: []string{"x"}, Title: ""}},
			{"too few query labels (error)", HeatmapIn{W: patternWeightsFrom(r, rows+1, cols, 1, false), Queries: labels(rows), Keys: labels(cols), Title: "bad"}},
			{"too many key labels (error)", HeatmapIn{W: patternWeightsFrom(r, rows, cols, 1, false), Queries: labels(rows), Keys: labels(cols + 1), Title: "bad"}},
			{"ragged matrix (error)", HeatmapIn{W: [][]float64{{0.5, 0.5}, {1}}, Queries: []string{"a", "b"}, Keys: []string{"a", "b"}, Title: "ragged"}},
			{"empty matrix (error)", HeatmapIn{W: nil, Queries: nil, Keys: nil, Title: "empty"}},
		}
	},
	Compare: compareHeatmap,
	// The solution builds its viz.Heatmap itself (lib/viz draws it); the
	// library's functions that build an attention heat map from weights
	// are denied.
	Deny:  []string{"lib/seq2seq.AlignmentFigure", "lib/dates.AlignmentFigure"},
	Allow: []string{"lib/viz"},
	Hints: []Hint[HeatmapIn, HeatmapOut]{
		{Name: "labels-swapped", Message: "Rows label the queries (one per row of w) and Cols the keys (one per column)",
			Detect: func(in HeatmapIn, got HeatmapOut) bool {
				return !got.Err && !got.Nil && len(in.Queries) != len(in.Keys) &&
					strings.Join(got.Rows, " ") == strings.Join(in.Keys, " ") && strings.Join(got.Cols, " ") == strings.Join(in.Queries, " ")
			}},
		{Name: "transposed", Message: "Values is w as it is, queries down the rows: do not transpose it",
			Detect: func(in HeatmapIn, got HeatmapOut) bool {
				return !got.Err && !got.Nil && !heatmapRef(in).Err && Matrix(0)(got.Values, reference.Transpose(in.W)) == nil
			}},
		{Name: "no-error", Message: "check the labels against the matrix first: len(queries) must equal len(w) and len(keys) the length of every row, else return an error",
			Detect: func(in HeatmapIn, got HeatmapOut) bool { return !got.Err && heatmapRef(in).Err }},
		{Name: "free-range", Message: "fix the colour range to [0, 1] (FixedRange: true, Min: 0, Max: 1) so that heat maps of different heads compare",
			Detect: func(_ HeatmapIn, got HeatmapOut) bool {
				return !got.Err && !got.Nil && (!got.FixedRange || got.Max != 1)
			}},
	},
})

// AttentionHeatmap checks the learner's AttentionHeatmap: a labelled
// viz.Heatmap of attention weights, or an error for mismatched labels.
func AttentionHeatmap(f func(w [][]float64, queries, keys []string, title string) (*viz.Heatmap, error)) *Result {
	return heatmapSpec.Check(f)
}

func windowIn(seed uint32, nq, nk, dk, dv, n int) WindowIn {
	return windowInFrom(random.New(seed), nq, nk, dk, dv, n)
}

func windowInFrom(r *random.Source, nq, nk, dk, dv, n int) WindowIn {
	return WindowIn{Q: r.Normal(nq, dk), K: r.Normal(nk, dk), V: r.Normal(nk, dv), N: n}
}

type localFunc = func(q, k, v [][]float64, window int) (out, weights [][]float64)

// localVariant is local attention with visibility visible(i, j, window),
// and scale 1/√d_k unless noScale.
func localVariant(visible func(i, j, w int) bool, noScale bool) func(WindowIn) attnOut {
	return func(in WindowIn) attnOut {
		q := in.Q
		if noScale {
			q = scaledM(in.Q, math.Sqrt(float64(len(in.K[0]))))
		}
		out, w := reference.MaskedAttention(q, in.K, in.V, func(i, j int) bool { return visible(i, j, in.N) })
		return attnOut{A: out, B: w}
	}
}

func absInt(x int) int { return max(x, -x) }

var localSpec = Register(&Exercise[localFunc, WindowIn, attnOut]{
	ID: "local-attention", Title: "local (windowed) attention", Points: 2,
	Signature: "func LocalAttention(q, k, v [][]float64, window int) (out, weights [][]float64)",
	Task:      exercise.LocalAttention,
	Reference: localVariant(func(i, j, w int) bool { return absInt(i-j) <= w }, false),
	Cases: func() []Case[WindowIn] {
		return []Case[WindowIn]{
			{"8 tokens, window 2", windowIn(21, 8, 8, 4, 3, 2)},
			{"6 tokens, window 1", windowIn(22, 6, 6, 5, 5, 1)},
			{"window 0: every token sees itself only", windowIn(23, 5, 5, 4, 2, 0)},
			{"window 7 over 5 tokens: full attention", windowIn(24, 5, 5, 3, 3, 7)},
			{"one token", windowIn(25, 1, 1, 4, 4, 2)},
		}
	},
	Hidden: func(r *random.Source) []Case[WindowIn] {
		n := intIn(r, 6, 14)
		w := intIn(r, 1, n/2)
		m := intIn(r, 2, 6)
		return []Case[WindowIn]{
			{fmt.Sprintf("%d tokens, window %d", n, w), windowInFrom(r, n, n, intIn(r, 2, 8), intIn(r, 1, 5), w)}, // d_k ≥ 2: 1/√d_k matters
			{"window 0: every token sees itself only", windowInFrom(r, m, m, intIn(r, 1, 6), intIn(r, 1, 4), 0)},
			{"a window as long as the sequence: full attention", windowInFrom(r, m, m, intIn(r, 1, 6), intIn(r, 1, 4), m+intIn(r, 0, 3))},
			{"one token", windowInFrom(r, 1, 1, intIn(r, 1, 6), intIn(r, 1, 6), intIn(r, 0, 3))},
		}
	},
	// Nothing in the library computes windowed attention, and the lesson
	// allows attention.Explain "with a mask of your own": the band mask is
	// the exercise, so the library's mask constructors are denied (the
	// look-ahead mask is half of the band).
	Deny:    []string{"lib/attention.LookAhead", "lib/attention.LookAheadMask", "lib/attention.Padding", "lib/attention.PaddingMask"},
	Allow:   []string{"lib/attention.Explain", "lib/attention.Options"},
	Compare: Both("out", Matrix(tol), "weights", Matrix(tol)),
	Hints: []Hint[WindowIn, attnOut]{
		{Name: "one-sided", Message: "the window is on both sides: query i sees keys i − window … i + window, not only the past (that is the look-ahead mask)",
			Wrong: localVariant(func(i, j, w int) bool { return j <= i && i-j <= w }, false)},
		{Name: "window-exclusive", Message: "|i − j| ≤ window is visible: the keys exactly window positions away are inside the window",
			Wrong: localVariant(func(i, j, w int) bool { return absInt(i-j) < w || i == j }, false)},
		{Name: "no-scale", Message: "divide the scores by √d_k before the softmax",
			Wrong: localVariant(func(i, j, w int) bool { return absInt(i-j) <= w }, true)},
		{Name: "not-masked", Message: "the weights outside the window must be exactly 0: mask the scores before the softmax (only the visible keys share the weight)",
			Wrong: localVariant(func(i, j, w int) bool { return true }, false)},
	},
})

// LocalAttention checks the learner's LocalAttention: attention where
// query i sees the keys j with |i − j| ≤ window.
func LocalAttention(f func(q, k, v [][]float64, window int) (out, weights [][]float64)) *Result {
	return localSpec.Check(f)
}

// chunkedIn is a chunked-attention input with full attention's rows,
// which the child's attend looks up.
func chunkedIn(w WindowIn) ChunkedIn {
	out, _ := reference.MaskedAttention(w.Q, w.K, w.V, nil)
	return ChunkedIn{Q: w.Q, K: w.K, V: w.V, N: w.N, Attended: out}
}

type chunkedFunc = func(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64

func compareChunked(got, want ChunkedOut) *Diff {
	if d := Matrix(tol)(got.Out, want.Out); d != nil {
		return d
	}
	if got.Foreign > 0 {
		return &Diff{Msg: fmt.Sprintf("attend was asked for %d rows with queries, keys or values other than the input's (it answers them with NaN)", got.Foreign)}
	}
	if got.MaxRows > want.MaxRows {
		return &Diff{Msg: fmt.Sprintf("the output is right, but attend was called with %d queries at once: the chunks must have at most %d", got.MaxRows, want.MaxRows)}
	}
	if got.Calls != want.Calls {
		return &Diff{Msg: fmt.Sprintf("the output is right, but attend was called %d times: call it once per chunk (%d chunks)", got.Calls, want.Calls)}
	}
	return nil
}

var chunkedSpec = Register(&Exercise[chunkedFunc, ChunkedIn, ChunkedOut]{
	ID: "chunked-attention", Title: "chunked attention", Points: 2,
	Signature: "func ChunkedAttention(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64",
	Task:      exercise.ChunkedAttention,
	Reference: func(in ChunkedIn) ChunkedOut {
		out, _ := reference.MaskedAttention(in.Q, in.K, in.V, nil) // full attention: the answer does not depend on chunk
		return ChunkedOut{Out: out, MaxRows: min(in.N, len(in.Q)), Calls: (len(in.Q) + in.N - 1) / in.N}
	},
	Cases: func() []Case[ChunkedIn] {
		return []Case[ChunkedIn]{
			{"8 queries in chunks of 4", chunkedIn(windowIn(31, 8, 8, 4, 3, 4))},
			{"7 queries in chunks of 3 (the last chunk has 1)", chunkedIn(windowIn(32, 7, 7, 4, 4, 3))},
			{"chunks of 1", chunkedIn(windowIn(33, 5, 5, 2, 3, 1))},
			{"chunk larger than the sequence", chunkedIn(windowIn(34, 4, 4, 3, 3, 10))},
			{"non-square cross-attention: 6 queries, 9 keys, chunks of 4", chunkedIn(windowIn(35, 6, 9, 4, 2, 4))},
			{"one query", chunkedIn(windowIn(36, 1, 5, 4, 4, 2))},
		}
	},
	Hidden: func(r *random.Source) []Case[ChunkedIn] {
		chunk := intIn(r, 2, 8)
		nq := chunk*intIn(r, 2, 5) + intIn(r, 1, chunk-1) // the last chunk is shorter
		even := intIn(r, 2, 4)
		nk := intIn(r, 2, 12)
		return []Case[ChunkedIn]{
			{fmt.Sprintf("%d queries, %d keys, chunks of %d", nq, nk, chunk), chunkedIn(windowInFrom(r, nq, nk, intIn(r, 1, 8), intIn(r, 1, 6), chunk))},
			{"chunks that divide the queries", chunkedIn(windowInFrom(r, even*3, intIn(r, 2, 9), 4, 3, 3))},
			{"chunks of 1", chunkedIn(windowInFrom(r, intIn(r, 2, 6), intIn(r, 2, 6), 3, 2, 1))},
			{"a chunk larger than the sequence", chunkedIn(windowInFrom(r, intIn(r, 1, 5), intIn(r, 2, 6), 3, 3, 8+intIn(r, 0, 4)))},
		}
	},
	Compare: compareChunked,
	Hints: []Hint[ChunkedIn, ChunkedOut]{
		{Name: "last-chunk-dropped", Message: "when chunk does not divide the number of queries, the last chunk is shorter: do not drop it (loop while start < len(q), end = min(start+chunk, len(q)))",
			Detect: func(in ChunkedIn, got ChunkedOut) bool {
				return len(got.Out) == len(in.Q)/in.N*in.N && len(got.Out) < len(in.Q)
			}},
		{Name: "keys-chunked", Message: "chunk the queries only: every chunk of queries attends to all the keys and values (pass attend q[start:end] with the whole k and v)",
			Detect: func(in ChunkedIn, got ChunkedOut) bool { return got.Foreign > 0 }},
		{Name: "not-chunked", Message: "compute the output chunk by chunk: call attend(q[start:end], k, v) for each chunk of at most chunk queries, and stack the results",
			Detect: func(in ChunkedIn, got ChunkedOut) bool { return got.MaxRows > min(in.N, len(in.Q)) }},
	},
	Deny:  []string{"lib/attention"},
	Allow: StdOnly,
})

// ChunkedAttention checks the learner's ChunkedAttention: full attention
// computed a chunk of queries at a time through attend.
func ChunkedAttention(f func(q, k, v [][]float64, chunk int, attend func(q, k, v [][]float64) [][]float64) [][]float64) *Result {
	return chunkedSpec.Check(f)
}

type relativeFunc = func(q, k, v, rel [][]float64, maxDist int) (out, weights [][]float64)

func relativeIn(seed uint32, n, dk, dv, maxDist int) RelativeIn {
	return relativeInFrom(random.New(seed), n, dk, dv, maxDist)
}

func relativeInFrom(r *random.Source, n, dk, dv, maxDist int) RelativeIn {
	return RelativeIn{Q: r.Normal(n, dk), K: r.Normal(n, dk), V: r.Normal(n, dv), Rel: r.Normal(2*maxDist+1, dk), MaxDist: maxDist}
}

// relativeVariant: flip uses i − j instead of j − i; noClip wraps the
// index instead of clipping (only matters beyond maxDist); relUnscaled
// scales only q·k by 1/√d_k.
func relativeVariant(flip, relUnscaled bool) func(RelativeIn) attnOut {
	return func(in RelativeIn) attnOut {
		rel := in.Rel
		if flip {
			rel = make([][]float64, len(in.Rel))
			for r := range rel {
				rel[r] = in.Rel[len(in.Rel)-1-r]
			}
		}
		if relUnscaled {
			s := math.Sqrt(float64(len(in.K[0])))
			rel = scaledM(rel, s)
		}
		out, w := reference.RelativeAttention(in.Q, in.K, in.V, rel, in.MaxDist)
		return attnOut{A: out, B: w}
	}
}

var relativeSpec = Register(&Exercise[relativeFunc, RelativeIn, attnOut]{
	ID: "relative-attention", Title: "relative position attention (Shaw et al., 2018)", Points: 3,
	Signature: "func RelativeAttention(q, k, v, rel [][]float64, maxDist int) (out, weights [][]float64)",
	Task:      exercise.RelativeAttention,
	Reference: relativeVariant(false, false),
	Cases: func() []Case[RelativeIn] {
		return []Case[RelativeIn]{
			{"4 tokens, maxDist 1", relativeIn(41, 4, 4, 3, 1)},
			{"7 tokens, maxDist 2 (distances clipped)", relativeIn(42, 7, 4, 4, 2)},
			{"5 tokens, maxDist 4 (no clipping)", relativeIn(43, 5, 3, 2, 4)},
			{"maxDist 0: one vector for every distance", relativeIn(44, 4, 4, 4, 0)},
			{"one token", relativeIn(45, 1, 4, 2, 2)},
		}
	},
	Hidden: func(r *random.Source) []Case[RelativeIn] {
		n := intIn(r, 6, 12)
		d := intIn(r, 1, 3)
		short := intIn(r, 2, 4)
		return []Case[RelativeIn]{
			{fmt.Sprintf("%d tokens, maxDist %d (distances clipped)", n, d), relativeInFrom(r, n, intIn(r, 2, 8), intIn(r, 1, 5), d)},
			{fmt.Sprintf("%d tokens, maxDist %d (no clipping)", short, short+2), relativeInFrom(r, short, intIn(r, 1, 5), intIn(r, 1, 4), short+2)},
			{"maxDist 0: one vector for every distance", relativeInFrom(r, intIn(r, 2, 6), 3, 3, 0)},
			{"one token", relativeInFrom(r, 1, intIn(r, 1, 5), 2, intIn(r, 0, 3))},
		}
	},
	// Nothing in the library computes relative-position attention; its
	// attention (attention.Explain on the keys shifted by each query's
	// relative vectors) would compute the rest, which the exercise asks
	// for in plain Go.
	Deny:    []string{"lib/attention"},
	Allow:   StdOnly,
	Compare: Both("out", Matrix(tol), "weights", Matrix(tol)),
	Hints: []Hint[RelativeIn, attnOut]{
		{Name: "distance-sign", Message: "the distance is j − i (key minus query): row maxDist + (j − i) of rel; you seem to use i − j",
			Wrong: relativeVariant(true, false)},
		{Name: "relative-unscaled", Message: "divide the whole score q·(k + a) by √d_k, the relative term too",
			Wrong: relativeVariant(false, true)},
		{Name: "no-relative", Message: "the result is plain attention: add the relative vector a_(j−i) to every key before the dot product",
			Wrong: func(in RelativeIn) attnOut {
				out, w := reference.MaskedAttention(in.Q, in.K, in.V, nil)
				return attnOut{A: out, B: w}
			}},
		{Name: "no-scale", Message: "divide the scores by √d_k before the softmax",
			Wrong: func(in RelativeIn) attnOut {
				s := math.Sqrt(float64(len(in.K[0])))
				out, w := reference.RelativeAttention(scaledM(in.Q, s), in.K, in.V, in.Rel, in.MaxDist)
				return attnOut{A: out, B: w}
			}},
	},
})

// RelativeAttention checks the learner's RelativeAttention: scores
// q_i·(k_j + a_clip(j−i))/√d_k with clipped relative-position key vectors.
func RelativeAttention(f func(q, k, v, rel [][]float64, maxDist int) (out, weights [][]float64)) *Result {
	return relativeSpec.Check(f)
}
