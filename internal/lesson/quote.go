package lesson

import (
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"strings"
)

// This file holds the quotes. A lesson shows library code next to a
// formula in a block that is not run, and says where the code comes from:
//
//	```go noexec quote=lib/attention/scaled.go
//	s.Scaled = graph.DivScalar(s.Scores, math.Sqrt(float64(dk)))
//	// …
//	s.Output = graph.MatMul(s.Weights, v) // [..., seq_q, seq_k] x [..., seq_k, d_v]
//	```
//
// The build checks the block against the file (see [Lesson.CheckQuotes]),
// so a quote cannot drift from the library. A block that is not a quote
// (pseudo-code, a sketch for the learner) says so:
//
//	```go noexec sketch
//
// A bare ```go noexec block is an error: every block not run is either
// checked or explicitly unchecked. GitHub takes the first word of the info
// string as the language, so both kinds still render as Go.
//
// A quote matches its file when its lines appear there in order and
// contiguously, compared as Go tokens: spacing and comments do not count,
// so a quote may drop, add or reword a trailing "// ..." comment, and
// lines that are blank or only a comment are skipped on both sides. A line
// that is only a comment starting "// …" or "// ..." (such as "// … the
// shape checks") is an elision: the code before it and the code after it
// must each appear contiguously, in that order, with anything in between.
// Elisions keep a quote short without letting it pretend that lines it
// leaves out are not there.

// Quote is a ```go noexec quote=PATH block of a lesson.
type Quote struct {
	// Path is the quoted file, slash-separated and relative to the course
	// root, e.g. "lib/attention/scaled.go".
	Path string
	// Line is the 1-based line of the block's opening fence.
	Line int
	// Lines are the block's content lines.
	Lines []string
}

// noexecAttributes parses the info string of a ```go noexec block: it
// returns the quoted path, or "" for a sketch.
func noexecAttributes(name string, f fence) (quote string, err error) {
	bad := func(format string, args ...any) error {
		return &Error{Path: name, Line: f.line, Msg: fmt.Sprintf(format, args...)}
	}
	const want = "a block that is not run says what it is: ```go noexec quote=PATH for library code " +
		"(checked against PATH, relative to the course root) or ```go noexec sketch for code that quotes nothing"
	fields := strings.Fields(f.info)[2:]
	if len(fields) != 1 {
		return "", bad("%s; got %q", want, f.info)
	}
	if fields[0] == "sketch" {
		return "", nil
	}
	p, ok := strings.CutPrefix(fields[0], "quote=")
	if !ok || p == "" {
		return "", bad("%s; got %q", want, f.info)
	}
	if !fs.ValidPath(p) || p == "." {
		return "", bad("quote=%s: give the file's path from the course root, slash-separated, without . or .. (e.g. quote=lib/attention/scaled.go)", p)
	}
	return p, nil
}

// isNoexec reports whether the fence opens a ```go noexec block.
func (f fence) isNoexec() bool {
	fields := strings.Fields(f.info)
	return len(fields) >= 2 && fields[0] == "go" && fields[1] == "noexec"
}

// CheckQuotes checks every quote of l against the file it names, read with
// read (which is given the quote's Path). It returns one *Error per quote
// that does not match, naming the first line that does not and what to do.
func (l *Lesson) CheckQuotes(read func(path string) ([]byte, error)) error {
	var errs []error
	for _, q := range l.Quotes {
		src, err := read(q.Path)
		if err != nil {
			msg := fmt.Sprintf("quote=%s: cannot read the quoted file (%v); give the path of the library file from the course root", q.Path, err)
			if errors.Is(err, fs.ErrNotExist) {
				msg = fmt.Sprintf("quote=%s: no such file; give the path of the library file the block quotes, from the course root, or mark the block ```go noexec sketch if it quotes nothing", q.Path)
			}
			errs = append(errs, &Error{Path: l.Path, Line: q.Line, Msg: msg})
			continue
		}
		if line, msg := matchQuote(q, src); msg != "" {
			errs = append(errs, &Error{Path: l.Path, Line: line, Msg: msg})
		}
	}
	return errors.Join(errs...)
}

// codeLine is a line of Go code reduced to its tokens.
type codeLine struct {
	line int    // 1-based line in its text
	key  string // the tokens, space-separated
}

// codeLines returns the lines of src that hold Go tokens other than
// comments, in order. A token spanning lines (a raw string) counts for the
// line it starts on. Text that is not Go still yields tokens (ILLEGAL ones
// among them), so that it can be compared and found not to match.
func codeLines(src []byte) []codeLine {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, func(token.Position, string) {}, 0)
	var out []codeLine
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted at a line end
		}
		text := lit
		if text == "" {
			text = tok.String()
		}
		line := fset.Position(pos).Line
		if n := len(out); n > 0 && out[n-1].line == line {
			out[n-1].key += " " + text
		} else {
			out = append(out, codeLine{line: line, key: text})
		}
	}
}

// isElision reports whether a quote's line stands for omitted code.
func isElision(line string) bool {
	t := strings.TrimSpace(line)
	for _, e := range []string{"// …", "// ..."} {
		if t == e || strings.HasPrefix(t, e+" ") {
			return true
		}
	}
	return false
}

// matchQuote checks q against the quoted file's source. On a mismatch it
// returns the lesson line to report and the message.
func matchQuote(q Quote, src []byte) (int, string) {
	file := codeLines(src)
	// The pieces between elisions, each a run of code lines.
	var pieces [][]codeLine
	start := 0
	for i := 0; i <= len(q.Lines); i++ {
		if i < len(q.Lines) && !isElision(q.Lines[i]) {
			continue
		}
		piece := codeLines([]byte(strings.Join(q.Lines[start:i], "\n")))
		for j := range piece {
			piece[j].line += start // line within the block, 1-based
		}
		if len(piece) > 0 {
			pieces = append(pieces, piece)
		}
		start = i + 1
	}
	if len(pieces) == 0 {
		return q.Line, fmt.Sprintf("quote=%s: the block has no code to check; quote the library's lines or mark it ```go noexec sketch", q.Path)
	}
	advice := fmt.Sprintf("the library is the truth: copy the lines from %s again "+
		"(spacing and comments may differ; a line \"// …\" stands for lines left out), "+
		"or mark the block ```go noexec sketch if it is not a quote", q.Path)
	from := 0 // index in file where the next piece may start
	for _, piece := range pieces {
		at, best, bestAt := -1, 0, -1
		for i := from; i < len(file) && at < 0; i++ {
			n := 0
			for n < len(piece) && i+n < len(file) && file[i+n].key == piece[n].key {
				n++
			}
			if n == len(piece) {
				at = i
			} else if n > best {
				best, bestAt = n, i
			}
		}
		if at >= 0 {
			from = at + len(piece)
			continue
		}
		bad := piece[best]
		line := q.Line + bad.line
		text := strings.TrimSpace(q.Lines[bad.line-1])
		switch {
		case best > 0:
			return line, fmt.Sprintf("quote=%s: %q does not follow %s:%d in the library; %s",
				q.Path, text, q.Path, file[bestAt+best-1].line, advice)
		case indexKey(file[:from], bad.key) >= 0:
			return line, fmt.Sprintf("quote=%s: %q is in the library (%s:%d), but before the lines quoted above it: the quote is out of order; %s",
				q.Path, text, q.Path, file[indexKey(file[:from], bad.key)].line, advice)
		default:
			return line, fmt.Sprintf("quote=%s: %q is not in the library; %s", q.Path, text, advice)
		}
	}
	return 0, ""
}

// indexKey returns the index of the first line of lines with the given key,
// or -1.
func indexKey(lines []codeLine, key string) int {
	for i, l := range lines {
		if l.key == key {
			return i
		}
	}
	return -1
}
