package viz

import (
	"cmp"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// EncoderDiagram draws the architecture of the Transformer encoder as boxes
// and arrows, from the input at the top to the output at the bottom:
//
//	input tokens → token embedding × √d_model → ⊕ positional encoding →
//	[multi-head self-attention → Add & Norm → feed-forward → Add & Norm] × N →
//	encoder output
//
// The residual connections are drawn as green arrows that go around each
// sublayer into its Add & Norm, the repeated layer is framed with a dashed
// line, each kind of block has its own colour with a legend under the
// diagram, and the shape of the tensor is written next to the steps where
// it changes.
//
// Introduced in lesson 05 (the Transformer encoder).
type EncoderDiagram struct {
	// Title is written above the diagram; "" means "Transformer encoder".
	Title string

	// Layers is the number N of stacked layers written next to the dashed
	// frame ("× 6"); 0 writes "× N".
	Layers int

	// NoShapes leaves out the tensor shapes written right of the boxes.
	NoShapes bool

	// Width and Height are the size of the figure; zero means 15 cm by
	// 19.6 cm. The drawing is stretched to other sizes; its text is not.
	Width, Height vg.Length
}

// The colours of the blocks, lighter versions of the source lesson's
// (light green embedding, pink attention, sky-blue feed-forward, plum
// layer norm) so that black text reads on all of them.
var (
	diagramInput     = color.RGBA{R: 0xe2, G: 0xe2, B: 0xe2, A: 0xff}
	diagramEmbedding = color.RGBA{R: 0xb9, G: 0xe8, B: 0xb0, A: 0xff}
	diagramAttention = color.RGBA{R: 0xff, G: 0xc4, B: 0xce, A: 0xff}
	diagramFFN       = color.RGBA{R: 0xaa, G: 0xda, B: 0xf2, A: 0xff}
	diagramNorm      = color.RGBA{R: 0xe6, G: 0xc6, B: 0xea, A: 0xff}
	diagramOutput    = color.RGBA{R: 0xff, G: 0xf1, B: 0xb3, A: 0xff}
	diagramResidual  = color.RGBA{R: 0x1b, G: 0x8a, B: 0x4b, A: 0xff}
)

// Default size of an EncoderDiagram, in the units its layout is written in.
const (
	diagramW = 15 * vg.Centimeter
	diagramH = 19.6 * vg.Centimeter
)

// Validate reports a negative Layers, Width or Height.
func (d *EncoderDiagram) Validate() error {
	if d.Layers < 0 {
		return fmt.Errorf("viz: EncoderDiagram.Layers is %d, negative", d.Layers)
	}
	if d.Width < 0 || d.Height < 0 {
		return fmt.Errorf("viz: EncoderDiagram size %v×%v is negative", d.Width, d.Height)
	}
	return nil
}

// Size returns Width and Height, or 15 cm by 19.6 cm for those that are zero.
func (d *EncoderDiagram) Size() (w, h vg.Length) {
	return sized(d.Width, d.Height, diagramW, diagramH)
}

// diagramPen draws in the layout's coordinates (points from the top left
// corner of a 15 × 19.6 cm page, y growing downwards) on a canvas of any
// size.
type diagramPen struct {
	c      draw.Canvas
	sx, sy vg.Length
}

func (p diagramPen) pt(x, y vg.Length) vg.Point {
	return vg.Point{X: p.c.Min.X + x*p.sx, Y: p.c.Max.Y - y*p.sy}
}

// openDiagram is the opening every diagram's Draw shares: it validates
// d (drawing the error instead when d is invalid, and returning false),
// makes the pen that maps the diagram's w × h layout onto c, and writes
// the title at the top.
func openDiagram(c draw.Canvas, d interface{ Validate() error }, w, h vg.Length, title string) (diagramPen, bool) {
	if err := d.Validate(); err != nil {
		drawError(c, err)
		return diagramPen{}, false
	}
	p := diagramPen{c: c, sx: c.Size().X / w, sy: c.Size().Y / h}
	c.FillText(textStyle(titleSize+1, true), p.pt(w/2, 0.6*vg.Centimeter), title)
	return p, true
}

// plus draws the ⊕ of an addition, a white circle of radius r centred
// on (cx, cy) with a cross, in clr with lines of the given width.
func (p diagramPen) plus(cx, cy, r vg.Length, clr color.Color, width vg.Length) {
	c := p.c
	center := p.pt(cx, cy)
	var circle vg.Path
	circle.Move(vg.Point{X: center.X + r*p.sx, Y: center.Y})
	circle.Arc(center, r*p.sx, 0, 2*math.Pi)
	circle.Close()
	c.SetColor(color.White)
	c.Fill(circle)
	c.SetLineStyle(draw.LineStyle{Color: clr, Width: width})
	c.Stroke(circle)
	c.StrokeLines(draw.LineStyle{Color: clr, Width: width},
		[]vg.Point{p.pt(cx-r*0.6, cy), p.pt(cx+r*0.6, cy)},
		[]vg.Point{p.pt(cx, cy-r*0.6), p.pt(cx, cy+r*0.6)})
}

// box fills a rounded rectangle centred on (cx, cy) and writes lines of
// text in it; bold makes the first line bold.
func (p diagramPen) box(cx, cy, w, h vg.Length, fill color.Color, bold bool, lines ...string) {
	r := vg.Rectangle{Min: p.pt(cx-w/2, cy+h/2), Max: p.pt(cx+w/2, cy-h/2)}
	path := roundedRect(r, 4)
	p.c.SetColor(fill)
	p.c.Fill(path)
	p.c.SetLineStyle(draw.LineStyle{Color: frameColor, Width: vg.Points(0.8)})
	p.c.Stroke(path)
	p.lines(cx, cy, bold, lines...)
}

// lines writes lines of text centred on (cx, cy).
func (p diagramPen) lines(cx, cy vg.Length, bold bool, lines ...string) {
	lineH := textStyle(10.5, false).Height("Ag") * 1.1
	top := cy - lineH*vg.Length(len(lines)-1)/2
	for i, l := range lines {
		sty := textStyle(10.5, bold && i == 0)
		if i > 0 {
			sty = textStyle(9, false)
		}
		p.c.FillText(sty, p.pt(cx, top+lineH*vg.Length(i)), l)
	}
}

// arrow draws a line through pts (layout coordinates) with an arrow head
// at its end.
func (p diagramPen) arrow(clr color.Color, width vg.Length, pts ...vg.Point) {
	var line []vg.Point
	for _, q := range pts {
		line = append(line, p.pt(q.X, q.Y))
	}
	end, before := line[len(line)-1], line[len(line)-2]
	dx, dy := float64(end.X-before.X), float64(end.Y-before.Y)
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	ux, uy := dx/n, dy/n
	const headLen, headHalf = 7.0, 3.5
	base := vg.Point{X: end.X - vg.Length(ux*headLen), Y: end.Y - vg.Length(uy*headLen)}
	line[len(line)-1] = base // the line stops where the head starts
	p.c.StrokeLines(draw.LineStyle{Color: clr, Width: width}, line)
	head := []vg.Point{
		end,
		{X: base.X - vg.Length(uy*headHalf), Y: base.Y + vg.Length(ux*headHalf)},
		{X: base.X + vg.Length(uy*headHalf), Y: base.Y - vg.Length(ux*headHalf)},
	}
	p.c.FillPolygon(clr, head)
}

// roundedRect returns the outline of r with corners of radius rad.
func roundedRect(r vg.Rectangle, rad vg.Length) vg.Path {
	rad = min(rad, r.Size().X/2, r.Size().Y/2)
	var path vg.Path
	path.Move(vg.Point{X: r.Min.X + rad, Y: r.Min.Y})
	path.Line(vg.Point{X: r.Max.X - rad, Y: r.Min.Y})
	path.Arc(vg.Point{X: r.Max.X - rad, Y: r.Min.Y + rad}, rad, -math.Pi/2, math.Pi/2)
	path.Line(vg.Point{X: r.Max.X, Y: r.Max.Y - rad})
	path.Arc(vg.Point{X: r.Max.X - rad, Y: r.Max.Y - rad}, rad, 0, math.Pi/2)
	path.Line(vg.Point{X: r.Min.X + rad, Y: r.Max.Y})
	path.Arc(vg.Point{X: r.Min.X + rad, Y: r.Max.Y - rad}, rad, math.Pi/2, math.Pi/2)
	path.Line(vg.Point{X: r.Min.X, Y: r.Min.Y + rad})
	path.Arc(vg.Point{X: r.Min.X + rad, Y: r.Min.Y + rad}, rad, math.Pi, math.Pi/2)
	path.Close()
	return path
}

// Draw draws the diagram on c, stretched to its size.
func (d *EncoderDiagram) Draw(c draw.Canvas) {
	p, ok := openDiagram(c, d, diagramW, diagramH, cmp.Or(d.Title, "Transformer encoder"))
	if !ok {
		return
	}
	cm := vg.Centimeter
	pt := func(x, y vg.Length) vg.Point { return vg.Point{X: x, Y: y} }
	black, arrowW := color.Color(frameColor), vg.Points(1.2)

	const (
		cx   = 6.4 * vg.Centimeter // centre of the main column
		boxW = 5.6 * vg.Centimeter
		boxH = 0.95 * vg.Centimeter
	)
	right := cx + boxW/2
	resX := right + 0.55*cm  // the residual lines
	shapeX := right + 1.3*cm // the shape annotations (left-aligned), right of the frame
	shape := func(y vg.Length, lines ...string) {
		if d.NoShapes {
			return
		}
		lineH := textStyle(9, false).Height("Ag") * 1.1
		for i, l := range lines {
			sty := textStyle(9, false)
			sty.XAlign = draw.XLeft
			sty.Color = color.Gray{Y: 0x55}
			c.FillText(sty, p.pt(shapeX, y+lineH*(vg.Length(i)-vg.Length(len(lines)-1)/2)), l)
		}
	}

	// Input, embedding, positional encoding.
	yIn, yEmb, yPlus := 1.75*cm, 3.35*cm, 4.75*cm
	p.box(cx, yIn, boxW, boxH, diagramInput, true, "Input tokens", "ids, e.g. “the cat sat …”")
	shape(yIn, "[batch, seq]")
	p.arrow(black, arrowW, pt(cx, yIn+boxH/2), pt(cx, yEmb-boxH/2))
	p.box(cx, yEmb, boxW, boxH, diagramEmbedding, true, "Token embedding × √d_model", "a learned vector per id")
	shape(yEmb, "[batch, seq, d_model]")
	const plusR = 0.28 * vg.Centimeter
	p.arrow(black, arrowW, pt(cx, yEmb+boxH/2), pt(cx, yPlus-plusR))
	p.plus(cx, yPlus, plusR, black, arrowW) // the ⊕ that adds the positional encoding
	peW, peX := 3.9*cm, 2.25*cm
	p.box(peX, yPlus, peW, boxH, diagramEmbedding, true, "Positional encoding", "fixed sin / cos")
	p.arrow(black, arrowW, pt(peX+peW/2, yPlus), pt(cx-plusR, yPlus))

	// The repeated encoder layer.
	frameTop, frameBottom := 5.65*cm, 14.95*cm
	yBranch1 := frameTop + 0.45*cm
	yAtt, yNorm1 := 7.55*cm, 9.35*cm
	yBranch2 := yNorm1 + boxH/2 + 0.55*cm
	yFFN, yNorm2 := 12.0*cm, 14.0*cm
	frame := vg.Rectangle{Min: p.pt(cx-boxW/2-0.7*cm, frameBottom), Max: p.pt(resX+0.5*cm, frameTop)}
	c.SetLineStyle(draw.LineStyle{Color: black, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}})
	c.Stroke(roundedRect(frame, 6))
	n := "N"
	if d.Layers > 0 {
		n = fmt.Sprint(d.Layers)
	}
	layerX := (cx - boxW/2 - 0.7*cm) / 2
	c.FillText(textStyle(14, true), p.pt(layerX, (frameTop+frameBottom)/2-0.55*cm), "× "+n)
	p.lines(layerX, (frameTop+frameBottom)/2+0.35*cm, false, "encoder", "layer")

	p.arrow(black, arrowW, pt(cx, yPlus+plusR), pt(cx, yBranch1))
	// x goes three ways into the attention: as queries, keys and values.
	c.StrokeLines(draw.LineStyle{Color: black, Width: arrowW}, []vg.Point{p.pt(cx, yBranch1), p.pt(cx, yBranch1+0.3*cm)},
		[]vg.Point{p.pt(cx-1.6*cm, yBranch1+0.3*cm), p.pt(cx+1.6*cm, yBranch1+0.3*cm)})
	for i, name := range []string{"Q", "K", "V"} {
		x := cx + vg.Length(i-1)*1.6*cm
		p.arrow(black, arrowW, pt(x, yBranch1+0.3*cm), pt(x, yAtt-boxH/2))
		sty := textStyle(9, true)
		sty.XAlign = draw.XRight
		c.FillText(sty, p.pt(x-0.12*cm, (yBranch1+0.3*cm+yAtt-boxH/2)/2+0.05*cm), name)
	}
	p.box(cx, yAtt, boxW, boxH, diagramAttention, true, "Multi-head self-attention", "h heads, each on d_k = d_model/h")
	shape(yAtt, "weights", "[batch, h, seq, seq]")
	p.arrow(black, arrowW, pt(cx, yAtt+boxH/2), pt(cx, yNorm1-boxH/2))
	p.box(cx, yNorm1, boxW, boxH, diagramNorm, true, "Add & Norm", "LayerNorm(x + attention)")
	shape(yNorm1+0.15*cm, "[batch, seq, d_model]")
	p.arrow(black, arrowW, pt(cx, yNorm1+boxH/2), pt(cx, yFFN-boxH/2))
	p.box(cx, yFFN, boxW, boxH, diagramFFN, true, "Feed-forward", "max(0, x·W₁ + b₁)·W₂ + b₂")
	shape(yFFN, "hidden", "[batch, seq, d_ff]")
	p.arrow(black, arrowW, pt(cx, yFFN+boxH/2), pt(cx, yNorm2-boxH/2))
	p.box(cx, yNorm2, boxW, boxH, diagramNorm, true, "Add & Norm", "LayerNorm(x + FFN(x))")
	shape(yNorm2+0.15*cm, "[batch, seq, d_model]")

	// Residual connections: around each sublayer into its Add & Norm.
	resW := vg.Points(2)
	for _, r := range []struct{ from, to vg.Length }{{yBranch1, yNorm1}, {yBranch2, yNorm2}} {
		dot := p.pt(cx, r.from)
		c.FillPolygon(diagramResidual, circlePoints(dot, 2.5))
		p.arrow(diagramResidual, resW, pt(cx, r.from), pt(resX, r.from), pt(resX, r.to), pt(right, r.to))
	}
	sty := textStyle(9, false)
	sty.Color = diagramResidual
	sty.Rotation = -math.Pi / 2
	c.FillText(sty, p.pt(resX-0.25*cm, (yBranch1+yNorm1)/2), "residual")
	c.FillText(sty, p.pt(resX-0.25*cm, (yBranch2+yNorm2)/2), "residual")

	// Output.
	yOut := 16.0 * cm
	p.arrow(black, arrowW, pt(cx, yNorm2+boxH/2), pt(cx, yOut-boxH/2))
	p.box(cx, yOut, boxW, boxH, diagramOutput, true, "Encoder output", "one vector per token, in context")
	shape(yOut, "[batch, seq, d_model]")

	d.drawLegend(p, 17.35*cm)
}

// drawLegend writes the colour legend in two rows from y down.
func (d *EncoderDiagram) drawLegend(p diagramPen, y vg.Length) {
	cm := vg.Centimeter
	items := []struct {
		name string
		clr  color.Color
		line bool
	}{
		{"input / output", diagramInput, false},
		{"embedding & position", diagramEmbedding, false},
		{"attention", diagramAttention, false},
		{"feed-forward", diagramFFN, false},
		{"Add & Norm (LayerNorm)", diagramNorm, false},
		{"residual connection", diagramResidual, true},
	}
	colW := []vg.Length{0.5 * cm, 4.5 * cm, 9.8 * cm}
	for i, it := range items {
		x, row := colW[i%3], vg.Length(i/3)
		yy := y + row*0.8*cm
		if it.line {
			p.arrow(diagramResidual, vg.Points(2), vg.Point{X: x, Y: yy}, vg.Point{X: x + 0.7*cm, Y: yy})
		} else {
			r := vg.Rectangle{Min: p.pt(x, yy+0.22*cm), Max: p.pt(x+0.7*cm, yy-0.22*cm)}
			if i == 0 { // input and output share a swatch: half grey, half yellow
				half := vg.Rectangle{Min: r.Min, Max: vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: r.Max.Y}}
				p.c.SetColor(diagramInput)
				p.c.Fill(half.Path())
				half = vg.Rectangle{Min: vg.Point{X: half.Max.X, Y: r.Min.Y}, Max: r.Max}
				p.c.SetColor(diagramOutput)
				p.c.Fill(half.Path())
			} else {
				p.c.SetColor(it.clr)
				p.c.Fill(r.Path())
			}
			strokeRect(p.c, r, draw.LineStyle{Color: frameColor, Width: vg.Points(0.6)})
		}
		sty := textStyle(tickSize, false)
		sty.XAlign = draw.XLeft
		p.c.FillText(sty, p.pt(x+0.9*cm, yy), it.name)
	}
}

// circlePoints returns a polygon approximating a circle of radius r
// points around c.
func circlePoints(c vg.Point, r vg.Length) []vg.Point {
	var pts []vg.Point
	for i := range 16 {
		a := 2 * math.Pi * float64(i) / 16
		pts = append(pts, vg.Point{X: c.X + r*vg.Length(math.Cos(a)), Y: c.Y + r*vg.Length(math.Sin(a))})
	}
	return pts
}
