package viz

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a [Lines] plot: the points (X[i], Y[i]) joined in
// order.
//
// Introduced in lesson 01 (scaled dot-product attention).
type Series struct {
	// Name labels the series in the legend; unnamed series are left out
	// of it.
	Name string
	// X and Y are the coordinates of the points, of equal lengths. A nil
	// X means 0, 1, 2, ..., len(Y)-1.
	X, Y []float64
	// Dashed draws the line dashed, to tell series apart without colour.
	Dashed bool
}

// LegendPosition says where a figure puts its legend.
//
// Part of the library behind lesson 01 (scaled dot-product attention); the lesson does not name it.
type LegendPosition int

const (
	// LegendTopLeft, the zero value, puts the legend in the top left
	// corner of the plot. The legends drawn inside the plot have a white
	// background, and the plot gains some empty space at the top (or the
	// bottom) when the legend would otherwise cover the data.
	LegendTopLeft LegendPosition = iota
	// LegendTopRight puts the legend in the top right corner.
	LegendTopRight
	// LegendBottomLeft puts the legend in the bottom left corner.
	LegendBottomLeft
	// LegendBottomRight puts the legend in the bottom right corner.
	LegendBottomRight
	// LegendOutside puts the legend right of the plot, outside the axes.
	LegendOutside
	// LegendHidden draws no legend.
	LegendHidden
)

// Lines is a line plot of one or more series, each in its own colour from
// a colour-blind-safe list (Okabe–Ito), with a legend naming them.
//
// Introduced in lesson 01 (scaled dot-product attention).
type Lines struct {
	// Title is written above the plot, XLabel under the x axis and YLabel
	// left of the y axis.
	Title, XLabel, YLabel string

	// Series are the lines to draw, at least one.
	Series []Series

	// LogX and LogY make the axes logarithmic, with ticks at the powers of
	// ten. All the coordinates on a logarithmic axis must be positive.
	LogX, LogY bool

	// Points draws a marker at every point as well as the lines.
	Points bool

	// Legend is where the legend goes; the zero value is the top left
	// corner. There is a legend only when some series have a Name.
	Legend LegendPosition

	// Width and Height are the size of the figure; zero means 12 cm by
	// 8 cm (wider with LegendOutside).
	Width, Height vg.Length
}

// seriesColors are the Okabe–Ito colours, distinguishable with the common
// forms of colour blindness, in the order series use them (yellow, hard to
// see on white, comes last).
var seriesColors = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff}, // blue
	color.RGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff}, // vermillion
	color.RGBA{R: 0x00, G: 0x9e, B: 0x73, A: 0xff}, // bluish green
	color.RGBA{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff}, // orange
	color.RGBA{R: 0xcc, G: 0x79, B: 0xa7, A: 0xff}, // reddish purple
	color.RGBA{R: 0x56, G: 0xb4, B: 0xe9, A: 0xff}, // sky blue
	color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xff}, // black
	color.RGBA{R: 0xf0, G: 0xe4, B: 0x42, A: 0xff}, // yellow
}

// seriesColor returns the colour of the i-th series or group of bars.
func seriesColor(i int) color.Color { return seriesColors[i%len(seriesColors)] }

// Validate reports why the plot cannot be drawn: no series, X and Y of
// different lengths, empty series, values that are not finite, or values
// that are not positive on a logarithmic axis.
func (l *Lines) Validate() error {
	if len(l.Series) == 0 {
		return errors.New("viz: Lines has no Series")
	}
	for i, s := range l.Series {
		if err := checkSeries(fmt.Sprintf("viz: Lines.Series[%d]", i), s, l.LogX, l.LogY); err != nil {
			return err
		}
	}
	return checkFrame("Lines", l.Legend, l.Width, l.Height)
}

// checkSeries reports why series s, called name (with its Name added),
// cannot be drawn: X and Y of different lengths, no points, values that are
// not finite, or values that are not positive on a logarithmic axis.
func checkSeries(name string, s Series, logX, logY bool) error {
	if s.Name != "" {
		name += fmt.Sprintf(" (%q)", s.Name)
	}
	if s.X != nil && len(s.X) != len(s.Y) {
		return fmt.Errorf("%s has %d X values but %d Y values", name, len(s.X), len(s.Y))
	}
	if len(s.Y) == 0 {
		return fmt.Errorf("%s has no points", name)
	}
	for j, y := range s.Y {
		x := float64(j)
		if s.X != nil {
			x = s.X[j]
		}
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0):
			return fmt.Errorf("%s point %d (%g, %g) is not finite", name, j, x, y)
		case logX && x <= 0:
			return fmt.Errorf("%s point %d has X = %g, not positive on the logarithmic x axis (LogX)", name, j, x)
		case logY && y <= 0:
			return fmt.Errorf("%s point %d has Y = %g, not positive on the logarithmic y axis (LogY)", name, j, y)
		}
	}
	return nil
}

// Size returns Width and Height, or the default size for those that are
// zero.
func (l *Lines) Size() (w, h vg.Length) {
	return frameSize(l.Width, l.Height, l.Legend == LegendOutside && l.Validate() == nil, func() *plot.Legend {
		_, leg, _ := l.plot()
		return leg
	})
}

// checkFrame checks what every plot with a legend shares: a known legend
// position and a size that is not negative.
func checkFrame(kind string, legend LegendPosition, width, height vg.Length) error {
	if legend < LegendTopLeft || legend > LegendHidden {
		return fmt.Errorf("viz: %s.Legend has unknown value %d", kind, legend)
	}
	if width < 0 || height < 0 {
		return fmt.Errorf("viz: %s size %v×%v is negative", kind, width, height)
	}
	return nil
}

// frameSize is the size of a plot with a legend: 12 × 8 cm, widened for a
// legend outside (legend is called only then), unless width or height
// say otherwise.
func frameSize(width, height vg.Length, outside bool, legend func() *plot.Legend) (w, h vg.Length) {
	w, h = 12*vg.Centimeter, 8*vg.Centimeter
	if outside {
		w += legendSpace(legend())
	}
	if width > 0 {
		w = width
	}
	if height > 0 {
		h = height
	}
	return w, h
}

// Draw draws the plot on c, or the reason why it cannot.
func (l *Lines) Draw(c draw.Canvas) {
	if err := l.Validate(); err != nil {
		drawError(c, err)
		return
	}
	p, leg, data := l.plot()
	c = inset(c, margin)
	if !l.LogY || p.Y.Label.Text == "" {
		drawWithLegend(c, p, leg, l.Legend, l.LogY, data)
		return
	}
	// gonum/plot reserves room for a y label at the linear middle of the
	// axis range, which on a log axis sits near the top: the rotated label
	// then pushed the data area down, leaving an empty band under the
	// title. Draw the label here instead, centred on the data area.
	label := p.Y.Label
	p.Y.Label.Text = ""
	width := label.TextStyle.Height(label.Text) + label.Padding
	pc := draw.Crop(c, width, 0, 0, 0)
	drawWithLegend(pc, p, leg, l.Legend, l.LogY, data)
	sty := label.TextStyle
	sty.Rotation += math.Pi / 2
	x := c.Min.X + label.TextStyle.Height(label.Text) - label.TextStyle.FontExtents().Descent
	da := p.DataCanvas(pc)
	c.FillText(sty, vg.Point{X: x, Y: (da.Min.Y + da.Max.Y) / 2}, label.Text)
}

// plot returns the gonum plot of the series, their legend and their points.
func (l *Lines) plot() (*plot.Plot, *plot.Legend, []plotter.XYs) {
	p := newPlot(l.Title, l.XLabel, l.YLabel)
	p.Add(gridLines(true))
	leg := newLegend()
	var data []plotter.XYs
	for i, s := range l.Series {
		xys := make(plotter.XYs, len(s.Y))
		for j, y := range s.Y {
			xys[j] = plotter.XY{X: float64(j), Y: y}
			if s.X != nil {
				xys[j].X = s.X[j]
			}
		}
		line := &plotter.Line{XYs: xys, LineStyle: draw.LineStyle{Color: seriesColor(i), Width: vg.Points(1.5)}}
		if s.Dashed {
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		p.Add(line)
		data = append(data, xys)
		thumbs := []plot.Thumbnailer{line}
		if l.Points {
			dots := &plotter.Scatter{XYs: xys, GlyphStyle: draw.GlyphStyle{
				Color: seriesColor(i), Radius: vg.Points(2.5), Shape: draw.CircleGlyph{},
			}}
			p.Add(dots)
			thumbs = append(thumbs, dots)
		}
		if s.Name != "" {
			leg.Add(s.Name, thumbs...)
		}
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	if l.LogX {
		logAxis(&p.X)
	}
	if l.LogY {
		logAxis(&p.Y)
	}
	return p, leg, data
}

// gridLines returns light grid lines at the major ticks of the y axis,
// and of the x axis too when vertical is true.
func gridLines(vertical bool) *plotter.Grid {
	g := plotter.NewGrid()
	g.Horizontal = draw.LineStyle{Color: gridColor, Width: vg.Points(0.5)}
	g.Vertical = g.Horizontal
	if !vertical {
		g.Vertical.Color = nil
	}
	return g
}

// logAxis gives the axis a a logarithmic scale.
func logAxis(a *plot.Axis) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = logTicks{}
	if a.Min == a.Max { // a single value: gonum would widen it by ±1
		a.Min, a.Max = a.Min/2, a.Max*2
	}
}

// logTicks labels the powers of ten, like plot.LogTicks, and also their
// multiples by 2 and 5 (or by every digit) when that is needed to have at
// least two labels on the axis.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	// gonum's log ticks run from the power of ten below min to the one
	// above max; ticks outside [min, max] are not drawn, but the plot
	// still reserves room for their labels, which left an empty band
	// under the title. Keep only the ticks on the axis.
	all := plot.LogTicks{Prec: -1}.Ticks(min, max)
	ticks := all[:0]
	for _, t := range all {
		if t.Value >= min*(1-1e-9) && t.Value <= max*(1+1e-9) {
			ticks = append(ticks, t)
		}
	}
	labelled := func() int {
		n := 0
		for _, t := range ticks {
			if t.Label != "" && t.Value >= min && t.Value <= max {
				n++
			}
		}
		return n
	}
	for _, digits := range []string{"25", "23456789"} {
		if labelled() >= 2 {
			break
		}
		for i, t := range ticks {
			lead := strconv.FormatFloat(t.Value, 'e', 0, 64)[0]
			for _, d := range []byte(digits) {
				if lead == d {
					ticks[i].Label = strconv.FormatFloat(t.Value, 'g', 6, 64)
				}
			}
		}
	}
	return ticks
}

// newLegend returns an empty legend with the course's fonts.
func newLegend() *plot.Legend {
	leg := plot.NewLegend()
	leg.TextStyle.Font.Typeface, leg.TextStyle.Font.Variant = sans.Typeface, sans.Variant
	leg.TextStyle.Font.Size = tickSize
	leg.TextStyle.Color = textColor
	leg.ThumbnailWidth = vg.Points(24)
	leg.Padding = vg.Points(2)
	leg.Top, leg.Left = true, true // for drawing it in a box of its size
	return &leg
}

const (
	legendPad = vg.Length(4) // between the legend box and its entries
	legendGap = vg.Length(6) // between the legend box and the axes
)

// legendSize returns the size of the legend box.
func legendSize(leg *plot.Legend) vg.Point {
	r := leg.Rectangle(draw.Canvas{})
	return vg.Point{X: r.Size().X + 2*legendPad, Y: r.Size().Y + 2*legendPad}
}

// legendSpace returns the width an outside legend takes.
func legendSpace(leg *plot.Legend) vg.Length {
	if leg == nil || leg.Rectangle(draw.Canvas{}).Size().X == 0 {
		return 0
	}
	return legendSize(leg).X + legendGap
}

// drawWithLegend draws p on c with leg at pos. Inside the plot, the
// legend gets a white box, and when it would cover one of the lines through
// data the y axis is extended to make room for it (logY: the y axis is
// logarithmic).
func drawWithLegend(c draw.Canvas, p *plot.Plot, leg *plot.Legend, pos LegendPosition, logY bool, data []plotter.XYs) {
	if leg == nil || leg.Rectangle(draw.Canvas{}).Size().X == 0 {
		pos = LegendHidden
	}
	switch pos {
	case LegendHidden:
		p.Draw(c)
		return
	case LegendOutside:
		pc := draw.Crop(c, 0, -legendSpace(leg), 0, 0)
		p.Draw(pc)
		da := p.DataCanvas(pc)
		size := legendSize(leg)
		box := vg.Rectangle{
			Min: vg.Point{X: c.Max.X - size.X, Y: da.Max.Y - size.Y},
			Max: vg.Point{X: c.Max.X, Y: da.Max.Y},
		}
		drawLegendBox(c, leg, box)
		return
	}

	top := pos == LegendTopLeft || pos == LegendTopRight
	left := pos == LegendTopLeft || pos == LegendBottomLeft
	size := legendSize(leg)
	boxIn := func(da draw.Canvas) vg.Rectangle {
		var r vg.Rectangle
		if left {
			r.Min.X = da.Min.X + legendGap
		} else {
			r.Min.X = da.Max.X - legendGap - size.X
		}
		if top {
			r.Min.Y = da.Max.Y - legendGap - size.Y
		} else {
			r.Min.Y = da.Min.Y + legendGap
		}
		r.Max = r.Min.Add(size)
		return r
	}
	da := p.DataCanvas(c)
	if box := boxIn(da); coversData(p, da, box, data) {
		// Make the legend box a free band at the top (bottom) of the plot.
		f := float64((size.Y + 2*legendGap) / da.Size().Y)
		if f < 0.5 {
			grow(&p.Y, f, top, logY)
		}
	}
	p.Draw(c)
	drawLegendBox(c, leg, boxIn(p.DataCanvas(c)))
}

// grow extends the range of a so that its current range takes the fraction
// 1-f of the axis, leaving the fraction f empty at the top (or bottom).
func grow(a *plot.Axis, f float64, top, log bool) {
	lo, hi := a.Min, a.Max
	if log {
		lo, hi = math.Log(lo), math.Log(hi)
	}
	span := (hi - lo) / (1 - f)
	if top {
		hi = lo + span
	} else {
		lo = hi - span
	}
	if log {
		lo, hi = math.Exp(lo), math.Exp(hi)
	}
	a.Min, a.Max = lo, hi
}

// coversData reports whether the rectangle r of the data canvas da covers,
// or comes closer than legendGap to, one of the lines through data.
func coversData(p *plot.Plot, da draw.Canvas, r vg.Rectangle, data []plotter.XYs) bool {
	trX, trY := p.Transforms(&da)
	r.Min = r.Min.Sub(vg.Point{X: legendGap, Y: legendGap})
	r.Max = r.Max.Add(vg.Point{X: legendGap, Y: legendGap})
	inside := func(pt vg.Point) bool {
		return pt.X >= r.Min.X && pt.X <= r.Max.X && pt.Y >= r.Min.Y && pt.Y <= r.Max.Y
	}
	for _, xys := range data {
		for i := range xys {
			a := vg.Point{X: trX(xys[i].X), Y: trY(xys[i].Y)}
			if inside(a) {
				return true
			}
			if i == 0 {
				continue
			}
			// Sample the segment from the previous point.
			b := vg.Point{X: trX(xys[i-1].X), Y: trY(xys[i-1].Y)}
			const steps = 16
			for k := 1; k < steps; k++ {
				if inside(b.Add(a.Sub(b).Scale(vg.Length(k) / steps))) {
					return true
				}
			}
		}
	}
	return false
}

// drawLegendBox draws leg on a white, outlined box r.
func drawLegendBox(c draw.Canvas, leg *plot.Legend, r vg.Rectangle) {
	c.SetColor(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xe6})
	c.Fill(r.Path())
	strokeRect(c, r, draw.LineStyle{Color: gridColor, Width: vg.Points(0.5)})
	leg.Draw(sub(c, vg.Rectangle{
		Min: r.Min.Add(vg.Point{X: legendPad, Y: legendPad}),
		Max: r.Max.Sub(vg.Point{X: legendPad, Y: legendPad}),
	}))
}

// sized returns the figure's size: its Width and Height fields where they
// are set (> 0), else the size w, h it would choose itself.
func sized(width, height, w, h vg.Length) (vg.Length, vg.Length) {
	if width > 0 {
		w = width
	}
	if height > 0 {
		h = height
	}
	return w, h
}
