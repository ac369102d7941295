package lesson

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/attention-in-go/course/internal/claim"
)

// normalize checks that src is UTF-8 and returns it as a string with a
// leading byte order mark removed and CRLF line endings turned into LF.
func normalize(name string, src []byte) (string, error) {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	if !utf8.Valid(src) {
		return "", &Error{Path: name, Line: invalidUTF8Line(src), Msg: "invalid UTF-8"}
	}
	return strings.ReplaceAll(string(src), "\r\n", "\n"), nil
}

// invalidUTF8Line returns the 1-based line of the first invalid UTF-8
// sequence in src.
func invalidUTF8Line(src []byte) int {
	line := 1
	for len(src) > 0 {
		r, size := utf8.DecodeRune(src)
		if r == utf8.RuneError && size == 1 {
			break
		}
		if r == '\n' {
			line++
		}
		src = src[size:]
	}
	return line
}

// fence is an opening code fence.
type fence struct {
	char   byte   // '`' or '~'
	length int    // number of fence characters, at least 3
	indent int    // spaces before the fence, at most 3
	info   string // the info string, trimmed
	line   int    // 1-based line number
}

// openingFence reports whether line opens a fenced block.
func openingFence(line string, lineNo int) (fence, bool) {
	indent := countLeading(line, ' ')
	if indent > 3 {
		return fence{}, false
	}
	rest := line[indent:]
	if rest == "" || (rest[0] != '`' && rest[0] != '~') {
		return fence{}, false
	}
	n := countLeading(rest, rest[0])
	if n < 3 {
		return fence{}, false
	}
	info := strings.TrimSpace(rest[n:])
	if rest[0] == '`' && strings.Contains(info, "`") {
		return fence{}, false // CommonMark: not a fence (it is inline code)
	}
	return fence{char: rest[0], length: n, indent: indent, info: info, line: lineNo}, true
}

// closes reports whether line closes the block opened by f: the same fence
// character, at least as many of them, and nothing else but spaces.
func (f fence) closes(line string) bool {
	indent := countLeading(line, ' ')
	if indent > 3 {
		return false
	}
	rest := line[indent:]
	n := countLeading(rest, f.char)
	return n >= f.length && strings.TrimSpace(rest[n:]) == ""
}

// isCode reports whether the fenced block becomes a code cell: "go", or
// "go" followed by exercise or check attributes.
func (f fence) isCode() bool {
	if f.info == "go" {
		return true
	}
	rest, ok := strings.CutPrefix(f.info, "go ")
	return ok && (strings.HasPrefix(strings.TrimSpace(rest), "exercise=") || strings.HasPrefix(strings.TrimSpace(rest), "check="))
}

// unindent removes up to f.indent leading spaces from a content line, as
// CommonMark does for indented fences.
func (f fence) unindent(line string) string {
	return line[min(countLeading(line, ' '), f.indent):]
}

func countLeading(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// isSectionHeading reports whether line is a heading that starts a new
// Markdown cell.
func isSectionHeading(line string) bool {
	return strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## ")
}

// parser accumulates cells while scanning a source line by line.
type parser struct {
	name  string
	cells []Cell
	title string

	md     []string // pending Markdown lines
	mdLine int      // line number of md[0]

	open       *fence        // the fenced block being read, if any
	claimsLine int           // the line of the open <!-- claims comment, if any
	code       []string      // content of the open block, if it is a code cell or claims
	quote      *Quote        // the open block, if it is a ```go noexec quote=PATH
	quotes     []Quote       // the quotes read so far
	claims     []claim.Claim // claims of the pending Markdown
	err        error         // the first error found
}

// parseCells splits a normalised source into cells and finds its title.
func parseCells(name, text string) ([]Cell, []Quote, string, error) {
	p := &parser{name: name}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, line := range lines {
		p.line(line, i+1)
	}
	if p.open != nil {
		return nil, nil, "", &Error{Path: name, Line: p.open.line,
			Msg: "unclosed code fence " + strings.Repeat(string(p.open.char), p.open.length)}
	}
	if p.claimsLine > 0 {
		return nil, nil, "", &Error{Path: name, Line: p.claimsLine, Msg: "unclosed claims block: end it with a line \"" + claimsClose + "\""}
	}
	p.flushMarkdown()
	if p.err != nil {
		return nil, nil, "", p.err
	}
	return p.cells, p.quotes, p.title, nil
}

// claimsOpen and claimsClose are the lines around a claims block: an HTML
// comment, so that what GitHub renders of a lesson is the lesson alone.
const (
	claimsOpen  = "<!-- claims"
	claimsClose = "-->"
)

// line processes one source line.
func (p *parser) line(line string, lineNo int) {
	switch {
	case p.claimsLine > 0 && strings.TrimSpace(line) == claimsClose:
		p.endClaims(p.claimsLine)
		p.claimsLine, p.code = 0, nil
	case p.claimsLine > 0:
		p.code = append(p.code, line)
	case p.open == nil && strings.TrimSpace(line) == claimsOpen:
		p.claimsLine, p.code = lineNo, []string{}
	case p.open != nil && p.open.closes(line):
		if p.open.isCode() {
			c := Cell{Kind: Code, Source: strings.Join(p.code, "\n"), Line: p.open.line}
			if err := parseAttributes(p.name, *p.open, &c); err != nil && p.err == nil {
				p.err = err
			}
			p.cells = append(p.cells, c)
		} else {
			if p.quote != nil {
				p.quotes = append(p.quotes, *p.quote)
			}
			p.addMarkdown(line, lineNo)
		}
		p.open, p.code, p.quote = nil, nil, nil
	case p.open != nil:
		if p.open.isCode() {
			p.code = append(p.code, p.open.unindent(line))
		} else {
			if p.quote != nil {
				p.quote.Lines = append(p.quote.Lines, p.open.unindent(line))
			}
			p.addMarkdown(line, lineNo)
		}
	default:
		if f, ok := openingFence(line, lineNo); ok {
			p.open = &f
			if f.info == "claims" && p.err == nil {
				p.err = &Error{Path: p.name, Line: lineNo, Msg: "claims go in an HTML comment, not a fenced block: a line \"" + claimsOpen + "\", the claims, a line \"" + claimsClose + "\""}
			}
			if f.isCode() {
				p.flushMarkdown()
				p.code = []string{}
			} else {
				if f.isNoexec() {
					path, err := noexecAttributes(p.name, f)
					if err != nil && p.err == nil {
						p.err = err
					}
					if path != "" {
						p.quote = &Quote{Path: path, Line: lineNo}
					}
				}
				p.addMarkdown(line, lineNo)
			}
			return
		}
		if isSectionHeading(line) {
			p.flushMarkdown()
			if p.title == "" && strings.HasPrefix(line, "# ") {
				p.title = strings.TrimSpace(line[2:])
			}
		}
		p.addMarkdown(line, lineNo)
	}
}

// endClaims reads the claims block that opened on line start.
func (p *parser) endClaims(start int) {
	cs, err := claim.Block(p.code)
	if err != nil && p.err == nil {
		p.err = &Error{Path: p.name, Line: start, Msg: err.Error()}
	}
	if len(p.md) == 0 && p.err == nil {
		p.err = &Error{Path: p.name, Line: start, Msg: "a claims block must follow the Markdown whose figures it claims, in the same section"}
	}
	p.claims = append(p.claims, cs...)
}

func (p *parser) addMarkdown(line string, lineNo int) {
	if len(p.md) == 0 {
		p.mdLine = lineNo
	}
	p.md = append(p.md, line)
}

// flushMarkdown turns the pending Markdown lines into a cell, trimming blank
// lines around it and dropping it if nothing is left.
func (p *parser) flushMarkdown() {
	lines, start, claims := p.md, p.mdLine, p.claims
	p.md, p.claims = nil, nil
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
		start++
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return
	}
	p.cells = append(p.cells, Cell{Kind: Markdown, Source: strings.Join(lines, "\n"), Line: start, Claims: claims})
}
