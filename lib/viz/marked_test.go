package viz

import (
	"math"
	"testing"
)

func TestMarkedLinesValidate(t *testing.T) {
	pts := Series{Name: "p", X: []float64{1, 2}, Y: []float64{3, 4}}
	tests := []struct {
		name    string
		m       MarkedLines
		wantErr string
	}{
		{"points only", MarkedLines{Points: []Series{pts}}, ""},
		{"lines only", MarkedLines{Lines: []Series{{Y: []float64{1, 2, 3}}}}, ""},
		{"fixed y range", MarkedLines{Points: []Series{pts}, YMin: -1, YMax: 1}, ""},
		{"nothing", MarkedLines{}, "no Lines and no Points"},
		{"mismatched point", MarkedLines{Points: []Series{{Name: "we", X: []float64{0, 1}, Y: []float64{1}}}},
			`MarkedLines.Points[0] ("we") has 2 X values but 1 Y values`},
		{"empty line", MarkedLines{Lines: []Series{{}}, Points: []Series{pts}}, "MarkedLines.Lines[0] has no points"},
		{"NaN point", MarkedLines{Points: []Series{{Y: []float64{math.NaN()}}}}, "not finite"},
		{"inverted range", MarkedLines{Points: []Series{pts}, YMin: 1, YMax: -1}, "YMin ≤ YMax"},
		{"unknown legend", MarkedLines{Points: []Series{pts}, Legend: 9}, "Legend"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkErr(t, tc.m.Validate(), tc.wantErr) })
	}
}

func TestMarkedLinesSize(t *testing.T) {
	m := MarkedLines{Points: []Series{{Name: "a long legend entry", Y: []float64{1}}}}
	w, h := m.Size()
	m.Legend = LegendOutside
	wo, ho := m.Size()
	if wo <= w || ho != h {
		t.Errorf("Size() with LegendOutside = %v×%v, want wider than %v×%v and as tall", wo, ho, w, h)
	}
}

// markedFigures are the golden images of MarkedLines: a sinusoid with the
// words of a sentence marked on it (lesson 04) and points without a line.
func markedFigures() []namedFigure {
	words := []string{"we", "walk", "when", "wearing", "what", "?"}
	var line []float64
	for k := 0; k < 26; k++ {
		line = append(line, math.Cos(float64(k)/math.Pow(10000, 20.0/100)))
	}
	var points []Series
	for k, w := range words {
		points = append(points, Series{Name: w, X: []float64{float64(k)}, Y: []float64{line[k]}})
	}
	var vec []float64
	for j := 0; j < 100; j++ {
		vec = append(vec, math.Sin(4/math.Pow(10000, float64(j-j%2)/100)+float64(j%2)*math.Pi/2))
	}
	return []namedFigure{
		{"marked_words", &MarkedLines{Title: "Dimension 21 (cosine 10)", XLabel: "position k", YLabel: "PE(k, 21)",
			Lines: []Series{{Y: line}}, Points: points, YMin: -1.15, YMax: 1.15, Legend: LegendOutside, Height: 5 * 28.35}},
		{"marked_points", &MarkedLines{Title: "k = 4", XLabel: "dimension", YLabel: "PE(4, dimension)",
			Points: []Series{{Y: vec}}, YMin: -1.1, YMax: 1.1}},
	}
}

func TestMarkedLinesGolden(t *testing.T) {
	for _, tc := range markedFigures() {
		t.Run(tc.name, func(t *testing.T) { checkGolden(t, tc.name, tc.fig) })
	}
}

// The golden comparison notices when the points lose their colours.
func TestMarkedLinesGoldenCanFail(t *testing.T) {
	fig := markedFigures()[0].fig.(*MarkedLines)
	fig.Points = []Series{{Y: fig.Lines[0].Y[:6]}} // one series: one colour, no legend
	if !differsFromGolden(t, "marked_words", fig) {
		t.Error("the plot without word colours renders like the golden one")
	}
}
