package viz

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Arrows draws one query attending to the keys of a sentence: the keys in
// a row of boxes, the query in a box above them, and an arrow from the
// query to every key whose width — and opacity — is proportional to the
// attention weight, with the weight written on the arrow. It is the row of
// a [Heatmap] that belongs to one query, drawn the way one explains
// attention on a whiteboard.
//
// In self-attention the query is one of the keys (QueryIndex marks its
// box); in cross-attention (Cross) it comes from another sentence, for
// example a French word attending to the English words.
//
// Introduced in lesson 03 (self-attention and multi-head attention).
type Arrows struct {
	// Keys are the tokens attended to, drawn left to right. Required.
	Keys []string

	// Weights holds the query's weight on each key, one per key: a row
	// of attention weights. They must be finite and ≥ 0; they usually
	// sum to 1. Required.
	Weights []float64

	// Query is the text of the query's box; "" uses Keys[QueryIndex]
	// (self-attention), or "query" when Cross is set.
	Query string

	// QueryIndex is the position of the query among the keys in
	// self-attention: that key's box is drawn in the query's colour. It
	// is ignored when Cross is set.
	QueryIndex int

	// Cross says that the query does not belong to the keys' sentence
	// (cross-attention): no key box is marked.
	Cross bool

	// Title is written above the figure; "" writes nothing.
	Title string

	// MaxWidth is the width of an arrow of weight 1; an arrow of weight
	// w is w·MaxWidth wide (but at least 0.6 pt, so that small weights
	// stay visible). Zero means 24 pt.
	MaxWidth vg.Length

	// MinWeight hides the arrows of weights below it (the weight is
	// still written, in grey); 0 draws every arrow of non-zero weight.
	MinWeight float64

	// Format is the fmt verb of the weights; "" means "%.2f".
	Format string

	// Width and Height are the size of the figure; zero computes them
	// from the number and length of the tokens.
	Width, Height vg.Length
}

// Colours and sizes of the arrows picture.
var (
	arrowColor    = color.NRGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff} // vermillion, as the second series of Lines
	keyBoxColor   = color.NRGBA{R: 0xd6, G: 0xe8, B: 0xf5, A: 0xff} // light blue
	queryBoxColor = color.NRGBA{R: 0xf8, G: 0xcf, B: 0xb8, A: 0xff} // light salmon
	hiddenColor   = color.Gray{Y: 0x99}
)

const (
	arrowsBoxHeight  = 0.9 * vg.Centimeter
	arrowsMinBoxW    = 1.8 * vg.Centimeter
	arrowsBoxGap     = 0.5 * vg.Centimeter
	arrowsSpan       = 4.5 * vg.Centimeter // vertical room for the arrows
	arrowsMinWidth   = vg.Length(0.6)      // points
	arrowsDefaultMax = vg.Length(24)       // points, the width of weight 1
	arrowsLabelAt    = 0.7                 // where the weight is written, from the query (0) to the key (1)
	tokenSize        = labelSize           // text of the boxes
)

// Validate reports why the picture cannot be drawn: no keys, a number of
// weights that differs from the number of keys, weights that are negative
// or not finite, a QueryIndex out of range, or a negative size.
func (a *Arrows) Validate() error {
	if len(a.Keys) == 0 {
		return errors.New("viz: Arrows.Keys is empty")
	}
	if len(a.Weights) != len(a.Keys) {
		return fmt.Errorf("viz: Arrows has %d weights for %d keys: pass the query's row of attention weights", len(a.Weights), len(a.Keys))
	}
	for j, w := range a.Weights {
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("viz: Arrows.Weights[%d] is %g: weights must be finite and ≥ 0", j, w)
		}
	}
	if !a.Cross && (a.QueryIndex < 0 || a.QueryIndex >= len(a.Keys)) {
		return fmt.Errorf("viz: Arrows.QueryIndex is %d, not a key position 0..%d (set Cross for a query from another sentence)", a.QueryIndex, len(a.Keys)-1)
	}
	if a.MaxWidth < 0 || a.Width < 0 || a.Height < 0 {
		return fmt.Errorf("viz: Arrows sizes must not be negative (MaxWidth %v, Width %v, Height %v)", a.MaxWidth, a.Width, a.Height)
	}
	return nil
}

// queryText returns the text of the query box.
func (a *Arrows) queryText() string {
	switch {
	case a.Query != "":
		return a.Query
	case a.Cross:
		return "query"
	}
	return a.Keys[a.QueryIndex]
}

func (a *Arrows) format() string {
	if a.Format == "" {
		return "%.2f"
	}
	return a.Format
}

// arrowWidth returns the width of the arrow of weight w: w·MaxWidth, at
// least arrowsMinWidth.
func (a *Arrows) arrowWidth(w float64) vg.Length {
	m := a.MaxWidth
	if m == 0 {
		m = arrowsDefaultMax
	}
	return max(vg.Length(w)*m, arrowsMinWidth)
}

// arrowAlpha returns the opacity of the arrow of weight w: from 0.35 for a
// weight of 0 to 1 for a weight of 1.
func arrowAlpha(w float64) float64 {
	return 0.35 + 0.65*min(max(w, 0), 1)
}

// boxWidth is the width of every key box: room for the longest token.
func (a *Arrows) boxWidth() vg.Length {
	sty := textStyle(tokenSize, false)
	w := arrowsMinBoxW
	for _, k := range a.Keys {
		w = max(w, sty.Width(k)+0.6*vg.Centimeter)
	}
	return w
}

func (a *Arrows) titleHeight() vg.Length {
	if a.Title == "" {
		return 0
	}
	return textStyle(titleSize, true).Height(a.Title) + 2*margin
}

// Size returns Width and Height, or the size the tokens need for those
// that are zero.
func (a *Arrows) Size() (w, h vg.Length) {
	w, h = 14*vg.Centimeter, 8*vg.Centimeter // for an invalid picture
	if a.Validate() == nil {
		n := vg.Length(len(a.Keys))
		w = n*a.boxWidth() + (n-1)*arrowsBoxGap + 2*margin + 0.4*vg.Centimeter
		qw := textStyle(tokenSize, true).Width(a.queryText()) + 0.8*vg.Centimeter
		w = max(w, qw+2*margin, textStyle(titleSize, true).Width(a.Title)+2*margin+0.6*vg.Centimeter)
		h = a.titleHeight() + 2*arrowsBoxHeight + arrowsSpan + 2*margin
	}
	return sized(a.Width, a.Height, w, h)
}

// arrowShape is one arrow of the picture, in page coordinates.
type arrowShape struct {
	from, to vg.Point  // tail (under the query box) and tip (on top of the key box)
	width    vg.Length // of the shaft
	alpha    float64
	hidden   bool     // weight 0, or below MinWeight: no arrow, grey label
	label    vg.Point // centre of the weight's text
	text     string
}

// arrowsLayout is where everything goes on a canvas.
type arrowsLayout struct {
	keys   []vg.Rectangle
	query  vg.Rectangle
	arrows []arrowShape
	title  vg.Point
}

// layout places the boxes and arrows on c (already inset by the margin).
func (a *Arrows) layout(c draw.Canvas) arrowsLayout {
	var l arrowsLayout
	top := c.Max.Y
	if a.Title != "" {
		th := a.titleHeight()
		l.title = vg.Point{X: c.Center().X, Y: top - th/2}
		top -= th
	}
	n := len(a.Keys)
	// Boxes shrink when the canvas is narrower than they would like.
	boxW, gap := a.boxWidth(), arrowsBoxGap
	if need := vg.Length(n)*boxW + vg.Length(n-1)*gap; need > c.Size().X {
		s := c.Size().X / need
		boxW, gap = boxW*s, gap*s
	}
	rowW := vg.Length(n)*boxW + vg.Length(n-1)*gap
	left := c.Center().X - rowW/2
	boxH := min(arrowsBoxHeight, (top-c.Min.Y)/4)
	for j := range n {
		x := left + vg.Length(j)*(boxW+gap)
		l.keys = append(l.keys, vg.Rectangle{Min: vg.Point{X: x, Y: c.Min.Y}, Max: vg.Point{X: x + boxW, Y: c.Min.Y + boxH}})
	}
	qw := min(textStyle(tokenSize, true).Width(a.queryText())+0.8*vg.Centimeter, c.Size().X)
	qw = max(qw, boxW)
	l.query = vg.Rectangle{Min: vg.Point{X: c.Center().X - qw/2, Y: top - boxH}, Max: vg.Point{X: c.Center().X + qw/2, Y: top}}

	// Tails spread along the bottom of the query box, in the order of the
	// keys, so that the arrows fan out instead of starting at one point.
	spread := 0.0
	if n > 1 {
		spread = float64(0.8*qw/2) / float64(c.Center().X-(left+boxW/2))
		spread = min(spread, 1)
	}
	for j, k := range l.keys {
		tip := vg.Point{X: (k.Min.X + k.Max.X) / 2, Y: k.Max.Y + vg.Points(1)}
		tail := vg.Point{X: c.Center().X + vg.Length(spread)*(tip.X-c.Center().X), Y: l.query.Min.Y - vg.Points(1)}
		w := a.Weights[j]
		l.arrows = append(l.arrows, arrowShape{
			from: tail, to: tip, width: a.arrowWidth(w), alpha: arrowAlpha(w),
			hidden: w == 0 || w < a.MinWeight,
			label: vg.Point{
				X: tail.X + vg.Length(arrowsLabelAt)*(tip.X-tail.X),
				Y: tail.Y + vg.Length(arrowsLabelAt)*(tip.Y-tail.Y),
			},
			text: fmt.Sprintf(a.format(), w),
		})
	}
	return l
}

// Draw draws the picture on c, or the reason why it cannot.
func (a *Arrows) Draw(c draw.Canvas) {
	if err := a.Validate(); err != nil {
		drawError(c, err)
		return
	}
	c = inset(c, margin)
	l := a.layout(c)
	if a.Title != "" {
		c.FillText(textStyle(titleSize, true), l.title, a.Title)
	}
	frame := draw.LineStyle{Color: frameColor, Width: vg.Points(0.75)}
	// Arrows first, light ones under heavy ones, then boxes and labels on top.
	order := make([]int, len(l.arrows))
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ { // insertion sort by weight: a handful of keys
		for j := i; j > 0 && a.Weights[order[j]] < a.Weights[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, i := range order {
		if s := l.arrows[i]; !s.hidden {
			clr := arrowColor
			clr.A = uint8(math.Round(255 * s.alpha))
			c.FillPolygon(clr, arrowPolygon(s.from, s.to, s.width))
		}
	}
	tok := textStyle(tokenSize, false)
	for j, k := range l.keys {
		fill := keyBoxColor
		if !a.Cross && j == a.QueryIndex {
			fill = queryBoxColor
		}
		c.FillPolygon(fill, arrowsBoxPoints(k))
		strokeRect(c, k, frame)
		c.FillText(tok, arrowsBoxCentre(k), a.Keys[j])
	}
	c.FillPolygon(queryBoxColor, arrowsBoxPoints(l.query))
	strokeRect(c, l.query, frame)
	c.FillText(textStyle(tokenSize, true), arrowsBoxCentre(l.query), a.queryText())

	val := textStyle(valueSize, false)
	for _, s := range l.arrows {
		pad := vg.Points(2)
		w, h := val.Width(s.text)+2*pad, val.Height(s.text)+pad
		bg := vg.Rectangle{Min: vg.Point{X: s.label.X - w/2, Y: s.label.Y - h/2}, Max: vg.Point{X: s.label.X + w/2, Y: s.label.Y + h/2}}
		c.FillPolygon(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xe6}, arrowsBoxPoints(bg))
		val.Color = textColor
		if s.hidden {
			val.Color = hiddenColor
		}
		c.FillText(val, s.label, s.text)
	}
}

// arrowPolygon returns the outline of an arrow from tail to tip with a
// shaft of width w and a head that grows with it, as one polygon (so that
// a translucent arrow has no darker overlap where shaft and head meet).
func arrowPolygon(tail, tip vg.Point, w vg.Length) []vg.Point {
	dx, dy := float64(tip.X-tail.X), float64(tip.Y-tail.Y)
	length := math.Hypot(dx, dy)
	if length == 0 {
		return nil
	}
	ux, uy := dx/length, dy/length // along the arrow
	nx, ny := -uy, ux              // across it
	hw := float64(w) / 2
	hh := hw + max(3.5, 0.7*hw)   // half-width of the head
	hl := min(1.6*hh, 0.5*length) // length of the head
	bx, by := float64(tip.X)-ux*hl, float64(tip.Y)-uy*hl
	pt := func(x, y float64) vg.Point { return vg.Point{X: vg.Length(x), Y: vg.Length(y)} }
	tx, ty := float64(tail.X), float64(tail.Y)
	return []vg.Point{
		pt(tx+nx*hw, ty+ny*hw), pt(bx+nx*hw, by+ny*hw), pt(bx+nx*hh, by+ny*hh),
		tip,
		pt(bx-nx*hh, by-ny*hh), pt(bx-nx*hw, by-ny*hw), pt(tx-nx*hw, ty-ny*hw),
	}
}

func arrowsBoxPoints(r vg.Rectangle) []vg.Point {
	return []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
}

func arrowsBoxCentre(r vg.Rectangle) vg.Point {
	return vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}
}
