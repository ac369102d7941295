package viz

import (
	"image/color"
	"testing"

	"gonum.org/v1/plot/palette"
)

// near reports whether c is within tol (out of 255) of the colour #rrggbb.
func near(c color.Color, rgb uint32, tol int) bool {
	r, g, b, _ := c.RGBA()
	want := [3]int{int(rgb >> 16 & 0xff), int(rgb >> 8 & 0xff), int(rgb & 0xff)}
	got := [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
	for i := range got {
		if d := got[i] - want[i]; d > tol || d < -tol {
			return false
		}
	}
	return true
}

func TestViridis(t *testing.T) {
	colors := Viridis().Colors()
	if len(colors) != 256 {
		t.Fatalf("Viridis() has %d colours, want 256", len(colors))
	}
	// matplotlib: viridis(0) = #440154, viridis(1) = #fde725, and the
	// familiar viridis(0.25), (0.5), (0.75) = #3b528b, #21918c, #5ec962.
	tests := []struct {
		v   float64
		rgb uint32
	}{
		{0, 0x440154}, {0.25, 0x3b528b}, {0.5, 0x21918c}, {0.75, 0x5ec962}, {1, 0xfde725},
	}
	m := ViridisMap()
	for _, tc := range tests {
		c, err := m.At(tc.v)
		if err != nil {
			t.Fatalf("At(%g): %v", tc.v, err)
		}
		if !near(c, tc.rgb, 2) {
			t.Errorf("ViridisMap().At(%g) = %v, want #%06x", tc.v, c, tc.rgb)
		}
	}
	if !near(colors[0], 0x440154, 1) || !near(colors[255], 0xfde725, 1) {
		t.Errorf("Viridis() ends %v and %v, want #440154 and #fde725", colors[0], colors[255])
	}
	if _, err := m.At(1.5); err != palette.ErrOverflow {
		t.Errorf("At(1.5) error = %v, want ErrOverflow", err)
	}
	if _, err := m.At(-0.5); err != palette.ErrUnderflow {
		t.Errorf("At(-0.5) error = %v, want ErrUnderflow", err)
	}
	// The map follows SetMin and SetMax.
	m.SetMin(-10)
	m.SetMax(10)
	if c, err := m.At(10); err != nil || !near(c, 0xfde725, 1) {
		t.Errorf("after SetMax(10), At(10) = %v, %v; want #fde725", c, err)
	}
}

// Viridis gets lighter from one end to the other, which is what makes it
// readable in grey scale (up to the rounding of colours to 8 bits).
func TestViridisGetsLighter(t *testing.T) {
	colors := Viridis().Colors()
	for i := 1; i < len(colors); i++ {
		if prev, cur := luminance(colors[i-1]), luminance(colors[i]); cur < prev-1e-3 {
			t.Fatalf("luminance decreases from colour %d (%.4f) to %d (%.4f)", i-1, prev, i, cur)
		}
	}
}

func TestGreys(t *testing.T) {
	colors := Greys().Colors()
	first, last := luminance(colors[0]), luminance(colors[len(colors)-1])
	if !(first > 0.9 && last < 0.05) {
		t.Errorf("Greys() goes from luminance %.2f to %.2f, want light (> 0.9) to dark (< 0.05)", first, last)
	}
}

func TestDiverging(t *testing.T) {
	p := Diverging()
	colors := p.Colors()
	d, ok := p.(palette.DivergingPalette)
	if !ok {
		t.Fatalf("Diverging() is a %T, want a palette.DivergingPalette", p)
	}
	lo, hi := d.CriticalIndex()
	if lo != hi || lo != len(colors)/2 {
		t.Errorf("CriticalIndex() = %d, %d; want the middle %d", lo, hi, len(colors)/2)
	}
	r, _, b, _ := colors[0].RGBA()
	if b <= r {
		t.Errorf("first colour %v is not blue", colors[0])
	}
	r, _, b, _ = colors[len(colors)-1].RGBA()
	if r <= b {
		t.Errorf("last colour %v is not red", colors[len(colors)-1])
	}
	r, g, b, _ := colors[lo].RGBA()
	if max(r, g, b)-min(r, g, b) > 0x0800 || luminance(colors[lo]) < 0.6 {
		t.Errorf("middle colour %v is not a light neutral", colors[lo])
	}
}
