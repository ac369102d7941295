package viz

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"image"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"git.sr.ht/~sbinet/gg"
	"github.com/attention-in-go/course/lib/atomicfile"
	"github.com/janpfeifer/gonb/gonbui"
	xdraw "golang.org/x/image/draw"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure is anything that can draw itself: a [Heatmap], [Lines], [Bars], a
// [Grid] of them, or a type of your own.
//
// Draw draws the figure on the whole of c, whatever its size. Size returns
// the figure's preferred size, which [PNG], [SVG], [Save] and [Show] use
// for the image; figures compute it from their data when their Width and
// Height fields are zero.
//
// Introduced in lesson 01 (scaled dot-product attention).
type Figure interface {
	Draw(c draw.Canvas)
	Size() (w, h vg.Length)
}

// validator is implemented by the figures of this package: Validate
// reports data that cannot be drawn.
type validator interface {
	Validate() error
}

// dpi is the resolution of the PNG images, in dots per inch: 96 is what
// browsers assume for images shown at their natural size.
const dpi = 96

// PNG renders f as a PNG image of f.Size() at 96 dpi on a white background.
// It returns an error, and no image, when f is nil, when f's Validate
// method (if it has one) fails or when drawing panics.
//
// Part of the library behind lesson 01 (scaled dot-product attention); the lesson does not name it.
func PNG(f Figure) ([]byte, error) {
	w, h, err := checkFigure(f)
	if err != nil {
		return nil, err
	}
	// vgimg.New would work too, but its gg context scales embedded images
	// (the heat map, the colour bar) with bilinear interpolation, which
	// blurs the cell borders. A context of our own can use nearest-neighbour
	// scaling, so every cell keeps sharp edges.
	img := image.NewRGBA(image.Rect(0, 0, pixels(w), pixels(h)))
	ctx := gg.NewContextForRGBA(img)
	ctx.SetInterpolator(xdraw.NearestNeighbor)
	ctx.SetLineCapButt() // as vgimg.New does for its own context
	ctx.InvertY()        // vg's origin is at the bottom left
	canvas := vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(dpi))
	if err := drawFigure(f, canvas); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: canvas}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("viz: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// SVG renders f as an SVG document of f.Size() on a white background.
// Fonts are not embedded: text asks for Liberation Sans, then Arial (which
// has the same metrics) or another sans-serif font.
//
// gonum/plot draws the raster parts of a figure (the heat map cells, the
// colour bar) as small embedded images, one pixel per cell, and browsers
// would stretch them with smoothing; SVG therefore marks every <image>
// with preserveAspectRatio="none" and pixelated rendering so that cells
// stay sharp squares.
//
// Part of the library behind lesson 01 (scaled dot-product attention); the lesson does not name it.
func SVG(f Figure) ([]byte, error) {
	w, h, err := checkFigure(f)
	if err != nil {
		return nil, err
	}
	canvas := vgsvg.New(w, h)
	if err := drawFigure(f, canvas); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("viz: encoding SVG: %w", err)
	}
	return fixSVG(buf.Bytes()), nil
}

// fixSVG makes the embedded raster images of a gonum/plot SVG render as
// sharp pixels stretched exactly over their rectangle, and corrects two
// other details of vgsvg's output: it labels its PNG data as image/jpg, and
// names the Liberation fonts without a fallback, so that a browser without
// them would use its default serif font. Arial has the same metrics as
// Liberation Sans, so the layout is kept.
func fixSVG(svg []byte) []byte {
	for _, r := range []struct{ old, new string }{
		{"<image ", `<image preserveAspectRatio="none" style="image-rendering:crisp-edges;image-rendering:pixelated" `},
		{"data:image/jpg;base64,", "data:image/png;base64,"},
		{"font-family:Liberation Sans;", "font-family:Liberation Sans,Arial,Helvetica,sans-serif;"},
	} {
		svg = bytes.ReplaceAll(svg, []byte(r.old), []byte(r.new))
	}
	return svg
}

// Save writes f to path as a PNG or an SVG image, chosen by the extension
// (.png or .svg, in any case). The file is written atomically: a temporary
// file in the same directory is renamed over path once complete.
//
// Part of the library behind lesson 01 (scaled dot-product attention); the lesson does not name it.
func Save(f Figure, path string) error {
	var render func(Figure) ([]byte, error)
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png":
		render = PNG
	case ".svg":
		render = SVG
	default:
		return fmt.Errorf("viz: cannot save %q: unsupported extension %q (supported: .png, .svg)", path, ext)
	}
	data, err := render(f)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("viz: saving %q: %w", path, err)
	}
	return nil
}

// The notebook hooks are variables so that tests can observe Show.
var (
	inNotebook  = func() bool { return gonbui.IsNotebook }
	displayPNG  = gonbui.DisplayPng
	displaySVG  = gonbui.DisplaySvg
	displayHTML = gonbui.DisplayHTML
	// syncDisplay waits until GoNB has received everything sent so far: a
	// cell's program may exit right after Show, and display data still in the
	// pipe would then be lost.
	syncDisplay           = gonbui.Sync
	errorOutput io.Writer = os.Stderr
)

// Show displays f in the notebook as a PNG image (see [PNG]). Outside a
// GoNB notebook it does nothing, so lesson code can also run as a plain
// program or test. If the figure cannot be rendered (invalid data, for
// instance) Show does not panic: it prints the error on stderr and in the
// cell output.
//
// Introduced in lesson 01 (scaled dot-product attention).
func Show(f Figure) {
	if !inNotebook() {
		return
	}
	data, err := PNG(f)
	if err != nil {
		reportError(err)
		return
	}
	displayPNG(data)
	syncDisplay()
}

// ShowSVG is like [Show] but displays f as SVG (see [SVG]), which stays
// sharp when the notebook is zoomed or printed.
//
// Part of the library behind lesson 01 (scaled dot-product attention); the lesson does not name it.
func ShowSVG(f Figure) {
	if !inNotebook() {
		return
	}
	data, err := SVG(f)
	if err != nil {
		reportError(err)
		return
	}
	// The XML prolog is not valid inside the HTML that GoNB sends.
	svg := string(data)
	if strings.HasPrefix(svg, "<?xml") {
		if i := strings.Index(svg, "?>"); i >= 0 {
			svg = strings.TrimLeft(svg[i+2:], "\n")
		}
	}
	displaySVG(svg)
	syncDisplay()
}

func reportError(err error) {
	fmt.Fprintln(errorOutput, err)
	displayHTML(`<pre style="color:#b00020">` + html.EscapeString(err.Error()) + "</pre>")
	syncDisplay()
}

// checkFigure validates f and returns its size.
func checkFigure(f Figure) (w, h vg.Length, err error) {
	if f == nil {
		return 0, 0, errors.New("viz: nil Figure")
	}
	if v, ok := f.(validator); ok {
		if err := v.Validate(); err != nil {
			return 0, 0, err
		}
	}
	w, h = f.Size()
	if !(w > 0 && h > 0) || math.IsInf(float64(w+h), 0) {
		return 0, 0, fmt.Errorf("viz: figure size %v×%v is not positive", w, h)
	}
	return w, h, nil
}

// drawFigure fills the canvas with white and draws f on it, turning a panic
// inside gonum/plot into an error.
func drawFigure(f Figure, c vg.CanvasSizer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("viz: drawing %T: %v", f, r)
		}
	}()
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	f.Draw(dc)
	return nil
}

// pixels converts a length to a number of pixels at the PNG resolution.
func pixels(l vg.Length) int {
	return max(1, int(math.Round(l.Dots(dpi))))
}
