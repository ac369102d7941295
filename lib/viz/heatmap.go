package viz

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Annotation says whether a [Heatmap] writes the values in its cells.
//
// Part of the library behind lesson 01 (scaled dot-product attention); the lesson does not name it.
type Annotation int

const (
	// AnnotateAuto, the zero value, writes the values when the matrix has
	// at most 144 cells (12×12) and the text fits in the cells.
	AnnotateAuto Annotation = iota
	// AnnotateAlways writes the values whatever the size of the matrix.
	AnnotateAlways
	// AnnotateNever draws the colours only.
	AnnotateNever
)

// maxAnnotatedCells is the largest matrix AnnotateAuto writes values in.
const maxAnnotatedCells = 144

// Heatmap draws a matrix as a grid of coloured cells, in matrix orientation
// (like matplotlib's matshow): row 0 is at the top, rows run down the y
// axis and columns along the x axis. For attention weights, rows are the
// queries and columns the keys, so row i shows how query i spreads its
// attention over the keys.
//
// A colour bar on the right relates colours to values, and small matrices
// have their values written in the cells, in black or white depending on
// the cell colour.
//
// Introduced in lesson 01 (scaled dot-product attention).
type Heatmap struct {
	// Values is the matrix, Values[row][col]. It is required, and all rows
	// must have the same, non-zero, length. NaN cells are drawn grey,
	// infinite ones in the colour of the end of the range they are beyond.
	Values [][]float64

	// Rows and Cols are the tick labels of the rows (y axis) and columns
	// (x axis), usually tokens, written at the centre of each cell. Nil
	// labels the cells with their indices 0, 1, 2, ... When there are too
	// many cells for every label to be readable, only one label every 2,
	// 5, 10, ... cells is written, and long column labels are turned 45°.
	Rows, Cols []string

	// Title is written above the matrix, XLabel under the column labels and
	// YLabel left of the row labels (for attention: "key" and "query").
	// Empty strings draw nothing.
	Title, XLabel, YLabel string

	// Palette colours the cells from the lowest value of the range (first
	// colour) to the highest (last colour). Nil means [Viridis]; see also
	// [Greys] for masks and [Diverging] for signed values.
	Palette palette.Palette

	// Min and Max are the range of values spread over the palette when
	// FixedRange is true; values outside it take the colour of its ends.
	// Fix the range to compare several heat maps, or to show probabilities
	// on [0, 1]. When FixedRange is false, the range is the smallest and
	// largest finite value of the matrix, made symmetric around 0 when
	// Palette is a palette.DivergingPalette (such as [Diverging]). A
	// matrix whose values are all equal is drawn in the middle colour.
	Min, Max   float64
	FixedRange bool

	// Annotate says when the values are written in the cells; the zero
	// value, AnnotateAuto, writes them for matrices of up to 144 cells.
	Annotate Annotation

	// Format is the fmt verb for the values written in the cells;
	// "" means "%.2f".
	Format string

	// NoColorBar removes the colour bar drawn right of the matrix.
	NoColorBar bool

	// Width and Height are the size of the whole figure. Zero computes
	// them from the shape of the matrix: square cells of at most 1.5 cm,
	// a matrix of at most 14 cm, about 12 cm in all for a 6×6 matrix.
	Width, Height vg.Length
}

const (
	colorBarGap   = 0.35 * vg.Centimeter // between the matrix and its colour bar
	colorBarWidth = 0.4 * vg.Centimeter
)

var nanColor color.Color = color.Gray{Y: 0xbb}

// Validate reports why the heat map cannot be drawn: missing or ragged
// Values, labels that do not match the shape of Values, or an invalid
// fixed range, palette or size.
func (h *Heatmap) Validate() error {
	if len(h.Values) == 0 {
		return errors.New("viz: Heatmap.Values is empty")
	}
	rows, cols := len(h.Values), len(h.Values[0])
	if cols == 0 {
		return errors.New("viz: Heatmap.Values has an empty row 0")
	}
	for i, row := range h.Values {
		if len(row) != cols {
			return fmt.Errorf("viz: Heatmap.Values is ragged: row %d has length %d, row 0 has length %d", i, len(row), cols)
		}
	}
	if h.Rows != nil && len(h.Rows) != rows {
		return fmt.Errorf("viz: Heatmap.Rows has %d labels for %d rows", len(h.Rows), rows)
	}
	if h.Cols != nil && len(h.Cols) != cols {
		return fmt.Errorf("viz: Heatmap.Cols has %d labels for %d columns", len(h.Cols), cols)
	}
	if h.FixedRange && !(h.Min <= h.Max && !math.IsInf(h.Min, 0) && !math.IsInf(h.Max, 0)) {
		return fmt.Errorf("viz: Heatmap fixed range [%g, %g] is not a finite range with Min ≤ Max", h.Min, h.Max)
	}
	if h.Palette != nil && len(h.Palette.Colors()) == 0 {
		return errors.New("viz: Heatmap.Palette has no colours")
	}
	if h.Annotate < AnnotateAuto || h.Annotate > AnnotateNever {
		return fmt.Errorf("viz: Heatmap.Annotate has unknown value %d", h.Annotate)
	}
	if h.Width < 0 || h.Height < 0 {
		return fmt.Errorf("viz: Heatmap size %v×%v is negative", h.Width, h.Height)
	}
	return nil
}

// Size returns Width and Height, computing the ones that are zero from the
// shape of the matrix and the space its labels need.
func (h *Heatmap) Size() (w, ht vg.Length) {
	if h.Width > 0 && h.Height > 0 {
		return h.Width, h.Height
	}
	w, ht = 12*vg.Centimeter, 10*vg.Centimeter // for an invalid heat map
	if h.Validate() == nil {
		s := h.scale()
		dw, dh := h.dataSize()
		p := h.plot(s, dw, dh)
		// The space around the data area does not depend on the size of
		// the canvas, so a large scratch canvas measures it. DataCanvas
		// only computes, it draws nothing.
		scratch := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: dw + 50*vg.Centimeter, Y: dh + 50*vg.Centimeter}}}
		da := p.DataCanvas(scratch)
		heatW := dw + scratch.Size().X - da.Size().X
		// The title is centred over the matrix and its labels: a title
		// wider than them would be clipped, so the figure widens instead.
		if p.Title.Text != "" {
			heatW = max(heatW, p.Title.TextStyle.Width(p.Title.Text)+vg.Centimeter/2)
		}
		w = heatW + 2*margin
		ht = dh + scratch.Size().Y - da.Size().Y + 2*margin
		if !h.NoColorBar {
			w += h.colorBarSpace(s)
		}
	}
	return sized(h.Width, h.Height, w, ht)
}

// dataSize returns the preferred size of the matrix itself.
func (h *Heatmap) dataSize() (w, ht vg.Length) {
	rows, cols := len(h.Values), len(h.Values[0])
	n := max(rows, cols)
	// 14 cm is 529 pixels at 96 dpi: enough for one pixel per column of
	// a 512-dimensional embedding.
	side := min(max(0.75*vg.Centimeter*vg.Length(n), 9*vg.Centimeter), 14*vg.Centimeter)
	cell := min(1.5*vg.Centimeter, side/vg.Length(n))
	w = min(max(cell*vg.Length(cols), 2.5*vg.Centimeter), 14*vg.Centimeter)
	ht = min(max(cell*vg.Length(rows), 2.5*vg.Centimeter), 14*vg.Centimeter)
	// A 50×512 positional encoding would be a thin strip: keep the
	// picture within an aspect ratio of 5:2.
	const maxAspect = 2.5
	ht = max(ht, w/maxAspect)
	w = max(w, ht/maxAspect)
	return w, ht
}

// Draw draws the heat map on c, or the reason why it cannot.
func (h *Heatmap) Draw(c draw.Canvas) {
	if err := h.Validate(); err != nil {
		drawError(c, err)
		return
	}
	c = inset(c, margin)
	s := h.scale()
	heat := c
	if !h.NoColorBar {
		heat = draw.Crop(c, 0, -h.colorBarSpace(s), 0, 0)
	}
	// The ticks depend on the size of the data area, which depends on the
	// ticks: start from a guess, then configure them for the real size.
	p := h.plot(s, heat.Size().X-2*vg.Centimeter, heat.Size().Y-2*vg.Centimeter)
	da := p.DataCanvas(heat)
	p = h.plot(s, da.Size().X, da.Size().Y)
	p.Draw(heat)
	da = p.DataCanvas(heat)
	strokeRect(c, da.Rectangle, draw.LineStyle{Color: frameColor, Width: vg.Points(0.5)})
	if !h.NoColorBar {
		drawColorBar(c, da.Rectangle, s)
	}
}

// scale returns the palette and the range of values it spans.
func (h *Heatmap) scale() scale {
	pal := h.Palette
	if pal == nil {
		pal = Viridis()
	}
	lo, hi := h.Min, h.Max
	if !h.FixedRange {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, row := range h.Values {
			for _, v := range row {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					lo, hi = min(lo, v), max(hi, v)
				}
			}
		}
		if lo > hi { // no finite value
			lo, hi = 0, 1
		}
		if _, ok := pal.(palette.DivergingPalette); ok {
			m := max(-lo, hi)
			lo, hi = -m, m
		}
	}
	if lo == hi { // avoid dividing by a zero range
		lo, hi = lo-0.5, hi+0.5
	}
	return scale{colors: pal.Colors(), min: lo, max: hi}
}

// plot returns the gonum plot of the heat map (without its colour bar),
// with ticks laid out for a data area of dataW×dataH.
func (h *Heatmap) plot(s scale, dataW, dataH vg.Length) *plot.Plot {
	rows, cols := len(h.Values), len(h.Values[0])
	p := newPlot(h.Title, h.XLabel, h.YLabel)
	hm := &plotter.HeatMap{
		GridXYZ:    matrixGrid(h.Values),
		Palette:    plainPalette(s.colors),
		Min:        s.min,
		Max:        s.max,
		Underflow:  s.colors[0],
		Overflow:   s.colors[len(s.colors)-1],
		NaN:        nanColor,
		Rasterized: true, // one image, rather than a rectangle per cell
	}
	p.Add(noGlyphs{hm})
	if h.annotate(rows, cols) {
		p.Add(&cellValues{values: h.Values, scale: s, format: h.format(), always: h.Annotate == AnnotateAlways})
	}
	p.X.Padding, p.Y.Padding = 0, 0 // cells touch the axes
	cellW, cellH := max(dataW, 1)/vg.Length(cols), max(dataH, 1)/vg.Length(rows)
	categoryAxis(&p.X, cols, h.Cols, cellW, func(j int) float64 { return float64(j) })
	rowAxis(&p.Y, rows, h.Rows, cellH, func(i int) float64 { return float64(rows - 1 - i) })
	return p
}

func (h *Heatmap) annotate(rows, cols int) bool {
	switch h.Annotate {
	case AnnotateAlways:
		return true
	case AnnotateNever:
		return false
	}
	return rows*cols <= maxAnnotatedCells
}

func (h *Heatmap) format() string {
	if h.Format == "" {
		return "%.2f"
	}
	return h.Format
}

// colorBarSpace is the width the colour bar and its labels take.
func (h *Heatmap) colorBarSpace(s scale) vg.Length {
	sty := colorBarTickStyle()
	var labels vg.Length
	for _, t := range colorBarTicks(s) {
		labels = max(labels, sty.Width(t.Label))
	}
	return colorBarGap + colorBarWidth + tickLength + vg.Points(2) + labels
}

func colorBarTickStyle() text.Style {
	sty := textStyle(tickSize, false)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	return sty
}

// colorBarTicks returns the labelled ticks of the colour bar.
func colorBarTicks(s scale) []plot.Tick {
	var ticks []plot.Tick
	for _, t := range (niceTicks{}).Ticks(s.min, s.max) {
		if !t.IsMinor() && t.Value >= s.min && t.Value <= s.max {
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// drawColorBar draws the colour bar of s right of the data area da, with
// the same height, and its tick labels on its right.
func drawColorBar(c draw.Canvas, da vg.Rectangle, s scale) {
	bar := vg.Rectangle{
		Min: vg.Point{X: da.Max.X + colorBarGap, Y: da.Min.Y},
		Max: vg.Point{X: da.Max.X + colorBarGap + colorBarWidth, Y: da.Max.Y},
	}
	p := plot.New()
	p.HideAxes()
	p.X.Padding, p.Y.Padding = 0, 0
	p.Add(&plotter.ColorBar{ColorMap: &paletteMap{s}, Vertical: true})
	p.Draw(sub(c, bar))

	frame := draw.LineStyle{Color: frameColor, Width: vg.Points(0.5)}
	strokeRect(c, bar, frame)
	sty := colorBarTickStyle()
	ticks := colorBarTicks(s)
	// On a short bar, keep one label in two (or three...) so they do not
	// overlap.
	step := 1
	if len(ticks) > 1 {
		spacing := bar.Size().Y * vg.Length((ticks[1].Value-ticks[0].Value)/(s.max-s.min))
		for vg.Length(step)*spacing < 1.3*sty.Height("0") && step < len(ticks) {
			step++
		}
	}
	for i := 0; i < len(ticks); i += step {
		t := ticks[i]
		y := bar.Min.Y + bar.Size().Y*vg.Length((t.Value-s.min)/(s.max-s.min))
		c.StrokeLine2(frame, bar.Max.X, y, bar.Max.X+tickLength, y)
		c.FillText(sty, vg.Point{X: bar.Max.X + tickLength + vg.Points(2), Y: y}, t.Label)
	}
}

// matrixGrid adapts a row-major matrix to plotter.GridXYZ. GridXYZ counts
// rows from the bottom, so matrix row i is grid row rows-1-i: row 0 ends
// up at the top, at y = rows-1.
type matrixGrid [][]float64

func (g matrixGrid) Dims() (c, r int)   { return len(g[0]), len(g) }
func (g matrixGrid) Z(c, r int) float64 { return g[len(g)-1-r][c] }
func (g matrixGrid) X(c int) float64    { return float64(c) }
func (g matrixGrid) Y(r int) float64    { return float64(r) }

// noGlyphs hides the glyph boxes of a plotter.HeatMap: it reports a 10pt
// box around every cell centre, which makes gonum/plot shrink the data area
// of matrices with cells under 10pt, leaving a gap around them.
type noGlyphs struct{ *plotter.HeatMap }

func (noGlyphs) GlyphBoxes(*plot.Plot) []plot.GlyphBox { return nil }

// cellValues is a plot.Plotter writing the values of a matrix in the
// centre of its heat map cells, in black or white for contrast.
type cellValues struct {
	values [][]float64
	scale  scale
	format string
	always bool // write the values even when they hardly fit
}

func (cv *cellValues) Plot(c draw.Canvas, p *plot.Plot) {
	rows, cols := len(cv.values), len(cv.values[0])
	cellW, cellH := c.Size().X/vg.Length(cols), c.Size().Y/vg.Length(rows)
	texts := make([][]string, rows)
	sty := textStyle(valueSize, false)
	var widest vg.Length
	for i, row := range cv.values {
		texts[i] = make([]string, cols)
		for j, v := range row {
			texts[i][j] = fmt.Sprintf(cv.format, v)
			widest = max(widest, sty.Width(texts[i][j]))
		}
	}
	// Shrink the text to fit the cells, within reason.
	size := valueSize
	if widest > 0.85*cellW {
		size = valueSize * 0.85 * cellW / widest
	}
	size = min(size, cellH/1.4)
	if size < 6 {
		if !cv.always {
			return
		}
		size = max(size, 5)
	}
	sty.Font.Size = size

	trX, trY := p.Transforms(&c)
	for i, row := range cv.values {
		for j, v := range row {
			bg := nanColor
			if !math.IsNaN(v) {
				bg = cv.scale.colors[cv.scale.index(v)]
			}
			sty.Color = contrastText(bg)
			c.FillText(sty, vg.Point{X: trX(float64(j)), Y: trY(float64(rows - 1 - i))}, texts[i][j])
		}
	}
}
