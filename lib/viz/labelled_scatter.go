package viz

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LabelledPoint is one point of a [LabelledScatter]: its coordinates, the text
// written next to it and the group that gives its colour.
//
// Introduced in lesson 05 (the Transformer encoder).
type LabelledPoint struct {
	X, Y  float64
	Label string // written above the point (or below, when that overlaps); "" writes nothing
	Group string // points of a group share a colour and a legend entry; "" is a group too
}

// LabelledScatter is a scatter plot of labelled points coloured by group, such as
// the sizes of models against the year they appeared.
//
// Each point is a large, slightly transparent disc; its label is written
// above it, or below or beside it when the label would overlap another
// label or point. Groups take the colours of [Lines] in order, and a
// legend names them.
//
// Introduced in lesson 05 (the Transformer encoder).
type LabelledScatter struct {
	// Title is written above the plot, XLabel under the x axis and YLabel
	// left of the y axis.
	Title, XLabel, YLabel string

	// Points are the points to draw, at least one.
	Points []LabelledPoint

	// Groups is the order of the groups in the legend, which is also the
	// order of their colours. Nil lists them in the order they first
	// appear in Points; groups missing from a non-nil Groups are an error.
	Groups []string

	// LogX and LogY make the axes logarithmic; the coordinates on them must
	// then be positive.
	LogX, LogY bool

	// YFormat writes the labels of the y ticks, for example [CountLabel]
	// for "10M", "1B"; nil writes plain numbers.
	YFormat func(y float64) string

	// Legend is where the legend goes; the zero value is the top left
	// corner. There is no legend with a single unnamed group.
	Legend LegendPosition

	// Width and Height are the size of the figure; zero means 16 cm by
	// 10 cm.
	Width, Height vg.Length
}

// Validate reports why the plot cannot be drawn: no points, coordinates
// that are not finite or not positive on a logarithmic axis, a group
// missing from Groups, an unknown Legend or a negative size.
func (s *LabelledScatter) Validate() error {
	if len(s.Points) == 0 {
		return errors.New("viz: LabelledScatter has no Points")
	}
	for i, p := range s.Points {
		name := fmt.Sprintf("viz: LabelledScatter.Points[%d]", i)
		if p.Label != "" {
			name += fmt.Sprintf(" (%q)", p.Label)
		}
		switch {
		case math.IsNaN(p.X) || math.IsInf(p.X, 0) || math.IsNaN(p.Y) || math.IsInf(p.Y, 0):
			return fmt.Errorf("%s (%g, %g) is not finite", name, p.X, p.Y)
		case s.LogX && p.X <= 0:
			return fmt.Errorf("%s has X = %g, not positive on the logarithmic x axis (LogX)", name, p.X)
		case s.LogY && p.Y <= 0:
			return fmt.Errorf("%s has Y = %g, not positive on the logarithmic y axis (LogY)", name, p.Y)
		}
		if s.Groups != nil && groupIndex(s.Groups, p.Group) < 0 {
			return fmt.Errorf("%s has group %q, which is not in LabelledScatter.Groups %q", name, p.Group, s.Groups)
		}
	}
	if s.Legend < LegendTopLeft || s.Legend > LegendHidden {
		return fmt.Errorf("viz: LabelledScatter.Legend has unknown value %d", s.Legend)
	}
	if s.Width < 0 || s.Height < 0 {
		return fmt.Errorf("viz: LabelledScatter size %v×%v is negative", s.Width, s.Height)
	}
	return nil
}

func groupIndex(groups []string, g string) int {
	for i, x := range groups {
		if x == g {
			return i
		}
	}
	return -1
}

// groups returns the groups in legend order.
func (s *LabelledScatter) groups() []string {
	if s.Groups != nil {
		return s.Groups
	}
	var gs []string
	for _, p := range s.Points {
		if groupIndex(gs, p.Group) < 0 {
			gs = append(gs, p.Group)
		}
	}
	return gs
}

// Size returns Width and Height, or 16 cm by 10 cm for those that are zero.
func (s *LabelledScatter) Size() (w, h vg.Length) {
	return sized(s.Width, s.Height, 16*vg.Centimeter, 10*vg.Centimeter)
}

// labelledRadius is the radius of the discs.
const labelledRadius = vg.Length(6)

// Draw draws the plot on c, or the reason why it cannot.
func (s *LabelledScatter) Draw(c draw.Canvas) {
	if err := s.Validate(); err != nil {
		drawError(c, err)
		return
	}
	c = inset(c, margin)
	groups := s.groups()
	p := newPlot(s.Title, s.XLabel, s.YLabel)
	p.Add(gridLines(true))
	leg := newLegend()
	for gi, g := range groups {
		var xys plotter.XYs
		for _, pt := range s.Points {
			if pt.Group == g {
				xys = append(xys, plotter.XY{X: pt.X, Y: pt.Y})
			}
		}
		clr := withAlpha(seriesColor(gi), 0xd0)
		dots := &plotter.Scatter{XYs: xys, GlyphStyle: draw.GlyphStyle{Color: clr, Radius: labelledRadius, Shape: draw.CircleGlyph{}}}
		p.Add(dots)
		if g != "" || len(groups) > 1 {
			name := g
			if name == "" {
				name = "(no group)"
			}
			leg.Add(name, dots)
		}
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	if s.LogX {
		logAxis(&p.X)
	}
	if s.LogY {
		logAxis(&p.Y)
	}
	if s.YFormat != nil {
		p.Y.Tick.Marker = formattedTicks{p.Y.Tick.Marker, s.YFormat}
	}
	// Room for the labels: a margin around the points on both axes, more
	// at the top, where the labels go.
	widen(&p.X, 0.06, 0.06, s.LogX)
	widen(&p.Y, 0.06, 0.16, s.LogY)

	pos := s.Legend
	if leg.Rectangle(draw.Canvas{}).Size().X == 0 {
		pos = LegendHidden
	}
	pc := c
	if pos == LegendOutside {
		pc = draw.Crop(c, 0, -legendSpace(leg), 0, 0)
	}
	// gonum centres the y label on the arithmetic middle of the range,
	// which a logarithmic axis puts near the top; it then shrinks the plot
	// to make room above it. Write the label ourselves instead.
	yLabel := p.Y.Label
	if s.LogY && yLabel.Text != "" {
		p.Y.Label.Text = ""
		pc = draw.Crop(pc, yLabel.TextStyle.Height(yLabel.Text)+yLabel.Padding, 0, 0, 0)
	}
	p.Draw(pc)
	da := p.DataCanvas(pc)
	if s.LogY && yLabel.Text != "" {
		sty := yLabel.TextStyle
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		c.FillText(sty, vg.Point{X: c.Min.X + sty.Height(yLabel.Text)/2, Y: (da.Min.Y + da.Max.Y) / 2}, yLabel.Text)
	}
	s.drawLabels(da, p)
	if pos != LegendHidden {
		size := legendSize(leg)
		var r vg.Rectangle
		switch pos {
		case LegendOutside:
			r.Min = vg.Point{X: c.Max.X - size.X, Y: da.Max.Y - size.Y}
		case LegendTopLeft:
			r.Min = vg.Point{X: da.Min.X + legendGap, Y: da.Max.Y - legendGap - size.Y}
		case LegendTopRight:
			r.Min = vg.Point{X: da.Max.X - legendGap - size.X, Y: da.Max.Y - legendGap - size.Y}
		case LegendBottomLeft:
			r.Min = vg.Point{X: da.Min.X + legendGap, Y: da.Min.Y + legendGap}
		case LegendBottomRight:
			r.Min = vg.Point{X: da.Max.X - legendGap - size.X, Y: da.Min.Y + legendGap}
		}
		r.Max = r.Min.Add(size)
		drawLegendBox(c, leg, r)
	}
}

// drawLabels writes the labels of the points on the data canvas da of p,
// each above its point unless that overlaps a label already written or
// another point; then below, right or left.
func (s *LabelledScatter) drawLabels(da draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&da)
	sty := textStyle(tickSize, false)
	var taken []vg.Rectangle
	for _, pt := range s.Points {
		c := vg.Point{X: trX(pt.X), Y: trY(pt.Y)}
		taken = append(taken, vg.Rectangle{Min: c.Sub(vg.Point{X: labelledRadius, Y: labelledRadius}), Max: c.Add(vg.Point{X: labelledRadius, Y: labelledRadius})})
	}
	gap := labelledRadius + 3
	for _, pt := range s.Points {
		if pt.Label == "" {
			continue
		}
		c := vg.Point{X: trX(pt.X), Y: trY(pt.Y)}
		w, h := sty.Width(pt.Label), sty.Height(pt.Label)
		candidates := []vg.Point{ // centres of the label
			{X: c.X, Y: c.Y + gap + h/2},
			{X: c.X, Y: c.Y - gap - h/2},
			{X: c.X + gap + w/2, Y: c.Y},
			{X: c.X - gap - w/2, Y: c.Y},
		}
		for i := range candidates { // shift labels sideways to keep them on the plot
			candidates[i].X = max(min(candidates[i].X, da.Max.X-w/2), da.Min.X+w/2)
		}
		best := candidates[0]
		for _, cand := range candidates {
			r := vg.Rectangle{Min: vg.Point{X: cand.X - w/2, Y: cand.Y - h/2}, Max: vg.Point{X: cand.X + w/2, Y: cand.Y + h/2}}
			inside := r.Min.Y >= da.Min.Y && r.Max.Y <= da.Max.Y
			free := inside
			for _, t := range taken {
				if overlaps(r, t) {
					free = false
					break
				}
			}
			if free {
				best = cand
				break
			}
		}
		r := vg.Rectangle{Min: vg.Point{X: best.X - w/2, Y: best.Y - h/2}, Max: vg.Point{X: best.X + w/2, Y: best.Y + h/2}}
		taken = append(taken, r)
		// A light background keeps the grid lines from crossing the text.
		da.SetColor(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd0})
		da.Fill(vg.Rectangle{Min: r.Min.Sub(vg.Point{X: 1, Y: 0}), Max: r.Max.Add(vg.Point{X: 1, Y: 0})}.Path())
		da.FillText(sty, best, pt.Label)
	}
}

// overlaps reports whether two rectangles intersect.
func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// widen extends the range of a by the fractions lo and hi of its span
// (of its logarithm when log is true) at the bottom and the top.
func widen(a *plot.Axis, lo, hi float64, log bool) {
	mn, mx := a.Min, a.Max
	if log {
		mn, mx = math.Log(mn), math.Log(mx)
	}
	span := mx - mn
	if span == 0 {
		span = 1
	}
	mn, mx = mn-lo*span, mx+hi*span
	if log {
		mn, mx = math.Exp(mn), math.Exp(mx)
	}
	a.Min, a.Max = mn, mx
}

// withAlpha returns c with the opacity a (0–255).
func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}

// formattedTicks relabels the labelled ticks of another ticker with f and
// drops the ticks outside the axis.
type formattedTicks struct {
	inner plot.Ticker
	f     func(float64) string
}

func (t formattedTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, tk := range t.inner.Ticks(lo, hi) {
		if tk.Value < lo || tk.Value > hi {
			continue // a label off the axis would make gonum shrink the plot to fit it
		}
		if tk.Label != "" {
			tk.Label = t.f(tk.Value)
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// CountLabel writes a large count the short way, with K, M, B and T for
// thousands, millions, billions and trillions and at most three
// significant digits: 65e6 → "65M", 1.5e9 → "1.5B", 1e12 → "1T".
//
// Introduced in lesson 05 (the Transformer encoder).
func CountLabel(v float64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	for _, u := range []struct {
		scale  float64
		suffix string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}} {
		if v >= u.scale*0.9995 {
			return sign + trimZeros(strconv.FormatFloat(v/u.scale, 'f', max(0, 2-int(math.Floor(math.Log10(v/u.scale)+1e-9))), 64)) + u.suffix
		}
	}
	return sign + trimZeros(strconv.FormatFloat(v, 'f', 2, 64))
}

// trimZeros removes the trailing zeros of a decimal number, and its point
// if nothing follows it.
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
