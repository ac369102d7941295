package exercise

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtocolComputesNoAnswer holds the rule that keeps answers out of
// every child program the grader builds: this package (linked into all
// of them) moves inputs and outcomes; what an exercise computes, even a
// helper handed to the learner such as chunked attention's attend, is
// computed by lib/check in the grader's process and reaches the child
// as data. A //go:linkname to a helper here would otherwise give a
// learner the course's own attention. The test fails on any numerical
// function of math used outside its NaN and Inf constructors.
func TestProtocolComputesNoAnswer(t *testing.T) {
	allowed := map[string]bool{"NaN": true, "IsNaN": true, "Inf": true, "IsInf": true}
	for _, dir := range []string{".", "withlib"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "math" && !allowed[sel.Sel.Name] {
					t.Errorf("%s: math.%s: the protocol package computes nothing an exercise asks for; compute it in lib/check and pass it in the input", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		}
	}
}
