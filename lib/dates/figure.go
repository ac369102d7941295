package dates

import (
	"fmt"

	"gonum.org/v1/plot/vg"

	"github.com/attention-in-go/course/lib/viz"
)

// AlignmentFigure is the heat map of a translation's attention weights:
// one row per output character (the decoder step that writes it), one
// column per source character, each cell the weight of that source
// character in the context of that step. A model that reads dates as a
// person does lights up the year, month and day blocks of the source in
// the rows of the same field.
//
// Typical shapes: Weights [10][17]; only the len(Source) real columns are
// drawn (the padding gets weight 0).
//
// Introduced in lesson 07.
func AlignmentFigure(t Translation, title string) *viz.Heatmap {
	src := []rune(t.Source)
	out := []rune(t.Output)
	rows := make([]string, TargetWidth)
	vals := make([][]float64, TargetWidth)
	for i := range TargetWidth {
		rows[i] = "·"
		if i < len(out) {
			rows[i] = string(out[i])
		}
		vals[i] = t.Weights[i][:len(src)]
	}
	cols := make([]string, len(src))
	for i, c := range src {
		cols[i] = string(c)
		if c == ' ' {
			cols[i] = "_"
		}
	}
	return &viz.Heatmap{Values: vals, Rows: rows, Cols: cols, Title: title,
		XLabel: "source character", YLabel: "output character", FixedRange: true, Min: 0, Max: 1,
		Annotate: viz.AnnotateNever, Width: 11 * vg.Centimeter, Height: 8 * vg.Centimeter}
}

// AlignmentGrid draws the alignment of test example i under every model
// of rs, two per row.
//
// Introduced in lesson 07.
func AlignmentGrid(rs []Result, i int) *viz.Grid {
	g := &viz.Grid{Cols: 2}
	for _, r := range rs {
		t := r.Translations[i]
		g.Figures = append(g.Figures, AlignmentFigure(t, fmt.Sprintf("%s: %q → %s", r.Kind, t.Source, t.Output)))
	}
	g.Title = "Learned attention, one model per score function"
	return g
}

// Check returns an error naming every result whose exact-match accuracy
// is below minAccuracy, whose year alignment mass ([Alignment].Year) is
// below minYear, or whose mass on the fields and the character after them
// ([Alignment].Next) is below minNext: the assertions of lesson 07.
//
// Introduced in lesson 07.
func Check(rs []Result, minAccuracy, minYear, minNext float64) error {
	var msg string
	for _, r := range rs {
		if r.Accuracy < minAccuracy {
			msg += fmt.Sprintf("%s: accuracy %.1f%% < %.1f%%; ", r.Kind, 100*r.Accuracy, 100*minAccuracy)
		}
		if r.Alignment.Year < minYear {
			msg += fmt.Sprintf("%s: attention on the year %.1f%% < %.1f%%; ", r.Kind, 100*r.Alignment.Year, 100*minYear)
		}
		if r.Alignment.Next < minNext {
			msg += fmt.Sprintf("%s: attention on the fields and the next character %.1f%% < %.1f%%; ", r.Kind, 100*r.Alignment.Next, 100*minNext)
		}
	}
	if msg != "" {
		return fmt.Errorf("dates.Check: %s(retrain with more Steps, or look at the alignment figures)", msg)
	}
	return nil
}

// FirstOf returns the index of the first translation written in format
// f, or 0 when there is none.
//
// Introduced in lesson 07.
func FirstOf(ts []Translation, f Format) int {
	for i, t := range ts {
		if t.Format == f {
			return i
		}
	}
	return 0
}
