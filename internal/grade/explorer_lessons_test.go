package grade

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/internal/grade/sandbox"
)

// TestSparseRelativeAndToolDenied: exercise 3's sparse attention and
// relative values flag a program that links lib/attention, and the
// appendix's sentence heat map flags lib/explore (whose explorer computes
// such weights) but not lib/attention, lib/text or lib/widget, which the
// exercise asks for.
func TestSparseRelativeAndToolDenied(t *testing.T) {
	deny := denyLists(t, "lessons/exercises/03-self-attention-multi-head.md", "lessons/exercises/A-masks-data-explorer.md")
	tests := []struct {
		exercise, sym, want string
	}{
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
	}
	for _, tc := range tests {
		d, ok := deny[tc.exercise]
		if !ok {
			t.Fatalf("no exercise %s", tc.exercise)
		}
		if got := deniedUse(map[string]bool{module + "/" + tc.sym: true}, module, d); got != tc.want {
			t.Errorf("%s linking %s: deniedUse = %q, want %q (deny list %q)", tc.exercise, tc.sym, got, tc.want, d)
		}
	}
}

// TestSentenceHeatmapFromExplorer grades, through the sandbox, an appendix
// submission whose sentence heat map takes its tokens, cut and padded,
// from the explorer (explore.Settings.Tokens): right numbers, flagged,
// 0 points, while the honest exercises beside it keep theirs.
func TestSentenceHeatmapFromExplorer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs that link GoMLX")
	}
	if err := sandbox.Check(); err != nil {
		t.Skip(err)
	}
	root := courseRoot(t)
	dir := t.TempDir()
	body := "func SentenceHeatmap(sentence string, maxLen int) (*viz.Heatmap, error) {\n" +
		"\ts := explore.Default(sentence)\n\ts.MaxLen = maxLen\n" +
		"\ttokens, mask, err := s.Tokens()\n\tif err != nil {\n\t\treturn nil, err\n\t}\n" +
		"\tx := attention.ToyEmbeddings(tokens, 16, 1)\n" +
		"\tsteps, err := attention.Explain(x, x, x, &attention.Options{Mask: mask})\n\tif err != nil {\n\t\treturn nil, err\n\t}\n" +
		"\treturn &viz.Heatmap{Values: steps.Weights, Rows: tokens, Cols: tokens, Title: sentence, XLabel: \"key\", YLabel: \"query\", FixedRange: true, Min: 0, Max: 1}, nil\n}"
	imports := "import \"" + lib + "/explore\""
	data := edit(t, root, "solutions/A-masks-data-explorer.ipynb", then(withCells(imports), replaceExercise("sentence-heatmap", body)))
	if err := os.WriteFile(filepath.Join(dir, "cheat.ipynb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := LoadAssignment(root, "lessons/exercises/A-masks-data-explorer.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Grade(context.Background(), dir, a, Options{Root: root, Module: module, Out: filepath.Join(dir, "graded"),
		Jobs: 2, Timeout: 2 * time.Minute, Memory: 4 << 30, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	rows := gradebookRows(t, filepath.Join(dir, "graded", "gradebook.csv"))
	if r := rows["cheat/sentence-heatmap"]; r == nil || r[2] != "0" || !strings.HasPrefix(r[4], "flagged: uses lib/explore") {
		t.Errorf("sentence-heatmap: %v; want 0 points, flagged: uses lib/explore", r)
	}
	for ex, points := range map[string]string{"synthetic-sentences": "3", "pad-batch": "2", "describe": "2"} {
		if r := rows["cheat/"+ex]; r == nil || r[2] != points {
			t.Errorf("%s: %v; want %s points", ex, r, points)
		}
	}
}
