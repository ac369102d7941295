package lesson

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// md and code build expected cells tersely.
func md(line int, lines ...string) Cell {
	return Cell{Kind: Markdown, Source: strings.Join(lines, "\n"), Line: line}
}

func code(line int, lines ...string) Cell {
	return Cell{Kind: Code, Source: strings.Join(lines, "\n"), Line: line}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		wantTitle string
		want      []Cell
	}{
		{
			name:      "go block becomes a code cell",
			src:       "# Title\n\nIntro text.\n\n```go\nx := 1\n\nfmt.Println(x)\n```\n\nAfter.\n",
			wantTitle: "Title",
			want: []Cell{
				md(1, "# Title", "", "Intro text."),
				code(5, "x := 1", "", "fmt.Println(x)"),
				md(11, "After."),
			},
		},
		{
			name:      "go noexec and other languages stay in markdown",
			src:       "# T\n\n```go noexec sketch\nfunc main() {}\n```\n\n```python\nprint(1)\n```\n\n```\nplain\n```\n",
			wantTitle: "T",
			want: []Cell{
				md(1, "# T", "", "```go noexec sketch", "func main() {}", "```", "", "```python", "print(1)", "```", "", "```", "plain", "```"),
			},
		},
		{
			name:      "Go with capital letter is not a code cell",
			src:       "# T\n```Go\nx\n```\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T", "```Go", "x", "```")},
		},
		{
			name:      "split before # and ## headings but not ###",
			src:       "# Title\nintro\n## One\none\n### Sub\nsub\n# Two\ntwo\n#nospace\n",
			wantTitle: "Title",
			want: []Cell{
				md(1, "# Title", "intro"),
				md(3, "## One", "one", "### Sub", "sub"),
				md(7, "# Two", "two", "#nospace"),
			},
		},
		{
			name:      "headings inside fences do not split",
			src:       "# T\n\n~~~markdown\n# not a heading\n## nor this\n~~~\n\n```go\n// # comment\n## x\n```\n",
			wantTitle: "T",
			want: []Cell{
				md(1, "# T", "", "~~~markdown", "# not a heading", "## nor this", "~~~"),
				code(8, "// # comment", "## x"),
			},
		},
		{
			name:      "nested fences: longer outer fence",
			src:       "# T\n````markdown\n```go\nx := 1\n```\n````\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T", "````markdown", "```go", "x := 1", "```", "````")},
		},
		{
			name:      "nested fences: tilde outer fence",
			src:       "# T\n~~~\n```go\nx := 1\n```\n~~~\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T", "~~~", "```go", "x := 1", "```", "~~~")},
		},
		{
			name:      "tilde go fence is a code cell and backticks inside are content",
			src:       "# T\n~~~go\ns := `\n```\n`\n~~~\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T"), code(2, "s := `", "```", "`")},
		},
		{
			name:      "closing fence may be longer, not shorter or another char",
			src:       "# T\n````go\n```\n~~~~\n`````\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T"), code(2, "```", "~~~~")},
		},
		{
			name:      "closing fence with text after it is content",
			src:       "# T\n```go\n``` x\n```\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T"), code(2, "``` x")},
		},
		{
			name:      "indented fence removes its indentation from content",
			src:       "# T\n  ```go\n  a\n    b\nc\n  ```\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T"), code(2, "a", "  b", "c")},
		},
		{
			name:      "code content is verbatim, blank lines and indentation kept",
			src:       "# T\n```go\n\n\tx := 1  \n\n```\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T"), code(2, "", "\tx := 1  ", "")},
		},
		{
			name:      "adjacent code cells, empty markdown dropped",
			src:       "# T\n```go\na\n```\n\n\n```go\nb\n```\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T"), code(2, "a"), code(7, "b")},
		},
		{
			name:      "CRLF is normalised",
			src:       "# T\r\n\r\ntext\r\n```go\r\nx := 1\r\n```\r\n",
			wantTitle: "T",
			want:      []Cell{md(1, "# T", "", "text"), code(4, "x := 1")},
		},
		{
			name:      "title need not be on the first line; text before it is a cell",
			src:       "<!-- note -->\n\n# The Title  \nbody\n",
			wantTitle: "The Title",
			want:      []Cell{md(1, "<!-- note -->"), md(3, "# The Title  ", "body")},
		},
		{
			name:      "byte order mark and missing final newline",
			src:       "\ufeff# T\n```go\nx\n```",
			wantTitle: "T",
			want:      []Cell{md(1, "# T"), code(2, "x")},
		},
		{
			name:      "non-ASCII text is kept",
			src:       "# Atención ≠ attention\n```go\ns := \"señal\"\n```\n",
			wantTitle: "Atención ≠ attention",
			want:      []Cell{md(1, "# Atención ≠ attention"), code(2, "s := \"señal\"")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Parse("lessons/01-test.md", []byte(tt.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if l.Title != tt.wantTitle {
				t.Errorf("Title = %q, want %q", l.Title, tt.wantTitle)
			}
			if !reflect.DeepEqual(l.Cells, tt.want) {
				t.Errorf("cells:\ngot  %s\nwant %s", dump(l.Cells), dump(tt.want))
			}
		})
	}
}

func dump(cells []Cell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString("\n  " + string(c.Kind) + "@" + strconv.Itoa(c.Line) + " " + strings.ReplaceAll(c.Source, "\n", "⏎"))
	}
	return b.String()
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		wantLine int
		wantMsg  string
	}{
		{"unclosed go fence", "# T\n\ntext\n```go\nx := 1\n", 4, "unclosed code fence ```"},
		{"unclosed markdown fence", "# T\n~~~~text\n~~~\n", 2, "unclosed code fence ~~~~"},
		{"closing fence of the other char", "# T\n```go\nx\n~~~\n", 2, "unclosed code fence ```"},
		{"missing title", "## Only a section\n\n```go\nx\n```\n", 0, "no title"},
		{"title only inside a fence", "```text\n# Not a title\n```\n", 0, "no title"},
		{"invalid UTF-8", "# T\nok\nbad \xff byte\n", 3, "invalid UTF-8"},
		{"claims after code", "# T\n\n```go\nx\n```\n<!-- claims\n\"1.5\" = 1.5\n-->\n", 6, "must follow the Markdown"},
		{"bad claim", "# T\n\nIt is 1.5.\n\n<!-- claims\n\"1.5\" ~\n-->\n", 5, "want the label"},
		{"fenced claims", "# T\n\nIt is 1.5.\n\n```claims\n\"1.5\" = 1.5\n```\n", 5, "claims go in an HTML comment"},
		{"unclosed claims", "# T\n\nIt is 1.5.\n\n<!-- claims\n\"1.5\" = 1.5\n", 5, "unclosed claims block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("lessons/02-bad.md", []byte(tt.src))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse error = %v, want *Error", err)
			}
			if e.Path != "lessons/02-bad.md" || e.Line != tt.wantLine || !strings.Contains(e.Msg, tt.wantMsg) {
				t.Errorf("error = %+v, want path lessons/02-bad.md, line %d, message containing %q", *e, tt.wantLine, tt.wantMsg)
			}
			if !strings.HasPrefix(err.Error(), "lessons/02-bad.md") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

// TestParseClaims: a claims block (an HTML comment) leaves the Markdown and joins the
// cell it follows, whose text goes on after it.
func TestParseClaims(t *testing.T) {
	l, err := Parse("lessons/01-x.md", []byte("# T\n\nIt took 3.8 s.\n\n<!-- claims\n# where it comes from\n\"3.8 s\" ~ /in ([\\d.]+) s/ ×2 on AVX2/4\n-->\n\nMore text.\n\n```go\nx\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := l.Cells[0]
	if c.Kind != Markdown || c.Source != "# T\n\nIt took 3.8 s.\n\n\nMore text." || len(c.Claims) != 1 || c.Claims[0].Text != "3.8 s" || c.Claims[0].Tol.Factor != 2 || c.Claims[0].On.Kernels != "AVX2" || c.Claims[0].On.Cores != 4 {
		t.Errorf("cell = %+v, want the Markdown without the block and its one claim", c)
	}
}

func TestErrorString(t *testing.T) {
	tests := []struct {
		err  Error
		want string
	}{
		{Error{Path: "lessons/a.md", Line: 7, Msg: "boom"}, "lessons/a.md:7: boom"},
		{Error{Path: "lessons/a.md", Msg: "boom"}, "lessons/a.md: boom"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestSlug(t *testing.T) {
	l, err := Parse("lessons/03-multi-head.md", []byte("# T\n"))
	if err != nil {
		t.Fatal(err)
	}
	if l.Slug != "03-multi-head" || l.Path != "lessons/03-multi-head.md" {
		t.Errorf("Slug, Path = %q, %q; want 03-multi-head, lessons/03-multi-head.md", l.Slug, l.Path)
	}
}

func TestParseFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "04-x.md")
	if err := os.WriteFile(p, []byte("# X\n```go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseFile(p)
	if want := filepath.ToSlash(p) + ":2: unclosed"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("ParseFile error = %v, want prefix %q", err, want)
	}
	if _, err := ParseFile(filepath.Join(dir, "missing.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ParseFile(missing) error = %v, want not exist", err)
	}
}

func TestInsertSetup(t *testing.T) {
	setup := Cell{Kind: Code, Source: SetupCell}
	tests := []struct {
		name string
		in   []Cell
		want []Cell
	}{
		{
			name: "after the title cell",
			in:   []Cell{md(1, "# T"), code(2, "x"), md(5, "## S")},
			want: []Cell{md(1, "# T"), setup, code(2, "x"), md(5, "## S")},
		},
		{
			name: "after the first markdown cell even if code comes first",
			in:   []Cell{code(1, "x"), md(4, "# T")},
			want: []Cell{code(1, "x"), md(4, "# T"), setup},
		},
		{
			name: "not again when the source has it",
			in:   []Cell{md(1, "# T"), code(2, "x"), code(5, SetupCell+"\n")},
			want: []Cell{md(1, "# T"), code(2, "x"), code(5, SetupCell+"\n")},
		},
		{
			name: "at the start when there is no markdown",
			in:   []Cell{code(1, "x")},
			want: []Cell{setup, code(1, "x")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &Lesson{Path: "lessons/t.md", Slug: "t", Title: "T", Cells: tt.in}
			before := dump(l.Cells)
			got, err := l.Apply(InsertSetup, InsertSetup)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Cells, tt.want) {
				t.Errorf("cells:\ngot  %s\nwant %s", dump(got.Cells), dump(tt.want))
			}
			if after := dump(l.Cells); after != before {
				t.Errorf("Apply modified the original lesson:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func TestSetupCellText(t *testing.T) {
	lines := strings.Split(SetupCell, "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "!*for d in ") || lines[1] != "%goworkfix" || lines[2] != "%noautoget" || lines[3] != `%goflags "-ldflags=-s"` || lines[4] != "%env GOEXPERIMENT simd" || lines[5] != "%env GODEBUG asyncpreemptoff=1" {
		t.Errorf("SetupCell = %q, want six lines: the !* bash loop, %%goworkfix, %%noautoget, %%goflags, %%env GOEXPERIMENT simd and %%env GODEBUG asyncpreemptoff=1", SetupCell)
	}
	if !strings.Contains(lines[0], `exec bash "$d/scripts/gonb-setup.sh" "$(cd "$d" && pwd)"`) {
		t.Errorf("SetupCell does not run scripts/gonb-setup.sh with the course root: %q", lines[0])
	}
}

func TestParseSetupCellInSource(t *testing.T) {
	src := "# T\n\n```go\n" + SetupCell + "\n```\n\n```go\nx\n```\n"
	l, err := Parse("lessons/t.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.Apply(InsertSetup)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range got.Cells {
		if IsSetup(c) {
			n++
		}
	}
	if n != 1 || !IsSetup(got.Cells[1]) {
		t.Errorf("setup cells = %d (second cell %q), want exactly 1, second", n, got.Cells[1].Source)
	}
}
