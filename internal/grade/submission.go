package grade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/attention-in-go/course/internal/lesson"
)

// Submission is one learner's notebook.
type Submission struct {
	Learner string // the file name without .ipynb, or the learner's folder
	Path    string // the notebook, or "" when the folder has none
	Data    []byte
	Problem string // why the submission has no usable notebook
}

// Find lists the submissions in dir: every *.ipynb file (one learner per
// file) and every folder (one learner per folder, holding one notebook;
// with several, the one named like the assignment, else an error).
func Find(dir, slug string) ([]Submission, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var subs []Submission
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		switch {
		case e.IsDir():
			s := Submission{Learner: name}
			nbs, _ := filepath.Glob(filepath.Join(path, "*.ipynb"))
			sort.Strings(nbs)
			switch {
			case len(nbs) == 0:
				s.Problem = "no notebook (.ipynb) in the folder"
			case len(nbs) == 1:
				s.Path = nbs[0]
			default:
				for _, nb := range nbs {
					if strings.TrimSuffix(filepath.Base(nb), ".ipynb") == slug {
						s.Path = nb
					}
				}
				if s.Path == "" {
					s.Problem = fmt.Sprintf("%d notebooks in the folder and none named %s.ipynb", len(nbs), slug)
				}
			}
			subs = append(subs, s)
		case strings.HasSuffix(name, ".ipynb"):
			subs = append(subs, Submission{Learner: strings.TrimSuffix(name, ".ipynb"), Path: path})
		}
	}
	for i := range subs {
		if subs[i].Path != "" {
			data, err := os.ReadFile(subs[i].Path)
			if err != nil {
				subs[i].Problem = err.Error()
			}
			subs[i].Data = data
		}
	}
	return subs, nil
}

// rawNotebook is the part of a notebook the grader reads, decoded
// leniently: source as a string or a list of lines.
type rawNotebook struct {
	Metadata struct {
		Course struct {
			Source string `json:"source"`
		} `json:"course"`
	} `json:"metadata"`
	Cells []struct {
		Type     string          `json:"cell_type"`
		Source   json.RawMessage `json:"source"`
		Metadata struct {
			Course struct {
				Exercise string `json:"exercise"`
				Check    string `json:"check"`
			} `json:"course"`
		} `json:"metadata"`
	} `json:"cells"`
}

// codeCell is one code cell of a submission.
type codeCell struct {
	index    int
	source   string
	exercise string // from metadata, else from the marker line
	check    string
}

// cells decodes a notebook's code cells.
func cells(data []byte) (source string, out []codeCell, err error) {
	var nb rawNotebook
	if err := json.Unmarshal(data, &nb); err != nil {
		return "", nil, fmt.Errorf("broken notebook (not valid JSON: %v)", err)
	}
	for i, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		var src string
		var lines []string
		if json.Unmarshal(c.Source, &src) != nil {
			if json.Unmarshal(c.Source, &lines) != nil {
				continue
			}
			src = strings.Join(lines, "")
		}
		cc := codeCell{index: i, source: src, exercise: c.Metadata.Course.Exercise, check: c.Metadata.Course.Check}
		if first, _, _ := strings.Cut(strings.TrimSpace(src), "\n"); cc.exercise == "" {
			if id, _, ok := lesson.ParseMarker(first); ok {
				cc.exercise = id
			}
		}
		out = append(out, cc)
	}
	return nb.Metadata.Course.Source, out, nil
}

// goSource returns the Go declarations of a GoNB cell: lines of magics
// (%…) and shell commands (!…) are dropped, and so is everything after a
// %% line (the body of the cell's main).
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
	fset *token.FileSet
	file *ast.File
}

func parseCell(src string) (*parsedCell, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell.go", "package main\n"+goSource(src), 0)
	if err != nil {
		return nil, err
	}
	return &parsedCell{fset: fset, file: f}, nil
}

// declName is the key under which a declaration replaces an earlier one
// (GoNB keeps the last definition of a name).
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			var b bytes.Buffer
			printer.Fprint(&b, token.NewFileSet(), d.Recv.List[0].Type)
			return "method " + b.String() + "." + d.Name.Name
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

// program assembles cells into one Go file: the imports of all cells,
// then their declarations, a later declaration of a name replacing an
// earlier one. The learner's main and init are dropped.
func program(cs []*parsedCell) []byte {
	imports := map[string]string{} // path → line
	type decl struct {
		key  string
		text string
	}
	var decls []decl
	at := map[string]int{}
	for _, c := range cs {
		for _, imp := range c.file.Imports {
			line := imp.Path.Value
			if imp.Name != nil {
				line = imp.Name.Name + " " + line
			}
			imports[imp.Path.Value] = line
		}
		for _, d := range c.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && (f.Name.Name == "main" || f.Name.Name == "init") {
				continue
			}
			var b bytes.Buffer
			printer.Fprint(&b, c.fset, d)
			key := declName(d)
			if i, seen := at[key]; seen && key != "" {
				decls[i].text = b.String()
				continue
			}
			at[key] = len(decls)
			decls = append(decls, decl{key, b.String()})
		}
	}
	var b bytes.Buffer
	b.WriteString("package main\n\n")
	var paths []string
	for p := range imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(&b, "import %s\n", imports[p])
	}
	for _, d := range decls {
		b.WriteString("\n" + d.text + "\n")
	}
	return b.Bytes()
}

// denied returns the first use in f of what deny lists ("lib/attention"
// or "lib/attention.SoftmaxOf", relative to the course module), as
// "lib/attention.SoftmaxOf", or "".
func denied(f *ast.File, module string, deny []string) string {
	return deniedIn(f, f.Imports, module, deny)
}

// deniedIn is denied for one node of a file with the given imports.
func deniedIn(node ast.Node, imports []*ast.ImportSpec, module string, deny []string) string {
	// The names under which each denied package is used: its import name,
	// or the last element of its path when the cell relies on goimports.
	names := map[string]string{} // name → module-relative package
	for _, d := range deny {
		pkg, _, _ := strings.Cut(d, ".")
		names[pkg[strings.LastIndex(pkg, "/")+1:]] = pkg
	}
	for _, imp := range imports {
		path := strings.Trim(imp.Path.Value, `"`)
		rel, ok := strings.CutPrefix(path, module+"/")
		if !ok {
			continue
		}
		for _, d := range deny {
			if d == rel {
				name := rel[strings.LastIndex(rel, "/")+1:]
				if imp.Name != nil {
					name = imp.Name.Name
				}
				names[name] = rel
			}
		}
	}
	found := ""
	ast.Inspect(node, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || found != "" {
			return found == ""
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Obj != nil { // a local name, not a package
			return true
		}
		pkg, ok := names[id.Name]
		if !ok {
			return true
		}
		for _, d := range deny {
			if d == pkg || d == pkg+"."+sel.Sel.Name {
				found = pkg + "." + sel.Sel.Name
			}
		}
		return found == ""
	})
	return found
}
