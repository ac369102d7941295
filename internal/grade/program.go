package grade

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// This file turns a notebook's code cells into the Go source of the
// child program: the learner's declarations, as GoNB would keep them
// (the last definition of a name wins), reduced to what the exercises
// being built need, each preceded by a //line directive naming its cell,
// so that the compiler's messages point at the learner's cell and line.

// goSource returns the Go declarations of a GoNB cell: lines of magics
// (%…) and shell commands (!…) become empty lines, and everything after
// a %% line (the body of the cell's main) is dropped. Lines keep their
// numbers.
func goSource(src string) string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "%%") {
			break
		}
		if strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") {
			out = append(out, "")
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// parsedCell is a cell's declarations.
type parsedCell struct {
	number int // 1-based position of the cell in the notebook
	first  string
	src    []byte // "package main\n" + goSource
	fset   *token.FileSet
	file   *ast.File
}

// parseCell parses a cell; number is its position in the notebook.
func parseCell(number int, src string) (*parsedCell, error) {
	fset := token.NewFileSet()
	text := []byte("package main\n" + goSource(src))
	f, err := parser.ParseFile(fset, "cell.go", text, parser.SkipObjectResolution)
	first, _, _ := strings.Cut(strings.TrimSpace(src), "\n")
	if err != nil {
		return nil, fmt.Errorf("%s does not parse: %s", cellName(number, first), strings.ReplaceAll(err.Error(), "cell.go:", "line "))
	}
	return &parsedCell{number: number, first: first, src: text, fset: fset, file: f}, nil
}

// cellName names a cell in the feedback: its position and first line.
func cellName(number int, first string) string {
	if len(first) > 60 {
		first = first[:57] + "…"
	}
	return fmt.Sprintf("code cell %d (%q)", number, first)
}

// decl is one top-level declaration of the learner's.
type decl struct {
	key  string // what a later declaration replaces: "func F", "type T", "method T.M", "value x"
	node ast.Decl
	cell *parsedCell
}

// declKey is the key under which a declaration replaces an earlier one
// (GoNB keeps the last definition of a name).
func declKey(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			return "method " + recvType(d) + "." + d.Name.Name
		}
		return "func " + d.Name.Name
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				return "type " + s.Name.Name
			case *ast.ValueSpec:
				if len(s.Names) > 0 {
					return "value " + s.Names[0].Name
				}
			}
		}
	}
	return ""
}

// recvType is the name of a method's receiver type, without * and type
// parameters.
func recvType(f *ast.FuncDecl) string {
	t := f.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			var b bytes.Buffer
			printer.Fprint(&b, token.NewFileSet(), t)
			return b.String()
		}
	}
}

// declNames returns the package-level names a declaration declares.
func declNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			names = append(names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	return names
}

// source is the learner's declarations of a notebook, in notebook order,
// later definitions replacing earlier ones.
type source struct {
	decls   []*decl
	byName  map[string]*decl   // package-level names
	methods map[string][]*decl // receiver type → its methods
}

// newSource collects the declarations of cells in order. The learner's
// main and init functions are dropped (the grader has its own main).
func newSource(cells []*parsedCell) *source {
	s := &source{byName: map[string]*decl{}, methods: map[string][]*decl{}}
	at := map[string]int{}
	for _, c := range cells {
		for _, d := range c.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && (f.Name.Name == "main" || f.Name.Name == "init" || f.Name.Name == "_") {
				continue
			}
			dd := &decl{key: declKey(d), node: d, cell: c}
			if i, seen := at[dd.key]; seen && dd.key != "" {
				s.decls[i] = dd
				continue
			}
			at[dd.key] = len(s.decls)
			s.decls = append(s.decls, dd)
		}
	}
	for _, d := range s.decls {
		for _, n := range declNames(d.node) {
			s.byName[n] = d
		}
		if f, ok := d.node.(*ast.FuncDecl); ok && f.Recv != nil && len(f.Recv.List) > 0 {
			s.methods[recvType(f)] = append(s.methods[recvType(f)], d)
		}
	}
	return s
}

// function returns the learner's declaration of func name, or nil.
func (s *source) function(name string) *decl {
	d := s.byName[name]
	if d == nil {
		return nil
	}
	if f, ok := d.node.(*ast.FuncDecl); ok && f.Recv == nil {
		return d
	}
	return nil
}

// closure returns the declarations the named functions need: those they
// refer to, directly or through others, and the methods of every type
// among them, in notebook order. A name that is declared nowhere is left
// to the compiler, which reports it.
func (s *source) closure(names ...string) []*decl {
	in := map[*decl]bool{}
	var queue []*decl
	add := func(d *decl) {
		if d != nil && !in[d] {
			in[d] = true
			queue = append(queue, d)
		}
	}
	for _, n := range names {
		add(s.byName[n])
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		for _, n := range declNames(d.node) {
			for _, m := range s.methods[n] {
				add(m)
			}
		}
		ast.Inspect(d.node, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				add(s.byName[id.Name])
				for _, m := range s.methods[id.Name] {
					add(m)
				}
			}
			return true
		})
	}
	var out []*decl
	for _, d := range s.decls {
		if in[d] {
			out = append(out, d)
		}
	}
	return out
}

// program is the learner's file of the child program: the imports of
// every cell (GoNB shares them between cells; goimports removes those
// the declarations do not use and adds missing ones), then each
// declaration's own text under a //line directive naming its cell.
func program(decls []*decl, cells []*parsedCell) []byte {
	imports := map[string]string{} // path and line → import line
	for _, c := range cells {
		for _, imp := range c.file.Imports {
			line := imp.Path.Value
			if imp.Name != nil {
				line = imp.Name.Name + " " + line
			}
			imports[imp.Path.Value+" "+line] = line
		}
	}
	var b bytes.Buffer
	b.WriteString("package main\n\n")
	var keys []string
	for k := range imports {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "import %s\n", imports[k])
	}
	for _, d := range decls {
		f := d.cell.fset.File(d.node.Pos())
		start, end := f.Offset(d.node.Pos()), f.Offset(d.node.End())
		line := f.Line(d.node.Pos()) - 1 // the parser saw "package main\n" first
		fmt.Fprintf(&b, "\n//line cell-%d.go:%d\n%s\n", d.cell.number, line, d.cell.src[start:end])
	}
	return b.Bytes()
}

var cellPosRE = regexp.MustCompile(`cell-(\d+)\.go:(\d+)(?::\d+)?: `)

// compilerMessage keeps the compiler's messages, naming the learner's
// cells ("code cell 7, line 3: undefined: x"); a message about the
// grader's own file means the function has the wrong type (want names
// the signature the exercise asks for, by line of the grader's main).
func compilerMessage(out string, cells map[int]*parsedCell, want map[int]string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		l = strings.TrimPrefix(l, "./")
		if rest, ok := strings.CutPrefix(l, "grader_main.go:"); ok {
			n, _ := strconv.Atoi(strings.SplitN(rest, ":", 2)[0])
			if sig, ok := want[n]; ok {
				l = "the function has the wrong type: the exercise asks for " + sig
			}
		}
		l = cellPosRE.ReplaceAllStringFunc(l, func(m string) string {
			p := cellPosRE.FindStringSubmatch(m)
			n, _ := strconv.Atoi(p[1])
			name := "code cell " + p[1]
			if c := cells[n]; c != nil {
				name = cellName(n, c.first)
			}
			return name + ", line " + p[2] + ": "
		})
		lines = append(lines, l)
	}
	if len(lines) > 10 {
		lines = append(lines[:10], fmt.Sprintf("… and %d more lines", len(lines)-10))
	}
	return strings.Join(lines, "\n")
}
