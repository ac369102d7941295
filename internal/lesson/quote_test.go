package lesson

import (
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

// TestParseQuotes: the parser records ```go noexec quote=PATH blocks with
// their fence line and content, leaves them in the Markdown, and ignores
// sketches.
func TestParseQuotes(t *testing.T) {
	src := "# T\n\nText.\n\n```go noexec quote=lib/a/a.go\nx := 1\n  y := 2\n```\n\n```go noexec sketch\nz := 3\n```\n\n  ```go noexec quote=lib/b.go\n  w := 4\n  ```\n"
	l, err := Parse("lessons/01-x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Quote{
		{Path: "lib/a/a.go", Line: 5, Lines: []string{"x := 1", "  y := 2"}},
		{Path: "lib/b.go", Line: 14, Lines: []string{"w := 4"}},
	}
	if !reflect.DeepEqual(l.Quotes, want) {
		t.Errorf("Quotes = %#v, want %#v", l.Quotes, want)
	}
	if len(l.Cells) != 1 || !strings.Contains(l.Cells[0].Source, "```go noexec quote=lib/a/a.go\nx := 1") {
		t.Errorf("cells = %+v, want one Markdown cell that keeps the quotes", l.Cells)
	}
}

func TestParseNoexecErrors(t *testing.T) {
	tests := []struct {
		name, info, wantMsg string
	}{
		{"bare noexec", "go noexec", "says what it is"},
		{"unknown word", "go noexec pseudo", `got "go noexec pseudo"`},
		{"empty path", "go noexec quote=", "says what it is"},
		{"sketch and quote", "go noexec sketch quote=lib/a.go", "says what it is"},
		{"parent directory", "go noexec quote=../lib/a.go", "from the course root"},
		{"absolute path", "go noexec quote=/lib/a.go", "from the course root"},
		{"unclean path", "go noexec quote=lib//a.go", "from the course root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("lessons/02-bad.md", []byte("# T\n\n```"+tt.info+"\nx\n```\n"))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse error = %v, want *Error", err)
			}
			if e.Line != 3 || !strings.Contains(e.Msg, tt.wantMsg) {
				t.Errorf("error = %+v, want line 3 and a message containing %q", *e, tt.wantMsg)
			}
		})
	}
}

// library is the quoted file of TestCheckQuotes.
const library = `package a

// Steps computes the attention.
func Steps(q, k, v *Node) *Node {
	scores := MatMul(q, Transpose(k)) // [seq_q, seq_k]
	// Scale by the root of the width.
	scaled := DivScalar(scores, math.Sqrt(dk))

	weights := Softmax(scaled, "a // not a comment")
	return MatMul(weights, v)
}

func other() {
	x := 1
	y := 2
}
`

func TestCheckQuotes(t *testing.T) {
	tests := []struct {
		name     string
		quote    string // the block's content
		wantLine int    // 0: the quote matches
		wantMsg  string
	}{
		{
			name:  "exact lines",
			quote: "scores := MatMul(q, Transpose(k)) // [seq_q, seq_k]\nscaled := DivScalar(scores, math.Sqrt(dk))",
		},
		{
			name:  "whitespace and comments differ",
			quote: "\tscores:=MatMul( q,Transpose(k) )\n\n// the scale\nscaled := DivScalar(scores, math.Sqrt(dk)) // divide\n\nweights := Softmax(scaled, \"a // not a comment\") // softmax",
		},
		{
			name:  "whole function",
			quote: "func Steps(q, k, v *Node) *Node {\n\tscores := MatMul(q, Transpose(k))\n\tscaled := DivScalar(scores, math.Sqrt(dk))\n\tweights := Softmax(scaled, \"a // not a comment\")\n\treturn MatMul(weights, v)\n}",
		},
		{
			name:  "elision",
			quote: "scores := MatMul(q, Transpose(k))\n// … the scaling and the softmax\nreturn MatMul(weights, v)\n  // ...\ny := 2",
		},
		{
			name:     "drifted line",
			quote:    "scores := MatMul(q, Transpose(k))\nscaled := DivScalar(scores, math.Sqrt(dk2))",
			wantLine: 12, // fence on line 10
			wantMsg:  `"scaled := DivScalar(scores, math.Sqrt(dk2))" does not follow lib/a/a.go:5 in the library; the library is the truth`,
		},
		{
			name:     "line not in the library",
			quote:    "weights := Softmax(scaled, 2)",
			wantLine: 11,
			wantMsg:  `"weights := Softmax(scaled, 2)" is not in the library`,
		},
		{
			name:     "a string's content is compared",
			quote:    `weights := Softmax(scaled, "a")`,
			wantLine: 11,
			wantMsg:  "is not in the library",
		},
		{
			name:     "a comment that is not an elision",
			quote:    "scores := MatMul(q, Transpose(k))\n// …and so on\nreturn MatMul(weights, v)",
			wantLine: 13,
			wantMsg:  "does not follow lib/a/a.go:5",
		},
		{
			name:     "lines out of order",
			quote:    "scaled := DivScalar(scores, math.Sqrt(dk))\nscores := MatMul(q, Transpose(k))",
			wantLine: 12,
			wantMsg:  `"scores := MatMul(q, Transpose(k))" does not follow lib/a/a.go:7`,
		},
		{
			name:     "pieces out of order",
			quote:    "return MatMul(weights, v)\n// …\nscores := MatMul(q, Transpose(k))",
			wantLine: 13,
			wantMsg:  "is in the library (lib/a/a.go:5), but before the lines quoted above it: the quote is out of order",
		},
		{
			name:     "not contiguous without an elision",
			quote:    "scores := MatMul(q, Transpose(k))\nreturn MatMul(weights, v)",
			wantLine: 12,
			wantMsg:  "does not follow lib/a/a.go:5",
		},
		{
			name:     "pseudo-code",
			quote:    "x = relu(x·W₁ + b₁)",
			wantLine: 11,
			wantMsg:  "or mark the block ```go noexec sketch",
		},
		{
			name:     "only comments",
			quote:    "// nothing\n// …",
			wantLine: 10,
			wantMsg:  "has no code to check",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "# T\n\n" + strings.Repeat("text\n", 7) + "```go noexec quote=lib/a/a.go\n" + tt.quote + "\n```\n"
			l, err := Parse("lessons/03-q.md", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			read := func(p string) ([]byte, error) {
				if p != "lib/a/a.go" {
					t.Errorf("read %q, want lib/a/a.go", p)
				}
				return []byte(library), nil
			}
			err = l.CheckQuotes(read)
			if tt.wantLine == 0 {
				if err != nil {
					t.Errorf("CheckQuotes = %v, want nil", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("CheckQuotes = %v, want *Error", err)
			}
			if e.Path != "lessons/03-q.md" || e.Line != tt.wantLine || !strings.Contains(e.Msg, tt.wantMsg) {
				t.Errorf("error = %+v\nwant lessons/03-q.md, line %d, a message containing %q", *e, tt.wantLine, tt.wantMsg)
			}
		})
	}
}

func TestCheckQuotesMissingFile(t *testing.T) {
	l, err := Parse("lessons/03-q.md", []byte("# T\n\n```go noexec quote=lib/gone.go\nx := 1\n```\n\n```go noexec quote=lib/a/a.go\ny := 2\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = l.CheckQuotes(func(p string) ([]byte, error) {
		if p == "lib/gone.go" {
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
		}
		return []byte(library), nil
	})
	want := "lessons/03-q.md:3: quote=lib/gone.go: no such file; give the path of the library file"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("CheckQuotes = %v, want an error starting %q", err, want)
	}
	if err != nil && strings.Contains(err.Error(), "lessons/03-q.md:7") {
		t.Errorf("CheckQuotes = %v: the second quote matches and must not be reported", err)
	}
}
