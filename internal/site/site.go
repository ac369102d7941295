// Package site builds the course's static HTML edition: every notebook
// executed headless by the runner (internal/runner) and reported as
// `course run` reports it, then rendered to HTML with its figures by
// nbconvert's lab template, each page with the lesson's title, a bar to
// the lessons before and after it and links between lessons that lead to
// pages, next to an index of the lessons with each one's first paragraph.
// The pages load MathJax and require.js from a copy of Debian's packages
// in the site's assets, so that it works offline. [Build] writes a site;
// `course site` is its command.
package site

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
	"github.com/attention-in-go/course/internal/runner"
	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Where Debian's packages put the scripts nbconvert's pages load; the site
// copies what it needs into its assets folder.
var (
	debianMathJax   = "/usr/share/javascript/mathjax"
	debianRequireJS = "/usr/share/javascript/requirejs/require.min.js"
)

// mathJaxFiles are the parts of MathJax 2.7 that typeset TeX with the
// CommonHTML output, as nbconvert configures it (TeX-AMS_CHTML-full,Safe):
// about 1.5 MB of the 54 MB package.
var mathJaxFiles = []string{
	"MathJax.js",
	"config/TeX-AMS_CHTML-full.js",
	"config/Safe.js",
	"extensions",
	"jax/input/TeX",
	"jax/output/CommonHTML",
	"jax/element/mml",
	"fonts/HTML-CSS/TeX/woff",
	"localization/en",
}

const (
	// mathJaxConfig is the configuration nbconvert's default CDN URL asks for.
	mathJaxConfig = "?config=TeX-AMS_CHTML-full,Safe"
	mathJaxCDN    = "https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.7/MathJax.js" + mathJaxConfig
	requireJSCDN  = "https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"
	siteName      = "Attention, in Go"
)

// siteTimeout bounds the conversion to HTML, which runs no code.
const siteTimeout = 5 * time.Minute

// ErrFailed is the error of a build in which a notebook failed: the
// report says which, and the site is not written.
var ErrFailed = errors.New("a notebook failed: site not written")

// Options configures [Build].
type Options struct {
	// Root is the course root, whose lessons/NN-slug.md give the index
	// its titles and first paragraphs.
	Root string
	// Out is the site's folder, replaced as a whole: [CheckDir] says
	// whether it may be.
	Out string
	// Notebooks are the notebooks to execute and render, in the order of
	// the lessons.
	Notebooks []string
	// Runner configures the runner that executes them.
	Runner runner.Options
	// Stdout gets the report of each notebook and of the site.
	Stdout io.Writer
	// Name returns how the reports name a notebook or folder.
	Name func(path string) string
}

// Build executes the notebooks of o, reporting each, and if none fails
// writes the site to o.Out, replacing what was there; otherwise it writes
// nothing and returns [ErrFailed].
func Build(ctx context.Context, o Options) error {
	start := time.Now()

	// 1. Execute, with run's runner and report.
	r, err := runner.New(ctx, o.Runner)
	if err != nil {
		return err
	}
	execDir, err := os.MkdirTemp("", "course-site-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(execDir)
	var pages []sitePage
	failed := 0
	for _, p := range o.Notebooks {
		res := r.Run(ctx, p, execDir)
		if !res.Report(o.Stdout, o.Name(p)) {
			failed++
		} else {
			page, err := newSitePage(o.Root, p, res.Notebook)
			if err != nil {
				return err
			}
			pages = append(pages, page)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if failed > 0 {
		fmt.Fprintf(o.Stdout, "%d of %d notebooks failed: site not written\n", failed, len(o.Notebooks))
		return ErrFailed
	}

	// 2. Render, into a new folder that then replaces out.
	out := o.Out
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(filepath.Dir(out), "."+filepath.Base(out)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if err := os.Chmod(stage, 0o755); err != nil {
		return err
	}
	offline, err := copyAssets(filepath.Join(stage, "assets"))
	if err != nil {
		return err
	}
	if err := renderPages(ctx, r, execDir, stage, pages, offline); err != nil {
		return err
	}
	if err := writeIndex(filepath.Join(stage, "index.html"), pages); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(stage, siteMarker), []byte(siteMarkerText), 0o644); err != nil {
		return err
	}
	if err := replaceDir(stage, out); err != nil {
		return err
	}
	lessons := "lessons"
	if len(pages) == 1 {
		lessons = "lesson"
	}
	fmt.Fprintf(o.Stdout, "site: %d %s in %s (%.1fs); open %s\n",
		len(pages), lessons, o.Name(out), time.Since(start).Seconds(), filepath.Join(out, "index.html"))
	if !offline {
		fmt.Fprintf(o.Stdout, "note: %s not found: pages load MathJax from a CDN, and formulas show as TeX source offline (apt-get install libjs-mathjax)\n", debianMathJax)
	}
	return nil
}

// siteMarker is a file in every folder site writes, which marks the folder
// as one that site may replace.
const (
	siteMarker     = ".course-site"
	siteMarkerText = "Built by `go run ./cmd/course site` (make site): the next build replaces this folder as a whole.\n"
)

// CheckDir returns an error unless the folder out may be replaced by a
// new site: it does not exist, is empty, or holds a site that Build
// wrote; and it is not the course root or above it.
func CheckDir(root, out string) error {
	if out == root || strings.HasPrefix(root, out+string(filepath.Separator)) {
		return errors.New("would replace the course")
	}
	entries, err := os.ReadDir(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case len(entries) == 0:
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, siteMarker)); err != nil {
		return fmt.Errorf("holds files that site did not write (no %s): choose another folder or remove it", siteMarker)
	}
	return nil
}

// sitePage is one lesson of the site.
type sitePage struct {
	slug    string // NN-slug: the notebook's name, and the page's
	title   string // the lesson's title
	summary string // the lesson's first paragraph, as HTML
	nb      *notebook.Notebook
}

// html is the page's file name.
func (p sitePage) html() string { return p.slug + ".html" }

// newSitePage describes the executed notebook nb of the notebook at path,
// from its lesson source if there is one, else from its first Markdown cell.
func newSitePage(root, path string, nb *notebook.Notebook) (sitePage, error) {
	page := sitePage{slug: strings.TrimSuffix(filepath.Base(path), ".ipynb"), nb: nb}
	var first string // the first Markdown cell
	if l, err := lesson.ParseFile(filepath.Join(root, "lessons", page.slug+".md")); err == nil {
		page.title = l.Title
		for _, c := range l.Cells {
			if c.Kind == lesson.Markdown {
				first = c.Source
				break
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return page, err
	} else {
		for _, c := range nb.Cells {
			if c.Type == notebook.Markdown {
				first = c.Source
				break
			}
		}
	}
	title, summary := intro(first)
	if page.title == "" {
		page.title = cmp.Or(title, page.slug)
	}
	page.summary = summary
	return page, nil
}

// copyAssets copies the scripts the pages load into dir: MathJax and
// require.js from Debian's packages. It reports whether both were found;
// if not, the pages use CDN URLs.
func copyAssets(dir string) (offline bool, err error) {
	if _, err := os.Stat(filepath.Join(debianMathJax, "MathJax.js")); err != nil {
		return false, nil
	}
	if _, err := os.Stat(debianRequireJS); err != nil {
		return false, nil
	}
	for _, rel := range mathJaxFiles {
		if err := copyTree(filepath.Join(debianMathJax, rel), filepath.Join(dir, "mathjax", rel)); err != nil {
			return false, err
		}
	}
	return true, copyTree(debianRequireJS, filepath.Join(dir, "require.min.js"))
}

// copyTree copies the file or folder from to to, following symbolic links
// (Debian links some of MathJax's files from other packages).
func copyTree(from, to string) error {
	info, err := os.Stat(from)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, en := range entries {
		if err := copyTree(filepath.Join(from, en.Name()), filepath.Join(to, en.Name())); err != nil {
			return err
		}
	}
	return nil
}

// renderPages converts the executed notebooks to HTML in out with one run
// of nbconvert, then fixes up each page: title, navigation between lessons,
// links to notebooks turned into links to pages.
func renderPages(ctx context.Context, r *runner.Runner, execDir, out string, pages []sitePage, offline bool) error {
	mathjax, requirejs := mathJaxCDN, requireJSCDN
	if offline {
		mathjax, requirejs = "assets/mathjax/MathJax.js"+mathJaxConfig, "assets/require.min.js"
	}
	args := []string{"--to", "html", "--template", "lab",
		"--HTMLExporter.mathjax_url=" + mathjax,
		"--HTMLExporter.require_js_url=" + requirejs,
		"--output-dir", out}
	if err := os.MkdirAll(filepath.Join(execDir, "site"), 0o755); err != nil {
		return err
	}
	for _, p := range pages {
		in := filepath.Join(execDir, "site", p.slug+".ipynb")
		if _, err := notebook.WriteFile(in, forSite(p.nb)); err != nil {
			return err
		}
		args = append(args, in)
	}
	ctx, cancel := context.WithTimeout(ctx, siteTimeout)
	defer cancel()
	if err := r.Convert(ctx, args...); err != nil {
		return fmt.Errorf("nbconvert --to html failed: %v", err)
	}
	for i, p := range pages {
		path := filepath.Join(out, p.html())
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("nbconvert did not write %s: %v", p.html(), err)
		}
		var prev, next *sitePage
		if i > 0 {
			prev = &pages[i-1]
		}
		if i+1 < len(pages) {
			next = &pages[i+1]
		}
		if err := os.WriteFile(path, fixPage(data, p, prev, next, pages), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// forSite returns nb as the site shows it: without its setup cell, which
// connects a kernel to the course and shows the path of the machine that
// built the site, and with the info strings of fenced blocks in Markdown
// cut to their first word. ("```go noexec" quotes code that is not run;
// Jupyter's Markdown renderer shows it as a Go block, nbconvert's breaks it
// into lines of inline code.)
func forSite(nb *notebook.Notebook) *notebook.Notebook {
	out := *nb
	out.Cells = nil
	for _, c := range nb.Cells {
		switch {
		case c.Type == notebook.Code && strings.TrimSpace(c.Source) == lesson.SetupCell:
			continue
		case c.Type == notebook.Markdown:
			c.Source = cutFenceInfo(c.Source)
		}
		out.Cells = append(out.Cells, c)
	}
	return &out
}

// navCSS styles the navigation bar added to the pages.
const navCSS = `<style type="text/css">
nav.course-nav { font-family: system-ui, sans-serif; font-size: 14px; padding: 8px 16px;
  border-bottom: 1px solid #ddd; display: flex; justify-content: space-between; gap: 1em; }
nav.course-nav a { color: #1565c0; text-decoration: none; }
nav.course-nav a:hover { text-decoration: underline; }
</style>
`

// fixPage sets the title of a page rendered by nbconvert, adds the
// navigation bar and turns links to the course's notebooks into links to
// their pages. The page is read as HTML tokens and copied byte for byte
// but for those changes.
func fixPage(data []byte, p sitePage, prev, next *sitePage, pages []sitePage) []byte {
	known := make(map[string]bool)
	for _, q := range pages {
		known[q.slug] = true
	}
	nav := `<nav class="course-nav"><span>` + navLink(prev, "← ") + `</span><a href="index.html">` +
		html.EscapeString(siteName) + `: contents</a><span>` + navLink(next, "→ ") + "</span></nav>\n"
	var out bytes.Buffer
	out.Grow(len(data) + len(navCSS) + len(nav))
	z := nethtml.NewTokenizer(bytes.NewReader(data))
	inTitle := false                              // inside the first <title>, whose text is replaced
	titled, styled, navved := false, false, false // each change is made once
	for {
		tt := z.Next()
		raw := z.Raw()
		if tt == nethtml.StartTagToken || tt == nethtml.EndTagToken {
			// TagName and TagAttr lower-case and unescape in place, in
			// the buffer Raw shares: the tag is copied as it was.
			raw = bytes.Clone(raw)
		}
		switch tt {
		case nethtml.ErrorToken:
			out.Write(raw) // what is left at the end, if anything
			return out.Bytes()
		case nethtml.TextToken:
			if inTitle {
				continue
			}
		case nethtml.StartTagToken:
			name, hasAttr := z.TagName()
			switch atom.Lookup(name) {
			case atom.Title:
				if !titled {
					titled, inTitle = true, true
					out.Write(raw)
					out.WriteString(html.EscapeString(p.title + " — " + siteName))
					continue
				}
			case atom.Body:
				if !navved {
					navved = true
					out.Write(raw)
					out.WriteString("\n" + nav)
					continue
				}
			case atom.A:
				if tag, ok := linkToPage(z, hasAttr, known); ok {
					out.WriteString(tag)
					continue
				}
			}
		case nethtml.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Title:
				inTitle = false
			case atom.Head:
				if !styled {
					styled = true
					out.WriteString(navCSS)
				}
			}
		}
		out.Write(raw)
	}
}

// linkToPage returns the <a> start tag the tokenizer z is at, with the
// attributes TagName left, as it should be in the site, if it must change:
// a link to a notebook of pages, "01-x.ipynb#part", becomes a link to its
// page, "01-x.html#part".
func linkToPage(z *nethtml.Tokenizer, hasAttr bool, known map[string]bool) (string, bool) {
	tok := nethtml.Token{Type: nethtml.StartTagToken, DataAtom: atom.A, Data: "a"}
	changed := false
	for hasAttr {
		var key, val []byte
		key, val, hasAttr = z.TagAttr()
		a := nethtml.Attribute{Key: string(key), Val: string(val)}
		if a.Key == "href" {
			if href, ok := pageOf(a.Val, known); ok {
				a.Val, changed = href, true
			}
		}
		tok.Attr = append(tok.Attr, a)
	}
	return tok.String(), changed
}

// pageOf returns the link to the page of the notebook href links to, if
// it is a lesson notebook the site has a page for (one of known's, in the
// same folder or in notebooks/). A link to an exercise or a solution
// notebook, which has the lesson's name in another folder, stays as it is.
func pageOf(href string, known map[string]bool) (string, bool) {
	path, fragment, hasFragment := strings.Cut(href, "#")
	dir, file := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, file = path[:i+1], path[i+1:]
	}
	slug, ok := strings.CutSuffix(file, ".ipynb")
	switch strings.TrimPrefix(dir, "./") {
	case "", "notebooks/", "../notebooks/":
	default:
		return "", false
	}
	if !ok || !known[slug] {
		return "", false
	}
	if hasFragment {
		return slug + ".html#" + fragment, true
	}
	return slug + ".html", true
}

// navLink returns a link to p, or nothing if p is nil.
func navLink(p *sitePage, arrow string) string {
	if p == nil {
		return ""
	}
	return `<a href="` + p.html() + `">` + arrow + html.EscapeString(p.title) + "</a>"
}

// writeIndex writes the site's index page: the lessons in order, each with
// its first paragraph.
func writeIndex(path string, pages []sitePage) error {
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>` + siteName + `</title>
<style type="text/css">
body { font-family: system-ui, sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; line-height: 1.5; color: #222; }
h1 { margin-bottom: 0.2em; }
.lead { color: #555; margin-top: 0; }
ol.lessons { list-style: none; padding-left: 0; }
ol.lessons li { margin: 1.2em 0; }
ol.lessons a { font-size: 1.15em; font-weight: 600; color: #1565c0; text-decoration: none; }
ol.lessons a:hover { text-decoration: underline; }
ol.lessons p { margin: 0.3em 0 0; }
code { font-size: 0.92em; background: #f3f3f3; padding: 0 0.2em; border-radius: 3px; }
footer { margin-top: 3em; color: #777; font-size: 0.9em; }
</style>
</head>
<body>
<h1>` + siteName + `</h1>
<p class="lead">A course on attention and Transformers, in Go. Every lesson as it runs in
Jupyter with the GoNB kernel, executed, with its figures.</p>
<ol class="lessons">
`)
	for _, p := range pages {
		fmt.Fprintf(&b, "<li><a href=\"%s\">%s</a>\n<p>%s</p></li>\n", p.html(), html.EscapeString(p.title), p.summary)
	}
	b.WriteString(`</ol>
<footer>Built with <code>make site</code>. To run the lessons yourself, clone the course and run
<code>make course</code>.</footer>
</body>
</html>
`)
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// replaceDir replaces the folder to with the folder from (on the same file
// system), removing the old to.
func replaceDir(from, to string) error {
	old := to + ".old"
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if err := os.Rename(to, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Rename(from, to); err != nil {
		return err
	}
	return os.RemoveAll(old)
}
