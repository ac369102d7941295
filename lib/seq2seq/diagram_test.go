package seq2seq

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/viz"
)

var update = flag.Bool("update", false, "regenerate testdata/*_golden.png")

// goldenPNG renders fig and compares it with testdata/name_golden.png, pixel
// by pixel with a small tolerance (font rasterisation differs slightly
// between machines). go test ./lib/seq2seq -update rewrites the image: look
// at it before committing.
func goldenPNG(t *testing.T, name string, fig viz.Figure) {
	t.Helper()
	got, err := viz.PNG(fig)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name+"_golden.png")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	wantBytes, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./lib/seq2seq -update to create it)", err)
	}
	gi, _ := png.Decode(bytes.NewReader(got))
	wi, err := png.Decode(bytes.NewReader(wantBytes))
	if err != nil {
		t.Fatal(err)
	}
	if gi.Bounds() != wi.Bounds() {
		t.Fatalf("%s: size %v, golden %v", name, gi.Bounds(), wi.Bounds())
	}
	diff := 0
	b := gi.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !near(gi, wi, x, y) {
				diff++
			}
		}
	}
	if frac := float64(diff) / float64(b.Dx()*b.Dy()); frac > 0.002 {
		t.Errorf("%s: %.2f%% of the pixels differ from %s (more than 0.2%%); if the change is intended, rerun with -update and look at the image", name, 100*frac, path)
	}
}

func near(a, b image.Image, x, y int) bool {
	r1, g1, b1, _ := a.At(x, y).RGBA()
	r2, g2, b2, _ := b.At(x, y).RGBA()
	d := func(u, v uint32) uint32 {
		if u > v {
			return u - v
		}
		return v - u
	}
	const tol = 24 << 8
	return d(r1, r2) <= tol && d(g1, g2) <= tol && d(b1, b2) <= tol
}

func TestBottleneckGolden(t *testing.T) {
	goldenPNG(t, "bottleneck", &Bottleneck{})
}

func TestBottleneckValidate(t *testing.T) {
	cases := []struct {
		b    *Bottleneck
		want string
	}{
		{&Bottleneck{Weights: []float64{}}, "1 to 8 weights"},
		{&Bottleneck{Weights: []float64{0.5, 1.5}}, "weight 1 is 1.5"},
		{&Bottleneck{Decoder: 9}, "Decoder is 9"},
	}
	for _, c := range cases {
		if err := c.b.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate() = %v, want an error with %q", err, c.want)
		}
	}
	if err := (&Bottleneck{}).Validate(); err != nil {
		t.Errorf("default Bottleneck: %v", err)
	}
}
