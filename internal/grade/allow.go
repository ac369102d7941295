package grade

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// This file holds what an exercise allows (lib/check's Allow) and the two
// checks that hold a program to it: the package members the learner's
// code names, resolved by go/types, and the functions its program links
// beyond the grader's harness, which no path around the names escapes —
// a library function reached through another allowed one is in the
// harness's reach, a function reached by reflection or an interface is
// not.

// allowList is an exercise's Allow with import paths: whole packages and
// single members ("path.Name"). The standard library is always allowed.
type allowList struct {
	pkgs    map[string]bool
	members map[string]bool
}

// newAllowList resolves entries: "lib/…" is relative to module.
func newAllowList(module string, entries []string) allowList {
	a := allowList{pkgs: map[string]bool{}, members: map[string]bool{}}
	for _, e := range entries {
		if strings.HasPrefix(e, "lib/") {
			e = module + "/" + e
		}
		slash := strings.LastIndex(e, "/")
		if dot := strings.Index(e[slash+1:], "."); dot >= 0 {
			a.members[e] = true
		} else {
			a.pkgs[e] = true
		}
	}
	return a
}

// permits reports whether the member name of package pkg is allowed.
func (a allowList) permits(pkg, name string) bool {
	return isStd(pkg) || a.pkgs[pkg] || a.members[pkg+"."+name]
}

// touches reports whether some entry lies in package pkg.
func (a allowList) touches(pkg string) bool {
	if a.pkgs[pkg] {
		return true
	}
	for m := range a.members {
		if m[:strings.LastIndex(m, ".")] == pkg {
			return true
		}
	}
	return false
}

// isStd reports whether an import path is the standard library's (its
// first element has no dot) — as the go command tells them apart.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && path != "main" && path != "C"
}

// members returns the members of non-standard packages that decls name
// ("path.Name"), sorted.
func (s *source) members(decls []*decl) []string {
	seen := map[string]bool{}
	for _, d := range decls {
		ast.Inspect(d.node, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					if pn, ok := s.info.Uses[id].(*types.PkgName); ok && !isStd(pn.Imported().Path()) {
						seen[pn.Imported().Path()+"."+sel.Sel.Name] = true
					}
				}
			}
			return true
		})
	}
	var out []string
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// unallowedName returns the first member decls name that a does not
// allow, module-relative for the course's, or "".
func (s *source) unallowedName(decls []*decl, a allowList, module string) string {
	for _, m := range s.members(decls) {
		dot := strings.LastIndex(m, ".")
		if !a.permits(m[:dot], m[dot+1:]) {
			return strings.TrimPrefix(m, module+"/")
		}
	}
	return ""
}

var closureRE = regexp.MustCompile(`^(func|gowrap|deferwrap)\d+$|^\d+$|^$`)

// splitSymbol splits a linked function's name into its package's path
// and the rest ("github.com/x/p.(*T).M" → "github.com/x/p", "(*T).M").
// Type arguments, which hold paths too, are not searched for the split.
func splitSymbol(sym string) (pkg, rest string) {
	head := sym
	if i := strings.IndexByte(head, '['); i >= 0 {
		head = head[:i]
	}
	slash := strings.LastIndex(head, "/")
	dot := strings.IndexByte(head[slash+1:], '.')
	if dot < 0 {
		return "", sym
	}
	return sym[:slash+1+dot], sym[slash+2+dot:]
}

// memberOf is the package member a symbol's rest belongs to, and whether
// it is a method: "F" for "F.func1" or "F[go.shape.int]", method for
// "(*T).M" and "T.M".
func memberOf(rest string) (member string, method bool) {
	if strings.HasPrefix(rest, "(") {
		return "", true
	}
	parts := strings.Split(stripTypeArgs(rest), ".")
	if len(parts) > 1 && !closureRE.MatchString(parts[1]) {
		return parts[0], true
	}
	return parts[0], false
}

// stripTypeArgs removes the [...] groups of a symbol.
func stripTypeArgs(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unallowedLink returns a function of the program's symbols that the
// exercise may not link, as "path.Name" (module-relative for the
// course's), or "". Allowed: what the harness's own program links
// (baseline, which also references every allowed member, so that their
// reach counts as allowed), the standard library, methods (a value of a
// library type comes from an allowed call or the harness), a new
// instance of a generic function the baseline links, members a allows,
// and unexported functions of a package the baseline or a reaches.
func unallowedLink(syms, baseline map[string]bool, a allowList, module string) string {
	generic := map[string]bool{} // generic functions of the baseline, without type arguments
	reached := map[string]bool{} // packages of the baseline
	for s := range baseline {
		if i := strings.IndexByte(s, '['); i >= 0 {
			generic[stripTypeArgs(s)] = true
		}
		if pkg, _ := splitSymbol(s); pkg != "" {
			reached[pkg] = true
		}
	}
	var names []string
	for s := range syms {
		names = append(names, s)
	}
	sort.Strings(names)
	// Of the functions found, the feedback names the most telling: an
	// exported function of the course, else any of the course's, else an
	// exported one (a blank import links a package's init, and that of
	// everything it imports).
	best, rank := "", 4
	for _, s := range names {
		if baseline[s] || strings.HasPrefix(s, "type:") || strings.HasPrefix(s, "go:") {
			continue
		}
		pkg, rest := splitSymbol(s)
		if pkg == "" || pkg == "main" || isStd(pkg) {
			continue
		}
		if strings.Contains(s, "[") && generic[stripTypeArgs(s)] {
			continue
		}
		member, method := memberOf(rest)
		if method || a.permits(pkg, member) {
			continue
		}
		if !token.IsExported(member) && (reached[pkg] || a.touches(pkg)) {
			continue
		}
		r := 3
		switch course := strings.HasPrefix(pkg, module+"/"); {
		case course && token.IsExported(member):
			r = 0
		case course:
			r = 1
		case token.IsExported(member):
			r = 2
		}
		if r < rank {
			best, rank = strings.TrimPrefix(pkg+"."+member, module+"/"), r
		}
	}
	return best
}

// baselines builds, once per exercise in a grading run, the harness's
// program: the grader's main with a nil function of the learner's type,
// and a reference to every member the exercise allows.
type baselines struct {
	mu   sync.Mutex
	runs map[string]*baselineRun
}

type baselineRun struct {
	once sync.Once
	syms map[string]bool
	err  error
}

// symbols returns the baseline's symbols for e, building it in dir the
// first time.
func (b *baselines) symbols(ctx context.Context, tc *toolchain, dir string, e Exercise) (map[string]bool, error) {
	b.mu.Lock()
	if b.runs == nil {
		b.runs = map[string]*baselineRun{}
	}
	r := b.runs[e.ID]
	if r == nil {
		r = &baselineRun{}
		b.runs[e.ID] = r
	}
	b.mu.Unlock()
	r.once.Do(func() {
		var src []byte
		if src, r.err = tc.baselineSource(e); r.err != nil {
			return
		}
		var prog, msg string
		prog, msg, r.err = tc.buildCached(ctx, filepath.Join(dir, e.ID), child{learner: src, exercises: []Exercise{e}}, nil)
		if r.err == nil && msg != "" {
			r.err = fmt.Errorf("the grader's own program for exercise %s does not build (its allow list in lib/check?):\n%s", e.ID, msg)
		}
		if r.err == nil {
			r.syms, r.err = symbols(prog)
		}
	})
	if r.err != nil && ctx.Err() != nil {
		// Stopped by this submission's budget: the next one tries again.
		b.mu.Lock()
		delete(b.runs, e.ID)
		b.mu.Unlock()
	}
	return r.syms, r.err
}

// baselineSource is the learner's file of e's baseline program. It
// references the allowed functions, variables and constants, and the
// exported methods of the allowed types (method expressions): what they
// reach is allowed too.
func (t *toolchain) baselineSource(e Exercise) ([]byte, error) {
	a := newAllowList(t.module, e.Allow)
	pkgs := map[string]bool{}
	for p := range a.pkgs {
		pkgs[p] = true
	}
	for m := range a.members {
		pkgs[m[:strings.LastIndex(m, ".")]] = true
	}
	kinds, methods, err := t.exportedKinds(pkgs)
	if err != nil {
		return nil, err
	}
	var paths []string
	for p := range pkgs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b bytes.Buffer
	b.WriteString("package main\n\nimport (\n")
	fmt.Fprintf(&b, "\tbaseline_exercise %q\n\tbaseline_task %q\n", t.module+"/lib/exercise", e.TaskPackage)
	var refs []string
	for i, p := range paths {
		alias := "baseline_" + strconv.Itoa(i)
		fmt.Fprintf(&b, "\t%s %q\n", alias, p)
		var names []string
		for n := range kinds[p] {
			if a.pkgs[p] || a.members[p+"."+n] {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			switch kinds[p][n] {
			case kindValue:
				refs = append(refs, alias+"."+n)
			case kindType:
				for _, m := range methods[p][n] {
					refs = append(refs, "(*"+alias+"."+n+")."+m)
				}
			}
		}
	}
	b.WriteString(")\n\n")
	b.WriteString("func baselineNil[F, In, Out any](*baseline_exercise.Task[F, In, Out]) (f F) { return }\n\n")
	fmt.Fprintf(&b, "var %s = baselineNil(baseline_task.%s)\n\n", e.Func, e.Func)
	// Stored from an init, so that neither the compiler nor the linker
	// drops them (a blank variable's initializer would be).
	b.WriteString("var baselineKeep []any\n\nfunc init() {\n\tbaselineKeep = []any{\n")
	for _, r := range refs {
		fmt.Fprintf(&b, "\t\t%s,\n", r)
	}
	b.WriteString("\t}\n}\n")
	return b.Bytes(), nil
}

// kind is what an exported top-level name of a package is, as far as a
// reference to it goes.
type kind int

const (
	kindValue   kind = iota + 1 // a function, variable or constant: a value
	kindType                    // a type (or an alias: it may be a constraint)
	kindGeneric                 // a generic function or type: no reference without type arguments
)

// exportedKinds reads the exported top-level names of packages from
// their source (go list gives the folders), and the exported methods of
// their non-generic types.
func (t *toolchain) exportedKinds(pkgs map[string]bool) (kinds map[string]map[string]kind, methods map[string]map[string][]string, err error) {
	out := map[string]map[string]kind{}
	methods = map[string]map[string][]string{}
	if len(pkgs) == 0 {
		return out, methods, nil
	}
	args := []string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}"}
	for p := range pkgs {
		args = append(args, p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = t.root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off") // never rewrites go.mod, never fetches
	listed, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			err = fmt.Errorf("%v: %s", err, ee.Stderr)
		}
		return nil, nil, fmt.Errorf("go list of the allowed packages: %v", err)
	}
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(string(listed)), "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			continue
		}
		names := map[string]kind{}
		for _, file := range strings.Fields(f[2]) {
			af, err := parser.ParseFile(fset, filepath.Join(f[1], file), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, nil, err
			}
			for _, d := range af.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv != nil && d.Name.IsExported() && len(d.Recv.List) == 1 {
						if id, ok := d.Recv.List[0].Type.(*ast.StarExpr); ok {
							if tn, ok := id.X.(*ast.Ident); ok {
								addMethod(methods, f[0], tn.Name, d.Name.Name)
							}
						} else if tn, ok := d.Recv.List[0].Type.(*ast.Ident); ok {
							addMethod(methods, f[0], tn.Name, d.Name.Name)
						}
					}
					if d.Recv == nil && d.Name.IsExported() {
						names[d.Name.Name] = kindValue
						if d.Type.TypeParams != nil {
							names[d.Name.Name] = kindGeneric
						}
					}
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							if sp.Name.IsExported() {
								names[sp.Name.Name] = kindType
								if sp.TypeParams != nil || sp.Assign.IsValid() {
									names[sp.Name.Name] = kindGeneric // or an alias: no methods here
								}
							}
						case *ast.ValueSpec:
							for _, n := range sp.Names {
								if n.IsExported() {
									names[n.Name] = kindValue
								}
							}
						}
					}
				}
			}
		}
		out[f[0]] = names
	}
	return out, methods, nil
}

func addMethod(methods map[string]map[string][]string, pkg, typ, name string) {
	if methods[pkg] == nil {
		methods[pkg] = map[string][]string{}
	}
	methods[pkg][typ] = append(methods[pkg][typ], name)
}

// allowText says what an exercise allows, for the feedback.
func allowText(entries []string) string {
	var parts []string
	graph := false
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e, "github.com/gomlx/"):
			graph = true
		default:
			parts = append(parts, e)
		}
	}
	if graph {
		parts = append([]string{"GoMLX's graph operations (not Softmax, LogSoftmax or the Masked… ones)"}, parts...)
	}
	if len(parts) == 0 {
		return "the standard library only"
	}
	return "the standard library and " + strings.Join(parts, ", ")
}
