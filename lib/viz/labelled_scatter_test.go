package viz

import (
	"math"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

func TestLabelledScatterValidate(t *testing.T) {
	pt := LabelledPoint{X: 2017, Y: 65e6, Label: "Transformer", Group: "encoder-decoder"}
	tests := []struct {
		name    string
		s       LabelledScatter
		wantErr string
	}{
		{"valid", LabelledScatter{Points: []LabelledPoint{pt}, LogY: true}, ""},
		{"groups listed", LabelledScatter{Points: []LabelledPoint{pt}, Groups: []string{"encoder", "encoder-decoder"}}, ""},
		{"no points", LabelledScatter{}, "no Points"},
		{"NaN", LabelledScatter{Points: []LabelledPoint{{X: math.NaN(), Y: 1}}}, "not finite"},
		{"zero on log y", LabelledScatter{LogY: true, Points: []LabelledPoint{{X: 1, Y: 0, Label: "z"}}}, `Points[0] ("z") has Y = 0`},
		{"negative on log x", LabelledScatter{LogX: true, Points: []LabelledPoint{{X: -1, Y: 1}}}, "LogX"},
		{"group not listed", LabelledScatter{Points: []LabelledPoint{pt}, Groups: []string{"decoder"}}, `group "encoder-decoder"`},
		{"unknown legend", LabelledScatter{Points: []LabelledPoint{pt}, Legend: 7}, "Legend"},
		{"negative size", LabelledScatter{Points: []LabelledPoint{pt}, Height: -1}, "negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkErr(t, tc.s.Validate(), tc.wantErr) })
	}
}

func TestLabelledScatterGroupsInOrderOfAppearance(t *testing.T) {
	s := timelineScatter()
	s.Groups = nil
	got := s.groups()
	want := []string{"encoder-decoder", "decoder", "encoder"}
	if len(got) != len(want) {
		t.Fatalf("groups() = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("groups() = %q, want %q", got, want)
		}
	}
}

func TestCountLabel(t *testing.T) {
	for v, want := range map[float64]string{
		65e6: "65M", 117e6: "117M", 340e6: "340M", 1.5e9: "1.5B", 11e9: "11B", 175e9: "175B", 1e12: "1T",
		1e8: "100M", 24034304: "24M", 2500: "2.5K", 12: "12", 0.5: "0.5", -3e6: "-3M",
	} {
		if got := CountLabel(v); got != want {
			t.Errorf("CountLabel(%g) = %q, want %q", v, got, want)
		}
	}
}

// labelBoxes draws s on a recorder and returns the boxes of the texts
// equal to the points' labels, in the order of the points.
func labelBoxes(t *testing.T, s *LabelledScatter) (boxes []vg.Rectangle, w, h vg.Length) {
	t.Helper()
	w, h = s.Size()
	rec := &recorder.Canvas{}
	s.Draw(draw.Canvas{Canvas: rec, Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	sty := textStyle(tickSize, false)
	for _, p := range s.Points {
		for _, a := range rec.Actions {
			if fs, ok := a.(*recorder.FillString); ok && fs.String == p.Label {
				// fs.Point is the left end of the baseline.
				boxes = append(boxes, vg.Rectangle{Min: fs.Point, Max: fs.Point.Add(vg.Point{X: sty.Width(p.Label), Y: sty.Height(p.Label) * 0.8})})
				break
			}
		}
	}
	if len(boxes) != len(s.Points) {
		t.Fatalf("found %d point labels among the texts drawn, want %d", len(boxes), len(s.Points))
	}
	return boxes, w, h
}

// No two labels of the timeline overlap, and every label stays on the
// figure.
func TestLabelledScatterLabelsDoNotOverlap(t *testing.T) {
	s := timelineScatter()
	boxes, w, _ := labelBoxes(t, s)
	for i := range boxes {
		if boxes[i].Min.X < 0 || boxes[i].Max.X > w {
			t.Errorf("label %q at %v leaves the figure (width %v)", s.Points[i].Label, boxes[i], w)
		}
		for j := range i {
			if overlaps(boxes[i], boxes[j]) {
				t.Errorf("labels %q and %q overlap", s.Points[j].Label, s.Points[i].Label)
			}
		}
	}
}

// On a logarithmic axis with a long y label the plot still reaches up to
// the title: the label of the highest point is close to the top. (gonum
// alone centres the y label on the arithmetic middle of the range, near
// the top of a log axis, and shrinks the plot to fit it.)
func TestLabelledScatterLogYUsesTheHeight(t *testing.T) {
	s := timelineScatter()
	boxes, _, h := labelBoxes(t, s)
	top := boxes[len(boxes)-1] // GPT-4, the highest point
	if gap := h - top.Max.Y; gap > 1.6*vg.Centimeter {
		t.Errorf("the highest label is %.1f cm under the top of the figure, want at most 1.6 cm", gap.Points()/vg.Centimeter.Points())
	}
}
