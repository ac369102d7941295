// Package notebook reads and writes Jupyter notebooks (nbformat 4): the
// notebook, its cells and their outputs as Go values, a decoder that
// checks each field's type (strict, or lenient for notebooks of unknown
// origin), an encoder, and StripOutputs, which drops a notebook's outputs
// without decoding it. It knows nothing of the course: the course's
// metadata is one more metadata key (internal/coursemeta reads it), the
// notebooks are built from lessons by internal/build, and which cells of
// an executed notebook failed is the runner's judgement (internal/runner).
//
// Serialisation matches nbformat.write byte for byte (keys sorted, one-space
// indentation, non-ASCII kept as UTF-8, multi-line strings split into lists
// of lines, final newline), so that opening and saving a built notebook in
// Jupyter changes as little as possible.
package notebook

import (
	"fmt"
	"os"
	"strings"
)

// Cell types.
const (
	Markdown = "markdown"
	Code     = "code"
	Raw      = "raw"
)

// Output types.
const (
	Stream        = "stream"
	DisplayData   = "display_data"
	ExecuteResult = "execute_result"
	ErrorOutput   = "error"
)

// Notebook is a Jupyter notebook in nbformat 4.
type Notebook struct {
	// Metadata is the notebook's metadata: kernelspec, language_info, and
	// whatever Jupyter or another tool adds, such as the course's own
	// (internal/coursemeta reads and writes it). Values are what
	// encoding/json produces with UseNumber: maps, slices, strings, bools,
	// nil and json.Number; the writer also takes int and []string.
	Metadata map[string]any
	Cells    []Cell
	// NBFormatMinor is the nbformat minor version; 0 means 5, the version
	// this package writes by default. Version 4.5 introduced cell ids.
	NBFormatMinor int
}

// Cell is one notebook cell.
type Cell struct {
	ID     string
	Type   string // Markdown, Code or Raw
	Source string
	// Metadata is the cell's metadata, as for [Notebook.Metadata].
	Metadata map[string]any
	// ExecutionCount is the "In [n]" number of an executed code cell, or nil.
	ExecutionCount *int
	Outputs        []Output // code cells only
}

// Output is one output of a code cell.
type Output struct {
	Type string // Stream, DisplayData, ExecuteResult or ErrorOutput

	// Name and Text are set for streams: Name is "stdout" or "stderr".
	Name string
	Text string

	// Data is the mime bundle of display_data and execute_result outputs,
	// keyed by mime type. Text values are joined into one string; values of
	// JSON mime types (application/json, application/*+json) are kept as
	// their JSON text.
	Data map[string]string
	// Metadata is the output's metadata (display_data, execute_result).
	Metadata map[string]any
	// ExecutionCount is set for execute_result outputs.
	ExecutionCount *int

	// EName, EValue and Traceback are set for error outputs.
	EName     string
	EValue    string
	Traceback []string
}

// CodeCells returns the number of code cells in nb.
func (nb *Notebook) CodeCells() int {
	n := 0
	for _, c := range nb.Cells {
		if c.Type == Code {
			n++
		}
	}
	return n
}

// ReadFile reads a notebook file.
func ReadFile(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb, err := Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nb, nil
}

// isJSONMime reports whether values of the mime type are JSON rather than
// text, as nbformat decides.
func isJSONMime(mime string) bool {
	return mime == "application/json" ||
		(strings.HasPrefix(mime, "application/") && strings.HasSuffix(mime, "+json"))
}
