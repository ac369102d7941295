package viz

import (
	"strings"
	"testing"
)

// lesson05Figures are the figures lesson 05 adds, checked against
// testdata like goldenFigures (regenerate with go test ./lib/viz -update).
func lesson05Figures() []namedFigure {
	return []namedFigure{
		{"encoder_diagram", &EncoderDiagram{Layers: 6}},
		{"transformer_diagram", &TransformerDiagram{EncoderLayers: 6, DecoderLayers: 6}}, // lesson 09's, drawn by the same pen
		{"labelled_scatter_timeline", timelineScatter()},
	}
}

// timelineScatter is the model-size timeline of lesson 05.
func timelineScatter() *LabelledScatter {
	return &LabelledScatter{
		Title: "Growth of Transformer-based models", XLabel: "year", YLabel: "parameters (log scale)",
		LogY: true, YFormat: CountLabel,
		Groups: []string{"encoder", "decoder", "encoder-decoder"},
		Points: []LabelledPoint{
			{X: 2017, Y: 65e6, Label: "Transformer (65M)", Group: "encoder-decoder"},
			{X: 2018.4, Y: 117e6, Label: "GPT-1 (117M)", Group: "decoder"},
			{X: 2018.8, Y: 340e6, Label: "BERT (340M)", Group: "encoder"},
			{X: 2019.2, Y: 1.5e9, Label: "GPT-2 (1.5B)", Group: "decoder"},
			{X: 2019.8, Y: 340e6, Label: "XLNet (340M)", Group: "encoder"},
			{X: 2020.0, Y: 11e9, Label: "T5 (11B)", Group: "encoder-decoder"},
			{X: 2020.5, Y: 175e9, Label: "GPT-3 (175B)", Group: "decoder"},
			{X: 2022.0, Y: 175e9, Label: "ChatGPT (175B)", Group: "decoder"},
			{X: 2023.0, Y: 1e12, Label: "GPT-4 (~1T)", Group: "decoder"},
		},
	}
}

func TestGoldenLesson05(t *testing.T) {
	for _, tc := range lesson05Figures() {
		t.Run(tc.name, func(t *testing.T) { checkGolden(t, tc.name, tc.fig) })
	}
}

// The golden comparison notices a change of the diagram: a diagram
// without shapes or with another title is not the golden one.
func TestEncoderDiagramGoldenCanFail(t *testing.T) {
	for _, d := range []*EncoderDiagram{{Layers: 6, NoShapes: true}, {Layers: 6, Title: "The encoder of the Transformer"}} {
		if !differsFromGolden(t, "encoder_diagram", d) {
			t.Errorf("%+v renders like the golden diagram of EncoderDiagram{Layers: 6}", *d)
		}
	}
}

func TestEncoderDiagramValidate(t *testing.T) {
	checkErr(t, (&EncoderDiagram{}).Validate(), "")
	checkErr(t, (&EncoderDiagram{Layers: -1}).Validate(), "Layers")
	checkErr(t, (&EncoderDiagram{Width: -1}).Validate(), "negative")
	if _, err := PNG(&EncoderDiagram{Layers: -2}); err == nil || !strings.Contains(err.Error(), "Layers") {
		t.Errorf("PNG of an invalid diagram: error %v, want one about Layers", err)
	}
}
