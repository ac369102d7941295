package viz

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BarGroup is one series of a [Bars] chart: a value per category, drawn as
// bars of one colour.
//
// Introduced in lesson 01 (scaled dot-product attention).
type BarGroup struct {
	// Name labels the group in the legend.
	Name string
	// Values has one value per category of the chart.
	Values []float64
}

// Bars is a vertical bar chart of categories along the x axis. With
// several groups, the bars of a category stand side by side, one colour
// per group, and a legend right of the chart names the groups.
//
// Introduced in lesson 01 (scaled dot-product attention).
type Bars struct {
	// Title is written above the chart, XLabel under the x axis and YLabel
	// left of the y axis.
	Title, XLabel, YLabel string

	// Labels names the categories, one per bar position on the x axis.
	// Nil labels them with their indices 0, 1, 2, ...
	Labels []string

	// Groups are the series of bars, at least one; each has one value per
	// category.
	Groups []BarGroup

	// Annotate writes each value above its bar (below for negative
	// values), formatted with Format.
	Annotate bool

	// Format is the fmt verb for the values written by Annotate; ""
	// means "%.2f".
	Format string

	// Counts says the values count things (a histogram): they must be
	// whole numbers, not negative; the y axis has whole-number ticks,
	// and Annotate leaves empty bars unlabelled.
	Counts bool

	// Width and Height are the size of the figure; zero computes a width
	// from the number of bars (12 to 20 cm) and a height of 8 cm.
	Width, Height vg.Length
}

// Validate reports why the chart cannot be drawn: no groups, no
// categories, groups whose number of values does not match the
// categories, or values that are not finite.
func (b *Bars) Validate() error {
	if len(b.Groups) == 0 {
		return errors.New("viz: Bars has no Groups")
	}
	n := b.categories()
	if n == 0 {
		return errors.New("viz: Bars has no categories (Labels and Groups[0].Values are empty)")
	}
	for g, group := range b.Groups {
		if len(group.Values) != n {
			what := "Labels has"
			if b.Labels == nil {
				what = "Groups[0] has"
			}
			return fmt.Errorf("viz: Bars.Groups[%d] (%q) has %d values, but %s %d", g, group.Name, len(group.Values), what, n)
		}
		for i, v := range group.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("viz: Bars.Groups[%d] (%q) value %d is %g, not finite", g, group.Name, i, v)
			}
			if b.Counts && (v < 0 || v != math.Trunc(v)) {
				return fmt.Errorf("viz: Bars.Groups[%d] (%q) value %d is %g, not a count (Counts is set)", g, group.Name, i, v)
			}
		}
	}
	if b.Width < 0 || b.Height < 0 {
		return fmt.Errorf("viz: Bars size %v×%v is negative", b.Width, b.Height)
	}
	return nil
}

// categories returns the number of categories.
func (b *Bars) categories() int {
	if b.Labels != nil || len(b.Groups) == 0 {
		return len(b.Labels)
	}
	return len(b.Groups[0].Values)
}

// Size returns Width and Height, or the default size for those that are
// zero.
func (b *Bars) Size() (w, h vg.Length) {
	w, h = 12*vg.Centimeter, 8*vg.Centimeter
	if b.Validate() == nil {
		bars := b.categories() * len(b.Groups)
		w = min(max(w, 3*vg.Centimeter+vg.Length(bars)*0.7*vg.Centimeter), 20*vg.Centimeter)
		_, leg := b.plot(w, 0)
		w += legendSpace(leg)
	}
	return sized(b.Width, b.Height, w, h)
}

// Draw draws the chart on c, or the reason why it cannot.
func (b *Bars) Draw(c draw.Canvas) {
	if err := b.Validate(); err != nil {
		drawError(c, err)
		return
	}
	c = inset(c, margin)
	// Bar widths and the room for the values are lengths on the page: plan
	// them for a guess of the data area, then for the real one.
	p, leg := b.plot(c.Size().X-2*vg.Centimeter, c.Size().Y-2*vg.Centimeter)
	pc := draw.Crop(c, 0, -legendSpace(leg), 0, 0)
	da := p.DataCanvas(pc)
	p, leg = b.plot(da.Size().X, da.Size().Y)
	drawWithLegend(c, p, leg, LegendOutside, false, nil)
}

// plot returns the gonum plot of the chart, planned for a data area of
// dataW×dataH, and its legend.
func (b *Bars) plot(dataW, dataH vg.Length) (*plot.Plot, *plot.Legend) {
	n, groups := b.categories(), len(b.Groups)
	p := newPlot(b.Title, b.XLabel, b.YLabel)
	p.Add(gridLines(false), zeroLine{})
	slot := max(dataW, 1) / vg.Length(n) // page width of a category
	barW := 0.8 * slot / vg.Length(groups)
	leg := newLegend()
	values := &barValues{format: b.Format, width: barW, skipZero: b.Counts}
	if values.format == "" {
		values.format = "%.2f"
	}
	for g, group := range b.Groups {
		bc := &plotter.BarChart{
			Values: plotter.Values(group.Values),
			Width:  barW,
			Color:  seriesColor(g),
			Offset: (vg.Length(g) - vg.Length(groups-1)/2) * barW,
		}
		p.Add(bc)
		if groups > 1 { // one group needs no legend
			leg.Add(group.Name, bc)
		}
		values.bars = append(values.bars, bc)
	}
	// Categories sit at 0, 1, 2, ..., each in the middle of its slot.
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.X.Padding = 0
	p.X.Tick.Length = 0
	categoryAxis(&p.X, n, b.Labels, slot, func(i int) float64 { return float64(i) })
	// Bars stand on 0, which is always on the axis.
	p.Y.Min, p.Y.Max = min(p.Y.Min, 0), max(p.Y.Max, 0)
	p.Y.Padding = 0
	p.Y.Tick.Marker = niceTicks{}
	if b.Counts {
		p.Y.Tick.Marker = countTicks{}
		p.Y.Max = max(p.Y.Max, 1) // a class of empty bars still has a scale
	}
	if b.Annotate {
		p.Add(values)
		// Leave the fraction f of the height free above the highest bar
		// (and under the lowest) for a line of text: the new span S'
		// satisfies S' = S + ends·f·S'.
		f := float64((textStyle(valueSize, false).Height("0") + 2*valuePad) / max(dataH, vg.Centimeter))
		ends := 0.0
		if p.Y.Max > 0 {
			ends++
		}
		if p.Y.Min < 0 {
			ends++
		}
		if f*ends < 0.5 {
			span := (p.Y.Max - p.Y.Min) / (1 - ends*f)
			if p.Y.Max > 0 {
				p.Y.Max += f * span
			}
			if p.Y.Min < 0 {
				p.Y.Min -= f * span
			}
		}
	} else {
		// A little air above the tallest bar (and below the lowest), so
		// that neither touches the frame and the top tick is labelled.
		span := p.Y.Max - p.Y.Min
		if p.Y.Max > 0 {
			p.Y.Max += 0.05 * span
		}
		if p.Y.Min < 0 {
			p.Y.Min -= 0.05 * span
		}
	}
	return p, leg
}

// zeroLine is a plot.Plotter drawing the line y = 0, which bars stand on.
type zeroLine struct{}

func (zeroLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(0)
	c.StrokeLine2(draw.LineStyle{Color: frameColor, Width: vg.Points(0.5)}, c.Min.X, y, c.Max.X, y)
}

// valuePad is the space between a bar and its value.
const valuePad = vg.Length(2)

// barValues is a plot.Plotter writing the value of each bar above it (or
// under it, for negative values).
type barValues struct {
	bars     []*plotter.BarChart
	format   string
	width    vg.Length // room for a label: the width of a bar
	skipZero bool      // leave bars of height 0 unlabelled
}

func (bv *barValues) Plot(c draw.Canvas, p *plot.Plot) {
	sty := textStyle(valueSize, false)
	var widest vg.Length
	for _, bc := range bv.bars {
		for _, v := range bc.Values {
			widest = max(widest, sty.Width(fmt.Sprintf(bv.format, v)))
		}
	}
	if room := 0.85 * bv.width; widest > room { // keep a gap between neighbours
		sty.Font.Size = max(6, valueSize*room/widest)
	}
	trX, trY := p.Transforms(&c)
	pad := valuePad
	for _, bc := range bv.bars {
		for i, v := range bc.Values {
			if v == 0 && bv.skipZero {
				continue
			}
			pt := vg.Point{X: trX(bc.XMin+float64(i)) + bc.Offset, Y: trY(v) + pad}
			sty.YAlign = draw.YBottom
			if v < 0 {
				pt.Y = trY(v) - pad
				sty.YAlign = draw.YTop
			}
			c.FillText(sty, pt, fmt.Sprintf(bv.format, v))
		}
	}
}

// BarGroups pairs names with rows of values: one [BarGroup] per row, such as
// one group per temperature in lesson 01. Missing names are left empty.
//
// Introduced in lesson 01 (scaled dot-product attention).
func BarGroups(names []string, rows [][]float64) []BarGroup {
	groups := make([]BarGroup, len(rows))
	for i, row := range rows {
		groups[i].Values = row
		if i < len(names) {
			groups[i].Name = names[i]
		}
	}
	return groups
}
