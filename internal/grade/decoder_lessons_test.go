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

// TestDecoderLessonsDenied: the exercises of lessons 9 and 10 flag a
// program that links the library code computing their answer (the
// attention and mask constructors of lib/attention, the decoder layer of
// lib/transformer, the shifted inputs of lib/dates and lib/seq2seq), and
// not what the exercise leaves to the learner.
func TestDecoderLessonsDenied(t *testing.T) {
	deny := denyLists(t, "lessons/exercises/09-full-transformer.md", "lessons/exercises/10-gpt-writes-go.md")
	tests := []struct {
		exercise, sym, want string
	}{
		{"cross-attention", "lib/attention.Explain", "lib/attention"},
		{"cross-attention", "lib/transformer.DecoderLayer", "lib/transformer"},
		{"cross-attention", "lib/dates.Translate", ""},
		{"decoder-mask", "lib/attention.LookAhead", "lib/attention.LookAhead"},
		{"decoder-mask", "lib/attention.Padding", "lib/attention.Padding"},
		{"decoder-mask", "lib/attention.Explain", ""},
		{"teacher-forcing", "lib/dates.ToArrays", "lib/dates"},
		{"teacher-forcing", "lib/attention.LookAhead", ""},
		{"lm-targets", "lib/train.Ints", "lib/train"},
		{"lm-targets", "lib/corpus.Windows", "lib/corpus.Windows"},
		{"lm-targets", "lib/corpus.BitsPerChar", ""},
		{"sample", "lib/attention.SoftmaxOf", "lib/attention.SoftmaxOf"},
		{"sample", "lib/attention.Explain", ""},
		{"sample", "lib/gpt.Sampler.Pick", "lib/gpt.Sampler"},
		{"sample", "lib/gpt.Sampler.Probs", "lib/gpt.Sampler"},
		{"kv-cache", "lib/gpt.Config.Step", "lib/gpt"},
		{"kv-cache", "lib/attention.Explain", "lib/attention"},
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

// TestDecoderLessonsLibraryCalls grades, through the sandbox, a
// submission of exercise 10 whose key–value-cache step is the last row
// of the library's causal attention (attention.Explain with
// attention.LookAhead): right numbers, flagged, 0 points, while the
// honest exercises beside it keep theirs.
func TestDecoderLessonsLibraryCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs that link GoMLX")
	}
	if err := sandbox.Check(); err != nil {
		t.Skip(err)
	}
	root := courseRoot(t)
	dir := t.TempDir()
	body := "func CachedAttention(cacheK, cacheV [][]float64, q, k, v []float64) (out []float64, newK, newV [][]float64) {\n" +
		"\tnewK, newV = append(cacheK, k), append(cacheV, v)\n" +
		"\tqs := make([][]float64, len(newK))\n\tfor i := range qs {\n\t\tqs[i] = q\n\t}\n" +
		"\ts, err := attention.Explain(qs, newK, newV, nil)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n" +
		"\treturn s.Output[len(qs)-1], newK, newV\n}"
	imports := "import \"" + lib + "/attention\""
	data := edit(t, root, "solutions/10-gpt-writes-go.ipynb", then(withCells(imports), replaceExercise("kv-cache", body)))
	if err := os.WriteFile(filepath.Join(dir, "cheat.ipynb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := LoadAssignment(root, "lessons/exercises/10-gpt-writes-go.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Grade(context.Background(), dir, a, Options{Root: root, Module: module, Out: filepath.Join(dir, "graded"),
		Jobs: 2, Timeout: 2 * time.Minute, Memory: 4 << 30, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	rows := gradebookRows(t, filepath.Join(dir, "graded", "gradebook.csv"))
	if r := rows["cheat/kv-cache"]; r == nil || r[2] != "0" || !strings.HasPrefix(r[4], "flagged: uses lib/attention") {
		t.Errorf("kv-cache: %v; want 0 points, flagged: uses lib/attention", r)
	}
	for ex, points := range map[string]string{"lm-targets": "2", "sample": "3"} {
		if r := rows["cheat/"+ex]; r == nil || r[2] != points {
			t.Errorf("%s: %v; want %s points", ex, r, points)
		}
	}
}
