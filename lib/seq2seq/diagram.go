package seq2seq

import (
	"fmt"
	"image/color"
	"math"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bottleneck is the two-panel picture of lesson 06 (after the source's
// Day 15 figure): on the left an encoder–decoder without attention, whose
// encoder states h₁ … h_S all flow into one vector c that the decoder
// states s₁, s₂, … must make do with; on the right a decoder state s_t
// that looks at every encoder state, with a line per state as thick as its
// attention weight α_s, and the context c_t = Σ α_s h_s.
//
// It is a lib/viz figure: viz.Show(&seq2seq.Bottleneck{}).
//
// Typical shapes: Weights [5] = 0.05, 0.1, 0.5, 0.3, 0.05 (the source's
// example, focused on the third word); 3 decoder states.
//
// Introduced in lesson 06.
type Bottleneck struct {
	// Weights are the attention weights drawn on the right, one per
	// encoder state (at most 8); nil means the source's example.
	Weights []float64
	// Decoder is the number of decoder states on the left [3].
	Decoder int
}

// DefaultWeights are the attention weights of the source's picture.
var DefaultWeights = []float64{0.05, 0.1, 0.5, 0.3, 0.05}

const (
	panelW = vg.Length(270)
	figH   = vg.Length(215)
)

var (
	encColor    = color.RGBA{R: 0xbf, G: 0xdf, B: 0xf2, A: 0xff} // light blue
	decColor    = color.RGBA{R: 0xc4, G: 0xe8, B: 0xc4, A: 0xff} // light green
	bottleColor = color.RGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff} // vermillion
	ctxColor    = color.RGBA{R: 0x7b, G: 0x3f, B: 0x9e, A: 0xff} // purple
	inkColor    = color.Gray{Y: 0x1a}
	frameColor  = color.Gray{Y: 0x40}
)

// Size is 19 cm × 7.6 cm.
func (b *Bottleneck) Size() (w, h vg.Length) { return 2 * panelW, figH }

// Validate reports weights that cannot be drawn.
func (b *Bottleneck) Validate() error {
	w := b.weights()
	if len(w) < 1 || len(w) > 8 {
		return fmt.Errorf("seq2seq.Bottleneck: want 1 to 8 weights, got %d", len(w))
	}
	for i, x := range w {
		if x < 0 || x > 1 || math.IsNaN(x) {
			return fmt.Errorf("seq2seq.Bottleneck: weight %d is %v, want a value in [0, 1]", i, x)
		}
	}
	if b.Decoder < 0 || b.Decoder > 5 {
		return fmt.Errorf("seq2seq.Bottleneck: Decoder is %d, want 1 to 5 (0 = 3)", b.Decoder)
	}
	return nil
}

func (b *Bottleneck) weights() []float64 {
	if b.Weights == nil {
		return DefaultWeights
	}
	return b.Weights
}

// pen draws in layout coordinates: points from the top-left corner of
// the figure, y growing downwards, scaled to the canvas.
type pen struct {
	c      draw.Canvas
	sx, sy vg.Length
}

func (p pen) pt(x, y vg.Length) vg.Point {
	return vg.Point{X: p.c.Min.X + x*p.sx, Y: p.c.Max.Y - y*p.sy}
}

func style(size vg.Length, bold bool, clr color.Color) text.Style {
	f := font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, size)
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{Color: clr, Font: f, XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}
}

func (p pen) text(x, y vg.Length, size vg.Length, bold bool, clr color.Color, s string) {
	p.c.FillText(style(size, bold, clr), p.pt(x, y), s)
}

// rich writes text centred on (x, y) from parts that alternate between
// normal text and subscripts ("c", "t", " = Σ α", "s"): the font has no
// subscript letters, so they are drawn smaller and lower.
func (p pen) rich(x, y, size vg.Length, bold bool, clr color.Color, parts ...string) {
	styles := []text.Style{style(size, bold, clr), style(size*0.72, bold, clr)}
	total := vg.Length(0)
	for i, s := range parts {
		total += styles[i%2].Width(s)
	}
	at := p.pt(x, y)
	at.X -= total / 2
	for i, s := range parts {
		sty := styles[i%2]
		sty.XAlign = draw.XLeft
		q := at
		if i%2 == 1 {
			q.Y -= size * 0.3
		}
		p.c.FillText(sty, q, s)
		at.X += sty.Width(s)
	}
}

// box draws a state: a filled square centred on (x, y) with a label.
func (p pen) box(x, y vg.Length, fill color.Color, label ...string) {
	const half = 14
	r := vg.Rectangle{Min: p.pt(x-half, y+half), Max: p.pt(x+half, y-half)}
	pts := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
	p.c.FillPolygon(fill, pts)
	p.c.StrokeLines(draw.LineStyle{Color: frameColor, Width: 0.8}, append(pts, pts[0]))
	p.rich(x, y, 11, false, inkColor, label...)
}

// circle draws a filled circle of radius r with a white label.
func (p pen) circle(x, y, r vg.Length, fill color.Color, label ...string) {
	var path vg.Path
	c := p.pt(x, y)
	path.Move(vg.Point{X: c.X + r*p.sx, Y: c.Y})
	path.Arc(c, r*p.sx, 0, 2*math.Pi)
	path.Close()
	p.c.SetColor(fill)
	p.c.Fill(path)
	p.rich(x, y, 12, true, color.White, label...)
}

// arrow draws a straight arrow from (x0, y0) to (x1, y1).
func (p pen) arrow(x0, y0, x1, y1, width vg.Length, clr color.Color) {
	a, b := p.pt(x0, y0), p.pt(x1, y1)
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	ux, uy := dx/n, dy/n
	head, half := 6+float64(width), 3+float64(width)/2
	base := vg.Point{X: b.X - vg.Length(ux*head), Y: b.Y - vg.Length(uy*head)}
	p.c.StrokeLines(draw.LineStyle{Color: clr, Width: width}, []vg.Point{a, base})
	p.c.FillPolygon(clr, []vg.Point{b,
		{X: base.X - vg.Length(uy*half), Y: base.Y + vg.Length(ux*half)},
		{X: base.X + vg.Length(uy*half), Y: base.Y - vg.Length(ux*half)}})
}

// Draw draws both panels on c, stretched to its size.
func (b *Bottleneck) Draw(c draw.Canvas) {
	w, h := b.Size()
	p := pen{c: c, sx: (c.Max.X - c.Min.X) / w, sy: (c.Max.Y - c.Min.Y) / h}
	weights := b.weights()
	nDec := b.Decoder
	if nDec == 0 {
		nDec = 3
	}
	n := len(weights)
	const encY, decY = 62, 178
	encX := func(i int, left vg.Length) vg.Length {
		step := vg.Length(36)
		if n > 5 {
			step = 180 / vg.Length(n)
		}
		return left + 20 + step*vg.Length(i)
	}

	// Left: the bottleneck.
	p.text(panelW/2, 14, 12, true, inkColor, "Without attention: one vector c")
	p.text(encX(0, 0)+2*36-20, encY-26, 10, false, inkColor, "encoder")
	for i := range n {
		x := encX(i, 0)
		p.box(x, encY, encColor, "h", fmt.Sprint(i+1))
		if i+1 < n {
			p.arrow(x+14, encY, encX(i+1, 0)-14, encY, 1, frameColor)
		}
	}
	cx, cy := vg.Length(230), vg.Length(encY)
	p.arrow(encX(n-1, 0)+14, encY, cx-17, cy, 1.6, bottleColor)
	p.circle(cx, cy, 16, bottleColor, "c")
	p.text(cx-28, cy-37, 9.5, true, bottleColor, "bottleneck: the whole")
	p.text(cx-28, cy-26, 9.5, true, bottleColor, "input in one vector")
	for j := range nDec {
		x := 50 + vg.Length(j)*52
		p.box(x, decY, decColor, "s", fmt.Sprint(j+1))
		p.arrow(cx-6, cy+16, x+4, decY-15, 0.9, bottleColor)
		if j+1 < nDec {
			p.arrow(x+14, decY, x+52-14, decY, 1, frameColor)
		}
	}
	p.text(50+vg.Length(nDec-1)*26, decY+24, 10, false, inkColor, "decoder: every step gets the same c")

	// Right: attention.
	left := panelW
	p.c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 0xcc}, Width: 0.6},
		[]vg.Point{p.pt(left, 28), p.pt(left, figH-10)})
	p.rich(left+panelW/2, 14, 12, true, inkColor, "With attention: c", "t", " = Σ α", "s", " h", "s")
	p.text(encX(0, left)+2*36, encY-26, 10, false, inkColor, "encoder states, all kept")
	ctxX, ctxY := left+110, vg.Length(136)
	top := 0.0
	for _, x := range weights {
		top = max(top, x)
	}
	for i, wgt := range weights {
		x := encX(i, left)
		shade := 0.25 + 0.75*wgt/max(top, 1e-9)
		clr := color.RGBA{R: 0xd5, G: uint8(0x5e + (1-shade)*0x90), B: uint8((1 - shade) * 0xc0), A: 0xff}
		p.c.StrokeLines(draw.LineStyle{Color: clr, Width: vg.Length(0.6 + 9*wgt)},
			[]vg.Point{p.pt(x, encY+14), p.pt(ctxX, ctxY-12)})
		p.box(x, encY, encColor, "h", fmt.Sprint(i+1))
		// The weight, on the line a third of the way down.
		lx := x + (ctxX-x)*0.34
		ly := encY + 14 + (ctxY-12-encY-14)*0.34
		bg := vg.Rectangle{Min: p.pt(lx-13, ly+7), Max: p.pt(lx+13, ly-7)}
		p.c.FillPolygon(color.White, []vg.Point{bg.Min, {X: bg.Max.X, Y: bg.Min.Y}, bg.Max, {X: bg.Min.X, Y: bg.Max.Y}})
		p.text(lx, ly, 9, true, inkColor, fmt.Sprintf("%.2f", wgt))
	}
	p.circle(ctxX, ctxY, 13, ctxColor, "c", "t")
	p.rich(ctxX+80, ctxY-6, 9.5, false, ctxColor, "weights α", "s", " (line width)")
	p.text(ctxX+80, ctxY+7, 9.5, false, ctxColor, "sum to 1, new at every step")
	p.arrow(ctxX, ctxY+13, ctxX, decY-15, 1.2, ctxColor)
	p.box(ctxX, decY, decColor, "s", "t")
	p.text(ctxX+80, decY, 10, false, inkColor, "decoder step t")
}
