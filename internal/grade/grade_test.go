package grade

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/internal/lesson"
)

const module = "github.com/attention-in-go/course"

func courseRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// edit returns the notebook at path (relative to the course root) with
// change applied to its decoded JSON.
func edit(t *testing.T, root, path string, change func(cells []any) []any) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	if change != nil {
		nb["cells"] = change(nb["cells"].([]any))
	}
	out, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func meta(c any, key string) string {
	m, _ := c.(map[string]any)["metadata"].(map[string]any)
	course, _ := m["course"].(map[string]any)
	s, _ := course[key].(string)
	return s
}

// replaceExercise sets the source of exercise id's cell: the marker line
// and body.
func replaceExercise(id, body string) func([]any) []any {
	return func(cells []any) []any {
		for _, c := range cells {
			if meta(c, "exercise") == id {
				c.(map[string]any)["source"] = lesson.MarkerLine(id, 1) + "\n" + body
			}
		}
		return cells
	}
}

const solutions = "solutions/01-scaled-dot-product-attention.ipynb"

// TestGradeSubmissions grades honest, untouched, malformed and dishonest
// submissions of exercises 01 in a temporary folder: each gets the
// expected points and status on the affected exercise only, and nothing
// stops the batch.
func TestGradeSubmissions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dozen programs")
	}
	root := courseRoot(t)
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wrongMask := "func CausalMask(n int) [][]float64 {\n\tm := make([][]float64, n)\n\tfor i := range m {\n\t\tm[i] = make([]float64, n)\n\t}\n\treturn m\n}"
	write("honest.ipynb", edit(t, root, solutions, nil))
	write("folder/work.ipynb", edit(t, root, solutions, nil))
	write("untouched.ipynb", edit(t, root, "exercises/01-scaled-dot-product-attention.ipynb", nil))
	write("broken.ipynb", []byte(`{"cells": [ {"cell_type": "code", "source": "func`))
	write("missing.ipynb", edit(t, root, solutions, func(cells []any) []any {
		var out []any
		for _, c := range cells {
			if meta(c, "exercise") != "softmax" {
				out = append(out, c)
			}
		}
		return out
	}))
	write("compile.ipynb", edit(t, root, solutions, replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn n\n}")))
	write("panics.ipynb", edit(t, root, solutions, replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tvar m [][]float64\n\treturn m[:n+1]\n}")))
	write("loops.ipynb", edit(t, root, solutions, replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tfor {\n\t}\n}")))
	write("allocates.ipynb", edit(t, root, solutions, replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tbig := make([][]float64, 1<<20)\n\tfor i := range big {\n\t\tbig[i] = make([]float64, 1<<20)\n\t}\n\treturn big\n}")))
	write("exits.ipynb", edit(t, root, solutions, replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tos.Exit(0)\n\treturn nil\n}")))
	// Prints what looks like a pass, rewrites the check cells, writes a
	// fake report to fd 3 and to a file, and returns a wrong mask.
	write("pretends.ipynb", edit(t, root, solutions, func(cells []any) []any {
		cells = replaceExercise("causal-mask", strings.Replace(wrongMask, "\treturn m\n", "\tfmt.Println(\"✓ all cases pass\\npoints: 1/1\")\n\tos.NewFile(3, \"x\").Write([]byte(\"points: 1/1 ok\"))\n\tos.WriteFile(\"gradebook.csv\", []byte(\"pretends,causal-mask,1,1,ok\"), 0o644)\n\treturn m\n", 1))(cells)
		for _, c := range cells {
			if meta(c, "check") != "" {
				c.(map[string]any)["source"] = "%%\nfmt.Println(\"points: 10/10\")"
			}
		}
		return cells
	}))
	write("reference.ipynb", edit(t, root, solutions, replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn attention.LookAhead(n)\n}")))
	// The reference called through a helper of another cell is flagged;
	// an unrelated cell using the library is not.
	write("indirect.ipynb", edit(t, root, solutions, func(cells []any) []any {
		cells = replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn helper(n)\n}")(cells)
		extra := []any{
			map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil,
				"source": "import \"github.com/attention-in-go/course/lib/attention\"\n\nfunc helper(n int) [][]float64 { return attention.LookAhead(n) }"},
			map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil,
				"source": "func unrelated() { attention.Explain(nil, nil, nil, nil) }"},
		}
		return append(cells[:2], append(extra, cells[2:]...)...)
	}))
	// Metadata and marker lost: found by the function's name.
	write("nometa.ipynb", edit(t, root, solutions, func(cells []any) []any {
		for _, c := range cells {
			if meta(c, "exercise") == "padding-mask" {
				cm := c.(map[string]any)
				cm["metadata"] = map[string]any{}
				src := cm["source"].([]any)
				cm["source"] = src[1:]
			}
		}
		return cells
	}))

	a, err := LoadAssignment(root, "lessons/exercises/01-scaled-dot-product-attention.md")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "graded")
	opts := Options{Root: root, Module: module, Out: out, Jobs: 2, Timeout: 30 * time.Second, Memory: 1 << 30}
	if _, err := Grade(context.Background(), dir, a, opts); err != nil {
		t.Fatal(err)
	}
	got := gradebook(t, filepath.Join(out, "gradebook.csv"))
	tests := []struct {
		learner, exercise, points, status string
	}{
		{"honest", "total", "10", ""},
		{"folder", "total", "10", ""},
		{"untouched", "total", "0", ""},
		{"untouched", "softmax", "0", "not done"},
		{"broken", "total", "0", ""},
		{"broken", "attention", "0", "broken notebook"},
		{"missing", "softmax", "0", "missing"},
		{"missing", "causal-mask", "1", "ok"},
		{"compile", "causal-mask", "0", "compile error"},
		{"compile", "softmax", "2", "ok"},
		{"panics", "causal-mask", "0", "failed"},
		{"panics", "padding-mask", "1", "ok"},
		{"loops", "causal-mask", "0", "failed"},
		{"loops", "attention", "3", "ok"},
		{"allocates", "causal-mask", "0", "crashed"},
		{"allocates", "softmax", "2", "ok"},
		{"exits", "causal-mask", "0", "crashed"},
		{"pretends", "causal-mask", "0", "failed"},
		{"pretends", "softmax", "2", "ok"},
		{"reference", "causal-mask", "0", "flagged: uses lib/attention.LookAhead, the course's reference"},
		{"reference", "softmax", "2", "ok"},
		{"nometa", "total", "10", ""},
		{"indirect", "causal-mask", "0", "flagged: uses lib/attention.LookAhead, the course's reference"},
		{"indirect", "softmax", "2", "ok"},
	}
	for _, tc := range tests {
		row, ok := got[tc.learner+"/"+tc.exercise]
		if !ok {
			t.Errorf("%s/%s: no gradebook row", tc.learner, tc.exercise)
			continue
		}
		if row[2] != tc.points || row[4] != tc.status {
			t.Errorf("%s/%s: got %s points, status %q; want %s, %q\n%s", tc.learner, tc.exercise, row[2], row[4], tc.points, tc.status,
				readFeedback(t, out, tc.learner))
		}
	}
	fb := readFeedback(t, out, "loops")
	if !strings.Contains(fb, "an endless loop?") {
		t.Errorf("loops feedback does not mention the endless loop:\n%s", fb)
	}
	if fb := readFeedback(t, out, "broken"); !strings.Contains(fb, "not valid JSON") {
		t.Errorf("broken feedback:\n%s", fb)
	}
	if fb := readFeedback(t, out, "honest"); strings.Contains(fb, "8 random logits") || !strings.Contains(fb, "hidden case 1") {
		t.Errorf("hidden cases are not masked in the feedback:\n%s", fb)
	}

	// Again: everything from the cache, the same gradebook.
	before, _ := os.ReadFile(filepath.Join(out, "gradebook.csv"))
	start := time.Now()
	if _, err := Grade(context.Background(), dir, a, opts); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(out, "gradebook.csv"))
	if string(before) != string(after) {
		t.Errorf("second run changed the gradebook:\n%s\nthen\n%s", before, after)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("second run took %v: the cache was not used", d)
	}
}

func gradebook(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "learner,exercise,points,max_points,status" {
		t.Errorf("header %v", rows[0])
	}
	m := map[string][]string{}
	for _, r := range rows[1:] {
		m[r[0]+"/"+r[1]] = r
	}
	return m
}

func readFeedback(t *testing.T, out, learner string) string {
	data, err := os.ReadFile(filepath.Join(out, "feedback", learner+".md"))
	if err != nil {
		return err.Error()
	}
	return string(data)
}

func TestGoSourceAndDeny(t *testing.T) {
	src := "!echo hi\n%env X=1\nimport a \"github.com/attention-in-go/course/lib/attention\"\n\nfunc F(check int) int { return check.X + a.Softmax }\n%%\nfmt.Println(F(1))"
	p, err := parseCell(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := denied(p.file, module, []string{"lib/check", "lib/attention"}); got != "lib/attention.Softmax" {
		t.Errorf("denied = %q, want lib/attention.Softmax (check is a parameter here)", got)
	}
	if got := denied(p.file, module, []string{"lib/attention.Explain"}); got != "" {
		t.Errorf("denied = %q, want nothing: only Explain is denied", got)
	}
	prog := string(program([]*parsedCell{p, mustParse(t, "func F(x int) int { return 2 }\nfunc main() {}")}))
	if strings.Count(prog, "func F(") != 1 || !strings.Contains(prog, "return 2") || strings.Contains(prog, "func main") {
		t.Errorf("program: want the last F and no main, got\n%s", prog)
	}
}

func mustParse(t *testing.T, src string) *parsedCell {
	p, err := parseCell(src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTrainingExerciseGetsItsOwnTimeLimit: the ViT exercise trains for
// tens of seconds, longer on a slow machine, so its run gets lib/check's
// per-case limit (5 min) even when -timeout is shorter; other exercises get
// -timeout.
func TestTrainingExerciseGetsItsOwnTimeLimit(t *testing.T) {
	a, err := LoadAssignment(courseRoot(t), "lessons/exercises/05-transformer-encoder.md")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Timeout: 60 * time.Second}
	seen := false
	for _, e := range a.Exercises {
		want := 60 * time.Second
		if e.ID == "vit" {
			want, seen = 5*time.Minute, true
		}
		if got := e.timeLimit(o); got != want {
			t.Errorf("%s: time limit %v with -timeout 60s, want %v", e.ID, got, want)
		}
	}
	if !seen {
		t.Fatal("no exercise vit in lessons/exercises/05-transformer-encoder.md")
	}
	if got := (Exercise{MinTimeout: 5 * time.Minute}).timeLimit(Options{Timeout: 10 * time.Minute}); got != 10*time.Minute {
		t.Errorf("-timeout 10m: limit %v, want 10m (the longer one)", got)
	}
}

// TestSolutionsAndExercises grades every committed solution notebook,
// which must score full marks, and every untouched exercise notebook,
// which must score 0 on every exercise without a crash.
func TestSolutionsAndExercises(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program per assignment")
	}
	root := courseRoot(t)
	sources, _ := filepath.Glob(filepath.Join(root, "lessons", "exercises", "*.md"))
	if len(sources) == 0 {
		t.Skip("no exercise sources")
	}
	for _, src := range sources {
		slug := strings.TrimSuffix(filepath.Base(src), ".md")
		t.Run(slug, func(t *testing.T) {
			a, err := LoadAssignment(root, filepath.Join("lessons", "exercises", slug+".md"))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, flavour := range []string{"solutions", "exercises"} {
				data, err := os.ReadFile(filepath.Join(root, flavour, slug+".ipynb"))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, flavour+".ipynb"), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			gs, err := Grade(context.Background(), dir, a, Options{Root: root, Module: module, Out: filepath.Join(dir, "graded"),
				Jobs: 2, Timeout: 2 * time.Minute, Memory: 4 << 30})
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range gs {
				for _, s := range g.Scores {
					want := 0.0
					if g.Learner == "solutions" {
						want = float64(s.Max)
					}
					if s.Points != want || (want == 0 && s.Status != "not done") {
						t.Errorf("%s %s: %v/%d (%s), want %v\n%s", g.Learner, s.Exercise, s.Points, s.Max, s.Status, want, s.Details)
					}
				}
			}
		})
	}
}
