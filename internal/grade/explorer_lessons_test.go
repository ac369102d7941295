package grade

import (
	"testing"
)

// TestSparseRelativeAndToolDenied: exercise 3's sparse attention and
// relative values flag a program that links lib/attention, and the
// appendix's sentence heat map flags lib/explore (whose explorer computes
// such weights) but not lib/attention, lib/text or lib/widget, which the
// exercise asks for.
func TestSparseRelativeAndToolDenied(t *testing.T) {
	expectDenied(t, []string{"lessons/exercises/03-self-attention-multi-head.md", "lessons/exercises/A-masks-data-explorer.md"}, []denyCase{
		{"sparse-attention", "lib/attention.Explain", "lib/attention"},
		{"sparse-attention", "lib/attention.LookAhead", "lib/attention"},
		{"sparse-attention", "lib/random.New", ""},
		{"relative-values", "lib/attention.Explain", "lib/attention"},
		{"relative-values", "lib/viz.PNG", ""},
		{"sentence-heatmap", "lib/explore.Settings.Attention", "lib/explore"},
		{"sentence-heatmap", "lib/explore.Default", "lib/explore"},
		{"sentence-heatmap", "lib/attention.Explain", ""},
		{"sentence-heatmap", "lib/text.Tokenize", ""},
		{"sentence-heatmap", "lib/widget.TextInput", ""},
	})
}

// TestSentenceHeatmapFromExplorer grades, through the sandbox, an appendix
// submission whose sentence heat map takes its tokens, cut and padded,
// from the explorer (explore.Settings.Tokens): right numbers, flagged,
// 0 points, while the honest exercises beside it keep theirs.
func TestSentenceHeatmapFromExplorer(t *testing.T) {
	body := "func SentenceHeatmap(sentence string, maxLen int) (*viz.Heatmap, error) {\n" +
		"\ts := explore.Default(sentence)\n\ts.MaxLen = maxLen\n" +
		"\ttokens, mask, err := s.Tokens()\n\tif err != nil {\n\t\treturn nil, err\n\t}\n" +
		"\tx := attention.ToyEmbeddings(tokens, 16, 1)\n" +
		"\tsteps, err := attention.Explain(x, x, x, &attention.Options{Mask: mask})\n\tif err != nil {\n\t\treturn nil, err\n\t}\n" +
		"\treturn &viz.Heatmap{Values: steps.Weights, Rows: tokens, Cols: tokens, Title: sentence, XLabel: \"key\", YLabel: \"query\", FixedRange: true, Min: 0, Max: 1}, nil\n}"
	rows := gradeCheat(t, "A-masks-data-explorer", "sentence-heatmap", "import \""+lib+"/explore\"", body)
	expectFlagged(t, rows, "sentence-heatmap", "lib/explore", map[string]string{"synthetic-sentences": "3", "pad-batch": "2", "describe": "2"})
}
