package viz

import (
	"cmp"
	"fmt"
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TransformerDiagram draws the whole Transformer (Vaswani et al. 2017,
// Figure 1) as boxes and arrows: lesson 05's encoder on the left and the
// decoder on the right, whose layers add a causal (masked) self-attention
// and a cross-attention that reads the encoder's output, then the linear
// output layer and the softmax over the target vocabulary:
//
//	source → embedding ⊕ PE → [self-attention, Add & Norm, FFN, Add & Norm] × N → memory
//	target shifted right → embedding ⊕ PE → [masked self-attention, Add & Norm,
//	    cross-attention (K, V = memory), Add & Norm, FFN, Add & Norm] × N → linear → softmax
//
// Colours and the legend are [EncoderDiagram]'s.
//
// Introduced in lesson 09.
type TransformerDiagram struct {
	// Title is written above the diagram; "" means "The Transformer:
	// encoder and decoder".
	Title string
	// EncoderLayers and DecoderLayers are written next to the dashed
	// frames ("× 6"); 0 writes "× N".
	EncoderLayers, DecoderLayers int
	// Width and Height are the size of the figure; zero means 18 cm by
	// 19.6 cm.
	Width, Height vg.Length
}

const (
	transformerDiagramW = 18 * vg.Centimeter
	transformerDiagramH = 19.6 * vg.Centimeter
)

// Validate reports negative layer counts or sizes.
func (d *TransformerDiagram) Validate() error {
	if d.EncoderLayers < 0 || d.DecoderLayers < 0 {
		return fmt.Errorf("viz: TransformerDiagram layers %d and %d, negative", d.EncoderLayers, d.DecoderLayers)
	}
	if d.Width < 0 || d.Height < 0 {
		return fmt.Errorf("viz: TransformerDiagram size %v×%v is negative", d.Width, d.Height)
	}
	return nil
}

// Size returns Width and Height, or 18 cm by 19.6 cm for those that are zero.
func (d *TransformerDiagram) Size() (w, h vg.Length) {
	return sized(d.Width, d.Height, transformerDiagramW, transformerDiagramH)
}

// Draw draws the diagram on c, stretched to its size.
func (d *TransformerDiagram) Draw(c draw.Canvas) {
	p, ok := openDiagram(c, d, transformerDiagramW, transformerDiagramH, cmp.Or(d.Title, "The Transformer: encoder and decoder"))
	if !ok {
		return
	}
	cm := vg.Centimeter
	pt := func(x, y vg.Length) vg.Point { return vg.Point{X: x, Y: y} }
	black, arrowW := color.Color(frameColor), vg.Points(1.2)

	const (
		boxW = 5.0 * vg.Centimeter
		boxH = 0.9 * vg.Centimeter
		encX = 4.6 * vg.Centimeter
		decX = 12.9 * vg.Centimeter
	)
	plus := func(cx, y vg.Length) {
		const r = 0.26 * vg.Centimeter
		p.plus(cx, y, r, black, arrowW)
		sty := textStyle(9, false)
		sty.XAlign = draw.XRight
		c.FillText(sty, p.pt(cx-r-0.15*cm, y), "positional encoding")
	}
	frame := func(cx, top, bottom vg.Length, n int, name string) {
		r := vg.Rectangle{Min: p.pt(cx-boxW/2-0.35*cm, bottom), Max: p.pt(cx+boxW/2+0.85*cm, top)}
		c.SetLineStyle(draw.LineStyle{Color: black, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}})
		c.Stroke(roundedRect(r, 6))
		label := "× N"
		if n > 0 {
			label = fmt.Sprintf("× %d", n)
		}
		sty := textStyle(10.5, true)
		sty.XAlign = draw.XLeft
		c.FillText(sty, p.pt(cx+0.25*cm, top-0.3*cm), label+" "+name)
	}
	residual := func(cx, from, to vg.Length) {
		resX := cx + boxW/2 + 0.45*cm
		c.FillPolygon(diagramResidual, circlePoints(p.pt(cx, from), 2.5))
		p.arrow(diagramResidual, vg.Points(2), pt(cx, from), pt(resX, from), pt(resX, to), pt(cx+boxW/2, to))
	}
	column := func(cx vg.Length, input, inputNote string, layers []struct {
		y          vg.Length
		fill       color.Color
		name, note string
	}) {
		p.box(cx, 1.7*cm, boxW, boxH, diagramInput, true, input, inputNote)
		p.arrow(black, arrowW, pt(cx, 1.7*cm+boxH/2), pt(cx, 3.0*cm-boxH/2))
		p.box(cx, 3.0*cm, boxW, boxH, diagramEmbedding, true, "Embedding × √d_model", "[batch, seq, d_model]")
		p.arrow(black, arrowW, pt(cx, 3.0*cm+boxH/2), pt(cx, 4.15*cm-0.26*cm))
		plus(cx, 4.15*cm)
		prev := 4.15*cm + 0.26*cm
		for _, l := range layers {
			p.arrow(black, arrowW, pt(cx, prev), pt(cx, l.y-boxH/2))
			p.box(cx, l.y, boxW, boxH, l.fill, true, l.name, l.note)
			prev = l.y + boxH/2
		}
	}
	type layer = struct {
		y          vg.Length
		fill       color.Color
		name, note string
	}
	// Encoder.
	encLayers := []layer{
		{6.4 * cm, diagramAttention, "Self-attention", "every source token sees all"},
		{7.7 * cm, diagramNorm, "Add & Norm", ""},
		{9.2 * cm, diagramFFN, "Feed-forward", "max(0, x·W₁ + b₁)·W₂ + b₂"},
		{10.5 * cm, diagramNorm, "Add & Norm", ""},
	}
	column(encX, "Source tokens", "“22 Nov 2026” → ids [batch, src]", encLayers)
	frame(encX, 5.1*cm, 11.2*cm, d.EncoderLayers, "encoder layers")
	residual(encX, 5.55*cm, 7.7*cm)
	residual(encX, 8.45*cm, 10.5*cm)
	yMem := 12.4 * cm
	p.arrow(black, arrowW, pt(encX, 10.5*cm+boxH/2), pt(encX, yMem-boxH/2))
	p.box(encX, yMem, boxW, boxH, diagramOutput, true, "Memory (encoder output)", "[batch, src, d_model]")

	// Decoder.
	decLayers := []layer{
		{6.4 * cm, diagramAttention, "Masked self-attention", "token t sees tokens 0 … t"},
		{7.7 * cm, diagramNorm, "Add & Norm", ""},
		{9.2 * cm, diagramAttention, "Cross-attention", "Q: decoder · K, V: memory"},
		{10.5 * cm, diagramNorm, "Add & Norm", ""},
		{12.0 * cm, diagramFFN, "Feed-forward", "max(0, x·W₁ + b₁)·W₂ + b₂"},
		{13.3 * cm, diagramNorm, "Add & Norm", ""},
	}
	column(decX, "Target tokens, shifted right", "start, 2, 0, 2, 6, - … [batch, tgt]", decLayers)
	frame(decX, 5.1*cm, 14.0*cm, d.DecoderLayers, "decoder layers")
	residual(decX, 5.55*cm, 7.7*cm)
	residual(decX, 8.45*cm, 10.5*cm)
	residual(decX, 11.25*cm, 13.3*cm)
	yLin, ySoft := 15.1*cm, 16.4*cm
	p.arrow(black, arrowW, pt(decX, 13.3*cm+boxH/2), pt(decX, yLin-boxH/2))
	p.box(decX, yLin, boxW, boxH, diagramFFN, true, "Linear", "d_model → target vocabulary")
	p.arrow(black, arrowW, pt(decX, yLin+boxH/2), pt(decX, ySoft-boxH/2))
	p.box(decX, ySoft, boxW, boxH, diagramOutput, true, "Softmax", "probabilities [batch, tgt, vocab]")

	// The memory feeds every decoder layer's cross-attention as keys and values.
	midX := (encX + boxW/2 + decX - boxW/2) / 2
	p.arrow(black, vg.Points(1.6), pt(encX+boxW/2, yMem), pt(midX, yMem), pt(midX, 9.2*cm), pt(decX-boxW/2, 9.2*cm))
	sty := textStyle(9, true)
	sty.XAlign = draw.XLeft
	c.FillText(sty, p.pt(midX+0.15*cm, 8.95*cm), "K, V")

	(&EncoderDiagram{}).drawLegend(p, 17.8*cm)
}
