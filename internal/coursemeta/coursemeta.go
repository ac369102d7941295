// Package coursemeta is the course's metadata in a notebook: the "course"
// object that the builder stores in a notebook's metadata and in each
// cell's, and that the runner and the grader read. It is one typed schema
// for all three; the notebook codec (internal/notebook) keeps the object,
// like any metadata, as the JSON values it read, so that keys this package
// does not know are written back as they were.
//
// The notebook's object holds "source" (the lesson file it was built
// from), "generated" and "flavour"; a cell's holds "exercise" and
// "points", "check", or "claims".
package coursemeta

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/attention-in-go/course/internal/notebook"
)

// Key is the metadata key of the course's object, in the notebook's
// metadata and in each cell's.
const Key = "course"

// Flavours of the notebooks built from lessons/exercises/.
const (
	FlavourExercise = "exercise"
	FlavourSolution = "solution"
)

// Notebook is the course's metadata of a notebook. The zero Notebook is
// stored as no key.
type Notebook struct {
	// Source is the lesson file the notebook was built from,
	// slash-separated and relative to the course root ("source").
	Source string
	// Generated is the builder's note that the notebook is built output
	// ("generated").
	Generated string
	// Flavour is [FlavourExercise] or [FlavourSolution] for the notebooks
	// of exercises/ and solutions/, "" for a lesson ("flavour").
	Flavour string

	other map[string]any // keys this package does not know, written back as read
}

// Cell is the course's metadata of a cell. A built cell has at most one
// of Exercise, Check and Claims. The zero Cell is stored as no key.
type Cell struct {
	// Exercise is the id of the exercise whose solution the cell holds
	// ("exercise"), and Points what it is worth ("points", stored with
	// Exercise).
	Exercise string
	Points   int
	// Check is the id of the exercise the cell checks ("check").
	Check string
	// Claims are the claim lines of a Markdown cell's figures ("claims",
	// see package claim).
	Claims []string

	other map[string]any
}

// IsZero reports whether m holds nothing to store.
func (m *Notebook) IsZero() bool {
	return m.Source == "" && m.Generated == "" && m.Flavour == "" && len(m.other) == 0
}

// IsZero reports whether m holds nothing to store.
func (m *Cell) IsZero() bool {
	return m.Exercise == "" && m.Points == 0 && m.Check == "" && len(m.Claims) == 0 && len(m.other) == 0
}

// Read returns the course's metadata of nb and of each of its cells
// (cells[i] is that of nb.Cells[i]). A field of the wrong type is left at
// its zero value and read no further; err is the first such problem, a
// [*notebook.DecodeError] that names the cell and the field
// ("metadata.course.points") as the decoder names nbformat's own. A
// reader of notebooks of unknown origin, such as the grader, may use what
// was read and ignore err.
func Read(nb *notebook.Notebook) (m Notebook, cells []Cell, err error) {
	r := reader{}
	if v, ok := nb.Metadata[Key]; ok {
		r.notebook(v, &m)
	}
	cells = make([]Cell, len(nb.Cells))
	for i, c := range nb.Cells {
		if v, ok := c.Metadata[Key]; ok {
			r.cell(v, &cells[i], i+1)
		}
	}
	if r.first != nil {
		return m, cells, r.first
	}
	return m, cells, nil
}

// Set stores m as the course's metadata of nb, replacing any it had; the
// zero Notebook removes the key. nb.Metadata is replaced, not changed.
func Set(nb *notebook.Notebook, m Notebook) {
	nb.Metadata = store(nb.Metadata, !m.IsZero(), m.tree)
}

// SetCell stores m as the course's metadata of the cell c, as [Set] does.
func SetCell(c *notebook.Cell, m Cell) {
	c.Metadata = store(c.Metadata, !m.IsZero(), m.tree)
}

func store(metadata map[string]any, set bool, tree func() map[string]any) map[string]any {
	out := maps.Clone(metadata)
	if !set {
		delete(out, Key)
		return out
	}
	if out == nil {
		out = map[string]any{}
	}
	out[Key] = tree()
	return out
}

func (m *Notebook) tree() map[string]any {
	t := copyMap(m.other)
	setString(t, "source", m.Source)
	setString(t, "generated", m.Generated)
	setString(t, "flavour", m.Flavour)
	return t
}

func (m *Cell) tree() map[string]any {
	t := copyMap(m.other)
	setString(t, "exercise", m.Exercise)
	if m.Exercise != "" || m.Points != 0 {
		t["points"] = m.Points
	}
	setString(t, "check", m.Check)
	if len(m.Claims) > 0 {
		t["claims"] = m.Claims
	}
	return t
}

func copyMap(m map[string]any) map[string]any {
	t := make(map[string]any, len(m)+3)
	maps.Copy(t, m)
	return t
}

func setString(t map[string]any, key, v string) {
	if v != "" {
		t[key] = v
	}
}

// reader reads course objects, keeping the first problem.
type reader struct {
	first *notebook.DecodeError
}

func (r *reader) problem(cell int, field, msg string) {
	if r.first == nil {
		r.first = &notebook.DecodeError{Cell: cell, Field: field, Msg: msg}
	}
}

const where = "metadata." + Key

// notebook reads the "course" object v (as the codec decodes metadata:
// encoding/json's values with UseNumber) of a notebook's metadata into m.
func (r *reader) notebook(v any, m *Notebook) {
	obj, ok := v.(map[string]any)
	if !ok {
		r.problem(0, where, "want an object, got "+jsonType(v))
		return
	}
	for k, val := range obj {
		switch k {
		case "source":
			r.str(val, &m.Source, 0, where+"."+k)
		case "generated":
			r.str(val, &m.Generated, 0, where+"."+k)
		case "flavour":
			r.str(val, &m.Flavour, 0, where+"."+k)
		default:
			m.other = keepUnknown(m.other, k, val)
		}
	}
}

// cell reads the "course" object v of the metadata of cell n (1-based)
// into m.
func (r *reader) cell(v any, m *Cell, n int) {
	obj, ok := v.(map[string]any)
	if !ok {
		r.problem(n, where, "want an object, got "+jsonType(v))
		return
	}
	for k, val := range obj {
		switch k {
		case "exercise":
			r.str(val, &m.Exercise, n, where+"."+k)
		case "check":
			r.str(val, &m.Check, n, where+"."+k)
		case "points":
			p, ok := wholeNumber(val)
			if !ok {
				r.problem(n, where+".points", "want a whole number, got "+jsonText(val))
				break
			}
			m.Points = p
		case "claims":
			lines, ok := stringList(val)
			if !ok {
				r.problem(n, where+".claims", "want a list of strings, got "+jsonText(val))
				break
			}
			m.Claims = lines
		default:
			m.other = keepUnknown(m.other, k, val)
		}
	}
}

// wholeNumber returns v as a non-negative int: a json.Number as decoded,
// or an int as [SetCell] stores it.
func wholeNumber(v any) (int, bool) {
	switch v := v.(type) {
	case int:
		return v, v >= 0
	case json.Number:
		p, err := v.Int64()
		if err != nil || p < 0 || int64(int(p)) != p {
			return 0, false
		}
		return int(p), true
	}
	return 0, false
}

// stringList returns v as a list of strings: a []any of strings as
// decoded, or a []string as [SetCell] stores it.
func stringList(v any) ([]string, bool) {
	switch v := v.(type) {
	case []string:
		return v, true
	case []any:
		lines := make([]string, len(v))
		for i, l := range v {
			s, ok := l.(string)
			if !ok {
				return nil, false
			}
			lines[i] = s
		}
		return lines, true
	}
	return nil, false
}

// keepUnknown adds a key this package does not know to other, creating
// the map on first use, so that it is written back as it was read.
func keepUnknown(other map[string]any, k string, v any) map[string]any {
	if other == nil {
		other = map[string]any{}
	}
	other[k] = v
	return other
}

func (r *reader) str(v any, s *string, cell int, field string) {
	var ok bool
	if *s, ok = v.(string); !ok {
		r.problem(cell, field, "want a string, got "+jsonText(v))
	}
}

// jsonType names the JSON type of v.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64, int:
		return "a number"
	case string:
		return "a string"
	case []any, []string:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// jsonText is v in JSON for a message, shortened.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil || len(b) > 40 {
		return jsonType(v)
	}
	return string(b)
}
