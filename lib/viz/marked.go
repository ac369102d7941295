package viz

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MarkedLines plots lines with marked points on top: for instance one
// column of a positional encoding drawn as a line, with the positions of
// the words of a sentence marked on it, one colour per word. With no lines
// it is a plain scatter plot of the points.
//
// Lines are drawn first, then Points on top. Colours come from the same
// colour-blind-safe list as [Lines]: the lines take the first ones, the
// point series the following ones, so every series has its own colour and
// the legend names each (unnamed series are left out of it).
//
// Part of the library behind lesson 04 (positional encoding); the lesson does not name it.
type MarkedLines struct {
	// Title is written above the plot, XLabel under the x axis and YLabel
	// left of the y axis.
	Title, XLabel, YLabel string

	// Lines are drawn as plain lines under the points (Dashed is honoured).
	// They may be empty.
	Lines []Series

	// Points are drawn as round markers with a thin white outline, one
	// colour per series. A series may have a single point, to name it in
	// the legend. At least one series, in Lines or Points, is required.
	Points []Series

	// YMin and YMax fix the range of the y axis when YMin < YMax (to
	// compare several plots, or to show [-1, 1] in full); otherwise the
	// range fits the data.
	YMin, YMax float64

	// Legend is where the legend goes; the zero value is the top left
	// corner. LegendOutside keeps it off the data.
	Legend LegendPosition

	// Width and Height are the size of the figure; zero means 12 cm by
	// 8 cm (wider with LegendOutside).
	Width, Height vg.Length
}

// Validate reports why the plot cannot be drawn: no series, X and Y of
// different lengths, empty series, values that are not finite, or an
// inverted y range.
func (m *MarkedLines) Validate() error {
	if len(m.Lines) == 0 && len(m.Points) == 0 {
		return errors.New("viz: MarkedLines has no Lines and no Points")
	}
	for _, group := range []struct {
		name   string
		series []Series
	}{{"Lines", m.Lines}, {"Points", m.Points}} {
		for i, ser := range group.series {
			if err := checkSeries(fmt.Sprintf("viz: MarkedLines.%s[%d]", group.name, i), ser, false, false); err != nil {
				return err
			}
		}
	}
	if m.YMin > m.YMax || math.IsNaN(m.YMin) || math.IsNaN(m.YMax) || math.IsInf(m.YMin, 0) || math.IsInf(m.YMax, 0) {
		return fmt.Errorf("viz: MarkedLines y range [%g, %g] is not a finite range with YMin ≤ YMax", m.YMin, m.YMax)
	}
	return checkFrame("MarkedLines", m.Legend, m.Width, m.Height)
}

// Size returns Width and Height, or the default size for those that are
// zero.
func (m *MarkedLines) Size() (w, h vg.Length) {
	return frameSize(m.Width, m.Height, m.Legend == LegendOutside && m.Validate() == nil, func() *plot.Legend {
		_, leg, _ := m.plot()
		return leg
	})
}

// Draw draws the plot on c, or the reason why it cannot.
func (m *MarkedLines) Draw(c draw.Canvas) {
	if err := m.Validate(); err != nil {
		drawError(c, err)
		return
	}
	p, leg, data := m.plot()
	drawWithLegend(inset(c, margin), p, leg, m.Legend, false, data)
}

// The radius of a marked point; the white outline adds markedRing around
// it so that overlapping points stay distinct.
const (
	markedRadius = vg.Length(3.2)
	markedRing   = vg.Length(1)
)

// plot returns the gonum plot, its legend and the points the legend must
// not cover.
func (m *MarkedLines) plot() (*plot.Plot, *plot.Legend, []plotter.XYs) {
	p := newPlot(m.Title, m.XLabel, m.YLabel)
	p.Add(gridLines(true))
	leg := newLegend()
	var data []plotter.XYs
	xys := func(ser Series) plotter.XYs {
		out := make(plotter.XYs, len(ser.Y))
		for j, y := range ser.Y {
			out[j] = plotter.XY{X: float64(j), Y: y}
			if ser.X != nil {
				out[j].X = ser.X[j]
			}
		}
		return out
	}
	for i, ser := range m.Lines {
		pts := xys(ser)
		line := &plotter.Line{XYs: pts, LineStyle: draw.LineStyle{Color: seriesColor(i), Width: vg.Points(1.5)}}
		if ser.Dashed {
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		p.Add(line)
		data = append(data, pts)
		if ser.Name != "" {
			leg.Add(ser.Name, line)
		}
	}
	for i, ser := range m.Points {
		pts := xys(ser)
		ring := &plotter.Scatter{XYs: pts, GlyphStyle: draw.GlyphStyle{
			Color: color.White, Radius: markedRadius + markedRing, Shape: draw.CircleGlyph{},
		}}
		dots := &plotter.Scatter{XYs: pts, GlyphStyle: draw.GlyphStyle{
			Color: seriesColor(len(m.Lines) + i), Radius: markedRadius, Shape: draw.CircleGlyph{},
		}}
		p.Add(ring, dots)
		data = append(data, pts)
		if ser.Name != "" {
			leg.Add(ser.Name, dots)
		}
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	if m.YMin < m.YMax {
		p.Y.Min, p.Y.Max = m.YMin, m.YMax
	}
	return p, leg, data
}
