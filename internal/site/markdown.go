package site

import (
	"bytes"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// markdown parses and renders Markdown as CommonMark does. Raw HTML in
// the text is left out of what it renders.
var markdown = goldmark.New()

// parse returns the Markdown document of src.
func parse(src []byte) ast.Node {
	return markdown.Parser().Parse(text.NewReader(src))
}

// intro returns what the index shows of a lesson from its first Markdown
// cell md: its title, the text of a "#" heading that opens it, and its
// first paragraph, rendered as HTML without the enclosing <p>.
func intro(md string) (title, summary string) {
	src := []byte(md)
	doc := parse(src)
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 1 && n == doc.FirstChild() {
				title = strings.TrimSpace(string(n.Lines().Value(src)))
			}
		case *ast.Paragraph:
			var b bytes.Buffer
			if err := markdown.Renderer().Render(&b, src, n); err != nil {
				return title, ""
			}
			// The paragraph is one line in the index: its line breaks are
			// spaces, as HTML shows them.
			html := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(b.String()), "<p>"), "</p>")
			return title, strings.ReplaceAll(html, "\n", " ")
		}
	}
	return title, ""
}

// cutFenceInfo returns the Markdown md with the info string of every
// fenced code block cut to its first word: "```go noexec quote=…" becomes
// "```go". (nbconvert's Markdown renderer breaks a block whose info string
// has more than one word into lines of inline code; Jupyter's shows it as
// a block of the first word's language.)
func cutFenceInfo(md string) string {
	src := []byte(md)
	type cut struct{ start, end int }
	var cuts []cut
	ast.Walk(parse(src), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fence, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok || fence.Info == nil {
			return ast.WalkContinue, nil
		}
		seg := fence.Info.Segment
		word := bytes.IndexAny(seg.Value(src), " \t")
		if word < 0 {
			return ast.WalkContinue, nil
		}
		end := seg.Stop // the rest of the line goes, trailing spaces too
		for end < len(src) && src[end] != '\n' && src[end] != '\r' {
			end++
		}
		cuts = append(cuts, cut{seg.Start + word, end})
		return ast.WalkSkipChildren, nil
	})
	slices.SortFunc(cuts, func(a, b cut) int { return b.start - a.start })
	for _, c := range cuts {
		src = append(src[:c.start], src[c.end:]...)
	}
	return string(src)
}
