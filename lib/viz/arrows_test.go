package viz

import (
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// arrowsSat is the figure of the golden image: "sat" attending to the
// words of its sentence, weights summing to 1, one of them 0 and one under
// MinWeight.
func arrowsSat() *Arrows {
	return &Arrows{
		Keys:       []string{"The", "cat", "sat", "on", "the", "mat", "."},
		Weights:    []float64{0.08, 0.46, 0.17, 0.21, 0.03, 0.05, 0},
		QueryIndex: 2,
		Query:      `query "sat"`,
		MinWeight:  0.04,
		Title:      `Self-attention of "sat" (arrow width = weight)`,
	}
}

func TestArrowsGolden(t *testing.T) {
	checkGolden(t, "arrows", arrowsSat())
}

// A picture with other weights must not match the golden image: the
// comparison can fail.
func TestArrowsGoldenCanFail(t *testing.T) {
	a := arrowsSat()
	a.Weights = []float64{0.46, 0.08, 0.17, 0.21, 0.03, 0.05, 0} // "The" and "cat" swapped
	if !differsFromGolden(t, "arrows", a) {
		t.Error("arrows with swapped weights match the golden image, want a difference")
	}
}

func TestArrowWidthProportionalToWeight(t *testing.T) {
	tests := []struct {
		name     string
		maxWidth vg.Length
		weight   float64
		want     vg.Length
	}{
		{"default, weight 1", 0, 1, 24},
		{"default, weight 0.5", 0, 0.5, 12},
		{"default, weight 0.25", 0, 0.25, 6},
		{"custom MaxWidth", 10, 0.3, 3},
		{"tiny weight: the floor", 0, 0.001, arrowsMinWidth},
		{"zero weight: the floor", 0, 0, arrowsMinWidth},
	}
	for _, tc := range tests {
		a := &Arrows{MaxWidth: tc.maxWidth}
		if got := a.arrowWidth(tc.weight); abs(float64(got-tc.want)) > 1e-9 {
			t.Errorf("%s: arrowWidth(%g) = %v, want %v", tc.name, tc.weight, got, tc.want)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// The widths, opacities and positions the figure draws follow the weights.
func TestArrowsLayout(t *testing.T) {
	a := arrowsSat()
	w, h := a.Size()
	c := inset(draw.New(vgimg.New(w, h)), margin)
	l := a.layout(c)
	if len(l.keys) != len(a.Keys) || len(l.arrows) != len(a.Keys) {
		t.Fatalf("got %d key boxes and %d arrows, want %d of each", len(l.keys), len(l.arrows), len(a.Keys))
	}
	for i := range l.arrows {
		for j := range l.arrows {
			wi, wj := a.Weights[i], a.Weights[j]
			si, sj := l.arrows[i], l.arrows[j]
			if wi > wj && !(si.width > sj.width || sj.width == arrowsMinWidth && si.width == arrowsMinWidth) {
				t.Errorf("weight %g > %g but width %v ≤ %v", wi, wj, si.width, sj.width)
			}
			if wi > wj && si.alpha <= sj.alpha {
				t.Errorf("weight %g > %g but opacity %g ≤ %g", wi, wj, si.alpha, sj.alpha)
			}
		}
	}
	for j, s := range l.arrows {
		k := l.keys[j]
		if s.to.X != (k.Min.X+k.Max.X)/2 || s.to.Y < k.Max.Y || s.to.Y > k.Max.Y+vg.Points(2) {
			t.Errorf("arrow %d ends at %v, want on top of key box %v", j, s.to, k)
		}
		if s.from.Y > l.query.Min.Y || s.from.X < l.query.Min.X || s.from.X > l.query.Max.X {
			t.Errorf("arrow %d starts at %v, want under the query box %v", j, s.from, l.query)
		}
		if j > 0 && !(s.label.X > l.arrows[j-1].label.X) {
			t.Errorf("label %d at x = %v is not right of label %d at %v", j, s.label.X, j-1, l.arrows[j-1].label.X)
		}
		wantHidden := a.Weights[j] == 0 || a.Weights[j] < a.MinWeight
		if s.hidden != wantHidden {
			t.Errorf("arrow %d (weight %g, MinWeight %g): hidden = %v, want %v", j, a.Weights[j], a.MinWeight, s.hidden, wantHidden)
		}
		if j > 0 && l.keys[j].Min.X < l.keys[j-1].Max.X {
			t.Errorf("key boxes %d and %d overlap", j-1, j)
		}
	}
	// The labels of neighbouring arrows must not overlap.
	sty := textStyle(valueSize, false)
	for j := 1; j < len(l.arrows); j++ {
		prev, cur := l.arrows[j-1], l.arrows[j]
		if cur.label.X-sty.Width(cur.text)/2 < prev.label.X+sty.Width(prev.text)/2 {
			t.Errorf("labels %q and %q overlap", prev.text, cur.text)
		}
	}
}

func TestArrowsValidate(t *testing.T) {
	keys := []string{"a", "b"}
	tests := []struct {
		name string
		a    Arrows
		want string
	}{
		{"ok", Arrows{Keys: keys, Weights: []float64{0.5, 0.5}}, ""},
		{"cross ignores QueryIndex", Arrows{Keys: keys, Weights: []float64{0.5, 0.5}, Cross: true, QueryIndex: 9}, ""},
		{"no keys", Arrows{}, "Keys is empty"},
		{"weights and keys differ", Arrows{Keys: keys, Weights: []float64{1}}, "1 weights for 2 keys"},
		{"negative weight", Arrows{Keys: keys, Weights: []float64{-0.1, 1.1}}, "Weights[0] is -0.1"},
		{"QueryIndex out of range", Arrows{Keys: keys, Weights: []float64{0.5, 0.5}, QueryIndex: 2}, "QueryIndex is 2"},
		{"negative size", Arrows{Keys: keys, Weights: []float64{0.5, 0.5}, Width: -1}, "must not be negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkErr(t, tc.a.Validate(), tc.want) })
	}
}

// Arrows draws how one query spreads its attention over the keys; Show
// displays it in a notebook and does nothing elsewhere.
func ExampleArrows() {
	fig := &Arrows{
		Keys:       []string{"The", "cat", "sat", "on", "mat"},
		Weights:    []float64{0.15, 0.52, 0.05, 0.22, 0.06}, // row "sat" of the attention weights
		QueryIndex: 2,
		Title:      `Self-attention of "sat"`,
	}
	Show(fig)
	// Output:
}
