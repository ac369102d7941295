package grade

import (
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/internal/grade/sandbox"
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

// testFset holds the cells the tests parse (a notebook's cells share one).
var testFset = token.NewFileSet()

func mustParse(t *testing.T, number int, src string) *parsedCell {
	t.Helper()
	p, err := parseCell(testFset, number, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProgram: GoNB's rule (the last definition wins), the declarations
// an exercise needs and no others, and //line directives naming cells.
func TestProgram(t *testing.T) {
	cells := []*parsedCell{
		mustParse(t, 2, "!echo hi\n%env X=1\nimport a \"github.com/attention-in-go/course/lib/attention\"\n\nfunc F(x int) int { return helper(x) }\n%%\nfmt.Println(F(1))"),
		mustParse(t, 3, "func helper(x int) int { return 1 }\n\nfunc unrelated() int { return a.Nothing }"),
		mustParse(t, 5, "type T struct{}\n\nfunc (T) M() int { return helper(2) }\n\nfunc helper(x int) int {\n\treturn 2 * x\n}\n\nfunc G() T { return T{} }\n\nfunc main() {}"),
	}
	src := newSource(cells)
	got := string(program(src.closure("F"), cells))
	for _, want := range []string{"import a \"github.com/attention-in-go/course/lib/attention\"\n", "//line cell-2.go:5\nfunc F(x int) int { return helper(x) }\n",
		"//line cell-5.go:5\nfunc helper(x int) int {\n\treturn 2 * x\n}\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("program lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"return 1", "unrelated", "func G", "func main", "%%"} {
		if strings.Contains(got, not) {
			t.Errorf("program has %q:\n%s", not, got)
		}
	}
	// A type brings its methods, which bring what they use.
	if got := string(program(src.closure("G"), cells)); !strings.Contains(got, "func (T) M()") || !strings.Contains(got, "func helper") {
		t.Errorf("closure of G lacks T's method or helper:\n%s", got)
	}
	if _, err := parseCell(testFset, 7, "func broken( {"); err == nil || !strings.Contains(err.Error(), "code cell 7 (\"func broken( {\") does not parse: line 2") {
		t.Errorf("parse error: %v", err)
	}
}

// TestProgramScopes: what the program holds is decided by what each
// identifier means in its scope (go/types), as GoNB's program would run
// it: a scratch variable named like a parameter is not linked; the
// initializers and init_… functions that may change what the exercise
// reads are kept, in GoNB's order, and those that do not are left out.
func TestProgramScopes(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(n int, src string) *parsedCell {
		t.Helper()
		p, err := parseCell(fset, n, src)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cells := []*parsedCell{
		parse(2, "import (\n\t\"math\"\n\t\"sort\"\n\t\"github.com/attention-in-go/course/lib/attention\"\n\t_ \"github.com/attention-in-go/course/lib/viz\"\n)\n\nvar wq, wk, wv = attention.RandomProjections(4, 2, 1)\n\nvar shown = attention.Explain(table, nil, nil, nil) // reads table, changes nothing"),
		parse(3, "var table = map[string]float64{}\n\nvar scale float64\n\nvar one float64\n\nfunc setOne() bool { one = 1; return true }\n\nvar oneSet = setOne()"),
		parse(4, "func init_table() { table[\"x\"] = math.Pi; sort.Float64s(list) }\n\nvar list []float64\n\nvar sorted = func() int { sort.Float64s(list); return 0 }()\n\nfunc init_scale() { scale = 2 }\n\nfunc init_plot() { attention.Explain(nil, nil, nil, nil) }\n\nfunc fill(m map[string]float64) { m[\"y\"] = 1 }\n\nvar filled = func() int { fill(table); return 0 }()"),
		parse(5, "type Gen[T any] struct{ v T }\n\nfunc (g Gen[T]) Get() T { return g.v }\n\nfunc F(wq, x [][]float64) float64 {\n\twk := 2.0\n\tg := Gen[float64]{v: table[\"x\"] * scale * one * wk}\n\treturn g.Get() + float64(len(wq)+len(x)+len(list))\n}"),
	}
	src := newSource(cells)
	got := string(program(src.closure("F"), cells))
	for _, want := range []string{"func F(", "func init_table()", "func init_scale()", "var table =", "var scale float64", "var one float64",
		"var oneSet = setOne()", "func setOne()", "var filled =", "func fill(", "var list []float64", "var sorted =", "func (g Gen[T]) Get()",
		"//line grader-init.go:1\nfunc init() {\n\tinit_scale()\n\tinit_table()\n}"} {
		if !strings.Contains(got, want) {
			t.Errorf("program lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"RandomProjections", "var shown", "init_plot", "lib/viz"} {
		if strings.Contains(got, not) {
			t.Errorf("program has %q:\n%s", not, got)
		}
	}
	// GoNB shares every cell's imports: F's cell imports nothing, yet its
	// call into the course is resolved (and named in feedback).
	if named := src.named(src.closure("F"), "github.com/attention-in-go/course"); len(named) != 0 {
		t.Errorf("F names %v of the course; want none", named)
	}
	if named := src.named([]*decl{src.byName["shown"]}, "github.com/attention-in-go/course"); !named["lib/attention.Explain"] {
		t.Errorf("shown names %v, want lib/attention.Explain", named)
	}
	if i, j := strings.Index(got, "var filled"), strings.Index(got, "var oneSet"); i > j {
		t.Errorf("the variables are not in GoNB's order (by name):\n%s", got)
	}
}

// TestForbidden: a directive that reaches functions by name, or the
// unsafe and C packages, in a cell the program uses refuses the
// exercise, naming the cell and line; in a cell it does not use, nothing.
func TestForbidden(t *testing.T) {
	for _, tc := range []struct {
		name, cell, want string
	}{
		{"linkname in a body", "func F() int {\n\t//go:linkname sw github.com/attention-in-go/course/lib/attention.softmaxWeights\n\treturn 1\n}", "code cell 3 (\"func F() int {\"), line 2: go:linkname is not allowed"},
		{"linkname before a func", "//go:linkname sw x.y\nfunc sw() int\n\nfunc F() int { return sw() }", "line 1: go:linkname is not allowed"},
		{"blank unsafe", "import _ \"unsafe\"\n\nfunc F() int { return 1 }", "line 1: import \"unsafe\" is not allowed"},
		{"unsafe", "import \"unsafe\"\n\nfunc F() int { return int(unsafe.Sizeof(1)) }", "import \"unsafe\" is not allowed"},
		{"cgo", "// #cgo LDFLAGS: -lm\nimport \"C\"\n\nfunc F() int { return 1 }", "cgo"},
		{"embed", "import _ \"embed\"\n\n//go:embed /etc/passwd\nvar s string\n\nfunc F() int { return len(s) }", "go:embed is not allowed"},
		{"elsewhere", "func F() int { return 1 }", ""},
		{"a comment that mentions it", "// No //go:linkname here.\nfunc F() int { return 1 }", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			scratch, err := parseCell(fset, 2, "import _ \"unsafe\"\n\n//go:linkname x y.z\nfunc x()")
			if err != nil {
				t.Fatal(err)
			}
			c, err := parseCell(fset, 3, tc.cell)
			if err != nil {
				t.Fatal(err)
			}
			src := newSource([]*parsedCell{scratch, c})
			_, got := forbidden(src.closure("F"))
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("forbidden = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCompilerMessage(t *testing.T) {
	cells := map[int]*parsedCell{4: mustParse(t, 4, "func ones() int { return \"no\" }")}
	out := "# learner\n./cell-4.go:1:26: cannot use \"no\" (untyped string constant) as int value in return statement\n" +
		"./grader_main.go:9:45: cannot use Softmax (value of type func(x []float64) []float64) as func([]float64, float64) []float64 value in argument to grader_1.Bind\n"
	got := compilerMessage(out, cells, map[int]string{9: "func Softmax(logits []float64, temperature float64) []float64"})
	want := "code cell 4 (\"func ones() int { return \\\"no\\\" }\"), line 1: cannot use \"no\" (untyped string constant) as int value in return statement\n" +
		"the function has the wrong type: the exercise asks for func Softmax(logits []float64, temperature float64) []float64"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDeniedUse(t *testing.T) {
	tests := []struct {
		syms []string
		deny []string
		want string
	}{
		{[]string{module + "/lib/attention.LookAhead"}, []string{"lib/attention"}, "lib/attention"},
		{[]string{module + "/lib/attention.init", module + "/lib/attention.init.0", module + "/lib/attention.glob..func1"}, []string{"lib/attention"}, ""},
		{[]string{module + "/lib/attention.Explain"}, []string{"lib/attention.LookAhead"}, ""},
		{[]string{module + "/lib/attention.LookAheadMask"}, []string{"lib/attention.LookAhead"}, ""},
		{[]string{module + "/lib/attention.LookAhead.func1"}, []string{"lib/attention.LookAhead"}, "lib/attention.LookAhead"},
		{[]string{module + "/lib/posenc.(*Table).Grow"}, []string{"lib/posenc.Table"}, "lib/posenc.Table"},
		{[]string{module + "/lib/posenc.Table.Row"}, []string{"lib/posenc.Table"}, "lib/posenc.Table"},
		{[]string{module + "/lib/posenc.Sinusoidal[go.shape.float64]"}, []string{"lib/posenc.Sinusoidal"}, "lib/posenc.Sinusoidal"},
		{[]string{module + "/lib/attentionx.F"}, []string{"lib/attention"}, ""},
		{[]string{module + "/lib/check.init"}, []string{"lib/attention"}, "lib/check"},
		{[]string{module + "/lib/check/internal/reference.CausalMask"}, nil, "lib/check/internal/reference"},
		{[]string{module + "/lib/internal/eager.Run"}, []string{"lib/attention"}, ""},
		{[]string{module + "/lib/exercise.Bind[...]", "main.Softmax", "runtime.main"}, []string{"lib/attention"}, ""},
	}
	for _, tc := range tests {
		syms := map[string]bool{}
		for _, s := range tc.syms {
			syms[s] = true
		}
		if got := deniedUse(syms, module, tc.deny); got != tc.want {
			t.Errorf("deniedUse(%v, %v) = %q, want %q", tc.syms, tc.deny, got, tc.want)
		}
	} // The feedback names the call the learner wrote: a call into lib/check
	// links lib/attention too, which sorts first.
	both := map[string]bool{module + "/lib/attention.softmaxWeights": true, module + "/lib/check.Lookup": true, module + "/lib/check.init": true}
	if got := deniedUseNaming(both, module, []string{"lib/attention"}, map[string]bool{"lib/check.Lookup": true}); got != "lib/check" {
		t.Errorf("deniedUseNaming with a direct call of lib/check.Lookup = %q, want lib/check", got)
	}
	if got := deniedUseNaming(both, module, []string{"lib/attention"}, map[string]bool{"lib/attention.Explain": true}); got != "lib/attention" {
		t.Errorf("deniedUseNaming = %q, want lib/attention", got)
	}
}

// TestDecoderLayerDenied: exercise 5's decoder layer is flagged when the
// program links the library's own decoder layer — its constructor or a
// method of its builder, however the learner's code reached them — and not
// for the parts the exercise asks to wire.
func TestDecoderLayerDenied(t *testing.T) {
	a, err := LoadAssignment(courseRoot(t), "lessons/exercises/05-transformer-encoder.md")
	if err != nil {
		t.Fatal(err)
	}
	var deny []string
	for _, e := range a.Exercises {
		if e.ID == "decoder-layer" {
			deny = e.Deny
		}
	}
	tests := []struct {
		sym  string
		want string
	}{
		{"lib/transformer.DecoderLayer", "lib/transformer.DecoderLayer"},
		{"lib/transformer.(*DecoderLayerBuilder).Steps", "lib/transformer.DecoderLayerBuilder"},
		{"lib/transformer.(*DecoderLayerBuilder).Done", "lib/transformer.DecoderLayerBuilder"},
		{"lib/transformer.EncoderLayer", "lib/transformer.EncoderLayer"},
		{"lib/transformer.AddNorm", ""},
		{"lib/transformer.FFN", ""},
		{"lib/transformer.DecoderLayerParamCount", ""},
		{"lib/attention.(*MultiHeadBuilder).Done", ""},
	}
	for _, tc := range tests {
		if got := deniedUse(map[string]bool{module + "/" + tc.sym: true}, module, deny); got != tc.want {
			t.Errorf("a program linking %s: deniedUse = %q, want %q (deny list %q)", tc.sym, got, tc.want, deny)
		}
	}
}

func TestEscaping(t *testing.T) {
	tests := []struct{ in, printable, csv string }{
		{"alice", "alice", "alice"},
		{"=SUM(A1)", "=SUM(A1)", "'=SUM(A1)"},
		{"-1+2", "-1+2", "'-1+2"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"a\u202eb\nc", `a\u202eb` + "\nc", `a\u202eb\nc`},
		{"bad\xffutf8", "bad\uFFFDutf8", "bad\uFFFDutf8"},
	}
	for _, tc := range tests {
		if got := printable(tc.in); got != tc.printable {
			t.Errorf("printable(%q) = %q, want %q", tc.in, got, tc.printable)
		}
		if got := csvCell(tc.in); got != tc.csv {
			t.Errorf("csvCell(%q) = %q, want %q", tc.in, got, tc.csv)
		}
	}
	if got := fenced("a ```` b"); !strings.HasPrefix(got, "`````text\n") || !strings.HasSuffix(got, "\n`````\n") {
		t.Errorf("fenced: %q", got)
	}
}

func TestFeedbackNames(t *testing.T) {
	subs := []Submission{{Learner: "a b"}, {Learner: "a_b"}, {Learner: "bob"}, {Learner: "../../etc"}, {Learner: "Bob"}}
	got := feedbackNames(subs)
	again := feedbackNames(subs)
	seen := map[string]bool{}
	for i, n := range got {
		if seen[strings.ToLower(n)] || n != again[i] || strings.Contains(n, "/") || strings.HasPrefix(n, ".") {
			t.Errorf("names %v (again %v): not distinct, stable and safe", got, again)
		}
		seen[strings.ToLower(n)] = true
	}
}

func TestCache(t *testing.T) {
	dir := t.TempDir()
	c, err := openCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	g := Graded{Learner: "alice", Scores: []Score{{Exercise: "softmax", Points: 1, Max: 2, Status: "partial"}}}
	if err := c.write("k1", g); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.read("k1"); !ok || got.Scores[0].Points != 1 {
		t.Fatalf("read back %v, %v", got, ok)
	}
	// Another grader's key (a copied folder, a forged file) is not trusted.
	other, _ := openCache(t.TempDir())
	other.dir = dir
	other.write("k2", Graded{Learner: "mallory", Scores: []Score{{Points: 2, Max: 2}}})
	if _, ok := c.read("k2"); ok {
		t.Error("an entry made with another key was trusted")
	}
	data, _ := os.ReadFile(c.path("k1"))
	os.WriteFile(c.path("k1"), []byte(strings.Replace(string(data), `"points": 1`, `"points": 2`, 1)), 0o644)
	if _, ok := c.read("k1"); ok {
		t.Error("an edited entry was trusted")
	}
	c2, err := openCache(dir)
	if err != nil || string(c2.key) != string(c.key) {
		t.Errorf("the key changed on reopening: %v", err)
	}
}

func TestInferAssignment(t *testing.T) {
	root := courseRoot(t)
	dir := t.TempDir()
	for name, src := range map[string]string{"a": "lessons/exercises/01-scaled-dot-product-attention.md", "b": "lessons/exercises/01-scaled-dot-product-attention.md",
		"c": "lessons/exercises/02-bahdanau-luong.md", "d": "../../secret.md"} {
		os.WriteFile(filepath.Join(dir, name+".ipynb"), retarget(t, root, src), 0o644)
	}
	if got, err := InferAssignment(dir); err != nil || got != "lessons/exercises/01-scaled-dot-product-attention.md" {
		t.Errorf("InferAssignment = %q, %v; want the majority's", got, err)
	}
	os.WriteFile(filepath.Join(dir, "e.ipynb"), retarget(t, root, "lessons/exercises/02-bahdanau-luong.md"), 0o644)
	if _, err := InferAssignment(dir); err == nil {
		t.Error("a tie is not an error")
	}
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
				Jobs: 2, Timeout: 2 * time.Minute, Memory: 4 << 30, Seed: 1})
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

// TestBuildBudget: all the builds of a submission share one time budget
// (a compile-time bomb is retried exercise by exercise), its end is
// reported in the learner's terms, and a build stopped by it is not
// reused for another learner with the same code.
func TestBuildBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	root := courseRoot(t)
	if err := sandbox.Check(); err != nil {
		t.Skip(err)
	}
	a, err := LoadAssignment(root, "lessons/exercises/01-scaled-dot-product-attention.md")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Root: root, Module: module, Timeout: time.Minute, Memory: 1 << 30}
	tc, err := newToolchain(o)
	if err != nil {
		t.Fatal(err)
	}
	tc.buildTimeout = time.Millisecond
	data := edit(t, root, solutions, nil)
	work := t.TempDir() // as Grade's: the slot users (as root) reach the programs
	os.Chmod(filepath.Dir(work), 0o711)
	os.Chmod(work, 0o711)
	g := gradeOne(context.Background(), tc, 0, filepath.Join(work, "a"), Submission{Learner: "a", Data: data}, a, o, Run{Seed: 1})
	for _, s := range g.Scores {
		if s.Points != 0 || s.Status != "compile error" || !strings.Contains(s.Details, "took longer than the 1ms a submission's builds get") {
			t.Errorf("%s: %v points, %q:\n%s", s.Exercise, s.Points, s.Status, s.Details)
		}
	}
	tc.buildTimeout = 5 * time.Minute
	g = gradeOne(context.Background(), tc, 0, filepath.Join(work, "b"), Submission{Learner: "b", Data: data}, a, o, Run{Seed: 1})
	if total, max := g.total(); total != float64(max) {
		t.Errorf("the same code with time to build: %v/%d (a stopped build was reused?)\n%v", total, max, g.Scores)
	}
}

// TestRegradeOneLearner: a corrected submission is graded alone, on the
// class's hidden cases; the others stay as graded (a notebook changed
// since is not read), and the gradebook, report and exports say so.
func TestRegradeOneLearner(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a class")
	}
	root := courseRoot(t)
	const slug = "01-scaled-dot-product-attention"
	a, err := LoadAssignment(root, "lessons/exercises/"+slug+".md")
	if err != nil {
		t.Fatal(err)
	}
	read := func(flavour string) []byte {
		data, err := os.ReadFile(filepath.Join(root, flavour, slug+".ipynb"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	solution, stub := read("solutions"), read("exercises")
	dir := t.TempDir()
	put := func(learner string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, learner+".ipynb"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("alice", solution)
	put("bob", stub)
	put("carol", solution)
	out := filepath.Join(dir, "graded")
	o := Options{Root: root, Module: module, Out: out, Jobs: 2, Timeout: 2 * time.Minute, Memory: 4 << 30}
	ctx := context.Background()

	o.Learners = []string{"bob"}
	if _, err := Grade(ctx, dir, a, o); err == nil || !strings.Contains(err.Error(), "grade the whole class first") {
		t.Fatalf("a regrade with no class graded: %v", err)
	}
	o.Learners = nil
	first, err := Grade(ctx, dir, a, o)
	if err != nil {
		t.Fatal(err)
	}
	totals := func(gs []Graded) map[string]float64 {
		m := map[string]float64{}
		for _, g := range gs {
			m[g.Learner], _ = g.total()
		}
		return m
	}
	_, max := first[0].total()
	if got := totals(first); got["alice"] != float64(max) || got["bob"] != 0 || got["carol"] != float64(max) || len(got) != 3 {
		t.Fatalf("first grading: %v", got)
	}

	// Bob hands in his corrected notebook; Alice changes hers after the
	// deadline, which a regrade of Bob must not read.
	put("bob", solution)
	put("alice", stub)
	// The regrade uses the class's seed, from the class record, even
	// with the seed file gone; bob asked for twice is graded once.
	seedFile := filepath.Join(out, ".cache", "seed")
	classSeed, _ := os.ReadFile(seedFile)
	os.Remove(seedFile)
	var progress strings.Builder
	o.Learners, o.Progress = []string{"bob", "bob"}, &progress
	second, err := Grade(ctx, dir, a, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := totals(second); got["alice"] != float64(max) || got["bob"] != float64(max) || got["carol"] != float64(max) || len(got) != 3 {
		t.Errorf("after regrading bob: %v, want everyone at %d", got, max)
	}
	if lines := strings.Split(strings.TrimSpace(progress.String()), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "[1/1] bob ") {
		t.Errorf("progress of the regrade:\n%s\nwant one line, bob's", progress.String())
	}
	files := map[string]string{}
	for _, name := range []string{"gradebook.csv", "report.md", "report.html", "canvas.csv", "moodle.csv", "feedback/bob.md"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	if got, _ := os.ReadFile(seedFile); string(got) != string(classSeed) || !strings.Contains(files["gradebook.csv"], ","+strings.TrimSpace(string(classSeed))+",") {
		t.Errorf("the regrade's seed is %q, the class's %q", got, classSeed)
	}
	full := fmt.Sprint(max)
	for name, want := range map[string]string{
		"gradebook.csv":   "bob,total," + full + "," + full,
		"report.md":       "This run regraded bob",
		"report.html":     "this run regraded bob",
		"canvas.csv":      "bob,,,bob,," + full,
		"moodle.csv":      "bob," + full + ",",
		"feedback/bob.md": "Total: **" + full + " / " + full + "**",
	} {
		if !strings.Contains(files[name], want) {
			t.Errorf("%s lacks %q:\n%s", name, want, files[name])
		}
	}
	if !strings.Contains(files["canvas.csv"], "alice,,,alice,,"+full) {
		t.Errorf("canvas.csv lost alice's grade:\n%s", files["canvas.csv"])
	}

	// A regrade grades afresh, even a notebook the cache holds (a result
	// the instructor doubts: a time-out on a busy machine).
	// Regraded with other limits than the class's: the report says so.
	progress.Reset()
	o.Timeout = 3 * time.Minute
	if _, err := Grade(ctx, dir, a, o); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(progress.String(), "cached") {
		t.Errorf("a regrade read the cache: %s", progress.String())
	}
	if md, _ := os.ReadFile(filepath.Join(out, "report.md")); !strings.Contains(string(md), "the limits differ from the class run's: -timeout 3m0s") {
		t.Errorf("report.md does not say the regrade's limits differ:\n%s", md)
	}
	other, err := LoadAssignment(root, "lessons/exercises/02-bahdanau-luong.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Grade(ctx, dir, other, o); err == nil || !strings.Contains(err.Error(), "no earlier grading of lessons/exercises/02-bahdanau-luong.md") {
		t.Errorf("a regrade on another assignment than the class's: %v", err)
	}

	o.Learners = []string{"dave"}
	if _, err := Grade(ctx, dir, a, o); err == nil || !strings.Contains(err.Error(), `no submission of "dave"`) || !strings.Contains(err.Error(), "alice, bob, carol") {
		t.Errorf("regrading an unknown learner: %v", err)
	}
	o.Learners, o.Seed = []string{"bob"}, 12345
	if _, err := Grade(ctx, dir, a, o); err == nil || !strings.Contains(err.Error(), "same hidden cases") {
		t.Errorf("regrading on another seed: %v", err)
	}
}
