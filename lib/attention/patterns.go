package attention

import (
	"fmt"
	"math"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// Pattern summarises how one matrix of attention weights [seq_q][seq_k]
// spreads its attention, in a few numbers that tell heads apart: does a
// head look at the token itself, at its neighbours, at a few keys or at
// all of them?
//
// Diagonal and Local compare the position i of a query with the position j
// of a key, so they mean something for self-attention; for
// cross-attention they only say how close the weights are to a
// position-by-position alignment.
//
// Introduced in lesson 03 (self-attention and multi-head attention).
type Pattern struct {
	// Diagonal is the mean of w_ii over the queries that have a key at
	// the same position: how much a token attends to itself. 1 for the
	// identity matrix, 1/n for uniform weights over n keys.
	Diagonal float64
	// Local is the mean over the queries of Σ w_ij over the keys with
	// |i − j| = 1: how much a token attends to its immediate neighbours
	// (itself excluded). 0 for the identity matrix.
	Local float64
	// SparseRatio is the fraction of all the weights that are above
	// Threshold. Despite the name (the source's) a low value means sparse
	// attention: few keys carry the weight. 1/n for the identity matrix;
	// 1 for uniform weights when 1/n > Threshold.
	SparseRatio float64
	// Threshold is the one SparseRatio used.
	Threshold float64
	// Entropy is −Σ_j w_ij·ln w_ij of each query row, in nats (0·ln 0 = 0):
	// 0 when a query attends to a single key, ln(seq_k) when it spreads
	// its attention evenly over all of them.
	Entropy []float64
	// MeanEntropy is the mean of Entropy over the queries.
	MeanEntropy float64
	// MaxEntropy is ln(seq_k), the entropy of uniform weights, for
	// comparison.
	MaxEntropy float64
}

// AnalyzePattern measures the [Pattern] of one matrix of attention weights
// [seq_q][seq_k], one row per query (each row usually sums to 1), with
// threshold for SparseRatio (0.1 is common). It returns an error for an
// empty or ragged matrix, or for weights that are negative or not finite.
//
// Typical shapes: weights [seq_q][seq_k], for example one head of
// [MultiHeadResult].Weights.
//
// Introduced in lesson 03.
func AnalyzePattern(weights [][]float64, threshold float64) (Pattern, error) {
	if err := checkMatrix("weights", weights, -1, -1); err != nil {
		return Pattern{}, fmt.Errorf("attention.AnalyzePattern: %w", err)
	}
	rows, cols := len(weights), len(weights[0])
	p := Pattern{Threshold: threshold, Entropy: make([]float64, rows), MaxEntropy: math.Log(float64(cols))}
	above, diagonals := 0, 0
	for i, row := range weights {
		for j, w := range row {
			if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
				return Pattern{}, fmt.Errorf("attention.AnalyzePattern: weight [%d][%d] is %g: attention weights are finite and ≥ 0 (pass the weights, not the scores)", i, j, w)
			}
			if w > threshold {
				above++
			}
			switch i - j {
			case 0:
				p.Diagonal += w
				diagonals++
			case 1, -1:
				p.Local += w
			}
		}
		p.Entropy[i] = RowEntropy(row)
		p.MeanEntropy += p.Entropy[i]
	}
	p.Diagonal /= float64(diagonals)
	p.Local /= float64(rows)
	p.SparseRatio = float64(above) / float64(rows*cols)
	p.MeanEntropy /= float64(rows)
	return p, nil
}

// AnalyzeHeads runs [AnalyzePattern] on the weights of every head
// [heads][seq_q][seq_k], as [ExplainMultiHead] returns them.
//
// Introduced in lesson 03.
func AnalyzeHeads(weights [][][]float64, threshold float64) ([]Pattern, error) {
	if len(weights) == 0 {
		return nil, fmt.Errorf("attention.AnalyzeHeads: no heads")
	}
	ps := make([]Pattern, len(weights))
	for h, w := range weights {
		p, err := AnalyzePattern(w, threshold)
		if err != nil {
			return nil, fmt.Errorf("head %d: %w", h+1, err)
		}
		ps[h] = p
	}
	return ps, nil
}

// PatternTable formats patterns as a text table, one line per pattern
// labelled by names (nil: "head 1", "head 2", …):
//
//	        diagonal  local  > 0.10  entropy  (max 1.95)
//	head 1     0.312  0.281    0.49     1.52
//
// Introduced in lesson 03.
func PatternTable(names []string, patterns []Pattern) string {
	threshold, maxEntropy := 0.0, 0.0
	if len(patterns) > 0 {
		threshold, maxEntropy = patterns[0].Threshold, patterns[0].MaxEntropy
	}
	labels := make([]string, len(patterns))
	width := 0
	for i := range patterns {
		labels[i] = fmt.Sprintf("head %d", i+1)
		if i < len(names) {
			labels[i] = names[i]
		}
		width = max(width, utf8.RuneCountInString(labels[i]))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-utf8.RuneCountInString(s)) }
	var b strings.Builder
	fmt.Fprintf(&b, "%s  diagonal  local  > %.2f  entropy  (max %.2f)\n", pad(""), threshold, maxEntropy)
	for i, p := range patterns {
		fmt.Fprintf(&b, "%s  %8.3f  %5.3f  %6.2f  %7.2f\n", pad(labels[i]), p.Diagonal, p.Local, p.SparseRatio, p.MeanEntropy)
	}
	return b.String()
}

// MostAttended returns, for each query row of weights, the index of the key
// with the largest weight (the first one on a tie).
//
// Part of the library behind lesson 03; the lesson does not name it.
func MostAttended(weights [][]float64) []int {
	idx := make([]int, len(weights))
	for i, row := range weights {
		for j, w := range row {
			if w > row[idx[i]] {
				idx[i] = j
			}
		}
	}
	return idx
}

// FocusTable formats, for each query, the key it attends to most
// ([MostAttended]), its weight and the row's second-largest weight, so
// that one sees how clear the preference is:
//
//	query  attends most to  weight  runner-up
//	The    great             0.236      0.205
//
// queries and keys label the rows and columns of weights.
//
// Introduced in lesson 03.
func FocusTable(weights [][]float64, queries, keys []string) string {
	label := func(labels []string, i int) string {
		if i < len(labels) {
			return labels[i]
		}
		return fmt.Sprint(i)
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "query\tattends most to\tweight\trunner-up\t")
	for i, j := range MostAttended(weights) {
		second := math.Inf(-1)
		for jj, w := range weights[i] {
			if jj != j {
				second = max(second, w)
			}
		}
		runnerUp := "-"
		if !math.IsInf(second, -1) {
			runnerUp = fmt.Sprintf("%.3f", second)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%s\t\n", label(queries, i), label(keys, j), weights[i][j], runnerUp)
	}
	tw.Flush()
	return trimLines(b.String())
}

// MeanHeads averages the weights of several heads [heads][seq_q][seq_k]
// into one matrix [seq_q][seq_k], for a single picture of what the layer
// as a whole attends to. Rows still sum to 1 when every head's rows do.
//
// Introduced in lesson 03.
func MeanHeads(weights [][][]float64) [][]float64 {
	if len(weights) == 0 {
		return nil
	}
	mean := make([][]float64, len(weights[0]))
	for i := range mean {
		mean[i] = make([]float64, len(weights[0][i]))
		for _, head := range weights {
			for j := range mean[i] {
				mean[i][j] += head[i][j]
			}
		}
		for j := range mean[i] {
			mean[i][j] /= float64(len(weights))
		}
	}
	return mean
}

// trimLines removes the trailing spaces tabwriter leaves on every line.
func trimLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// RowEntropy is the entropy of one row of attention weights in nats,
// −Σ_j w_j·ln w_j, with 0·ln 0 = 0: ln(n) for uniform weights over n
// keys, 0 for weights all on one key. [AnalyzePattern] reports it for
// every query.
//
// Introduced in lesson 11.
func RowEntropy(w []float64) float64 {
	h := 0.0
	for _, x := range w {
		if x > 0 {
			h -= x * math.Log(x)
		}
	}
	return h
}
