package grade

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"regexp"
	"slices"
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

// parseCell parses a cell into fset (one per notebook: the cells are
// type-checked together); number is its position in the notebook.
func parseCell(fset *token.FileSet, number int, src string) (*parsedCell, error) {
	text := []byte("package main\n" + goSource(src))
	f, err := parser.ParseFile(fset, "cell.go", text, parser.SkipObjectResolution|parser.ParseComments)
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
	if id := rootIdent(t); id != nil {
		return id.Name
	}
	var b bytes.Buffer
	printer.Fprint(&b, token.NewFileSet(), t)
	return b.String()
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
// later definitions replacing earlier ones, type-checked together so
// that every identifier is resolved in its scope: a parameter named like
// a package-level variable is the parameter.
type source struct {
	decls   []*decl
	byName  map[string]*decl   // package-level names
	methods map[string][]*decl // receiver type → its methods
	info    *types.Info
	objDecl map[types.Object]*decl // the learner's package-level objects and methods
}

// newSource collects the declarations of cells in order and resolves
// them. The learner's main and init functions are dropped (the grader
// has its own main; GoNB runs a cell's init only with that cell); GoNB's
// init_… functions are kept, and closure decides which run.
func newSource(cells []*parsedCell) *source {
	s := &source{byName: map[string]*decl{}, methods: map[string][]*decl{}, objDecl: map[types.Object]*decl{}}
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
			if i, seen := at[dd.key]; seen && dd.key != "" && dd.key != "value _" {
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
	s.resolve(cells)
	return s
}

// resolve type-checks the kept declarations as one package, each cell a
// file with the imports of every cell (as GoNB shares them), and records which of the learner's objects
// each identifier means. Imported packages are not loaded (a fake
// importer gives empty ones): what matters here is the learner's own
// scopes, and type errors are the compiler's to report.
func (s *source) resolve(cells []*parsedCell) {
	if len(cells) == 0 {
		return
	}
	// GoNB shares the imports of every cell: each file gets them all.
	var imports []ast.Decl
	for _, c := range cells {
		for _, d := range c.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				imports = append(imports, d)
			}
		}
	}
	kept := map[*parsedCell][]ast.Decl{}
	for _, d := range s.decls {
		kept[d.cell] = append(kept[d.cell], d.node)
	}
	var files []*ast.File
	for _, c := range cells {
		f := *c.file
		f.Decls = append(slices.Clone(imports), kept[c]...)
		files = append(files, &f)
	}
	s.info = &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: emptyImporter{}, FakeImportC: true, Error: func(error) {}}
	conf.Check("main", cells[0].fset, files, s.info)
	for _, d := range s.decls {
		var ids []*ast.Ident
		switch n := d.node.(type) {
		case *ast.FuncDecl:
			ids = append(ids, n.Name)
		case *ast.GenDecl:
			for _, sp := range n.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					ids = append(ids, sp.Name)
				case *ast.ValueSpec:
					ids = append(ids, sp.Names...)
				}
			}
		}
		for _, id := range ids {
			if o := s.info.Defs[id]; o != nil {
				s.objDecl[o] = d
			}
		}
	}
}

// emptyImporter imports every package as an empty one: identifiers of
// the learner's own declarations resolve without loading the library.
type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	p := types.NewPackage(path, pathName(path))
	p.MarkComplete()
	return p, nil
}

var majorVersionRE = regexp.MustCompile(`^v[0-9]+$`)

// pathName guesses a package's name from its path, as goimports does:
// the last element, without a major-version suffix or a go- prefix.
func pathName(path string) string {
	parts := strings.Split(path, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && majorVersionRE.MatchString(name) {
		name = parts[len(parts)-2]
	}
	name = strings.TrimPrefix(name, "go-")
	if i := strings.IndexAny(name, ".-"); i > 0 {
		name = name[:i]
	}
	return name
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

// refs returns the learner's declarations d refers to: what its
// identifiers resolve to, and for a type, its methods. An identifier the
// type checker could not resolve (in code with errors) falls back to its
// name, unless it names a field or a package's member.
func (s *source) refs(d *decl) []*decl {
	var out []*decl
	for _, n := range declNames(d.node) {
		out = append(out, s.methods[n]...)
	}
	skip := map[*ast.Ident]bool{}
	ast.Inspect(d.node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				skip[id] = true
			}
		case *ast.Ident:
			if o := s.info.Uses[n]; o != nil {
				o = origin(o)
				if dd := s.objDecl[o]; dd != nil {
					out = append(out, dd)
				}
				if tn, ok := o.(*types.TypeName); ok && s.objDecl[tn] != nil {
					out = append(out, s.methods[tn.Name()]...)
				}
				return true
			}
			if s.info.Defs[n] != nil || skip[n] {
				return true
			}
			if dd := s.byName[n.Name]; dd != nil {
				out = append(out, dd)
				out = append(out, s.methods[n.Name]...)
			}
		}
		return true
	})
	return out
}

// origin is the generic object an instantiated one comes from.
func origin(o types.Object) types.Object {
	switch o := o.(type) {
	case *types.Func:
		return o.Origin()
	case *types.Var:
		return o.Origin()
	}
	return o
}

// reach returns the declarations roots refer to, directly or through
// others.
func (s *source) reach(roots []*decl) map[*decl]bool {
	in := map[*decl]bool{}
	queue := slices.Clone(roots)
	for _, d := range roots {
		in[d] = true
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		for _, r := range s.refs(d) {
			if !in[r] {
				in[r] = true
				queue = append(queue, r)
			}
		}
	}
	return in
}

// closure returns what GoNB's program would run of the named functions,
// in notebook order: the declarations they refer to, directly or through
// others (a type brings its methods); and the package-level initializers
// and init_… functions (GoNB runs them all) that may change a variable
// among those, with what they need in turn. Initializers that change
// nothing the functions read, such as a scratch cell's figure, are left
// out: they link nothing into the exercise's program. A name declared
// nowhere is left to the compiler, which reports it.
func (s *source) closure(names ...string) []*decl {
	var roots []*decl
	for _, n := range names {
		if d := s.byName[n]; d != nil {
			roots = append(roots, d)
		}
	}
	// The candidates: initializers and init_… functions outside the roots.
	var effects []*decl
	for _, d := range s.decls {
		if isInitFunc(d) {
			effects = append(effects, d)
		} else if g, ok := d.node.(*ast.GenDecl); ok && g.Tok == token.VAR && hasValues(g) {
			effects = append(effects, d)
		}
	}
	writes := map[*decl]map[types.Object]bool{} // candidate → the variables its reach may change
	for _, e := range effects {
		w := map[types.Object]bool{}
		for d := range s.reach([]*decl{e}) {
			s.mayWrite(d, w)
		}
		writes[e] = w
	}
	in := s.reach(roots)
	for changed := true; changed; {
		changed = false
		for _, e := range effects {
			if in[e] {
				continue
			}
			for v := range writes[e] {
				if in[s.objDecl[v]] {
					for d := range s.reach([]*decl{e}) {
						in[d] = true
					}
					changed = true
					break
				}
			}
		}
	}
	var out []*decl
	for _, d := range s.decls {
		if in[d] {
			out = append(out, d)
		}
	}
	return out
}

// isInitFunc reports whether d is a GoNB init function, func init_…().
func isInitFunc(d *decl) bool {
	f, ok := d.node.(*ast.FuncDecl)
	return ok && f.Recv == nil && strings.HasPrefix(f.Name.Name, "init_") && f.Type.Params.NumFields() == 0 && f.Type.Results.NumFields() == 0
}

func hasValues(g *ast.GenDecl) bool {
	for _, sp := range g.Specs {
		if vs, ok := sp.(*ast.ValueSpec); ok && len(vs.Values) > 0 {
			return true
		}
	}
	return false
}

// mayWrite adds to w the learner's package-level variables d may change:
// those it assigns (to them, an element or a field of them), increments,
// takes the address of, calls a method on, or passes (unless they are
// numbers, strings or booleans) to a function that may change them
// (argsMayChange).
func (s *source) mayWrite(d *decl, w map[types.Object]bool) {
	add := func(e ast.Expr, anyType bool) {
		id := rootIdent(e)
		if id == nil {
			return
		}
		if v, ok := origin(s.info.Uses[id]).(*types.Var); ok && s.objDecl[v] != nil {
			if _, basic := v.Type().Underlying().(*types.Basic); anyType || !basic {
				w[v] = true
			}
		}
	}
	ast.Inspect(d.node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				add(l, true)
			}
		case *ast.IncDecStmt:
			add(n.X, true)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				if n.Key != nil {
					add(n.Key, true)
				}
				if n.Value != nil {
					add(n.Value, true)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				add(n.X, true)
			}
		case *ast.CallExpr:
			if s.argsMayChange(n) {
				for _, a := range n.Args {
					add(a, false)
				}
			}
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				add(sel.X, false)
			}
		}
		return true
	})
}

// rootIdent is the name an expression such as t[i].f, *p, s[1:] or
// (the receiver type) *T[K, V] reaches into, or nil.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// argsMayChange reports whether the function call calls may change what
// its arguments point to, as far as the exercise's program is concerned:
// a builtin (copy, clear), the learner's own function or method, a
// function value, or the standard library's (sort.Float64s). A call into
// the course library or another module is taken to leave its arguments
// alone: a figure drawn from a table in a scratch cell does not bring the
// library into the exercise's program.
func (s *source) argsMayChange(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return true
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		if pn, ok := s.info.Uses[id].(*types.PkgName); ok {
			first, _, _ := strings.Cut(pn.Imported().Path(), "/")
			return !strings.Contains(first, ".")
		}
	}
	return s.objDecl[origin(s.info.Uses[sel.Sel])] != nil
}

// named returns the members of module's packages that decls name
// themselves, module-relative ("lib/check.Lookup").
func (s *source) named(decls []*decl, module string) map[string]bool {
	out := map[string]bool{}
	for _, m := range s.members(decls) {
		if rel, ok := strings.CutPrefix(m, module+"/"); ok {
			out[rel] = true
		}
	}
	return out
}

// forbidden returns what the declarations use that no submission may
// ("go:linkname", `import "unsafe"`) and why, naming the cell and line,
// or "", "": a //go:linkname, //go:embed or cgo directive anywhere in a
// cell they come from, or the unsafe or C package imported there. No
// exercise needs them; with them a program can reach any function by
// name.
func forbidden(decls []*decl) (what, why string) {
	seen := map[*parsedCell]bool{}
	for _, d := range decls {
		c := d.cell
		if seen[c] {
			continue
		}
		seen[c] = true
		for _, cg := range c.file.Comments {
			for _, cm := range cg.List {
				t := cm.Text
				for _, dir := range []string{"//go:linkname", "//go:embed", "//go:cgo_", "//export ", "#cgo"} {
					if strings.HasPrefix(t, dir) || (dir == "#cgo" && strings.Contains(t, dir)) {
						what = strings.TrimSpace(strings.TrimPrefix(dir, "//"))
						return what, fmt.Sprintf("%s, line %d: %s is not allowed in a submission (no exercise needs it); delete it",
							cellName(c.number, c.first), c.fset.Position(cm.Pos()).Line-1, what)
					}
				}
			}
		}
		for _, imp := range c.file.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "unsafe" || p == "C" {
				what = fmt.Sprintf("import %q", p)
				return what, fmt.Sprintf("%s, line %d: %s is not allowed in a submission (no exercise needs it); delete it",
					cellName(c.number, c.first), c.fset.Position(imp.Pos()).Line-1, what)
			}
		}
	}
	return "", ""
}

// program is the learner's file of the child program: the imports of
// every cell (GoNB shares them between cells; goimports removes those
// the declarations do not use and adds missing ones) — but a blank
// import, which nothing uses by name, only from a cell that declares
// something the program holds —,
// then each declaration's own text under a //line directive naming its
// cell (the variables last, sorted by name as GoNB writes them), and an
// init that calls the init_… functions in GoNB's order (by
// name).
func program(decls []*decl, cells []*parsedCell) []byte {
	using := map[*parsedCell]bool{}
	for _, d := range decls {
		using[d.cell] = true
	}
	imports := map[string]string{} // path and line → import line
	for _, c := range cells {
		for _, imp := range c.file.Imports {
			line := imp.Path.Value
			if imp.Name != nil {
				if imp.Name.Name == "_" && !using[c] {
					continue
				}
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
	// GoNB writes the variables sorted by name, which orders the
	// initializers that do not depend on each other.
	decls = slices.Clone(decls)
	isVar := func(d *decl) bool { return strings.HasPrefix(d.key, "value ") }
	slices.SortStableFunc(decls, func(a, b *decl) int {
		switch {
		case isVar(a) && isVar(b):
			return strings.Compare(a.key, b.key)
		case isVar(a):
			return 1
		case isVar(b):
			return -1
		}
		return 0
	})
	var inits []string
	for _, d := range decls {
		f := d.cell.fset.File(d.node.Pos())
		start, end := f.Offset(d.node.Pos()), f.Offset(d.node.End())
		line := f.Line(d.node.Pos()) - 1 // the parser saw "package main\n" first
		fmt.Fprintf(&b, "\n//line cell-%d.go:%d\n%s\n", d.cell.number, line, d.cell.src[start:end])
		if isInitFunc(d) {
			inits = append(inits, d.node.(*ast.FuncDecl).Name.Name)
		}
	}
	if len(inits) > 0 {
		sort.Strings(inits)
		b.WriteString("\n//line grader-init.go:1\nfunc init() {\n")
		for _, n := range inits {
			fmt.Fprintf(&b, "\t%s()\n", n)
		}
		b.WriteString("}\n")
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
