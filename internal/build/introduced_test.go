package build

// The library's doc comments say which lesson introduces each exported
// symbol ("Introduced in lesson 04."): TestIntroducedInLesson holds them to
// the lessons, next to TestCellsCheckErrors, which reads the library and
// the lessons too.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/courseroot"
)

// introducedRE finds where a doc comment says a symbol is introduced:
// "Introduced in lesson 04 (…)", "Introduced in lesson 8.", "Introduced in
// lesson 01's exercises.", "…, exercise notebook." or "Introduced in the
// appendix". Group 1 is the lesson's number, empty for the appendix; group
// 2 is the rest of the sentence, which says whether the exercise notebook
// is meant.
var introducedRE = regexp.MustCompile(`Introduced in (?:lesson (\d+)|the appendix)([^.]*)`)

// exercisesRE matches the rest of an introducedRE sentence that means the
// lesson's exercise notebook.
var exercisesRE = regexp.MustCompile(`^(?:'s exercises|(?: \([^)]*\))?, exercise notebook)`)

// introduction is what one doc comment says: symbol (as a lesson would
// write it) is introduced in lesson (e.g. "04" or "A"), in its exercise
// notebook when exercises is set.
type introduction struct {
	pos    string // file:line of the declaration
	pkg    string // the package's import path below the course, e.g. lib/attention
	name   string // the package's name, e.g. attention
	recv   string // a method's receiver type, e.g. ScaledDotProductBuilder
	symbol string // the declared name, e.g. Steps; "" for the package's doc
	isType bool
	// group are the names declared under the same doc comment, such as a
	// const block's: one of them mentioned introduces them all.
	group []string
	// uses are, for a function or method, the identifiers of its
	// signature (the types it takes and returns).
	uses      map[string]bool
	lesson    string // "01" … or "A"
	exercises bool
}

func (in introduction) String() string {
	what := "package " + in.pkg
	switch {
	case in.recv != "":
		what = in.name + "." + in.recv + "." + in.symbol
	case in.symbol != "":
		what = in.name + "." + in.symbol
	}
	where := "lesson " + in.lesson
	if in.exercises {
		where += "'s exercises"
	}
	return fmt.Sprintf("%s: %s, introduced in %s", in.pos, what, where)
}

// introductions returns what the doc comments of lib's non-test Go files
// say about where their exported symbols and packages are introduced.
func introductions(t *testing.T, root string) []introduction {
	t.Helper()
	var out []introduction
	fset := token.NewFileSet()
	err := parseLibrary(root, fset, parser.ParseComments, func(rel string, f *ast.File) error {
		base := introduction{pkg: path.Dir(rel), name: f.Name.Name}
		add := func(doc *ast.CommentGroup, pos token.Pos, recv, symbol string, sig *ast.FuncType) bool {
			if doc == nil {
				return false
			}
			m := introducedRE.FindStringSubmatch(doc.Text())
			if m == nil {
				return false
			}
			in := base
			in.pos = fmt.Sprintf("%s:%d", rel, fset.Position(pos).Line)
			in.recv, in.symbol = recv, symbol
			if sig != nil {
				in.uses = map[string]bool{}
				ast.Inspect(sig, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						in.uses[id.Name] = true
					}
					return true
				})
			}
			in.lesson = "A"
			if m[1] != "" {
				in.lesson = fmt.Sprintf("%02s", m[1])
			}
			in.exercises = exercisesRE.MatchString(m[2])
			out = append(out, in)
			return true
		}
		add(f.Doc, f.Package, "", "", nil)
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if !decl.Name.IsExported() {
					continue
				}
				recv := ""
				if decl.Recv != nil {
					recv = receiverType(decl.Recv.List[0].Type)
					if !ast.IsExported(recv) {
						continue
					}
				}
				add(decl.Doc, decl.Pos(), recv, decl.Name.Name, decl.Type)
			case *ast.GenDecl:
				var group []string
				for _, spec := range decl.Specs {
					if vs, ok := spec.(*ast.ValueSpec); ok && vs.Doc == nil {
						for _, n := range vs.Names {
							group = append(group, n.Name)
						}
					}
				}
				for _, spec := range decl.Specs {
					doc := decl.Doc
					var names []*ast.Ident
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						names = []*ast.Ident{spec.Name}
						if spec.Doc != nil {
							doc = spec.Doc
						}
					case *ast.ValueSpec:
						names = spec.Names
						if spec.Doc != nil {
							doc = spec.Doc
						}
					}
					for _, n := range names {
						if n.IsExported() && add(doc, n.Pos(), "", n.Name, nil) {
							in := &out[len(out)-1]
							_, in.isType = spec.(*ast.TypeSpec)
							if doc == decl.Doc && len(group) > 1 {
								in.group = group
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// receiverType returns the name of a method's receiver type: T for T, *T,
// T[P] and *T[P].
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// mentionsAny reports whether the text mentions in by the rule of
// TestIntroducedInLesson.
func mentionsAny(text string, in introduction, all []introduction) bool {
	if in.isType {
		return mentionsType(text, in, all)
	}
	for _, name := range in.group {
		other := in
		other.symbol = name
		if mentions(text, other) {
			return true
		}
	}
	return mentions(text, in)
}

// firstMention says which lesson sources mention in, for the message of a
// symbol whose lesson does not.
func firstMention(t *testing.T, root string, in introduction, all []introduction) string {
	var found []string
	for _, dir := range []string{"lessons", "lessons/exercises"} {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.md"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if mentionsAny(string(data), in, all) {
				found = append(found, dir+"/"+filepath.Base(f))
			}
		}
	}
	if len(found) == 0 {
		return "no lesson mentions it"
	}
	return "mentioned in " + strings.Join(found, ", ")
}

// mentionsType reports whether the text mentions type in, by name or
// through a function or method of its package among all whose signature
// uses it.
func mentionsType(text string, in introduction, all []introduction) bool {
	if mentions(text, in) {
		return true
	}
	for _, f := range all {
		if f.pkg == in.pkg && f.uses[in.symbol] && mentions(text, f) {
			return true
		}
	}
	return false
}

// mentions reports whether a lesson's text mentions the introduced symbol
// by name (see TestIntroducedInLesson for the rule).
func mentions(text string, in introduction) bool {
	word := func(s string) bool { // s, not inside a longer identifier
		re := regexp.MustCompile(`(^|[^\pL\pN_.])` + regexp.QuoteMeta(s) + `($|[^\pL\pN_])`)
		return re.MatchString(text)
	}
	switch {
	case in.symbol == "":
		return strings.Contains(text, in.pkg+`"`) || strings.Contains(text, in.pkg+"`")
	case in.recv != "":
		return word(in.name+"."+in.recv) && strings.Contains(text, "."+in.symbol+"(") ||
			word(in.recv+"."+in.symbol) || word(in.name+"."+in.recv+"."+in.symbol)
	default:
		return word(in.name+"."+in.symbol) || strings.Contains(text, "`"+in.symbol+"`")
	}
}

// lessonText returns the text of lesson n's source in dir (lessons or
// lessons/exercises), or "" with a message if there is not exactly one.
func lessonText(dir, n string) (string, string) {
	files, _ := filepath.Glob(filepath.Join(dir, n+"-*.md"))
	if len(files) != 1 {
		return "", fmt.Sprintf("want one source %s/%s-*.md, found %d", filepath.Base(dir), n, len(files))
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return "", err.Error()
	}
	return string(data), ""
}

// TestIntroducedInLesson holds the library's doc comments to the lessons:
// every exported symbol (and package) whose doc says "Introduced in lesson
// NN" — or "in the appendix", lesson A — must appear in that lesson's
// source lessons/NN-*.md, or in lessons/exercises/NN-*.md when the doc
// says the exercises ("lesson 01's exercises", "exercise notebook").
//
// A symbol appears when the source has
//
//   - a function, type, variable or constant's qualified name as a whole
//     identifier (attention.Scaled, not attention.ScaledDotProduct), or its
//     bare name in inline code (`Scaled`);
//   - a method as Type.Method (ScaledDotProductBuilder.Steps, with or
//     without the package), or called (.Steps() in a source that names
//     its type, attention.ScaledDotProductBuilder);
//   - a package as its import path (lib/attention") or in inline code
//     (`lib/attention`);
//   - a constant or variable also through another name declared under
//     the same doc comment (a const block is introduced as a whole);
//   - a type also through any function or method of its package whose
//     signature takes or returns it, when the source mentions that one:
//     a cell that calls transformer.EncoderLayer(x, heads, p) uses
//     EncoderLayerParams and EncoderLayerBuilder without naming them.
//
// Qualified names are how cells use the library, so they are the mention
// that counts; the bare name is accepted only in code font, which is how
// the prose names a symbol (it cannot tell two packages' `Pad` apart).
// The rule does not check that the mention is the first one, nor that
// later lessons do not use the symbol too.
func TestIntroducedInLesson(t *testing.T) {
	root, err := courseroot.Find(".")
	if err != nil {
		t.Fatal(err)
	}
	ins := introductions(t, root)
	if len(ins) < 200 {
		t.Fatalf("found %d introductions in lib/, want the library's ~300: is the pattern %s still what the doc comments say?", len(ins), introducedRE)
	}
	sort.Slice(ins, func(i, j int) bool { return ins[i].pos < ins[j].pos })
	for _, in := range ins {
		dir := filepath.Join(root, "lessons")
		if in.exercises {
			dir = filepath.Join(dir, "exercises")
		}
		text, msg := lessonText(dir, in.lesson)
		switch {
		case msg != "":
			t.Errorf("%s: %s", in, msg)
		case !mentionsAny(text, in, ins):
			t.Errorf("%s, which does not mention it (%s): correct the doc comment's lesson, or name the symbol in the lesson",
				in, firstMention(t, root, in, ins))
		}
	}
}

// TestMentions checks the matching rule of TestIntroducedInLesson.
func TestMentions(t *testing.T) {
	fn := introduction{pkg: "lib/attention", name: "attention", symbol: "Scaled"}
	method := introduction{pkg: "lib/attention", name: "attention", recv: "Builder", symbol: "Steps"}
	pkg := introduction{pkg: "lib/attention", name: "attention"}
	tests := []struct {
		in   introduction
		text string
		want bool
	}{
		{fn, "x := attention.Scaled(q, k, v)", true},
		{fn, "x := attention.ScaledDotProduct(q, k, v)", false},
		{fn, "See `Scaled` in lib/attention.", true},
		{fn, "Scaled attention, in prose", false},
		{fn, "x := myattention.Scaled(q)", false},
		{method, "b := attention.Builder{}\ns := b.Steps()", true},
		{method, "s := b.Steps()", false},
		{method, "the heart of `Builder.Steps`", true},
		{method, "attention.Builder.Steps", true},
		{method, "`Builder.StepsAll`", false},
		{pkg, "import \"github.com/x/course/lib/attention\"", true},
		{pkg, "in `lib/attention`", true},
		{pkg, "import \"github.com/x/course/lib/attention/internal\"", false},
	}
	for _, tt := range tests {
		if got := mentions(tt.text, tt.in); got != tt.want {
			t.Errorf("mentions(%q, %s) = %v, want %v", tt.text, tt.in, got, tt.want)
		}
	}
}
