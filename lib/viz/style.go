package viz

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The look shared by all figures: a sans-serif font (gonum/plot defaults to
// a serif one), 10–12 pt text and a small white margin around each figure.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

const (
	titleSize vg.Length = 12 // figure titles, in points
	labelSize vg.Length = 11 // axis labels
	tickSize  vg.Length = 10 // tick labels, legends, colour bar
	valueSize vg.Length = 10 // values written in cells or above bars (largest size)

	margin     = 2 * vg.Millimeter // white space around a figure
	tickLength = vg.Length(4)
)

var (
	textColor  = color.Gray{Y: 0x1a}
	frameColor = color.Gray{Y: 0x40}
	gridColor  = color.Gray{Y: 0xdd}
	errorColor = color.RGBA{R: 0xb0, G: 0x00, B: 0x20, A: 0xff}
)

// textStyle returns a centred text style of the given size.
func textStyle(size vg.Length, bold bool) text.Style {
	f := font.From(sans, size)
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{
		Color:   textColor,
		Font:    f,
		XAlign:  draw.XCenter,
		YAlign:  draw.YCenter,
		Handler: plot.DefaultTextHandler,
	}
}

// newPlot returns a gonum plot with the course's fonts and sizes.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, titleSize)
	p.Title.TextStyle.Font.Weight = xfont.WeightBold
	p.Title.TextStyle.Color = textColor
	p.Title.Padding = vg.Points(8)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, labelSize)
		a.Label.TextStyle.Color = textColor
		a.Label.Padding = vg.Points(4)
		a.Tick.Label.Font = font.From(sans, tickSize)
		a.Tick.Label.Color = textColor
		a.Tick.Length = tickLength
		a.Tick.Color = frameColor
		a.Color = frameColor
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.TextStyle.Font = font.From(sans, tickSize)
	p.Legend.TextStyle.Color = textColor
	return p
}

// inset returns c without a margin on every side.
func inset(c draw.Canvas, m vg.Length) draw.Canvas {
	return draw.Crop(c, m, -m, m, -m)
}

// sub returns the canvas drawing on the same vg.Canvas as c, limited to r.
func sub(c draw.Canvas, r vg.Rectangle) draw.Canvas {
	return draw.Canvas{Canvas: c.Canvas, Rectangle: r}
}

// strokeRect draws the outline of r.
func strokeRect(c draw.Canvas, r vg.Rectangle, sty draw.LineStyle) {
	c.StrokeLines(sty, []vg.Point{
		r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min,
	})
}

// drawError writes the message of err, in red and wrapped to the width of
// the canvas, instead of a figure that cannot be drawn.
func drawError(c draw.Canvas, err error) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = inset(c, margin)
	strokeRect(c, c.Rectangle, draw.LineStyle{Color: errorColor, Width: vg.Points(1)})
	sty := textStyle(tickSize, false)
	sty.Color = errorColor
	width := c.Size().X - 2*margin
	charWidth := sty.Width("n") // a typical character
	msg := wrap(err.Error(), max(10, int(width/charWidth)))
	c.FillText(sty, c.Center(), msg)
}

// wrap breaks s into lines of at most n characters, at spaces when it can.
func wrap(s string, n int) string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			for len([]rune(word)) > n { // a word longer than a line
				if line != "" {
					lines = append(lines, line)
					line = ""
				}
				r := []rune(word)
				lines = append(lines, string(r[:n]))
				word = string(r[n:])
			}
			switch {
			case line == "":
				line = word
			case len([]rune(line))+1+len([]rune(word)) <= n:
				line += " " + word
			default:
				lines = append(lines, line)
				line = word
			}
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// luminance returns the relative luminance of c (0 black, 1 white), as
// defined by WCAG from linearised sRGB.
func luminance(c color.Color) float64 {
	r, g, b, a := c.RGBA()
	if a == 0 {
		return 1 // transparent: the white background shows
	}
	lin := func(v uint32) float64 {
		s := float64(v) / float64(a) // un-premultiply
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrastText returns white or black, whichever reads better on bg.
// 0.179 is where the WCAG contrast ratios against white and black are equal.
func contrastText(bg color.Color) color.Color {
	if luminance(bg) < 0.179 {
		return color.White
	}
	return color.Black
}

// labelTicks returns the ticks for n categories at positions pos(i), with
// the labels given (nil: the indices 0..n-1), keeping one label every step.
func labelTicks(n int, labels []string, step int, pos func(i int) float64) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, 0, n/step+1)
	for i := 0; i < n; i += step {
		ticks = append(ticks, plot.Tick{Value: pos(i), Label: tickLabel(labels, i)})
	}
	return ticks
}

func tickLabel(labels []string, i int) string {
	if labels == nil {
		return strconv.Itoa(i)
	}
	return labels[i]
}

// tickStep returns the smallest step in 1, 2, 5, 10, 20, 50, ... such that
// labels one step apart, each needing need along the axis, do not overlap
// when categories are room apart. With more than 30 categories it also
// keeps the number of labels to about 20 or fewer.
func tickStep(n int, room, need vg.Length) int {
	minStep := 1
	if n > 30 {
		minStep = (n + 19) / 20
	}
	for _, mag := range []int{1, 10, 100, 1000, 10000, 100000} {
		for _, m := range []int{1, 2, 5} {
			s := m * mag
			if s >= minStep && (vg.Length(s)*room >= need || s >= n) {
				return s
			}
		}
	}
	return max(n, 1)
}

// maxWidth returns the width of the widest of n labels (nil: indices).
func maxWidth(sty text.Style, n int, labels []string) vg.Length {
	var w vg.Length
	for i := range n {
		w = max(w, sty.Width(tickLabel(labels, i)))
	}
	return w
}

// categoryAxis configures a horizontal axis of n categories at positions
// pos(i), room apart on the page. Labels are written horizontally, or at 45°
// when that lets more of them be shown, and are thinned out (one every
// step) when they would still overlap.
func categoryAxis(a *plot.Axis, n int, labels []string, room vg.Length, pos func(i int) float64) {
	sty := a.Tick.Label
	gap := sty.Width("  ")
	step := tickStep(n, room, maxWidth(sty, n, labels)+gap)
	// Rotated 45°, a label takes only its height/sin(45°) along the axis.
	if rotated := tickStep(n, room, math.Sqrt2*(sty.Height("Ag")+gap/2)); rotated < step {
		a.Tick.Label.Rotation = math.Pi / 4
		a.Tick.Label.XAlign = draw.XRight
		a.Tick.Label.YAlign = draw.YCenter
		step = rotated
	}
	a.Tick.Marker = labelTicks(n, labels, step, pos)
}

// rowAxis configures a vertical axis of n categories like categoryAxis
// (its labels are never rotated).
func rowAxis(a *plot.Axis, n int, labels []string, room vg.Length, pos func(i int) float64) {
	need := a.Tick.Label.Height("Ag") * 1.2
	a.Tick.Marker = labelTicks(n, labels, tickStep(n, room, need), pos)
}

// countTicks is niceTicks for an axis of counts: labelled ticks on whole
// numbers only, a step of at least 1, and no minor ticks between
// neighbouring counts.
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi-lo >= 7 {
		var ticks []plot.Tick
		for _, t := range (niceTicks{}).Ticks(lo, hi) {
			if t.Label != "" || t.Value == math.Trunc(t.Value) {
				ticks = append(ticks, t)
			}
		}
		return ticks
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo); v <= hi; v++ {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}

// niceTicks is a plot.Ticker for linear axes: three to eight labelled ticks one
// "nice" step apart (1, 2 or 5 times a power of ten), labelled with as few
// decimals as the step needs, and unlabelled minor ticks half-way.
// gonum's DefaultTicks aims at three labels, with steps such as 2.5.
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return nil
	}
	raw := (hi - lo) / 7 // the smallest step allowed
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	half := step / 2
	for i := math.Ceil(lo / half); i*half <= hi+half*1e-9; i++ {
		v := i * half
		if math.Abs(v) < half*1e-9 {
			v = 0 // not -0
		}
		t := plot.Tick{Value: v}
		if math.Mod(i, 2) == 0 {
			t.Label = strconv.FormatFloat(v, 'f', decimals, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
