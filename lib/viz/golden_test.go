package viz

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"math"
	"slices"
	"testing"

	"github.com/attention-in-go/course/lib/internal/golden"
)

// Golden-image tests, the gonum/plot way (lib/internal/golden): each figure is
// rendered to PNG and compared with testdata/<name>_golden.png. After an
// intended change of the figures, regenerate the images with
//
//	go test ./lib/viz -update
//
// and look at them before committing.

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
		t.Run(tc.name, func(t *testing.T) { checkGolden(t, tc.name, tc.fig) })
	}
}

// checkGolden renders fig to PNG and compares it with
// testdata/<name>_golden.png (see lib/internal/golden).
func checkGolden(t *testing.T, name string, fig Figure) {
	t.Helper()
	got, err := PNG(fig)
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	golden.Check(t, name, got)
}

// differsFromGolden reports whether fig renders unlike the golden image
// name: the tests that show a comparison can fail call it.
func differsFromGolden(t *testing.T, name string, fig Figure) bool {
	t.Helper()
	got, err := PNG(fig)
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	return golden.Differs(t, name, got)
}

func TestSamePixelsCanFail(t *testing.T) {
	figs := goldenFigures()
	a, err := PNG(figs[0].fig)
	if err != nil {
		t.Fatal(err)
	}
	if err := golden.SamePixels(a, a); err != nil {
		t.Errorf("golden.SamePixels(a, a) = %v, want nil", err)
	}
	other := &Heatmap{Values: weights3, Rows: tokens3, Cols: tokens3, Title: "Attention weights",
		XLabel: "key", YLabel: "query", Palette: Greys()}
	b, err := PNG(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := golden.SamePixels(a, b); err == nil {
		t.Error("SamePixels of a Viridis and a Greys heat map = nil, want an error")
	}
}

// TestGoldenTolerance: the comparison accepts what another machine's
// rounding changes — the anti-aliased pixels of a figure off by 1/255, as
// in the figures built for linux/arm64 — and rejects a figure whose line
// moved.
func TestGoldenTolerance(t *testing.T) {
	var lines *Lines
	for _, f := range goldenFigures() {
		if f.name == "lines_loglog" {
			lines = f.fig.(*Lines)
		}
	}
	data, err := PNG(lines)
	if err != nil {
		t.Fatal(err)
	}
	m, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rgba := image.NewRGBA(m.Bounds())
	draw.Draw(rgba, rgba.Bounds(), m, m.Bounds().Min, draw.Src)
	nudged := 0
	for i := 0; i < len(rgba.Pix); i += 4 {
		if p := rgba.Pix[i : i+3]; !bytes.Equal(p, []byte{255, 255, 255}) && !bytes.Equal(p, []byte{0, 0, 0}) {
			p[0], p[1], p[2] = max(p[0], 1)-1, max(p[1], 1)-1, max(p[2], 1)-1
			nudged++
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, rgba); err != nil {
		t.Fatal(err)
	}
	if golden.Differs(t, "lines_loglog", b.Bytes()) {
		t.Errorf("the figure with %d anti-aliased pixels off by 1/255 differs from the golden one", nudged)
	}

	moved := *lines
	moved.Series = slices.Clone(lines.Series)
	moved.Series[0].Y = slices.Clone(lines.Series[0].Y)
	moved.Series[0].Y[5] *= 1.1
	if !differsFromGolden(t, "lines_loglog", &moved) {
		t.Error("the figure with a point of a line moved up by 10% renders like the golden one")
	}
}
