package viz

import (
	"cmp"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// checkErr compares an error with the substring it should contain ("" for
// no error).
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("Validate() = %v, want nil", err)
	case want != "" && err == nil:
		t.Errorf("Validate() = nil, want an error containing %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Errorf("Validate() = %q, want it to contain %q", err, want)
	}
}

func TestLinesValidate(t *testing.T) {
	xy := Series{Name: "s", X: []float64{1, 2, 3}, Y: []float64{1, 4, 9}}
	tests := []struct {
		name    string
		l       Lines
		wantErr string
	}{
		{"valid", Lines{Series: []Series{xy}}, ""},
		{"nil X means indices", Lines{Series: []Series{{Y: []float64{3, 1, 2}}}}, ""},
		{"valid log-log", Lines{Series: []Series{xy}, LogX: true, LogY: true}, ""},
		{"no series", Lines{}, "no Series"},
		{"mismatched lengths", Lines{Series: []Series{xy, {Name: "bad", X: []float64{1, 2}, Y: []float64{1}}}},
			`Series[1] ("bad") has 2 X values but 1 Y values`},
		{"empty series", Lines{Series: []Series{{}}}, "no points"},
		{"NaN", Lines{Series: []Series{{Y: []float64{1, math.NaN()}}}}, "not finite"},
		{"zero on log x", Lines{LogX: true, Series: []Series{{Y: []float64{1, 2}}}}, "LogX"},
		{"negative on log y", Lines{LogY: true, Series: []Series{{Y: []float64{1, -2}}}}, "LogY"},
		{"unknown legend", Lines{Series: []Series{xy}, Legend: 42}, "Legend"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkErr(t, tc.l.Validate(), tc.wantErr) })
	}
}

func TestBarsValidate(t *testing.T) {
	tests := []struct {
		name    string
		b       Bars
		wantErr string
	}{
		{"valid", Bars{Labels: []string{"a", "b"}, Groups: []BarGroup{{Values: []float64{1, 2}}}}, ""},
		{"nil labels use indices", Bars{Groups: []BarGroup{{Values: []float64{1, 2}}, {Values: []float64{3, 4}}}}, ""},
		{"no groups", Bars{Labels: []string{"a"}}, "no Groups"},
		{"no categories", Bars{Groups: []BarGroup{{}}}, "no categories"},
		{"group too short", Bars{Labels: []string{"a", "b"}, Groups: []BarGroup{{Name: "g", Values: []float64{1}}}},
			`Groups[0] ("g") has 1 values, but Labels has 2`},
		{"groups differ", Bars{Groups: []BarGroup{{Values: []float64{1, 2}}, {Values: []float64{1}}}}, "Groups[0] has 2"},
		{"infinite", Bars{Groups: []BarGroup{{Values: []float64{math.Inf(1)}}}}, "not finite"},
		{"counts", Bars{Counts: true, Groups: []BarGroup{{Values: []float64{0, 3, 12}}}}, ""},
		{"a fraction is not a count", Bars{Counts: true, Groups: []BarGroup{{Values: []float64{1, 2.5}}}}, "value 1 is 2.5, not a count"},
		{"a negative is not a count", Bars{Counts: true, Groups: []BarGroup{{Values: []float64{-1}}}}, "value 0 is -1, not a count"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkErr(t, tc.b.Validate(), tc.wantErr) })
	}
}

func TestGridValidate(t *testing.T) {
	good := &Heatmap{Values: weights3}
	bad := &Heatmap{Values: [][]float64{{1}, {}}}
	tests := []struct {
		name    string
		g       Grid
		wantErr string
	}{
		{"valid", Grid{Figures: []Figure{good, nil, good}}, ""},
		{"empty", Grid{}, "no Figures"},
		{"all nil", Grid{Figures: []Figure{nil}}, "all nil"},
		{"negative cols", Grid{Figures: []Figure{good}, Cols: -1}, "negative"},
		{"invalid figure", Grid{Figures: []Figure{good, bad}}, "Grid.Figures[1]: viz: Heatmap.Values is ragged"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkErr(t, tc.g.Validate(), tc.wantErr) })
	}
}

// fixedSize is a Figure of a given size that draws nothing.
type fixedSize struct{ w, h vg.Length }

func (fixedSize) Draw(draw.Canvas)         {}
func (f fixedSize) Size() (w, h vg.Length) { return f.w, f.h }

// blankCanvas returns a canvas of the given size to draw on.
func blankCanvas(w, h vg.Length) draw.Canvas { return draw.New(vgimg.New(w, h)) }

func TestGridSize(t *testing.T) {
	a, b, c := fixedSize{100, 50}, fixedSize{80, 70}, fixedSize{30, 20}
	tests := []struct {
		name         string
		g            Grid
		wantW, wantH vg.Length
	}{
		{"one row", Grid{Figures: []Figure{a, b, c}}, 210, 70},
		{"two columns", Grid{Cols: 2, Figures: []Figure{a, b, c}}, 180, 90},
		{"one column with gap", Grid{Cols: 1, Gap: 10, Figures: []Figure{a, b}}, 100, 130},
		{"nil cell", Grid{Cols: 2, Figures: []Figure{a, nil, nil, c}}, 130, 70},
	}
	for _, tc := range tests {
		if w, h := tc.g.Size(); w != tc.wantW || h != tc.wantH {
			t.Errorf("%s: Size() = %v×%v, want %v×%v", tc.name, w, h, tc.wantW, tc.wantH)
		}
	}
	withTitle := Grid{Title: "title", Figures: []Figure{a}}
	if _, h := withTitle.Size(); h <= 50 {
		t.Errorf("Size() height with a title = %v, want more than the figure's 50", h)
	}
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   string // the labels
	}{
		{0, 1, "0.0 0.2 0.4 0.6 0.8 1.0"},
		{0, 5, "0 1 2 3 4 5"},
		{-2.8, 7, "-2 0 2 4 6"},
		{0.004, 0.63, "0.1 0.2 0.3 0.4 0.5 0.6"},
		{-1, 1, "-1.0 -0.5 0.0 0.5 1.0"},
		{0, 1000, "0 200 400 600 800 1000"},
	}
	for _, tc := range tests {
		var labels []string
		for _, tk := range (niceTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != tc.want {
			t.Errorf("niceTicks(%g, %g) labels %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestCountTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   string // every tick, labelled or not
	}{
		{0, 1.1, "0 1"},
		{0, 2.3, "0 1 2"},
		{0, 6.9, "0 1 2 3 4 5 6"},
		{0, 12, "0 _ 2 _ 4 _ 6 _ 8 _ 10 _ 12"},
		{0, 230, "0 _ 50 _ 100 _ 150 _ 200 _"},
	}
	for _, tc := range tests {
		var got []string
		for _, tk := range (countTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Value != math.Trunc(tk.Value) {
				t.Errorf("countTicks(%g, %g): a tick at %g, between counts", tc.lo, tc.hi, tk.Value)
			}
			got = append(got, cmp.Or(tk.Label, "_"))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("countTicks(%g, %g) = %q, want %q", tc.lo, tc.hi, strings.Join(got, " "), tc.want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	labelled := func(ticks []plot.Tick, lo, hi float64) []string {
		var l []string
		for _, tk := range ticks {
			if tk.Label != "" && tk.Value >= lo && tk.Value <= hi {
				l = append(l, tk.Label)
			}
		}
		return l
	}
	tests := []struct {
		lo, hi float64
		want   string
	}{
		{1, 512, "1 10 100"},
		{2, 8, "2 5"},   // no power of ten in range: 2 and 5 times them
		{3, 4.5, "3 4"}, // not even those: every digit
		{0.01, 1, "0.01 0.1 1"},
	}
	for _, tc := range tests {
		got := strings.Join(labelled((logTicks{}).Ticks(tc.lo, tc.hi), tc.lo, tc.hi), " ")
		if got != tc.want {
			t.Errorf("logTicks(%g, %g) labels %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestLegendMakesRoom(t *testing.T) {
	// A line along the top edge would be under a top-left legend: the y
	// axis must grow to leave a free band for it.
	l := &Lines{Series: []Series{{Name: "saturated", Y: []float64{1, 1, 1, 1}}, {Name: "low", Y: []float64{0, 0.5, 0.5, 0.5}}}}
	p, leg, data := l.plot()
	c := blankCanvas(l.Size())
	drawWithLegend(c, p, leg, LegendTopLeft, false, data)
	if p.Y.Max <= 1 {
		t.Errorf("y axis max = %g after drawing the legend, want above the data's 1", p.Y.Max)
	}
	// With the legend at the bottom right, over nothing, the axis is kept.
	p, leg, data = l.plot()
	drawWithLegend(c, p, leg, LegendBottomRight, false, data)
	if p.Y.Max != 1 || p.Y.Min != 0 {
		t.Errorf("y axis [%g, %g] with a legend over no data, want [0, 1]", p.Y.Min, p.Y.Max)
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one two three four", 9, "one two\nthree\nfour"},
		{"abcdefghijkl", 5, "abcde\nfghij\nkl"},
		{"a\nb", 10, "a\nb"},
	}
	for _, tc := range tests {
		if got := wrap(tc.s, tc.n); got != tc.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// Every figure with Width and Height fields takes them as its size where
// they are set, and chooses its own where they are zero: only one field
// set keeps the figure's own other side.
func TestSizeFields(t *testing.T) {
	const w, h = 7 * vg.Centimeter, 5 * vg.Centimeter
	tests := []struct {
		name       string
		set, onlyW Figure
		own        Figure
	}{
		{"Arrows", &Arrows{Width: w, Height: h}, &Arrows{Width: w}, &Arrows{}},
		{"Bars", &Bars{Width: w, Height: h}, &Bars{Width: w}, &Bars{}},
		{"Heatmap", &Heatmap{Width: w, Height: h}, &Heatmap{Width: w}, &Heatmap{}},
		{"LabelledScatter", &LabelledScatter{Width: w, Height: h}, &LabelledScatter{Width: w}, &LabelledScatter{}},
		{"EncoderDiagram", &EncoderDiagram{Width: w, Height: h}, &EncoderDiagram{Width: w}, &EncoderDiagram{}},
		{"TransformerDiagram", &TransformerDiagram{Width: w, Height: h}, &TransformerDiagram{Width: w}, &TransformerDiagram{}},
	}
	for _, tt := range tests {
		if gw, gh := tt.set.Size(); gw != w || gh != h {
			t.Errorf("%s with Width and Height: Size() = %v×%v, want %v×%v", tt.name, gw, gh, w, h)
		}
		_, ownH := tt.own.Size()
		if gw, gh := tt.onlyW.Size(); gw != w || gh != ownH {
			t.Errorf("%s with Width only: Size() = %v×%v, want %v×%v (its own height)", tt.name, gw, gh, w, ownH)
		}
		if ownW, ownH := tt.own.Size(); ownW == w || ownH == h || ownW <= 0 || ownH <= 0 {
			t.Errorf("%s without: Size() = %v×%v, want its own positive size", tt.name, ownW, ownH)
		}
	}
}
