package posenc

import (
	"fmt"

	"gonum.org/v1/plot/vg"

	"github.com/attention-in-go/course/lib/viz"
)

// DimensionName says which sinusoid column j of an encoding is:
// "sine i" for j = 2i, "cosine i" for j = 2i+1.
//
// Introduced in lesson 04's exercises.
func DimensionName(j int) string {
	if j%2 == 0 {
		return fmt.Sprintf("sine %d", j/2)
	}
	return fmt.Sprintf("cosine %d", j/2)
}

// DimensionSeries returns one line per dimension in dims: column j of pe
// over the positions, named "dim j", ready for a [viz.Lines] plot.
//
// Typical shapes: pe [seq][d_model] → len(dims) series of seq points.
//
// Introduced in lesson 04.
func DimensionSeries(pe [][]float64, dims []int) []viz.Series {
	series := make([]viz.Series, len(dims))
	for i, j := range dims {
		series[i] = viz.Series{Name: fmt.Sprintf("dim %d", j), Y: Column(pe, j)}
	}
	return series
}

// SinusoidPanels draws, for every dimension j in dims, column j of the
// encoding pe as a curve over the positions k, and marks the positions of
// words on it, one colour per word (word i stands at position i): what the
// model adds to each word in that dimension. One panel per dimension,
// stacked, with the same y range [-1, 1].
//
// Typical use: pe with a few more positions than words, so that the curve
// shows more than the words' stretch of it.
//
// Introduced in lesson 04.
func SinusoidPanels(pe [][]float64, dims []int, words []string) *viz.Grid {
	g := &viz.Grid{Cols: 1}
	for _, j := range dims {
		col := Column(pe, j)
		var points []viz.Series
		for i, w := range words {
			if i < len(col) {
				points = append(points, viz.Series{Name: w, X: []float64{float64(i)}, Y: []float64{col[i]}})
			}
		}
		g.Figures = append(g.Figures, &viz.MarkedLines{
			Title:  fmt.Sprintf("Dimension %d (%s)", j, DimensionName(j)),
			XLabel: "position k", YLabel: fmt.Sprintf("PE(k, %d)", j),
			Lines: []viz.Series{{Y: col}}, Points: points, YMin: -1.15, YMax: 1.15,
			Legend: viz.LegendOutside, Width: 15 * vg.Centimeter, Height: 5 * vg.Centimeter,
		})
	}
	return g
}

// VectorPanels draws the encoding vector PE(k, ·) of every position k in
// ks as points over the dimensions, side by side with the same y range:
// the fingerprint each position adds to its token.
//
// Introduced in lesson 04.
func VectorPanels(pe [][]float64, ks []int) *viz.Grid {
	g := &viz.Grid{Cols: len(ks)}
	for _, k := range ks {
		g.Figures = append(g.Figures, &viz.MarkedLines{
			Title: fmt.Sprintf("k = %d", k), XLabel: "dimension", YLabel: fmt.Sprintf("PE(%d, dimension)", k),
			Points: []viz.Series{{Y: pe[k]}}, YMin: -1.1, YMax: 1.1,
			Width: 9 * vg.Centimeter, Height: 7 * vg.Centimeter,
		})
	}
	return g
}
