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

// denyLists returns the deny list of every exercise of the assignments.
func denyLists(t *testing.T, sources ...string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, src := range sources {
		a, err := LoadAssignment(courseRoot(t), src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range a.Exercises {
			out[e.ID] = e.Deny
		}
	}
	return out
}

// TestTrainedLessonsDenied: the exercises of lessons 6–8 flag a program
// that links the library code computing their answer (the GRU of lib/rnn,
// the attention of lib/attention and lib/seq2seq, the alignment measure of
// lib/dates, the poolings of lib/classifier and lib/transformer), and not
// the packages another exercise of the lesson denies.
func TestTrainedLessonsDenied(t *testing.T) {
	expectDenied(t, []string{"lessons/exercises/06-the-bottleneck.md", "lessons/exercises/07-trained-alignments.md",
		"lessons/exercises/08-transformer-classifier.md"}, []denyCase{
		{"gru-step", "lib/rnn.GRUStep", "lib/rnn"},
		{"gru-step", "lib/rnn.GRUCell", "lib/rnn"},
		{"gru-encode", "lib/rnn.GRULayer", "lib/rnn"},
		{"gru-encode", "lib/seq2seq.Encode", "lib/seq2seq"},
		{"gru-step", "lib/attention.Context", ""},
		{"bahdanau-attention", "lib/attention.Attend", "lib/attention"},
		{"bahdanau-attention", "lib/attention.Context", "lib/attention"},
		{"bahdanau-attention", "lib/seq2seq.TeacherForced", "lib/seq2seq"},
		{"bahdanau-attention", "lib/rnn.GRUStep", ""},
		{"span-mass", "lib/dates.Aligned", "lib/dates"},
		{"span-mass", "lib/attention.Align", ""},
		{"masked-mean", "lib/classifier.MaskedMean", "lib/classifier"},
		{"masked-mean", "lib/transformer.PoolOf", "lib/transformer"},
		{"masked-max", "lib/classifier.MaskedMax", "lib/classifier"},
		{"cls-pool", "lib/transformer.Pool", "lib/transformer"},
		{"cls-pool", "lib/attention.PaddingMask", ""},
	})
}

// denyCase is one row of a deny-list table: an exercise whose program
// links sym is flagged as using want ("" for not flagged).
type denyCase struct {
	exercise, sym, want string
}

// expectDenied checks each row against the deny lists of the
// assignments' exercises.
func expectDenied(t *testing.T, sources []string, tests []denyCase) {
	t.Helper()
	deny := denyLists(t, sources...)
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

// gradeCheat grades, through the sandbox, the solution notebook of the
// assignment slug with one exercise's function replaced by body (and
// imports added), and returns the gradebook's rows by learner/exercise.
// It skips when the sandbox cannot run or the tests are short.
func gradeCheat(t *testing.T, slug, exercise, imports, body string) map[string][]string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds programs that link GoMLX")
	}
	if err := sandbox.Check(); err != nil {
		t.Skip(err)
	}
	root := courseRoot(t)
	dir := t.TempDir()
	data := edit(t, root, "solutions/"+slug+".ipynb", then(withCells(imports), replaceExercise(exercise, body)))
	if err := os.WriteFile(filepath.Join(dir, "cheat.ipynb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := LoadAssignment(root, "lessons/exercises/"+slug+".md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Grade(context.Background(), dir, a, Options{Root: root, Module: module, Out: filepath.Join(dir, "graded"),
		Jobs: 2, Timeout: 2 * time.Minute, Memory: 4 << 30, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	return gradebookRows(t, filepath.Join(dir, "graded", "gradebook.csv"))
}

// expectFlagged requires rows to give exercise 0 points, flagged for
// using pkg, and each honest exercise its full points.
func expectFlagged(t *testing.T, rows map[string][]string, exercise, pkg string, honest map[string]string) {
	t.Helper()
	if r := rows["cheat/"+exercise]; r == nil || r[2] != "0" || !strings.HasPrefix(r[4], "flagged: uses "+pkg) {
		t.Errorf("%s: %v; want 0 points, flagged: uses %s", exercise, r, pkg)
	}
	for ex, points := range honest {
		if r := rows["cheat/"+ex]; r == nil || r[2] != points {
			t.Errorf("%s: %v; want %s points", ex, r, points)
		}
	}
}

// TestTrainedLessonsLibraryCalls grades submissions of exercises 7 and 8
// that call the library through the sandbox: a field mass taken from
// dates.Aligned and a max pooling taken from transformer.PoolOf are
// flagged (0 points), while the honest exercises beside them keep theirs.
func TestTrainedLessonsLibraryCalls(t *testing.T) {
	for _, tc := range []struct {
		slug, exercise, imports, body, other, otherPoints string
	}{
		{"07-trained-alignments", "span-mass", "import \"" + lib + "/dates\"",
			"func SpanMass(weights [][]float64, outFrom, outTo, srcFrom, srcTo int) float64 {\n" +
				"\ttr := dates.Translation{Weights: weights[outFrom:]}\n" +
				"\ttr.Year = dates.Span{From: srcFrom, To: srcTo}\n" +
				"\treturn dates.Aligned([]dates.Translation{tr}).Year\n}",
			"bahdanau-attention", "3"},
		{"08-transformer-classifier", "masked-max", "import \"" + lib + "/transformer\"",
			"func MaskedMax(x [][]float64, keep []bool) []float64 {\n" +
				"\tvar real [][]float64\n\tfor t, row := range x {\n\t\tif keep[t] {\n\t\t\treal = append(real, row)\n\t\t}\n\t}\n" +
				"\tif len(real) == 0 {\n\t\treturn make([]float64, len(x[0]))\n\t}\n" +
				"\tp, err := transformer.PoolOf([][][]float64{real}, transformer.PoolMax)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\treturn p[0]\n}",
			"masked-mean", "2"},
	} {
		t.Run(tc.slug, func(t *testing.T) {
			rows := gradeCheat(t, tc.slug, tc.exercise, tc.imports, tc.body)
			expectFlagged(t, rows, tc.exercise, deniedPkg(tc.imports), map[string]string{tc.other: tc.otherPoints})
		})
	}
}

// deniedPkg is the module-relative package of an import line.
func deniedPkg(imp string) string {
	return imp[len("import \""+module+"/") : len(imp)-1]
}
