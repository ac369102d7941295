// Package golden holds the course's golden-image tests, the gonum/plot way:
// a test renders a figure to PNG and compares it, pixel by pixel with a
// small tolerance, with testdata/<name>_golden.png in its package. After an
// intended change of a figure, regenerate the images with
//
//	go test ./lib/viz -update
//
// (or the package concerned) and look at them before committing.
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
	"testing"
)

var update = flag.Bool("update", false, "regenerate the golden images in testdata")

// Check compares got, a PNG image, with testdata/<name>_golden.png and
// fails t when they differ beyond [SamePixels]' tolerance, writing got to a
// temporary folder for inspection. With -update it writes got as the
// golden image instead.
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
		t.Fatalf("%v (run go test with -update to create the golden image, then look at it)", err)
	}
	if err := SamePixels(got, want); err != nil {
		failed := "(not written)"
		if dir, err := os.MkdirTemp("", "golden-"); err == nil {
			failed = filepath.Join(dir, name+".png") // kept for inspection
			if err := os.WriteFile(failed, got, 0o644); err != nil {
				failed = "(not written: " + err.Error() + ")"
			}
		}
		t.Errorf("%s differs from %s: %v\n(the new image is %s; if the change is intended, run go test with -update)", name, path, err, failed)
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

// SamePixels decodes two PNG images and returns an error when they differ
// by more than a tiny tolerance: a channel may differ by 3/255, and one
// pixel in 2000 may differ more (anti-aliasing of text can vary slightly
// between machines).
func SamePixels(got, want []byte) error {
	a, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return fmt.Errorf("decoding the new image: %w", err)
	}
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return fmt.Errorf("decoding the golden image: %w", err)
	}
	if a.Bounds().Size() != b.Bounds().Size() {
		return fmt.Errorf("size %v, want %v", a.Bounds().Size(), b.Bounds().Size())
	}
	const channelTol = 3 * 0x101
	bad, first := 0, image.Point{-1, -1}
	size := a.Bounds().Size()
	for y := range size.Y {
		for x := range size.X {
			r1, g1, b1, a1 := a.At(a.Bounds().Min.X+x, a.Bounds().Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(b.Bounds().Min.X+x, b.Bounds().Min.Y+y).RGBA()
			if absDiff(r1, r2) > channelTol || absDiff(g1, g2) > channelTol ||
				absDiff(b1, b2) > channelTol || absDiff(a1, a2) > channelTol {
				if bad == 0 {
					first = image.Point{x, y}
				}
				bad++
			}
		}
	}
	if bad > size.X*size.Y/2000 {
		return fmt.Errorf("%d of %d pixels differ, the first at %v", bad, size.X*size.Y, first)
	}
	return nil
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
