package viz_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/viz"
)

// Table prints attention weights next to the heat map of the same matrix.
func ExampleTable() {
	tokens := []string{"I", "love", "Go"}
	weights := [][]float64{
		{0.62, 0.21, 0.17},
		{0.14, 0.71, 0.15},
		{0.30, 0.25, 0.45},
	}
	fmt.Print(viz.Table(weights, tokens, tokens, "%.2f"))
	// Output:
	//          I  love    Go
	// I     0.62  0.21  0.17
	// love  0.14  0.71  0.15
	// Go    0.30  0.25  0.45
}

// A heat map of attention weights: row 0 (the first query) at the top.
// Outside a notebook Show does nothing, so this example has no output to
// check; in a GoNB cell it displays the picture.
func ExampleHeatmap() {
	tokens := []string{"I", "love", "Go"}
	weights := [][]float64{
		{0.62, 0.21, 0.17},
		{0.14, 0.71, 0.15},
		{0.30, 0.25, 0.45},
	}
	viz.Show(&viz.Heatmap{
		Values: weights, Rows: tokens, Cols: tokens,
		Title: "Attention weights", XLabel: "key", YLabel: "query",
	})
}

// Validate tells why a figure cannot be drawn; PNG, SVG, Save and Show
// report the same error.
func ExampleHeatmap_Validate() {
	h := &viz.Heatmap{Values: [][]float64{{1, 2}, {3}}}
	fmt.Println(h.Validate())
	_, err := viz.PNG(h)
	fmt.Println(err)
	// Output:
	// viz: Heatmap.Values is ragged: row 1 has length 1, row 0 has length 2
	// viz: Heatmap.Values is ragged: row 1 has length 1, row 0 has length 2
}

// Two figures side by side.
func ExampleGrid() {
	a := &viz.Heatmap{Values: [][]float64{{1, 0}, {0.5, 0.5}}, Title: "a"}
	b := &viz.Heatmap{Values: [][]float64{{0, 1}, {0.5, 0.5}}, Title: "b"}
	g := &viz.Grid{Cols: 2, Figures: []viz.Figure{a, b}}
	aw, _ := a.Size()
	bw, _ := b.Size()
	gw, _ := g.Size()
	fmt.Println(gw == aw+bw)
	// Output:
	// true
}
