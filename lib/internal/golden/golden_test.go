package golden

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/vector"
)

// picture is a w×h image of a white background with an anti-aliased
// line, 2 pixels wide, from (10, y) to (90, y+30) in ink.
func picture(w, h int, y float32, ink color.Color) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(m, m.Bounds(), image.White, image.Point{}, draw.Src)
	z := vector.NewRasterizer(w, h)
	z.MoveTo(10, y-1)
	z.LineTo(90, y+29)
	z.LineTo(90, y+31)
	z.LineTo(10, y+1)
	z.ClosePath()
	z.Draw(m, m.Bounds(), image.NewUniform(ink), image.Point{})
	return m
}

var ink = color.RGBA{R: 30, G: 60, B: 200, A: 255}

// line is the reference picture: the line from (10, 20.5), in ink.
func line() *image.RGBA { return picture(100, 100, 20.5, ink) }

// nudged is m with every pixel's channels moved by d (out of 255) where
// keep says so: what another machine's rounding does to anti-aliased
// pixels.
func nudged(m *image.RGBA, d int, where func(c color.RGBA) bool) *image.RGBA {
	out := image.NewRGBA(m.Bounds())
	copy(out.Pix, m.Pix)
	for i := 0; i < len(out.Pix); i += 4 {
		c := color.RGBA{out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3]}
		if !where(c) {
			continue
		}
		for k := range 3 {
			out.Pix[i+k] = uint8(min(max(int(out.Pix[i+k])+d, 0), 255))
		}
	}
	return out
}

// antiAliased reports whether c is an edge pixel of the line: neither
// background nor full ink.
func antiAliased(c color.RGBA) bool { return c != color.RGBA{255, 255, 255, 255} && c != ink }

func every(color.RGBA) bool { return true }

func encode(t *testing.T, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSamePixels(t *testing.T) {
	want := encode(t, line())
	onePixel := line()
	onePixel.Set(50, 90, color.RGBA{251, 251, 251, 255}) // 4/255 off the background
	tests := []struct {
		name    string
		got     image.Image
		wantErr string // "" for equal within tolerance
	}{
		{"identical", line(), ""},
		{"anti-aliased pixels off by 1/255 (another CPU's rounding)", nudged(line(), -1, antiAliased), ""},
		{"every pixel off by 3/255 in every channel", nudged(line(), -3, every), ""},
		{"line moved by a pixel", picture(100, 100, 21.5, ink), "differs by more than 0.012"},
		{"line moved by a tenth of a pixel", picture(100, 100, 20.6, ink), "differs by more than 0.012"},
		{"line in another colour", picture(100, 100, 20.5, color.RGBA{R: 200, G: 60, B: 30, A: 255}), "differs by more than 0.012"},
		{"one pixel off by 4/255", onePixel, "differs by more than 0.012"},
		{"other size", picture(100, 99, 20.5, ink), "size (100,99), want (100,100)"},
		{"as many pixels, other size", picture(50, 200, 20.5, ink), "size (50,200), want (100,100)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := encode(t, tc.got)
			if tc.name != "identical" && bytes.Equal(got, want) {
				t.Fatal("the changed image is the reference itself")
			}
			err := SamePixels(got, want)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("SamePixels = %v, want nil", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("SamePixels = %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
	if err := SamePixels([]byte("<svg/>"), want); err == nil || !strings.Contains(err.Error(), "decoding the new image") {
		t.Errorf("SamePixels of an SVG = %v, want a decoding error", err)
	}
}

// recorder is a testing.TB that records what Check reports.
type recorder struct {
	testing.TB
	name   string
	errors []string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(r) // as FailNow stops the test; recovered by check
}

// check runs Check with r as its test and returns what it reported.
func check(r *recorder, name string, got []byte) (reported []string) {
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
		reported = r.errors
	}()
	Check(r, name, got)
	return nil
}

// TestCheck: -update writes the golden image; the same image passes; a
// changed one fails with a message that says where the new image and
// the picture of the difference are, and how to regenerate.
func TestCheck(t *testing.T) {
	t.Chdir(t.TempDir())
	r := &recorder{TB: t, name: "TestFigures/the_line"}
	if got := check(r, "line", encode(t, line())); len(got) != 1 || !strings.Contains(got[0], "create the golden image") {
		t.Fatalf("no golden image: %q", got)
	}
	*update = true
	check(r, "line", encode(t, line()))
	*update = false
	if _, err := os.Stat(filepath.Join("testdata", "line_golden.png")); err != nil {
		t.Fatalf("-update: %v", err)
	}

	r = &recorder{TB: t, name: r.name}
	if got := check(r, "line", encode(t, nudged(line(), 1, antiAliased))); len(got) != 0 {
		t.Errorf("within tolerance: %q", got)
	}
	got := check(r, "line", encode(t, picture(100, 100, 25.5, ink)))
	if len(got) != 1 {
		t.Fatalf("line moved: Check reported %q, want one error", got)
	}
	msg := got[0]
	for _, want := range []string{"line differs from testdata/line_golden.png", "-run '^TestFigures$/^the_line$' -update"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message does not say %q:\n%s", want, msg)
		}
	}
	_, after, _ := strings.Cut(msg, "the new image is ")
	newImage, _, _ := strings.Cut(after, ",")
	_, after, _ = strings.Cut(msg, "the difference (brighter where larger) ")
	diffImage, _, _ := strings.Cut(after, "\n")
	if newImage == "" || diffImage == "" {
		t.Fatalf("the message does not say where the images are:\n%s", msg)
	}
	defer os.RemoveAll(filepath.Dir(newImage))
	if data, err := os.ReadFile(newImage); err != nil || SamePixels(data, encode(t, picture(100, 100, 25.5, ink))) != nil {
		t.Errorf("the new image %s is not the one checked (%v)", newImage, err)
	}
	diff := decode(t, diffImage)
	// The line moved down 5 pixels: the difference shows on both lines,
	// and nowhere far from them.
	if lum(diff.At(50, 35)) == 0 || lum(diff.At(50, 40)) == 0 || lum(diff.At(50, 80)) != 0 {
		t.Errorf("the difference %s is not where the line moved: %v at (50,35), %v at (50,40), %v at (50,80)",
			diffImage, diff.At(50, 35), diff.At(50, 40), diff.At(50, 80))
	}
}

func decode(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func lum(c color.Color) uint16 { return color.Gray16Model.Convert(c).(color.Gray16).Y }
