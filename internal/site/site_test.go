package site

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
	"github.com/attention-in-go/course/internal/runner"
	"github.com/attention-in-go/course/internal/runner/runnertest"
)

func TestIntro(t *testing.T) {
	tests := []struct{ md, title, summary string }{
		{"# Lesson 1 — Title\n\nFirst line,\nsecond line.\n\nNext paragraph.", "Lesson 1 — Title", "First line, second line."},
		{"# T\n\n## Section\n\nText.", "T", "Text."},
		{"Just text\nhere.\n\nMore.", "", "Just text here."},
		{"# Only a title", "Only a title", ""},
		{"Text first.\n\n# Not the title", "", "Text first."},
		// The paragraph's inline Markdown, as CommonMark reads it.
		{"A **query** and a *key*.", "", "A <strong>query</strong> and a <em>key</em>."},
		{"The `lib/` folder, `a*b*c` and `<x>`.", "", "The <code>lib/</code> folder, <code>a*b*c</code> and <code>&lt;x&gt;</code>."},
		{"See [the paper](https://arxiv.org/abs/1706.03762) & more.", "", `See <a href="https://arxiv.org/abs/1706.03762">the paper</a> &amp; more.`},
		{"snake_case_name stays; _this_ is emphasised", "", "snake_case_name stays; <em>this</em> is emphasised"},
		{"2 * 3 * 4 is not italic", "", "2 * 3 * 4 is not italic"},
		{"# T\n\n- a list\n\nThe paragraph after it.", "T", "The paragraph after it."},
	}
	for _, tt := range tests {
		title, summary := intro(tt.md)
		if title != tt.title || summary != tt.summary {
			t.Errorf("intro(%q) = %q, %q; want %q, %q", tt.md, title, summary, tt.title, tt.summary)
		}
	}
}

func TestCutFenceInfo(t *testing.T) {
	tests := []struct{ md, want string }{
		{"```go noexec quote=lib/a.go\nx\n```\n", "```go\nx\n```\n"},
		{"~~~~text  more words \ny\n~~~~", "~~~~text\ny\n~~~~"},
		{"```go\nz\n```", "```go\nz\n```"},
		{"- item\n\n  ```go sketch\n  a\n  ```\n", "- item\n\n  ```go\n  a\n  ```\n"},
		// A fence shown inside a block is the block's text, not a fence.
		{"~~~~markdown\n```go noexec\n~~~~\n", "~~~~markdown\n```go noexec\n~~~~\n"},
		{"Inline ```go noexec``` is code.", "Inline ```go noexec``` is code."},
	}
	for _, tt := range tests {
		if got := cutFenceInfo(tt.md); got != tt.want {
			t.Errorf("cutFenceInfo(%q) = %q, want %q", tt.md, got, tt.want)
		}
	}
}

func TestForSite(t *testing.T) {
	nb := &notebook.Notebook{Cells: []notebook.Cell{
		{ID: "a", Type: notebook.Markdown, Source: "# Title"},
		{ID: "b", Type: notebook.Code, Source: lesson.SetupCell + "\n"},
		{ID: "c", Type: notebook.Markdown, Source: "Quoted:\n\n```go noexec\nx := 1\n```\n\n~~~~text  more words\ny\n~~~~\n\n```go\nz\n```"},
		{ID: "d", Type: notebook.Code, Source: "%%\nfmt.Println(1)"},
	}}
	got := forSite(nb)
	var ids []string
	for _, c := range got.Cells {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "a,c,d" {
		t.Errorf("cells %v, want a,c,d (no setup cell)", ids)
	}
	want := "Quoted:\n\n```go\nx := 1\n```\n\n~~~~text\ny\n~~~~\n\n```go\nz\n```"
	if md := got.Cells[1].Source; md != want {
		t.Errorf("fences not cut to their first word:\n%s\nwant\n%s", md, want)
	}
	if len(nb.Cells) != 4 || !strings.Contains(nb.Cells[2].Source, "go noexec") {
		t.Error("forSite changed its argument")
	}
}

func TestFixPage(t *testing.T) {
	pages := []sitePage{
		{slug: "01-a", title: "Lesson A"},
		{slug: "02-b", title: "Lesson <B>"},
		{slug: "03-c", title: "Lesson C"},
	}
	in := `<html><head><title>02-b</title><script>var s = "</head><body>";</script></head><body class="jp-Notebook" data-x="1">
<a href="01-a.ipynb">one</a> <a href="../notebooks/03-c.ipynb#part">three</a> <a href="99-z.ipynb">none</a>
<a class="x" href='01-a.ipynb' title="&lt;1&gt;">quoted</a> <link href="01-a.ipynb">
<a href="#Add-&amp;-Norm">¶</a> <svg viewBox="0 0 1 1"><clipPath id="c"></clipPath></svg> <A HREF="02-b.ipynb">upper</A>
</body></html>`
	out := string(fixPage([]byte(in), pages[1], &pages[0], &pages[2], pages))
	if n := strings.Count(out, "<nav "); n != 1 {
		t.Errorf("%d navigation bars, want 1:\n%s", n, out)
	}
	if !strings.Contains(out, `<script>var s = "</head><body>";</script>`+navCSS+`</head>`) {
		t.Errorf("the script's text changed, or the style is not before the head's end:\n%s", out)
	}
	for _, want := range []string{
		"<title>Lesson &lt;B&gt; — Attention, in Go</title>",
		`<body class="jp-Notebook" data-x="1">` + "\n" + `<nav class="course-nav">`,
		`<a href="01-a.html">← Lesson A</a>`,
		`<a href="index.html">Attention, in Go: contents</a>`,
		`<a href="03-c.html">→ Lesson C</a>`,
		`<a href="01-a.html">one</a>`,
		`<a href="03-c.html#part">three</a>`,
		`<a href="99-z.ipynb">none</a>`,
		`<a class="x" href="01-a.html" title="&lt;1&gt;">quoted</a>`,
		`<link href="01-a.ipynb">`,
		// Tags left as they are stay byte for byte what nbconvert wrote.
		`<a href="#Add-&amp;-Norm">¶</a> <svg viewBox="0 0 1 1"><clipPath id="c"></clipPath></svg> <a href="02-b.html">upper</A>`,
		"nav.course-nav {",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q:\n%s", want, out)
		}
	}
}

// TestSite builds the site of a small course through Jupyter and GoNB.
func TestSite(t *testing.T) {
	runnertest.RequireJupyter(t)
	root := t.TempDir()
	for name, src := range map[string]string{
		"01-a.md": "# Lesson A\n\nThe **first** lesson, with `code`.\n\nMore.\n",
		"02-b.md": "# Lesson B\n\nThe second.\n",
	} {
		writeFile(t, filepath.Join(root, "lessons", name), src)
	}
	nbDir := filepath.Join(root, "notebooks")
	if err := os.MkdirAll(nbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	runnertest.WriteNotebook(t, nbDir, "01-a", "# Lesson A\n\nThe **first** lesson, with `code`.\n\nFormula $x^2$.\n\n```go\n%%\nfmt.Println(\"printed by a\")\n```\n")
	runnertest.WriteNotebook(t, nbDir, "02-b", "# Lesson B\n\nBack to [lesson A](01-a.ipynb).\n\n```go\n%%\nfmt.Println(\"printed by b\")\n```\n")

	out := filepath.Join(root, "build", "s")
	buildSite := func() (string, error) {
		notebooks, _ := filepath.Glob(filepath.Join(nbDir, "*.ipynb"))
		var stdout bytes.Buffer
		err := Build(context.Background(), Options{Root: root, Out: out, Notebooks: notebooks,
			Runner: runner.Options{Timeout: 10 * time.Minute}, Stdout: &stdout,
			Name: func(p string) string { return courseroot.Rel(root, p) }})
		return stdout.String(), err
	}
	stdout, err := buildSite()
	if err != nil {
		t.Fatalf("Build: %v\nstdout: %s", err, stdout)
	}
	runnertest.CheckLines(t, stdout, []string{
		`ok   notebooks/01-a\.ipynb  \d+\.\ds  1 cells  0 images`,
		`ok   notebooks/02-b\.ipynb  \d+\.\ds  1 cells  0 images`,
		`site: 2 lessons in build/s \(\d+\.\ds\); open .*index\.html`,
	})
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	index := read("index.html")
	a, b := strings.Index(index, `<a href="01-a.html">Lesson A</a>`), strings.Index(index, `<a href="02-b.html">Lesson B</a>`)
	if a < 0 || b < a {
		t.Errorf("index does not list the lessons in order:\n%s", index)
	}
	if !strings.Contains(index, "<p>The <strong>first</strong> lesson, with <code>code</code>.</p>") {
		t.Errorf("index lacks lesson A's first paragraph:\n%s", index)
	}
	pageA, pageB := read("01-a.html"), read("02-b.html")
	for _, want := range []string{"printed by a", "<title>Lesson A — Attention, in Go</title>", `<a href="02-b.html">→ Lesson B</a>`} {
		if !strings.Contains(pageA, want) {
			t.Errorf("01-a.html lacks %q", want)
		}
	}
	if !strings.Contains(pageB, `<a href="01-a.html">lesson A</a>`) {
		t.Error("02-b.html still links to the notebook 01-a.ipynb")
	}
	if _, err := os.Stat(filepath.Join(debianMathJax, "MathJax.js")); err == nil {
		for _, asset := range []string{"assets/mathjax/MathJax.js", "assets/mathjax/config/TeX-AMS_CHTML-full.js", "assets/require.min.js"} {
			if _, err := os.Stat(filepath.Join(out, asset)); err != nil {
				t.Errorf("missing %s: %v", asset, err)
			}
		}
		if !strings.Contains(pageA, `src="assets/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe"`) || strings.Contains(pageA, "cdnjs") {
			t.Error("01-a.html does not load the site's own MathJax and require.js")
		}
	}

	// A failing notebook: nothing is written, the old site stays.
	runnertest.WriteNotebook(t, nbDir, "03-c", "# Lesson C\n\n```go\n%%\npanic(\"boom\")\n```\n")
	stdout, err = buildSite()
	if !errors.Is(err, ErrFailed) || !strings.Contains(stdout, "1 of 3 notebooks failed: site not written") {
		t.Errorf("Build with a failing notebook: %v, stdout:\n%s", err, stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "03-c.html")); err == nil {
		t.Error("03-c.html written although its notebook failed")
	}
	if read("01-a.html") != pageA {
		t.Error("the previous site changed")
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPageOf: a link to a lesson notebook becomes a link to its page; a
// link to the exercise or solution notebook of the same name does not.
func TestPageOf(t *testing.T) {
	known := map[string]bool{"01-x": true, "A-masks": true}
	for href, want := range map[string]string{
		"01-x.ipynb":                     "01-x.html",
		"01-x.ipynb#part-2":              "01-x.html#part-2",
		"./01-x.ipynb":                   "01-x.html",
		"../notebooks/01-x.ipynb":        "01-x.html",
		"A-masks.ipynb":                  "A-masks.html", // the appendix too
		"../exercises/01-x.ipynb":        "",
		"../solutions/01-x.ipynb#top":    "",
		"02-y.ipynb":                     "", // no such page
		"01-x.md":                        "",
		"https://example.org/01-x.ipynb": "",
	} {
		got, ok := pageOf(href, known)
		if (want != "") != ok || got != want {
			t.Errorf("pageOf(%q) = %q, %v; want %q", href, got, ok, want)
		}
	}
}
