package viz

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

func TestHeatmapValidate(t *testing.T) {
	ok := [][]float64{{1, 2}, {3, 4}}
	tests := []struct {
		name    string
		h       Heatmap
		wantErr string // "" for valid
	}{
		{"valid", Heatmap{Values: ok}, ""},
		{"valid with labels", Heatmap{Values: ok, Rows: []string{"a", "b"}, Cols: []string{"c", "d"}}, ""},
		{"valid fixed range", Heatmap{Values: ok, FixedRange: true, Min: 0, Max: 1}, ""},
		{"valid fixed empty range", Heatmap{Values: ok, FixedRange: true, Min: 1, Max: 1}, ""},
		{"nil values", Heatmap{}, "empty"},
		{"empty first row", Heatmap{Values: [][]float64{{}}}, "empty row 0"},
		{"ragged", Heatmap{Values: [][]float64{{1, 2}, {3}}}, "ragged: row 1 has length 1, row 0 has length 2"},
		{"ragged longer", Heatmap{Values: [][]float64{{1}, {2}, {3, 4}}}, "row 2 has length 2"},
		{"too few row labels", Heatmap{Values: ok, Rows: []string{"a"}}, "Rows has 1 labels for 2 rows"},
		{"too many col labels", Heatmap{Values: ok, Cols: []string{"a", "b", "c"}}, "Cols has 3 labels for 2 columns"},
		{"min above max", Heatmap{Values: ok, FixedRange: true, Min: 2, Max: 1}, "fixed range"},
		{"NaN range", Heatmap{Values: ok, FixedRange: true, Min: math.NaN(), Max: 1}, "fixed range"},
		{"empty palette", Heatmap{Values: ok, Palette: plainPalette{}}, "no colours"},
		{"bad annotation", Heatmap{Values: ok, Annotate: 7}, "Annotate"},
		{"negative size", Heatmap{Values: ok, Width: -1}, "negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.h.Validate()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tc.wantErr != "" && err == nil:
				t.Errorf("Validate() = nil, want an error containing %q", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Errorf("Validate() = %q, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

// decodePNG renders f and decodes the image.
func decodePNG(t *testing.T, f Figure) image.Image {
	t.Helper()
	data, err := PNG(f)
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding the PNG: %v", err)
	}
	return img
}

// centroid returns the mean position of the pixels of colour c, and how
// many there are.
func centroid(img image.Image, c color.Color) (x, y float64, n int) {
	r0, g0, b0, _ := c.RGBA()
	bounds := img.Bounds()
	for py := bounds.Min.Y; py < bounds.Max.Y; py++ {
		for px := bounds.Min.X; px < bounds.Max.X; px++ {
			r, g, b, _ := img.At(px, py).RGBA()
			if r == r0 && g == g0 && b == b0 {
				x += float64(px)
				y += float64(py)
				n++
			}
		}
	}
	if n > 0 {
		x, y = x/float64(n), y/float64(n)
	}
	return x, y, n
}

// TestHeatmapOrientation checks the matrix orientation on the image: with
// four colours for the four values of a 2×2 matrix, Values[0][0] must be
// drawn top left, Values[0][1] top right and Values[1][0] bottom left.
func TestHeatmapOrientation(t *testing.T) {
	red := color.RGBA{R: 255, A: 255}
	green := color.RGBA{G: 255, A: 255}
	blue := color.RGBA{B: 255, A: 255}
	magenta := color.RGBA{R: 255, B: 255, A: 255}
	h := &Heatmap{
		Values:     [][]float64{{0, 1}, {2, 3}}, // value v takes colour v
		Palette:    plainPalette{red, green, blue, magenta},
		Annotate:   AnnotateNever,
		NoColorBar: true,
	}
	img := decodePNG(t, h)
	type cell struct {
		name string
		x, y float64
	}
	var cells []cell
	for _, c := range []struct {
		name string
		col  color.Color
	}{{"Values[0][0]", red}, {"Values[0][1]", green}, {"Values[1][0]", blue}, {"Values[1][1]", magenta}} {
		x, y, n := centroid(img, c.col)
		if n < 100 {
			t.Fatalf("%s: found %d pixels of its colour, want a whole cell", c.name, n)
		}
		cells = append(cells, cell{c.name, x, y})
	}
	topLeft, topRight, bottomLeft, bottomRight := cells[0], cells[1], cells[2], cells[3]
	if !(topLeft.y < bottomLeft.y && topRight.y < bottomRight.y) {
		t.Errorf("row 0 is not above row 1: %s at y=%.0f, %s at y=%.0f (image y grows downwards)",
			topLeft.name, topLeft.y, bottomLeft.name, bottomLeft.y)
	}
	if !(topLeft.x < topRight.x && bottomLeft.x < bottomRight.x) {
		t.Errorf("column 0 is not left of column 1: %s at x=%.0f, %s at x=%.0f",
			topLeft.name, topLeft.x, topRight.name, topRight.x)
	}
	// The cells are aligned: same rows share a y, same columns an x.
	if math.Abs(topLeft.y-topRight.y) > 1 || math.Abs(topLeft.x-bottomLeft.x) > 1 {
		t.Errorf("cells are not on a grid: %+v", cells)
	}
}

// TestHeatmapTicksAtCellCentres checks that the tick of row i and of column
// j are at the centre of the cells, in the plot's data coordinates.
func TestHeatmapTicksAtCellCentres(t *testing.T) {
	h := &Heatmap{Values: [][]float64{{1, 2, 3}, {4, 5, 6}}, Rows: []string{"r0", "r1"}, Cols: []string{"c0", "c1", "c2"}}
	p := h.plot(h.scale(), 10*vg.Centimeter, 10*vg.Centimeter)
	xTicks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
	yTicks := p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max)
	// Cells of column j span [j-0.5, j+0.5]; matrix row i is drawn at
	// y = rows-1-i so that row 0 is at the top.
	wantX := map[string]float64{"c0": 0, "c1": 1, "c2": 2}
	wantY := map[string]float64{"r0": 1, "r1": 0}
	if len(xTicks) != 3 || len(yTicks) != 2 {
		t.Fatalf("got %d x ticks and %d y ticks, want 3 and 2", len(xTicks), len(yTicks))
	}
	for _, tk := range xTicks {
		if want, ok := wantX[tk.Label]; !ok || tk.Value != want {
			t.Errorf("x tick %q at %g, want %g", tk.Label, tk.Value, want)
		}
	}
	for _, tk := range yTicks {
		if want, ok := wantY[tk.Label]; !ok || tk.Value != want {
			t.Errorf("y tick %q at %g, want %g", tk.Label, tk.Value, want)
		}
	}
	xmin, xmax, ymin, ymax := (&plotter.HeatMap{GridXYZ: matrixGrid(h.Values)}).DataRange()
	if xmin != -0.5 || xmax != 2.5 || ymin != -0.5 || ymax != 1.5 {
		t.Errorf("cells span x [%g, %g], y [%g, %g]; want [-0.5, 2.5] and [-0.5, 1.5]", xmin, xmax, ymin, ymax)
	}
}

func TestHeatmapTickThinning(t *testing.T) {
	tests := []struct {
		n        int
		cell     vg.Length
		wantStep int
	}{
		{6, 40, 1},     // a sentence: every token
		{30, 16, 1},    // every token while the labels fit
		{30, 8, 2},     // labels taller than the cells: every other one
		{40, 10, 2},    // many cells: about 20 labels at most
		{512, 0.5, 50}, // positional-encoding dimensions
	}
	for _, tc := range tests {
		p := newPlot("", "", "")
		rowAxis(&p.Y, tc.n, nil, tc.cell, func(i int) float64 { return float64(i) })
		ticks := p.Y.Tick.Marker.Ticks(0, float64(tc.n))
		if len(ticks) < 2 {
			t.Fatalf("%d rows: %d ticks", tc.n, len(ticks))
		}
		if step := ticks[1].Value - ticks[0].Value; step != float64(tc.wantStep) {
			t.Errorf("%d rows of %vpt: a label every %g rows, want every %d", tc.n, tc.cell, step, tc.wantStep)
		}
	}
}

func TestHeatmapLongLabelsRotate(t *testing.T) {
	long := []string{"Transformers", "revolutionised", "language"}
	p := newPlot("", "", "")
	categoryAxis(&p.X, 3, long, 40, func(i int) float64 { return float64(i) })
	if p.X.Tick.Label.Rotation == 0 {
		t.Errorf("labels %q in 40pt cells are not rotated", long)
	}
	p = newPlot("", "", "")
	categoryAxis(&p.X, 3, []string{"a", "b", "c"}, 40, func(i int) float64 { return float64(i) })
	if p.X.Tick.Label.Rotation != 0 {
		t.Errorf("short labels are rotated by %g", p.X.Tick.Label.Rotation)
	}
}

func TestHeatmapScale(t *testing.T) {
	tests := []struct {
		name             string
		h                Heatmap
		wantMin, wantMax float64
	}{
		{"data range", Heatmap{Values: [][]float64{{0.2, 0.5}, {0.1, 0.9}}}, 0.1, 0.9},
		{"fixed range", Heatmap{Values: [][]float64{{0.2, 0.5}}, FixedRange: true, Min: 0, Max: 1}, 0, 1},
		{"constant matrix", Heatmap{Values: [][]float64{{3, 3}, {3, 3}}}, 2.5, 3.5},
		{"fixed empty range", Heatmap{Values: [][]float64{{3}}, FixedRange: true, Min: 1, Max: 1}, 0.5, 1.5},
		{"infinities and NaN ignored", Heatmap{Values: [][]float64{{math.Inf(-1), 1}, {math.NaN(), 2}}}, 1, 2},
		{"no finite value", Heatmap{Values: [][]float64{{math.NaN()}}}, 0, 1},
		{"diverging is symmetric", Heatmap{Values: [][]float64{{-0.5, 2}}, Palette: Diverging()}, -2, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.h.scale()
			if s.min != tc.wantMin || s.max != tc.wantMax {
				t.Errorf("range [%g, %g], want [%g, %g]", s.min, s.max, tc.wantMin, tc.wantMax)
			}
		})
	}
}

func TestScaleIndex(t *testing.T) {
	s := scale{colors: make([]color.Color, 5), min: 0, max: 1}
	tests := []struct {
		v    float64
		want int
	}{
		{0, 0}, {0.1, 0}, {0.2, 1}, {0.5, 2}, {1, 4},
		{-3, 0}, {7, 4}, {math.Inf(-1), 0}, {math.Inf(1), 4},
	}
	for _, tc := range tests {
		if got := s.index(tc.v); got != tc.want {
			t.Errorf("index(%g) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

func TestContrastText(t *testing.T) {
	tests := []struct {
		name string
		bg   color.Color
		want color.Color
	}{
		{"viridis dark end", Viridis().Colors()[0], color.White},
		{"viridis yellow end", Viridis().Colors()[255], color.Black},
		{"white", color.White, color.Black},
		{"black", color.Black, color.White},
		{"Greys dark end", Greys().Colors()[255], color.White},
	}
	for _, tc := range tests {
		if got := contrastText(tc.bg); got != tc.want {
			t.Errorf("%s: text colour %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestHeatmapSize checks the default sizes: square cells, about 12 cm wide
// for 6×6 with labels and colour bar, and capped for large matrices.
func TestHeatmapSize(t *testing.T) {
	w, h := (&Heatmap{Values: weights6(false), Rows: tokens6, Cols: tokens6}).Size()
	if w < 10*vg.Centimeter || w > 14*vg.Centimeter || h < 9*vg.Centimeter || h > 13*vg.Centimeter {
		t.Errorf("6×6 heat map is %.1f×%.1f cm, want about 12×11", w/vg.Centimeter, h/vg.Centimeter)
	}
	w, h = (&Heatmap{Values: positionalEncoding(50, 512)}).Size()
	if w > 20*vg.Centimeter || h > 12*vg.Centimeter {
		t.Errorf("50×512 heat map is %.1f×%.1f cm, want at most 20×12", w/vg.Centimeter, h/vg.Centimeter)
	}
	withBar, _ := (&Heatmap{Values: weights3}).Size()
	withoutBar, _ := (&Heatmap{Values: weights3, NoColorBar: true}).Size()
	if withBar <= withoutBar+colorBarWidth {
		t.Errorf("width with colour bar %v, without %v: want room for the colour bar", withBar, withoutBar)
	}
	if w, h := (&Heatmap{Values: weights3, Width: 100, Height: 50}).Size(); w != 100 || h != 50 {
		t.Errorf("Size() = %v×%v, want the given 100×50", w, h)
	}
}

// TestHeatmapLongTitleFits checks that a title wider than a small matrix
// widens the figure instead of being clipped at both ends.
func TestHeatmapLongTitleFits(t *testing.T) {
	title := "Cross-attention, French queries over English keys, mean of 4 heads"
	h := &Heatmap{Values: [][]float64{{0.4, 0.6}}, Title: title, NoColorBar: true}
	w, _ := h.Size()
	p := h.plot(h.scale(), vg.Centimeter, vg.Centimeter)
	if tw := p.Title.TextStyle.Width(title); w < tw+2*margin {
		t.Errorf("1×2 heat map with a long title is %.1f cm wide, title needs %.1f cm", w/vg.Centimeter, (tw+2*margin)/vg.Centimeter)
	}
}

// TestInvalidFiguresDrawError checks that Draw of invalid data writes a
// message instead of panicking, and that PNG returns the error.
func TestInvalidFiguresDrawError(t *testing.T) {
	for _, f := range []Figure{
		&Heatmap{Values: [][]float64{{1, 2}, {3}}},
		&Heatmap{},
		&Lines{Series: []Series{{X: []float64{1, 2}, Y: []float64{1}}}},
		&Bars{Labels: []string{"a"}, Groups: []BarGroup{{Values: []float64{1, 2}}}},
		&Grid{},
	} {
		w, h := f.Size()
		c := vgimg.New(w, h)
		f.Draw(draw.New(c)) // must not panic
		if _, _, n := centroid(c.Image(), errorColor); n == 0 {
			t.Errorf("%T: no error message drawn", f)
		}
		if _, err := PNG(f); err == nil {
			t.Errorf("PNG(%T with invalid data) returned no error", f)
		}
	}
}

func TestHeatmapColorBarShowsPalette(t *testing.T) {
	// The colour bar samples the palette through paletteMap: its ends are
	// the ends of the palette.
	s := (&Heatmap{Values: weights3}).scale()
	m := &paletteMap{s}
	lo, err := m.At(s.min)
	if err != nil {
		t.Fatal(err)
	}
	hi, err := m.At(s.max)
	if err != nil {
		t.Fatal(err)
	}
	if lo != s.colors[0] || hi != s.colors[len(s.colors)-1] {
		t.Errorf("colour bar ends %v and %v, want the palette ends %v and %v", lo, hi, s.colors[0], s.colors[len(s.colors)-1])
	}
	if _, err := m.At(s.max + 1); err != palette.ErrOverflow {
		t.Errorf("At(max+1) error = %v, want ErrOverflow", err)
	}
}
