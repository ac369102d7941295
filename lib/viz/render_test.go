package viz

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
)

func TestPNG(t *testing.T) {
	h := &Heatmap{Values: weights3, Rows: tokens3, Cols: tokens3}
	data, err := PNG(h)
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding: %v", err)
	}
	// 96 dpi: a figure w points wide is w/72*96 pixels wide.
	w, ht := h.Size()
	if got, want := img.Bounds().Size(), pixels(w); got.X != want || got.Y != pixels(ht) {
		t.Errorf("image is %v pixels, want %d×%d (%v×%v at 96 dpi)", got, want, pixels(ht), w, ht)
	}
	// White background in the corners.
	if r, g, b, a := img.At(0, 0).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff || a != 0xffff {
		t.Errorf("corner pixel is %v, want opaque white", img.At(0, 0))
	}
	if _, err := PNG(nil); err == nil {
		t.Error("PNG(nil) returned no error")
	}
}

// panicky is a Figure whose Draw panics, as gonum/plot does on some
// invalid input.
type panicky struct{ fixedSize }

func (panicky) Draw(draw.Canvas) { panic("boom") }

func TestPNGRecoversFromPanics(t *testing.T) {
	_, err := PNG(panicky{fixedSize{100, 100}})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("PNG of a panicking figure: error %v, want one mentioning the panic", err)
	}
}

func TestSVG(t *testing.T) {
	data, err := SVG(&Heatmap{Values: weights3, Rows: tokens3, Cols: tokens3, Title: "Attention weights"})
	if err != nil {
		t.Fatalf("SVG: %v", err)
	}
	svg := string(data)
	images := strings.Count(svg, "<image ")
	if images != 2 {
		t.Errorf("SVG has %d <image> elements, want 2 (cells and colour bar)", images)
	}
	for _, want := range []string{`preserveAspectRatio="none"`, "image-rendering:pixelated", "data:image/png;base64,"} {
		if n := strings.Count(svg, want); n != images {
			t.Errorf("%d of %d <image> elements have %s", n, images, want)
		}
	}
	if strings.Contains(svg, "data:image/jpg") {
		t.Error("SVG still labels PNG data as image/jpg")
	}
	if !regexp.MustCompile(`font-family:Liberation Sans,[^;]*sans-serif;`).MatchString(svg) {
		t.Error("SVG fonts have no sans-serif fallback")
	}
	// Well-formed XML.
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
	}
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	f := &Lines{Series: []Series{{Name: "y = x²", Y: []float64{0, 1, 4, 9}}}}
	for _, name := range []string{"plot.png", "plot.svg", "UPPER.PNG"} {
		path := filepath.Join(dir, name)
		if err := Save(f, path); err != nil {
			t.Fatalf("Save(%q): %v", name, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		isPNG := bytes.HasPrefix(data, []byte("\x89PNG"))
		if wantPNG := strings.EqualFold(filepath.Ext(name), ".png"); isPNG != wantPNG {
			t.Errorf("%s: PNG signature %v, want %v", name, isPNG, wantPNG)
		}
		info, err := os.Stat(path)
		if err != nil || info.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, %v; want 0644", name, info.Mode(), err)
		}
	}
	err := Save(f, filepath.Join(dir, "plot.jpg"))
	if err == nil || !strings.Contains(err.Error(), ".png") || !strings.Contains(err.Error(), ".svg") {
		t.Errorf("Save(.jpg) error = %v, want one naming .png and .svg", err)
	}
	if err := Save(&Heatmap{}, filepath.Join(dir, "bad.png")); err == nil {
		t.Error("Save of an invalid figure returned no error")
	}
	if err := Save(f, filepath.Join(dir, "missing", "plot.png")); err == nil {
		t.Error("Save into a missing directory returned no error")
	}
	// Nothing but the saved files: no temporary file left behind.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got, want := strings.Join(names, " "), "UPPER.PNG plot.png plot.svg"; got != want {
		t.Errorf("directory holds %q, want %q", got, want)
	}
}

// notebook replaces the GoNB hooks for one test and records what Show
// sends to the notebook and to stderr.
type notebook struct {
	png, svg, html []string
	syncs          int
	stderr         bytes.Buffer
}

func fakeNotebook(t *testing.T, inside bool) *notebook {
	nb := &notebook{}
	saved := []any{inNotebook, displayPNG, displaySVG, displayHTML, errorOutput, syncDisplay}
	t.Cleanup(func() {
		inNotebook = saved[0].(func() bool)
		displayPNG = saved[1].(func([]byte))
		displaySVG = saved[2].(func(string))
		displayHTML = saved[3].(func(string))
		errorOutput = saved[4].(io.Writer)
		syncDisplay = saved[5].(func())
	})
	inNotebook = func() bool { return inside }
	displayPNG = func(b []byte) { nb.png = append(nb.png, string(b)) }
	displaySVG = func(s string) { nb.svg = append(nb.svg, s) }
	displayHTML = func(s string) { nb.html = append(nb.html, s) }
	errorOutput = &nb.stderr
	syncDisplay = func() { nb.syncs++ }
	return nb
}

func TestShow(t *testing.T) {
	good := &Heatmap{Values: weights3}
	bad := &Heatmap{Values: [][]float64{{1, 2}, {3}}}

	t.Run("outside a notebook", func(t *testing.T) {
		nb := fakeNotebook(t, false)
		Show(good)
		Show(bad)
		ShowSVG(good)
		if len(nb.png)+len(nb.svg)+len(nb.html) != 0 || nb.stderr.Len() != 0 {
			t.Errorf("Show outside a notebook displayed %d PNG, %d SVG, %d HTML and printed %q; want nothing",
				len(nb.png), len(nb.svg), len(nb.html), nb.stderr.String())
		}
	})
	t.Run("PNG in a notebook", func(t *testing.T) {
		nb := fakeNotebook(t, true)
		Show(good)
		if len(nb.png) != 1 || !strings.HasPrefix(nb.png[0], "\x89PNG") {
			t.Errorf("Show displayed %d PNG images, want 1", len(nb.png))
		}
		if nb.syncs != 1 {
			t.Errorf("Show synced with GoNB %d times, want 1 (without it a cell that ends right after Show can lose its image)", nb.syncs)
		}
	})
	t.Run("SVG in a notebook", func(t *testing.T) {
		nb := fakeNotebook(t, true)
		ShowSVG(good)
		if len(nb.svg) != 1 || !strings.HasPrefix(nb.svg[0], "<!--") && !strings.HasPrefix(nb.svg[0], "<svg") {
			t.Fatalf("ShowSVG displayed %d SVG, want 1 starting without the XML prolog", len(nb.svg))
		}
	})
	t.Run("error in a notebook", func(t *testing.T) {
		nb := fakeNotebook(t, true)
		Show(bad) // must not panic
		if len(nb.png) != 0 {
			t.Error("Show of an invalid figure displayed an image")
		}
		if !strings.Contains(nb.stderr.String(), "ragged") {
			t.Errorf("stderr = %q, want the validation error", nb.stderr.String())
		}
		if len(nb.html) != 1 || !strings.Contains(nb.html[0], "ragged") {
			t.Errorf("HTML = %q, want the validation error", nb.html)
		}
	})
}

func TestCheckFigure(t *testing.T) {
	if _, _, err := checkFigure(fixedSize{0, 10}); err == nil {
		t.Error("a figure of width 0 passed")
	}
	if _, _, err := checkFigure(fixedSize{10, 10}); err != nil {
		t.Errorf("a 10×10 figure: %v", err)
	}
	if _, _, err := checkFigure(&Grid{Figures: []Figure{&Lines{}}}); err == nil {
		t.Error("a grid of an invalid figure passed")
	}
}

// TestEdgeCases renders unusual but valid figures: none may fail.
func TestEdgeCases(t *testing.T) {
	figs := map[string]Figure{
		"1×1 heat map":           &Heatmap{Values: [][]float64{{0.5}}},
		"1×5 heat map":           &Heatmap{Values: [][]float64{{1, 2, 3, 4, 5}}, Cols: []string{"a", "b", "c", "d", "e"}},
		"5×1 heat map":           &Heatmap{Values: [][]float64{{1}, {2}, {3}, {4}, {5}}},
		"constant heat map":      &Heatmap{Values: [][]float64{{0, 0}, {0, 0}}},
		"heat map with NaN, Inf": &Heatmap{Values: [][]float64{{math.NaN(), math.Inf(1)}, {math.Inf(-1), 0.5}}},
		"annotated 20×20":        &Heatmap{Values: lookAhead(20), Annotate: AnnotateAlways},
		"tiny fixed size":        &Heatmap{Values: weights3, Width: 80, Height: 60},
		"one point":              &Lines{Series: []Series{{Y: []float64{3}}}},
		"one point log-log":      &Lines{LogX: true, LogY: true, Series: []Series{{X: []float64{1}, Y: []float64{1}}}},
		"all legends":            legendGrid(),
		"negative bars":          &Bars{Groups: []BarGroup{{Values: []float64{-1, -2}}}, Annotate: true},
		"zero bars":              &Bars{Groups: []BarGroup{{Values: []float64{0, 0}}}, Annotate: true},
		"nested grid":            &Grid{Title: "outer", Figures: []Figure{&Grid{Cols: 1, Figures: []Figure{&Heatmap{Values: weights3}, nil}}, &Heatmap{Values: weights3}}},
	}
	for name, f := range figs {
		if _, err := PNG(f); err != nil {
			t.Errorf("%s: PNG: %v", name, err)
		}
		if _, err := SVG(f); err != nil {
			t.Errorf("%s: SVG: %v", name, err)
		}
	}
}

// legendGrid is a grid of line plots with every legend position.
func legendGrid() *Grid {
	g := &Grid{Cols: 3}
	for pos := LegendTopLeft; pos <= LegendHidden; pos++ {
		g.Figures = append(g.Figures, &Lines{Legend: pos, Series: []Series{
			{Name: "rising", Y: []float64{0, 1, 2, 3}},
			{Name: "falling", Y: []float64{3, 2, 1, 0}, Dashed: true},
		}})
	}
	return g
}
