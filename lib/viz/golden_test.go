package viz

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// Golden-image tests, the gonum/plot way: each figure is rendered to PNG
// and compared, pixel by pixel with a small tolerance, with
// testdata/<name>_golden.png. After an intended change of the figures,
// regenerate the images with
//
//	go test ./lib/viz -update
//
// and look at them before committing.
var update = flag.Bool("update", false, "regenerate the golden images in testdata")

// Data of the lesson-01 pictures.
var (
	tokens3  = []string{"I", "love", "Go"}
	weights3 = [][]float64{{0.62, 0.21, 0.17}, {0.14, 0.71, 0.15}, {0.30, 0.25, 0.45}}
	tokens6  = []string{"The", "cat", "sat", "on", "the", "mat"}
)

// weights6 returns attention-like weights: each row sums to 1 and is
// largest near the diagonal; causal zeroes the upper triangle first.
func weights6(causal bool) [][]float64 {
	w := make([][]float64, 6)
	for i := range w {
		w[i] = make([]float64, 6)
		sum := 0.0
		for j := range w[i] {
			if causal && j > i {
				continue
			}
			w[i][j] = math.Exp(-math.Abs(float64(i-j)) + 0.3*math.Sin(float64(i*7+j*3)))
			sum += w[i][j]
		}
		for j := range w[i] {
			w[i][j] /= sum
		}
	}
	return w
}

// lookAhead returns the n×n look-ahead mask: 1 above the diagonal.
func lookAhead(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		for j := i + 1; j < n; j++ {
			m[i][j] = 1
		}
	}
	return m
}

// positionalEncoding returns the sinusoidal encoding of "Attention is all
// you need" for positions 0..n-1 in d dimensions.
func positionalEncoding(n, d int) [][]float64 {
	pe := make([][]float64, n)
	for pos := range pe {
		pe[pos] = make([]float64, d)
		for i := 0; i < d; i += 2 {
			angle := float64(pos) / math.Pow(10000, float64(i)/float64(d))
			pe[pos][i] = math.Sin(angle)
			pe[pos][i+1] = math.Cos(angle)
		}
	}
	return pe
}

type namedFigure struct {
	name string
	fig  Figure
}

// goldenFigures are the figures checked against testdata: one of each kind
// the lessons use.
func goldenFigures() []namedFigure {
	dks := []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}
	var unscaled, scaled []float64
	for _, dk := range dks {
		unscaled = append(unscaled, dk*(1+0.1*math.Sin(dk)))
		scaled = append(scaled, 1+0.1*math.Sin(dk))
	}
	encoder := &Heatmap{Values: weights6(false), Rows: tokens6, Cols: tokens6,
		Title: "Full self-attention (encoder)", XLabel: "key", YLabel: "query"}
	decoder := &Heatmap{Values: weights6(true), Rows: tokens6, Cols: tokens6,
		Title: "Causal self-attention (decoder)", XLabel: "key", YLabel: "query"}
	return []namedFigure{
		{"heatmap_3x3", &Heatmap{Values: weights3, Rows: tokens3, Cols: tokens3,
			Title: "Attention weights", XLabel: "key", YLabel: "query"}},
		{"heatmap_6x6", encoder},
		{"heatmap_mask", &Heatmap{Values: lookAhead(5), Palette: Greys(), Format: "%.0f",
			Title: "Look-ahead mask (1 = masked)", XLabel: "key", YLabel: "query"}},
		{"heatmap_pe", &Heatmap{Values: positionalEncoding(50, 512), Palette: Diverging(),
			Title: "Sinusoidal positional encoding", XLabel: "dimension", YLabel: "position"}},
		{"grid", &Grid{Cols: 2, Figures: []Figure{encoder, decoder}}},
		{"lines_loglog", &Lines{Title: "Var(q·k) grows with d_k", XLabel: "d_k", YLabel: "variance",
			LogX: true, LogY: true, Points: true, Series: []Series{
				{Name: "unscaled q·k", X: dks, Y: unscaled},
				{Name: "scaled q·k/√d_k", X: dks, Y: scaled, Dashed: true},
			}}},
		{"bars", &Bars{Title: `Attention of "sat" in two heads`, XLabel: "key", YLabel: "weight",
			Labels: tokens6, Annotate: true, Groups: []BarGroup{
				{Name: "head 1", Values: weights6(false)[2]},
				{Name: "head 2", Values: weights6(true)[4]},
			}}},
		{"bars_plain", &Bars{Title: "softmax(x / T)", XLabel: "logit x", YLabel: "weight",
			Labels: []string{"2.0", "1.0", "0.1", "-1.0"}, Groups: []BarGroup{
				{Name: "T = 0.5", Values: []float64{0.862, 0.117, 0.019, 0.002}},
				{Name: "T = 1.0", Values: []float64{0.638, 0.235, 0.095, 0.032}},
				{Name: "T = 5.0", Values: []float64{0.328, 0.268, 0.224, 0.180}},
			}}},
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenFigures() {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PNG(tc.fig)
			if err != nil {
				t.Fatalf("PNG: %v", err)
			}
			path := filepath.Join("testdata", tc.name+"_golden.png")
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
				t.Fatalf("%v (run go test ./lib/viz -update to create the golden images)", err)
			}
			if err := samePixels(got, want); err != nil {
				failed := filepath.Join(t.TempDir(), tc.name+".png")
				if dir, err := os.MkdirTemp("", "viz-golden-"); err == nil {
					failed = filepath.Join(dir, tc.name+".png") // kept for inspection
				}
				os.WriteFile(failed, got, 0o644)
				t.Errorf("%s differs from %s: %v\n(got written to %s; if the change is intended, run go test ./lib/viz -update)", tc.name, path, err, failed)
			}
		})
	}
}

// samePixels decodes two PNG images and reports whether they differ by more
// than a tiny tolerance: a channel may differ by 3/255, and one pixel in
// 2000 may differ more (anti-aliasing of text can vary slightly).
func samePixels(got, want []byte) error {
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

func TestSamePixelsCanFail(t *testing.T) {
	figs := goldenFigures()
	a, err := PNG(figs[0].fig)
	if err != nil {
		t.Fatal(err)
	}
	if err := samePixels(a, a); err != nil {
		t.Errorf("samePixels(a, a) = %v, want nil", err)
	}
	other := &Heatmap{Values: weights3, Rows: tokens3, Cols: tokens3, Title: "Attention weights",
		XLabel: "key", YLabel: "query", Palette: Greys()}
	b, err := PNG(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := samePixels(a, b); err == nil {
		t.Error("samePixels of a Viridis and a Greys heat map = nil, want an error")
	}
}
