// Package lesson parses the course's lesson sources.
//
// Each lesson has a single source, a Markdown file lessons/NN-slug.md, from
// which its notebooks are built (see package notebook). The format is plain
// Markdown with one convention:
//
//   - A fenced code block whose info string is exactly "go" becomes a code
//     cell; its content is kept verbatim, without the fences.
//   - Every other fenced block (```go noexec, ```python, ```text, …) stays
//     part of the surrounding Markdown: it is shown, not run. A ```go
//     noexec block must say what it is: "go noexec quote=PATH" quotes a
//     library file, which [Lesson.CheckQuotes] holds it to, and "go noexec
//     sketch" is code that quotes nothing (see quote.go).
//   - A block whose info string is "go exercise=ID points=N" or
//     "go check=ID" is a code cell too: an exercise or its check (see
//     [Exercise] and [Solution]).
//   - An HTML comment whose first line is "<!-- claims" and last "-->"
//     says where the figures of the Markdown before it come from (see
//     package claim); it is removed from the Markdown and kept in the
//     cell's Claims. Being a comment, it is not part of the lesson that
//     GitHub or any Markdown viewer shows.
//   - Everything else is Markdown. Contiguous Markdown becomes one Markdown
//     cell, split before every "# " and "## " heading so that each section
//     starts a new cell. Blank lines around a cell are trimmed and empty
//     Markdown cells are dropped.
//
// Fences are ``` or ~~~, three characters or more, indented by at most three
// spaces; a block is closed by a fence of the same character that is at least
// as long, as in CommonMark, so fences can be nested by making the outer one
// longer or using the other character.
//
// The lesson's title is its first "# " heading, which is required.
//
// Parsing only reads the source. Output flavours (the notebooks students run,
// and later exercises and solutions) are obtained by applying [Transform]s to
// the parsed cells, such as [InsertSetup].
package lesson

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/attention-in-go/course/internal/claim"
)

// Kind is the kind of a cell: Markdown or Code.
type Kind string

// The kinds of cells, named like Jupyter's cell types.
const (
	Markdown Kind = "markdown"
	Code     Kind = "code"
)

// Cell is one cell of a lesson.
type Cell struct {
	Kind Kind
	// Source is the cell's text, without a trailing newline. For code cells
	// it is the content of the fenced block, verbatim.
	Source string
	// Line is the 1-based line of the source file where the cell starts (the
	// opening fence for code cells), or 0 for cells added by a Transform.
	Line int
	// Exercise and Points are set for an exercise cell (```go exercise=ID
	// points=N), Check for a check cell (```go check=ID); see exercise.go.
	Exercise string
	Points   int
	Check    string
	// Claims are the claims of a Markdown cell's figures, from the
	// claims blocks within it (which are not part of Source); see
	// package claim.
	Claims []claim.Claim
}

// Lesson is a parsed lesson source.
type Lesson struct {
	// Path is the source's path as given to Parse, slash-separated, e.g.
	// "lessons/01-attention.md". Notebooks record it so that readers know
	// which file to edit.
	Path string
	// Slug is the file name without directory and ".md" extension, e.g.
	// "01-attention"; notebooks are named after it.
	Slug string
	// Title is the text of the first "# " heading.
	Title string
	// Cells are the lesson's cells in order.
	Cells []Cell
	// Quotes are the lesson's ```go noexec quote=PATH blocks, in order;
	// they stay in the Markdown cells too. See [Lesson.CheckQuotes].
	Quotes []Quote
}

// Error is a problem in a lesson source, located by file and line.
type Error struct {
	Path string
	Line int // 1-based; 0 when the problem concerns the whole file
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// ParseFile reads and parses the lesson source at path. The path is recorded
// in the lesson (slash-separated) and used in error messages, so callers
// usually pass it relative to the course root.
func ParseFile(path string) (*Lesson, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(filepath.ToSlash(path), src)
}

// Parse parses a lesson source. name is the source's slash-separated path,
// used for the lesson's Path and Slug and in error messages. Errors are of
// type *Error.
func Parse(name string, src []byte) (*Lesson, error) {
	text, err := normalize(name, src)
	if err != nil {
		return nil, err
	}
	cells, quotes, title, err := parseCells(name, text)
	if err != nil {
		return nil, err
	}
	if title == "" {
		return nil, &Error{Path: name, Msg: `no title: the lesson needs a "# Title" heading`}
	}
	return &Lesson{
		Path:   name,
		Slug:   strings.TrimSuffix(path.Base(name), ".md"),
		Title:  title,
		Cells:  cells,
		Quotes: quotes,
	}, nil
}

// Clone returns a copy of l whose Cells can be changed without affecting l.
func (l *Lesson) Clone() *Lesson {
	c := *l
	c.Cells = append([]Cell(nil), l.Cells...)
	return &c
}

// Apply returns a copy of l with the transforms applied in order.
func (l *Lesson) Apply(transforms ...Transform) (*Lesson, error) {
	out := l.Clone()
	for _, t := range transforms {
		cells, err := t(out)
		if err != nil {
			return nil, err
		}
		out.Cells = cells
	}
	return out, nil
}
