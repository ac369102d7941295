package runner

import (
	"regexp"
	"strings"

	"github.com/attention-in-go/course/internal/notebook"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Failure is a failed cell of an executed notebook.
type Failure struct {
	// Cell is the 1-based number of the cell among the code cells, which is
	// the n Jupyter shows as "In [n]" after running all cells in order.
	Cell int
	// Index is the 0-based index of the cell among all cells.
	Index int
	// Source is the cell's source.
	Source string
	// Text is the error as the cell reported it, without ANSI escape codes or
	// HTML: the stderr output (a panic with its stack, "exit status 3", …),
	// GoNB's compile errors, or else the error output's traceback.
	Text string
	// Retry marks a claim of the text that a run alone might satisfy
	// where this one, which shared the machine, did not: a timing that
	// missed only the shared bound, or a printed figure (which may be a
	// ratio of two timings the others' load skewed).
	Retry bool
}

// FirstLine returns the first line of the failed cell's source that says
// something, skipping blank lines and GoNB's bare "%%" marker.
func (f Failure) FirstLine() string {
	for line := range strings.Lines(f.Source) {
		line = strings.TrimSpace(line)
		if line != "" && line != "%%" {
			return line
		}
	}
	return ""
}

// stderrFailure matches stderr output that means the cell failed even
// without an error output: a Go panic or fatal runtime error, a non-zero
// exit status, or GoNB's marker of a location in a cell.
var stderrFailure = regexp.MustCompile(`panic:|fatal error:|exit status [1-9]|\[\[ Cell`)

// Failures returns the failed cells of an executed notebook, in order. A
// code cell fails if it has an error output or if its stderr shows a panic,
// a fatal error, a non-zero exit status or a GoNB cell location marker.
func Failures(nb *notebook.Notebook) []Failure {
	var failures []Failure
	n := 0
	for i, c := range nb.Cells {
		if c.Type != notebook.Code {
			continue
		}
		n++
		if failed(c) {
			failures = append(failures, Failure{Cell: n, Index: i, Source: c.Source, Text: errorText(c)})
		}
	}
	return failures
}

func failed(c notebook.Cell) bool {
	for _, o := range c.Outputs {
		if o.Type == notebook.ErrorOutput {
			return true
		}
		if o.Type == notebook.Stream && o.Name == "stderr" && stderrFailure.MatchString(stripANSI(o.Text)) {
			return true
		}
	}
	return false
}

// errorText gathers what a failed cell says about its error: its stderr,
// then GoNB's error HTML unless it only repeats the stderr (GoNB renders the
// stderr lines that point into cells as HTML too), and the error outputs'
// tracebacks only when there is nothing else.
func errorText(c notebook.Cell) string {
	var stderr, gonb, tracebacks []string
	for _, o := range c.Outputs {
		switch {
		case o.Type == notebook.Stream && o.Name == "stderr":
			stderr = append(stderr, stripANSI(o.Text))
		case o.Type == notebook.DisplayData || o.Type == notebook.ExecuteResult:
			if h := o.Data["text/html"]; isGoNBError(h) {
				gonb = append(gonb, htmlText(h))
			}
		case o.Type == notebook.ErrorOutput:
			tracebacks = append(tracebacks, tracebackText(o))
		}
	}
	parts := stderr
	if all := strings.Join(stderr, ""); !strings.Contains(all, "[[ Cell") {
		parts = append(parts, gonb...)
	}
	if strings.TrimSpace(strings.Join(parts, "")) == "" {
		parts = tracebacks
	}
	var kept []string
	for _, p := range parts {
		if p = strings.Trim(p, "\n"); strings.TrimSpace(p) != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n")
}

func tracebackText(o notebook.Output) string {
	if len(o.Traceback) > 0 {
		return stripANSI(strings.Join(o.Traceback, "\n"))
	}
	if o.EName != "" && o.EValue != "" {
		return o.EName + ": " + o.EValue
	}
	return o.EName + o.EValue
}

// isGoNBError reports whether an HTML output is GoNB's rendering of an
// error (compile errors, or stderr pointing into cells).
func isGoNBError(h string) bool {
	return strings.Contains(h, "gonb-err") || strings.Contains(h, "application/vnd.jupyter.stderr")
}

// ansiEscape matches ANSI escape sequences (colours, cursor movement).
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]`)

// stripANSI removes ANSI escape sequences from s.
func stripANSI(s string) string {
	return ansiEscape.ReplaceAllString(s, "")
}

// Images returns the number of image outputs in nb: display_data and
// execute_result outputs with image/png, image/jpeg or image/svg+xml data,
// or HTML containing an <img> or an <svg> (GoNB's DisplaySVG sends SVG as
// HTML).
func Images(nb *notebook.Notebook) int {
	n := 0
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if isImage(o) {
				n++
			}
		}
	}
	return n
}

// isImage reports whether o displays an image; see [Images].
func isImage(o notebook.Output) bool {
	if o.Type != notebook.DisplayData && o.Type != notebook.ExecuteResult {
		return false
	}
	for _, mime := range []string{"image/png", "image/jpeg", "image/svg+xml"} {
		if _, ok := o.Data[mime]; ok {
			return true
		}
	}
	h := strings.ToLower(o.Data["text/html"])
	return strings.Contains(h, "<img") || strings.Contains(h, "<svg")
}

// htmlText returns the plain text of an HTML fragment: tags are removed,
// block elements and <br> become line breaks, entities are decoded, and
// <style> and <script> elements are dropped, as are GoNB's hidden
// "gonb-err-context" blocks (the source around an error, shown on hover).
// Lines are trimmed; blank lines and the "# gonb_…" header of go build
// errors in GoNB's temporary package are dropped.
func htmlText(h string) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(h))
	var stack []bool // per open element: whether its content is dropped
	skipDepth := 0   // > 0 while inside an element whose content is dropped
	raw := false     // inside <style> or <script>
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return cleanLines(b.String())
		case html.TextToken:
			if skipDepth == 0 && !raw {
				b.Write(z.Text())
			}
			continue
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
		default: // comments and doctypes
			continue
		}
		name, hasAttr := z.TagName()
		tag := atom.Lookup(name)
		switch {
		case tag == atom.Style || tag == atom.Script:
			raw = tt == html.StartTagToken
		case tag == atom.Br:
			if skipDepth == 0 {
				b.WriteByte('\n')
			}
		case tt == html.SelfClosingTagToken || voidElements[tag]:
			// No content: <img>, <path/>.
		case tt == html.EndTagToken:
			if len(stack) > 0 {
				if stack[len(stack)-1] {
					skipDepth--
				}
				stack = stack[:len(stack)-1]
			}
			if skipDepth == 0 && blockElements[tag] {
				b.WriteByte('\n')
			}
		default:
			skip := false
			for hasAttr {
				var key, val []byte
				key, val, hasAttr = z.TagAttr()
				if string(key) == "class" && strings.Contains(string(val), "gonb-err-context") {
					skip = true
				}
			}
			stack = append(stack, skip)
			if skip {
				skipDepth++
			}
			if skipDepth == 0 && blockElements[tag] {
				b.WriteByte('\n')
			}
		}
	}
}

var (
	blockElements = map[atom.Atom]bool{atom.Div: true, atom.P: true, atom.Pre: true, atom.Li: true, atom.Tr: true, atom.H1: true, atom.H2: true, atom.H3: true}
	voidElements  = map[atom.Atom]bool{atom.Img: true, atom.Hr: true, atom.Meta: true, atom.Link: true, atom.Input: true, atom.Wbr: true}
)

// goBuildHeader matches the "# package" line go build prints before the
// errors of GoNB's own temporary package (errors in other packages keep it).
var goBuildHeader = regexp.MustCompile(`^# gonb_[0-9a-f]+$`)

func cleanLines(s string) string {
	var out []string
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if line == "" || goBuildHeader.MatchString(line) {
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
