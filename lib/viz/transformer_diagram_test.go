package viz

import (
	"bytes"
	"image/png"
	"os"
	"strings"
	"testing"
)

func TestTransformerDiagramValidate(t *testing.T) {
	checkErr(t, (&TransformerDiagram{}).Validate(), "")
	checkErr(t, (&TransformerDiagram{DecoderLayers: -1}).Validate(), "negative")
	checkErr(t, (&TransformerDiagram{Height: -1}).Validate(), "negative")
	if _, err := PNG(&TransformerDiagram{EncoderLayers: -2}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("PNG of an invalid diagram: error %v, want one about the negative layers", err)
	}
}

// The diagram renders at its size, and the layer counts change the
// picture.
func TestTransformerDiagramDraws(t *testing.T) {
	a, err := PNG(&TransformerDiagram{EncoderLayers: 6, DecoderLayers: 6})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 400 {
		t.Errorf("image %v, want a full-size diagram", b)
	}
	b, err := PNG(&TransformerDiagram{EncoderLayers: 2, DecoderLayers: 6})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, b) {
		t.Error("2 and 6 encoder layers draw the same picture")
	}
	if dir := os.Getenv("VIZ_FIGURES"); dir != "" {
		if err := os.WriteFile(dir+"/transformer_diagram.png", a, 0o644); err != nil {
			t.Error(err)
		}
	}
}
