package build

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/internal/lesson"
)

// The notebooks handle an error one way, the way a learner should copy:
//
//	x, err := f()
//	if err != nil {
//		panic(err)
//	}
//
// GoNB shows the panic and its message and the cell fails visibly, where a
// discarded error hides a bad input until a nil pointer panics far from the
// cause. TestCellsCheckErrors keeps the lessons to that style. It does not
// type-check the cells (type-checking GoMLX from source takes longer than
// the rest of the package's tests together); it reads the library's source
// instead, with go/parser, for the functions and methods whose last result
// is an error, and flags a cell that calls one of them and drops that
// result: "x, _ := f()", "_ = f()", or f() as a statement.

// signature is what the check knows of a function: how many results it has
// and whether the last one is an error.
type signature struct {
	results   int
	lastError bool
}

// signatures indexes the functions that cells call.
type signatures struct {
	// funcs holds functions by import path and name ("…/lib/attention.Explain")
	// and, for functions declared in a lesson's cells, by bare name.
	funcs map[string][]signature
	// methods holds methods by name alone: a cell's receiver has no type
	// without type-checking, so all of the library's methods of that name
	// are candidates.
	methods map[string][]signature
}

func newSignatures() *signatures {
	return &signatures{funcs: map[string][]signature{}, methods: map[string][]signature{}}
}

// add records the functions and methods that f declares, functions under
// prefix+name.
func (s *signatures) add(f *ast.File, prefix string) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		sig := signature{results: fd.Type.Results.NumFields()}
		if res := fd.Type.Results; res != nil && len(res.List) > 0 {
			id, ok := res.List[len(res.List)-1].Type.(*ast.Ident)
			sig.lastError = ok && id.Name == "error"
		}
		if fd.Recv != nil {
			s.methods[fd.Name.Name] = append(s.methods[fd.Name.Name], sig)
		} else {
			s.funcs[prefix+fd.Name.Name] = append(s.funcs[prefix+fd.Name.Name], sig)
		}
	}
}

// clone returns a copy of s that can be added to without changing s.
func (s *signatures) clone() *signatures {
	c := newSignatures()
	for k, v := range s.funcs {
		c.funcs[k] = slices.Clone(v)
	}
	for k, v := range s.methods {
		c.methods[k] = slices.Clone(v)
	}
	return c
}

// librarySignatures parses the non-test Go files under root/lib.
func librarySignatures(root string) (*signatures, error) {
	s := newSignatures()
	err := parseLibrary(root, token.NewFileSet(), parser.SkipObjectResolution, func(rel string, f *ast.File) error {
		s.add(f, courseroot.ModulePath+"/"+path.Dir(rel)+".")
		return nil
	})
	return s, err
}

// cellFile is one code cell parsed as Go: its declarations (the text before
// GoNB's "%%" line, or the whole cell without one) and its statements (the
// text after "%%", as the body of a function).
type cellFile struct {
	cell  lesson.Cell
	decls *ast.File
	body  *ast.File // nil when the cell has no "%%"
}

// parseCell parses a code cell. GoNB's special commands (lines starting
// with "%" or "!") are blanked; the parsed files keep the cell's line
// numbers, so that position line n is the cell's nth line.
func parseCell(fset *token.FileSet, name string, c lesson.Cell) (cellFile, error) {
	lines := strings.Split(c.Source, "\n")
	split := -1
	for i, l := range lines {
		if split < 0 && strings.HasPrefix(l, "%%") {
			split = i
		}
		if strings.HasPrefix(l, "%") || strings.HasPrefix(l, "!") {
			lines[i] = ""
		}
	}
	decls, body := lines, []string(nil)
	if split >= 0 {
		decls = slices.Clone(lines)
		clear(decls[split:])
		body = slices.Clone(lines)
		clear(body[:split+1])
	}
	cf := cellFile{cell: c}
	var err error
	cf.decls, err = parser.ParseFile(fset, name, "package p;"+strings.Join(decls, "\n"), parser.SkipObjectResolution|parser.ParseComments)
	if err != nil {
		return cf, err
	}
	if body != nil {
		cf.body, err = parser.ParseFile(fset, name, "package p; func _() {"+strings.Join(body, "\n")+"\n}", parser.SkipObjectResolution)
	}
	return cf, err
}

// discardedErrors returns, as "path:line: message", every place where a
// code cell of the lesson src drops an error that lib's functions or the
// lesson's own return. Cells that do not parse as Go are an error: the
// check cannot read them.
func discardedErrors(name string, src []byte, lib *signatures) ([]string, error) {
	l, err := lesson.Parse(name, src)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	sigs := lib.clone()
	imports := map[string]string{} // package name → import path, lesson-wide as in GoNB
	var cells []cellFile
	for _, c := range l.Cells {
		if c.Kind != lesson.Code || lesson.IsSetup(c) {
			continue
		}
		cf, err := parseCell(fset, name, c)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: the cell does not parse as Go, so its errors cannot be checked; fix the cell, or teach parseCell the GoNB syntax it uses: %v", name, c.Line, err)
		}
		for _, is := range cf.decls.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			n := path.Base(p)
			if is.Name != nil {
				n = is.Name.Name
			}
			imports[n] = p
		}
		sigs.add(cf.decls, "") // declarations persist from cell to cell
		cells = append(cells, cf)
	}
	var found []string
	report := func(c lesson.Cell, pos token.Pos, call *ast.CallExpr) {
		found = append(found, fmt.Sprintf("%s:%d: the cell discards the error of %s; check it: x, err := …; if err != nil { panic(err) }",
			name, c.Line+fset.Position(pos).Line, callee(call)))
	}
	for _, cf := range cells {
		for _, f := range []*ast.File{cf.decls, cf.body} {
			if f == nil {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if call := discarded(n.Lhs, n.Rhs, sigs, imports); call != nil {
						report(cf.cell, n.Pos(), call)
					}
				case *ast.ValueSpec:
					lhs := make([]ast.Expr, len(n.Names))
					for i, id := range n.Names {
						lhs[i] = id
					}
					if call := discarded(lhs, n.Values, sigs, imports); call != nil {
						report(cf.cell, n.Pos(), call)
					}
				case *ast.ExprStmt:
					if call, ok := n.X.(*ast.CallExpr); ok && returnsError(call, -1, sigs, imports) {
						report(cf.cell, n.Pos(), call)
					}
				}
				return true
			})
		}
	}
	return found, nil
}

// discarded returns the call of "lhs = rhs" whose error result is assigned
// to the blank identifier, or nil.
func discarded(lhs, rhs []ast.Expr, sigs *signatures, imports map[string]string) *ast.CallExpr {
	if len(rhs) != 1 || len(lhs) == 0 {
		return nil
	}
	call, ok := ast.Unparen(rhs[0]).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if id, ok := lhs[len(lhs)-1].(*ast.Ident); !ok || id.Name != "_" {
		return nil
	}
	if returnsError(call, len(lhs), sigs, imports) {
		return call
	}
	return nil
}

// returnsError reports whether call's function returns an error as the last
// of results results (-1: the result is dropped whole, by a call
// statement). A method is known by name only: its name must return an
// error in every signature the library has with that many results.
func returnsError(call *ast.CallExpr, results int, sigs *signatures, imports map[string]string) bool {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr: // a generic function's instantiation
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var cands []signature
	method := false
	switch f := fun.(type) {
	case *ast.Ident:
		cands = sigs.funcs[f.Name]
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && imports[x.Name] != "" {
			cands = sigs.funcs[imports[x.Name]+"."+f.Sel.Name]
		} else {
			cands, method = sigs.methods[f.Sel.Name], true
		}
	}
	var match []signature
	for _, s := range cands {
		if results < 0 || s.results == results {
			match = append(match, s)
		}
	}
	if len(match) == 0 {
		return false
	}
	for _, s := range match {
		if s.lastError && !method {
			return true
		}
		if !s.lastError && method {
			return false
		}
	}
	return method
}

// callee names the function of call as the cell writes it.
func callee(call *ast.CallExpr) string {
	var b strings.Builder
	var name func(e ast.Expr)
	name = func(e ast.Expr) {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			b.WriteString(e.Name)
		case *ast.SelectorExpr:
			if _, ok := e.X.(*ast.CallExpr); ok {
				b.WriteString("…")
			} else {
				name(e.X)
			}
			b.WriteString("." + e.Sel.Name)
		case *ast.IndexExpr:
			name(e.X)
		case *ast.IndexListExpr:
			name(e.X)
		default:
			b.WriteString("a function")
		}
	}
	name(call.Fun)
	return b.String()
}

// TestCellsCheckErrors checks that no code cell of the lessons and exercise
// sources discards an error.
func TestCellsCheckErrors(t *testing.T) {
	root, err := courseroot.Find(".")
	if err != nil {
		t.Fatal(err)
	}
	lib, err := librarySignatures(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.funcs["github.com/attention-in-go/course/lib/attention.Explain"]) == 0 {
		t.Fatal("the library's signatures do not include attention.Explain; librarySignatures reads the wrong folder")
	}
	sources, _ := filepath.Glob(filepath.Join(root, "lessons", "*.md"))
	exercises, _ := filepath.Glob(filepath.Join(root, "lessons", "exercises", "*.md"))
	if len(sources) == 0 {
		t.Skip("no lessons/*.md yet")
	}
	for _, p := range append(sources, exercises...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		found, err := discardedErrors(courseroot.Rel(root, p), src, lib)
		if err != nil {
			t.Error(err)
		}
		for _, f := range found {
			t.Error(f)
		}
	}
}

// TestDiscardedErrors shows that the check finds a dropped error, and only
// an error, on small lessons.
func TestDiscardedErrors(t *testing.T) {
	root, err := courseroot.Find(".")
	if err != nil {
		t.Fatal(err)
	}
	lib, err := librarySignatures(root)
	if err != nil {
		t.Fatal(err)
	}
	const head = "# L\n\n```go\nimport (\n\t\"github.com/attention-in-go/course/lib/attention\"\n\t\"github.com/attention-in-go/course/lib/posenc\"\n)\n\n" +
		"func pair() (int, error) { return 0, nil }\n\nfunc two() (int, int) { return 0, 0 }\n\nfunc fail() error { return nil }\n```\n\n"
	tests := []struct {
		name, cell string
		wantLines  []int // lines of the lesson reported
	}{
		{"library function", "```go\n%%\nsteps, _ := attention.Explain(q, k, v, nil)\n```\n", []int{18}},
		{"checked", "```go\n%%\nsteps, err := attention.Explain(q, k, v, nil)\nif err != nil {\n\tpanic(err)\n}\n```\n", nil},
		{"assigned, not declared", "```go\n%%\nvar steps any\nsteps, _ = attention.Explain(q, k, v, nil)\n```\n", []int{19}},
		{"var declaration", "```go\nvar steps, _ = attention.Explain(q, k, v, nil)\n```\n", []int{17}},
		{"inside a function", "```go\nfunc f() {\n\tif true {\n\t\tm, _ := posenc.RelativeMap(1, 8, 100)\n\t\t_ = m\n\t}\n}\n```\n", []int{19}},
		{"method known to return an error", "```go\n%%\n_, _ = posenc.NewLearned(50, 128, 4).Rows(60)\n```\n", []int{18}},
		{"method of the same name without error", "```go\n%%\n_ = t.Rows(60)\n```\n", nil},
		{"method call statement, not known to return an error", "```go\n%%\nt.Rows(60)\n```\n", nil},
		{"function of a cell", "```go\n%%\nn, _ := pair()\n```\n", []int{18}},
		{"call statement", "```go\n%%\nfail()\n```\n", []int{18}},
		{"blank error alone", "```go\n%%\n_ = fail()\n```\n", []int{18}},
		{"second result not an error", "```go\n%%\na, _ := two()\n```\n", nil},
		{"map lookup", "```go\n%%\nv, _ := m[\"k\"]\n```\n", nil},
		{"type assertion", "```go\n%%\nv, _ := x.(int)\n```\n", nil},
		{"unknown function", "```go\n%%\nv, _ := strconv.Atoi(\"1\")\n```\n", nil},
		{"shown, not run", "```go noexec sketch\nsteps, _ := attention.Explain(q, k, v, nil)\n```\n", nil},
		{"error printed on purpose", "```go\n%%\n_, err := posenc.NewLearned(50, 128, 4).Rows(60)\nfmt.Println(err)\n```\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found, err := discardedErrors("l.md", []byte(head+tt.cell), lib)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, f := range found {
				_, rest, _ := strings.Cut(f, ":")
				n, _ := strconv.Atoi(rest[:strings.Index(rest, ":")])
				got = append(got, n)
			}
			if !slices.Equal(got, tt.wantLines) {
				t.Errorf("reported lines %v, want %v:\n%s", got, tt.wantLines, strings.Join(found, "\n"))
			}
		})
	}
	if _, err := discardedErrors("l.md", []byte(head+"```go\n%%\nx, _ := := 1\n```\n"), lib); err == nil {
		t.Error("a cell that does not parse: no error, want one")
	}
}

// parseLibrary parses the non-test Go files under root/lib with mode and
// calls fn with each file and its path relative to root, slash-separated
// (lib/attention/score.go).
func parseLibrary(root string, fset *token.FileSet, mode parser.Mode, fn func(rel string, f *ast.File) error) error {
	return filepath.WalkDir(filepath.Join(root, "lib"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, mode)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), f)
	})
}
