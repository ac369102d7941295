package viz

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
)

// paletteSize is the number of colours in the palettes of this package:
// as many as an 8-bit colour channel can tell apart.
const paletteSize = 256

// viridisAnchors are 17 of the 256 colours of matplotlib's viridis colour
// map (entries 0, 16, 32, ..., 240 and 255 of _viridis_data, by Nathaniel
// J. Smith, Stefan van der Walt and Eric Firing, released under CC0).
// Linear interpolation between them stays within 1/255 of the original.
var viridisAnchors = []anchor{
	{0 / 255.0, 0.267004, 0.004874, 0.329415},
	{16 / 255.0, 0.282327, 0.094955, 0.417331},
	{32 / 255.0, 0.278826, 0.175490, 0.483397},
	{48 / 255.0, 0.258965, 0.251537, 0.524736},
	{64 / 255.0, 0.229739, 0.322361, 0.545706},
	{80 / 255.0, 0.199430, 0.387607, 0.554642},
	{96 / 255.0, 0.172719, 0.448791, 0.557885},
	{112 / 255.0, 0.149039, 0.508051, 0.557250},
	{128 / 255.0, 0.127568, 0.566949, 0.550556},
	{144 / 255.0, 0.120638, 0.625828, 0.533488},
	{160 / 255.0, 0.157851, 0.683765, 0.501686},
	{176 / 255.0, 0.246070, 0.738910, 0.452024},
	{192 / 255.0, 0.369214, 0.788888, 0.382914},
	{208 / 255.0, 0.515992, 0.831158, 0.294279},
	{224 / 255.0, 0.678489, 0.863742, 0.189503},
	{240 / 255.0, 0.845561, 0.887322, 0.099702},
	{255 / 255.0, 0.993248, 0.906157, 0.143936},
}

// greysAnchors go from almost white to almost black (the ends of
// ColorBrewer's "Greys"), so that a 0 cell is still visible on a white page.
var greysAnchors = []anchor{
	{0, 0xf7 / 255.0, 0xf7 / 255.0, 0xf7 / 255.0},
	{1, 0x25 / 255.0, 0x25 / 255.0, 0x25 / 255.0},
}

// ViridisMap returns matplotlib's viridis colour map, dark purple at Min
// through blue and green to yellow at Max: perceptually uniform, readable
// by colour-blind people and in grey scale. Min and Max start as 0 and 1.
//
// Part of the library behind lesson 01 (scaled dot-product attention); the lesson does not name it.
func ViridisMap() palette.ColorMap {
	return &anchoredMap{anchors: viridisAnchors, min: 0, max: 1, alpha: 1}
}

// Viridis returns 256 colours of [ViridisMap], from dark purple to yellow.
// It is the default palette of [Heatmap].
//
// Part of the library behind lesson 01 (scaled dot-product attention); the lesson does not name it.
func Viridis() palette.Palette {
	return ViridisMap().Palette(paletteSize)
}

// Greys returns 256 greys from almost white to almost black, for 0/1 mask
// pictures: 1 (masked) comes out dark, 0 light.
//
// Introduced in lesson 01 (scaled dot-product attention).
func Greys() palette.Palette {
	m := &anchoredMap{anchors: greysAnchors, min: 0, max: 1, alpha: 1}
	return m.Palette(paletteSize)
}

// Diverging returns 255 colours from blue through light grey to red
// (Moreland's smooth blue-red map, gonum's moreland.SmoothBlueRed), for
// signed values such as positional encodings in [-1, 1]. It is a
// palette.DivergingPalette: a [Heatmap] using it centres its colour range
// on 0 unless FixedRange is set.
//
// Introduced in lesson 04 (positional encoding).
func Diverging() palette.Palette {
	cm := moreland.SmoothBlueRed()
	cm.SetMin(-1)
	cm.SetMax(1)
	// An odd number of colours puts the neutral one exactly in the middle.
	return divergingPalette(cm.Palette(paletteSize - 1).Colors())
}

// divergingPalette is a palette with its neutral colour in the middle.
type divergingPalette []color.Color

func (p divergingPalette) Colors() []color.Color { return p }

// CriticalIndex implements palette.DivergingPalette.
func (p divergingPalette) CriticalIndex() (low, high int) {
	return (len(p) - 1) / 2, len(p) / 2
}

// anchor is a colour of a colour map at position t in [0, 1], with its
// red, green and blue components in [0, 1].
type anchor struct{ t, r, g, b float64 }

// anchoredMap is a palette.ColorMap interpolating linearly in sRGB between
// anchor colours.
type anchoredMap struct {
	anchors         []anchor
	min, max, alpha float64
}

func (m *anchoredMap) At(v float64) (color.Color, error) {
	switch {
	case math.IsNaN(v):
		return nil, palette.ErrNaN
	case v < m.min:
		return nil, palette.ErrUnderflow
	case v > m.max:
		return nil, palette.ErrOverflow
	}
	t := 0.0
	if m.max > m.min {
		t = (v - m.min) / (m.max - m.min)
	}
	a := m.anchors
	i := 1
	for i < len(a)-1 && t > a[i].t {
		i++
	}
	lo, hi := a[i-1], a[i]
	f := (t - lo.t) / (hi.t - lo.t)
	mix := func(x, y float64) uint8 {
		return uint8(math.Round(255 * m.alpha * (x + f*(y-x))))
	}
	return color.RGBA{
		R: mix(lo.r, hi.r),
		G: mix(lo.g, hi.g),
		B: mix(lo.b, hi.b),
		A: uint8(math.Round(255 * m.alpha)),
	}, nil
}

func (m *anchoredMap) Max() float64     { return m.max }
func (m *anchoredMap) SetMax(v float64) { m.max = v }
func (m *anchoredMap) Min() float64     { return m.min }
func (m *anchoredMap) SetMin(v float64) { m.min = v }
func (m *anchoredMap) Alpha() float64   { return m.alpha }
func (m *anchoredMap) SetAlpha(a float64) {
	if !(a >= 0 && a <= 1) {
		panic(fmt.Sprintf("viz: alpha %g is not in [0, 1]", a))
	}
	m.alpha = a
}

// Palette returns n colours evenly spaced from Min to Max.
func (m *anchoredMap) Palette(n int) palette.Palette {
	colors := make([]color.Color, n)
	for i := range colors {
		v := m.min
		if n > 1 {
			v = m.min + (m.max-m.min)*float64(i)/float64(n-1)
		}
		if i == n-1 {
			v = m.max // no rounding past the end
		}
		c, err := m.At(v)
		if err != nil {
			panic(err) // unreachable: v is in [min, max]
		}
		colors[i] = c
	}
	return plainPalette(colors)
}

// plainPalette is a palette.Palette made of a list of colours.
type plainPalette []color.Color

func (p plainPalette) Colors() []color.Color { return p }

// scale maps values in [min, max] to the colours of a palette exactly as
// plotter.HeatMap does: the range is cut into len(colors)-1 equal steps and
// a value takes the colour of the nearest step.
type scale struct {
	colors   []color.Color
	min, max float64 // min < max
}

// index returns the palette index of v, clamped to the ends of the palette.
func (s scale) index(v float64) int {
	switch {
	case v <= s.min: // including -Inf
		return 0
	case v >= s.max: // including +Inf
		return len(s.colors) - 1
	}
	return int((v-s.min)*float64(len(s.colors)-1)/(s.max-s.min) + 0.5)
}

// paletteMap is the palette.ColorMap of a scale, which plotter.ColorBar
// needs: a colour bar drawn with it shows the very colours of the cells.
type paletteMap struct {
	scale
}

func (m *paletteMap) At(v float64) (color.Color, error) {
	switch {
	case math.IsNaN(v):
		return nil, palette.ErrNaN
	case v < m.min:
		return nil, palette.ErrUnderflow
	case v > m.max:
		return nil, palette.ErrOverflow
	}
	return m.colors[m.index(v)], nil
}

func (m *paletteMap) Max() float64     { return m.max }
func (m *paletteMap) SetMax(v float64) { m.max = v }
func (m *paletteMap) Min() float64     { return m.min }
func (m *paletteMap) SetMin(v float64) { m.min = v }
func (m *paletteMap) Alpha() float64   { return 1 }
func (m *paletteMap) SetAlpha(a float64) {
	if a != 1 {
		panic("viz: the colour map of a palette is opaque")
	}
}
func (m *paletteMap) Palette(int) palette.Palette { return plainPalette(m.colors) }
