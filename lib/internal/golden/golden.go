// Package golden holds the course's golden-image tests, the gonum/plot way:
// a test renders a figure to PNG and compares it, with gonum's cmpimg and a
// small tolerance ([Tolerance]), with testdata/<name>_golden.png in its
// package. After an intended change of a figure, regenerate the images with
//
//	go test ./lib/viz -update
//
// (or the package concerned; -run picks the figures) and look at them
// before committing. A failing comparison keeps the new image and a
// picture of the difference for inspection, and says where.
//
// Only tests import this package; it registers the -update flag.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

var update = flag.Bool("update", false, "regenerate the golden images in testdata")

// Tolerance is how far the colour of any one pixel may be from the golden
// image's: cmpimg.EqualApprox's delta, a distance in the YIQ colour space
// normalised so that 1 separates black from white. Every pixel must be
// within it; there is no allowance for a few pixels further off.
//
// 0.012 accepts a difference of up to 3/255 in every channel at once
// (0.0114 for a grey, 0.0118 at worst), the course's tolerance before
// cmpimg; what differs between machines is far below it (the figures
// built for linux/arm64, whose compiler fuses multiply–adds, differ from
// amd64's by 1/255 on a few anti-aliased pixels: 0.004). A figure that
// changes — a line moved, a colour changed, a word more — differs by far
// more on the pixels concerned. cmpimg compares red, green and blue
// (premultiplied), not alpha: the figures are opaque.
const Tolerance = 0.012

// Check compares got, a PNG image, with testdata/<name>_golden.png and
// fails t when they differ beyond [Tolerance], keeping got and a picture
// of the difference in a temporary folder, and saying how to regenerate
// the golden image. With -update it writes got as the golden image
// instead.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
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
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: create the golden image, and look at it before committing:\n%s", err, regenerate(t))
	}
	if err := SamePixels(got, want); err != nil {
		t.Errorf("%s differs from %s: %v\n%s\nIf the change is intended, regenerate the golden image and look at it before committing:\n%s",
			name, path, err, keep(name, got, want), regenerate(t))
	}
}

// Differs reports whether got differs from testdata/<name>_golden.png
// beyond the tolerance: what a test calls to show that a wrong figure
// would fail [Check].
func Differs(t testing.TB, name string, got []byte) bool {
	t.Helper()
	want, err := os.ReadFile(filepath.Join("testdata", name+"_golden.png"))
	if err != nil {
		t.Fatal(err)
	}
	return SamePixels(got, want) != nil
}

// SamePixels returns an error when two PNG images differ: in size, or in
// the colour of a pixel by more than [Tolerance] (cmpimg.EqualApprox).
// cmpimg itself tells only whether they are equal; the picture [Check]
// keeps shows where they differ.
func SamePixels(got, want []byte) error {
	a, err := png.DecodeConfig(bytes.NewReader(got))
	if err != nil {
		return fmt.Errorf("decoding the new image: %w", err)
	}
	b, err := png.DecodeConfig(bytes.NewReader(want))
	if err != nil {
		return fmt.Errorf("decoding the golden image: %w", err)
	}
	// cmpimg compares only the number of pixels: 100×99 and 99×100 would
	// get as far as the pixels.
	if a.Width != b.Width || a.Height != b.Height {
		return fmt.Errorf("size %v, want %v", image.Pt(a.Width, a.Height), image.Pt(b.Width, b.Height))
	}
	same, err := cmpimg.EqualApprox("png", got, want, Tolerance)
	switch {
	case err != nil:
		return err
	case !same:
		return fmt.Errorf("a pixel's colour differs by more than %v (cmpimg's YIQ distance)", Tolerance)
	}
	return nil
}

// keep writes got, and cmpimg.Diff's picture of how it differs from want
// (brighter where the difference is larger), to a new temporary folder,
// and says where they are.
func keep(name string, got, want []byte) string {
	dir, err := os.MkdirTemp("", "golden-")
	if err != nil {
		return "(the new image was not kept: " + err.Error() + ")"
	}
	gotPath := filepath.Join(dir, name+".png")
	if err := os.WriteFile(gotPath, got, 0o644); err != nil {
		return "(the new image was not kept: " + err.Error() + ")"
	}
	msg := "the new image is " + gotPath
	diffPath := filepath.Join(dir, name+"_diff.png")
	if err := writeDiff(diffPath, got, want); err != nil {
		return msg + " (no picture of the difference: " + err.Error() + ")"
	}
	return msg + ", the difference (brighter where larger) " + diffPath
}

// writeDiff writes to path the picture of how the PNG images got and want
// differ, over the part they share.
func writeDiff(path string, got, want []byte) error {
	a, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return err
	}
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return err
	}
	diff := image.NewRGBA(a.Bounds().Intersect(b.Bounds()))
	cmpimg.Diff(diff, a, b)
	var buf bytes.Buffer
	if err := png.Encode(&buf, diff); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// regenerate is the command that regenerates the golden image of the test
// t alone, in the folder of its package.
func regenerate(t testing.TB) string {
	var run []string
	for _, part := range strings.Split(t.Name(), "/") {
		run = append(run, "^"+regexp.QuoteMeta(part)+"$")
	}
	dir, err := os.Getwd()
	if err != nil {
		dir = "the package's folder"
	}
	return fmt.Sprintf("\tcd %s && go test -run '%s' -update", dir, strings.Join(run, "/"))
}
