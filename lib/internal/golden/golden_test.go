package golden

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

// img returns a 100×100 grey PNG in which the first n pixels of the top
// row are changed by delta (out of 255).
func img(t *testing.T, w, h, n int, delta uint8) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, color.RGBA{R: 100, G: 100, B: 100, A: 255})
		}
	}
	for x := range n {
		m.Set(x, 0, color.RGBA{R: 100 + delta, G: 100, B: 100, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSamePixels(t *testing.T) {
	want := img(t, 100, 100, 0, 0)
	tests := []struct {
		name    string
		got     []byte
		wantErr string // "" for equal within tolerance
	}{
		{"identical", img(t, 100, 100, 0, 0), ""},
		{"every pixel off by 3/255", img(t, 100, 100, 100, 3), ""},
		{"5 pixels very different (1 in 2000 allowed)", img(t, 100, 100, 5, 120), ""},
		{"6 pixels very different", img(t, 100, 100, 6, 120), "6 of 10000 pixels differ, the first at (0,0)"},
		{"off by 4/255", img(t, 100, 100, 50, 4), "50 of 10000 pixels differ"},
		{"other size", img(t, 100, 99, 0, 0), "size (100,99), want (100,100)"},
		{"not a PNG", []byte("<svg/>"), "decoding the new image"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := SamePixels(tc.got, want)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("SamePixels = %v, want nil", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("SamePixels = %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}
