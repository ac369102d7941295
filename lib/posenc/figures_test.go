package posenc

import (
	"testing"

	"github.com/attention-in-go/course/lib/viz"
)

func TestDimensionName(t *testing.T) {
	for j, want := range map[int]string{0: "sine 0", 1: "cosine 0", 20: "sine 10", 41: "cosine 20"} {
		if got := DimensionName(j); got != want {
			t.Errorf("DimensionName(%d) = %q, want %q", j, got, want)
		}
	}
}

func TestDimensionSeries(t *testing.T) {
	pe := Sinusoidal(50, 128, DefaultBase)
	series := DimensionSeries(pe, []int{0, 1, 51})
	if len(series) != 3 || series[2].Name != "dim 51" || len(series[2].Y) != 50 {
		t.Fatalf("DimensionSeries = %d series, last %q with %d points; want 3, \"dim 51\", 50", len(series), series[len(series)-1].Name, len(series[len(series)-1].Y))
	}
	for pos, y := range series[2].Y {
		if y != pe[pos][51] {
			t.Fatalf("series dim 51 at %d = %g, want PE = %g", pos, y, pe[pos][51])
		}
	}
}

func TestSinusoidPanels(t *testing.T) {
	words := []string{"we", "walk", "when", "wearing", "what", "?"}
	pe := Sinusoidal(len(words)+20, 100, DefaultBase)
	dims := []int{1, 2, 20, 21, 40, 41}
	g := SinusoidPanels(pe, dims, words)
	if len(g.Figures) != len(dims) || g.Cols != 1 {
		t.Fatalf("%d figures in %d columns, want %d in 1", len(g.Figures), g.Cols, len(dims))
	}
	panel := g.Figures[3].(*viz.MarkedLines)
	if panel.Title != "Dimension 21 (cosine 10)" {
		t.Errorf("title %q, want \"Dimension 21 (cosine 10)\"", panel.Title)
	}
	if len(panel.Points) != len(words) || len(panel.Lines[0].Y) != len(pe) {
		t.Fatalf("panel has %d word points and a line of %d, want %d and %d", len(panel.Points), len(panel.Lines[0].Y), len(words), len(pe))
	}
	for i, p := range panel.Points {
		if p.Name != words[i] || p.X[0] != float64(i) || p.Y[0] != pe[i][21] {
			t.Errorf("point %d = %q at (%g, %g), want %q at (%d, %g)", i, p.Name, p.X[0], p.Y[0], words[i], i, pe[i][21])
		}
	}
	if _, err := viz.PNG(g); err != nil {
		t.Errorf("PNG: %v", err)
	}
}

func TestVectorPanels(t *testing.T) {
	pe := Sinusoidal(26, 100, DefaultBase)
	g := VectorPanels(pe, []int{0, 4, 10})
	if len(g.Figures) != 3 || g.Cols != 3 {
		t.Fatalf("%d figures in %d columns, want 3 in 3", len(g.Figures), g.Cols)
	}
	p := g.Figures[1].(*viz.MarkedLines)
	if p.Title != "k = 4" || len(p.Points[0].Y) != 100 || p.Points[0].Y[7] != pe[4][7] {
		t.Errorf("panel 1: %q with %d points, want \"k = 4\" with PE(4, ·)", p.Title, len(p.Points[0].Y))
	}
	if _, err := viz.PNG(g); err != nil {
		t.Errorf("PNG: %v", err)
	}
}
