package gpt

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/attention-in-go/course/lib/viz"
)

// KVComparison is the same generation with and without the KV cache.
//
// Introduced in lesson 10.
type KVComparison struct {
	Cached, Full *Generation
	Same         bool // the two gave the same bytes
}

// kvRepeats is how many timed runs CompareKV makes of each way.
const kvRepeats = 3

// CompareKV generates n bytes after prompt for batch samples with sampler
// s, with and without the cache. A first run of each compiles the graphs
// (one per prefix length without the cache); then kvRepeats timed runs
// alternate the two ways, and each token's time is its fastest over the
// repeats, so a moment when something else on the machine is busy lands
// in neither side of the comparison.
//
// Introduced in lesson 10.
func (g *Generator) CompareKV(prompt []byte, n, batch int, s Sampler, seed uint32) (*KVComparison, error) {
	var cached, full []*Generation
	for run := range 1 + kvRepeats {
		c, err := g.Generate(prompt, n, batch, s, seed, true)
		if err != nil {
			return nil, err
		}
		f, err := g.Generate(prompt, n, batch, s, seed, false)
		if err != nil {
			return nil, err
		}
		if run > 0 {
			cached, full = append(cached, c), append(full, f)
		}
	}
	out := KVComparison{Cached: fastest(cached), Full: fastest(full), Same: true}
	for i := range out.Cached.Samples {
		if !bytes.Equal(out.Cached.Samples[i], out.Full.Samples[i]) {
			out.Same = false
		}
	}
	return &out, nil
}

// fastest returns the first of runs of the same generation with each
// token's time the least over runs.
func fastest(runs []*Generation) *Generation {
	out := *runs[0]
	out.PerToken = slices.Clone(out.PerToken)
	for _, r := range runs[1:] {
		for i, d := range r.PerToken {
			out.PerToken[i] = min(out.PerToken[i], d)
		}
	}
	return &out
}

// Total returns the time of every generated token of g.
func (g *Generation) Total() time.Duration {
	var t time.Duration
	for _, d := range g.PerToken {
		t += d
	}
	return t
}

// MeanTime returns the mean time per token over the tokens at positions
// [from, to).
func (g *Generation) MeanTime(from, to int) time.Duration {
	var t time.Duration
	n := 0
	for i, p := range g.Positions {
		if p >= from && p < to {
			t += g.PerToken[i]
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return t / time.Duration(n)
}

// Figure plots the time per generated token against its position, with
// and without the cache, and the running total.
func (k *KVComparison) Figure() *viz.Grid {
	series := func(g *Generation, cumulative bool) []float64 {
		y := make([]float64, len(g.PerToken))
		s := 0.0
		for i, d := range g.PerToken {
			ms := float64(d.Microseconds()) / 1000
			if cumulative {
				s += ms
				y[i] = s
			} else {
				y[i] = ms
			}
		}
		return y
	}
	pos := make([]float64, len(k.Cached.Positions))
	for i, p := range k.Cached.Positions {
		pos[i] = float64(p)
	}
	per := &viz.Lines{Title: "time per generated token", XLabel: "position of the token", YLabel: "ms",
		Series: []viz.Series{{Name: "full recomputation", X: pos, Y: series(k.Full, false)}, {Name: "KV cache", X: pos, Y: series(k.Cached, false), Dashed: true}}}
	total := &viz.Lines{Title: "total time so far", XLabel: "position of the token", YLabel: "ms", Legend: viz.LegendHidden,
		Series: []viz.Series{{Name: "full recomputation", X: pos, Y: series(k.Full, true)}, {Name: "KV cache", X: pos, Y: series(k.Cached, true), Dashed: true}}}
	return &viz.Grid{Figures: []viz.Figure{per, total}}
}

// ExtrapolationFigure plots bits per character against the position in
// the window for each result, with the training context marked by the
// legend's names.
//
// Introduced in lesson 10.
func ExtrapolationFigure(rs []PositionResult, context int) *viz.Lines {
	l := &viz.Lines{Title: fmt.Sprintf("trained on windows of %d bytes", context), XLabel: "position in the window",
		YLabel: "bits per character", Legend: viz.LegendTopRight}
	for _, r := range rs {
		if r.Seq == context && hasLonger(rs, r.Positions, context) {
			continue // the longer window shows the same positions and more
		}
		l.Series = append(l.Series, viz.Series{Name: fmt.Sprintf("%s, window %d", r.Positions, r.Seq), Y: r.Bits, Dashed: r.Positions == NoPositions})
	}
	return l
}

func hasLonger(rs []PositionResult, p Positions, context int) bool {
	for _, r := range rs {
		if r.Positions == p && r.Seq > context {
			return true
		}
	}
	return false
}

// label shows a byte readably on a heatmap's axis.
func label(c byte) string {
	switch c {
	case '\n':
		return "⏎"
	case '\t':
		return "→"
	case ' ':
		return "·"
	}
	if c < 32 || c > 126 {
		return fmt.Sprintf("\\x%02x", c)
	}
	return string(c)
}

// HeadFigure draws one head's attention over text as a heatmap, the
// bytes on both axes.
//
// Introduced in lesson 10.
func HeadFigure(att [][][][]float64, text []byte, layer, head int, title string) *viz.Heatmap {
	labels := make([]string, len(text))
	for i, c := range text {
		labels[i] = label(c)
	}
	return &viz.Heatmap{Values: att[layer][head], Rows: labels, Cols: labels, Title: title,
		XLabel: "key (attended byte)", YLabel: "query (byte predicting the next)", FixedRange: true, Min: 0, Max: 1}
}

// BitsFigure is a bar chart of bits per character, one bar per model
// (each named up to its first parenthesis: "bigram (abs. discount 0.75)"
// is labelled "bigram").
//
// Introduced in lesson 10.
func BitsFigure(names []string, bits []float64) *viz.Bars {
	labels := make([]string, len(names))
	for i, n := range names {
		labels[i], _, _ = strings.Cut(n, " (")
	}
	return &viz.Bars{Title: "bits per character on the held-out files (lower is better)", YLabel: "bits per character",
		Labels: labels, Groups: []viz.BarGroup{{Values: bits}}, Annotate: true}
}

// Show returns samples as text for printing, one block per sample.
func Show(samples [][]byte, max int) string {
	var b strings.Builder
	for i, s := range samples[:min(max, len(samples))] {
		fmt.Fprintf(&b, "── sample %d (parses: %v) ──\n%s\n", i, Parses(s), s)
	}
	return b.String()
}
