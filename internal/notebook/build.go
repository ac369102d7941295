package notebook

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/attention-in-go/course/internal/lesson"
)

// GoVersion is the Go version recorded in the notebooks' language_info.
const GoVersion = "go1.26"

// GeneratedNote is recorded in every built notebook's metadata, next to the
// path of its source, so that readers know where to make changes.
const GeneratedNote = "do not edit: built from the source with `make notebooks`"

// Builder builds notebooks from lessons. Its Transforms choose the output
// flavour; the zero Builder converts the lesson's cells as they are.
type Builder struct {
	// Transforms are applied in order to a copy of the lesson before its
	// cells are converted.
	Transforms []lesson.Transform
	// Flavour, when set, is recorded in the notebook metadata as
	// course.flavour: "exercise" or "solution" (see [CheckFailures]).
	Flavour string
}

// Exercises and Solutions are the Builders of the notebooks in exercises/
// and solutions/, built from lessons/exercises/: stubs for learners, and
// the worked solutions. Exercise and check cells carry their id in the
// cell metadata {"course": {"exercise": ID, "points": N}} or {"course":
// {"check": ID}}.
var (
	Exercises = Builder{Transforms: []lesson.Transform{lesson.Claimed, lesson.InsertSetup, lesson.Exercise}, Flavour: "exercise"}
	Solutions = Builder{Transforms: []lesson.Transform{lesson.Claimed, lesson.InsertSetup, lesson.Solution}, Flavour: "solution"}
)

// Default is the Builder of the notebooks in notebooks/: the lesson's cells
// with the setup cell after the title.
var Default = Builder{Transforms: []lesson.Transform{lesson.Claimed, lesson.InsertSetup}}

// Build returns the notebook for l. Cell ids are derived from the lesson's
// slug and each cell's type and source (see [CellID]), so they are stable
// across rebuilds and change only for the cells that change.
func (b Builder) Build(l *lesson.Lesson) (*Notebook, error) {
	l, err := l.Apply(b.Transforms...)
	if err != nil {
		return nil, err
	}
	nb := &Notebook{Metadata: Metadata(l.Path), NBFormatMinor: 5}
	if b.Flavour != "" {
		nb.Metadata["course"].(map[string]any)["flavour"] = b.Flavour
	}
	ids := make(map[string]int)
	for _, lc := range l.Cells {
		c := Cell{Type: string(lc.Kind), Source: lc.Source, Metadata: map[string]any{}}
		switch {
		case lc.Exercise != "":
			c.Metadata["course"] = map[string]any{"exercise": lc.Exercise, "points": lc.Points}
		case lc.Check != "":
			c.Metadata["course"] = map[string]any{"check": lc.Check}
		case len(lc.Claims) > 0:
			lines := make([]any, len(lc.Claims))
			for i, cl := range lc.Claims {
				lines[i] = cl.Line
			}
			c.Metadata["course"] = map[string]any{"claims": lines}
		}
		id := CellID(l.Slug, c.Type, c.Source)
		ids[id]++
		if n := ids[id]; n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		c.ID = id
		nb.Cells = append(nb.Cells, c)
	}
	return nb, nil
}

// CellID returns the id of a cell: the first 8 hex digits of the SHA-256 of
// slug, cell type and source separated by NUL bytes. Build appends "-2",
// "-3", … to repeated ids within a notebook.
func CellID(slug, cellType, source string) string {
	sum := sha256.Sum256([]byte(slug + "\x00" + cellType + "\x00" + source))
	return hex.EncodeToString(sum[:4])
}

// Metadata returns the notebook metadata of a built notebook whose source
// is the lesson file at source (slash-separated, relative to the course
// root): the GoNB kernel, the Go language and where the source is.
func Metadata(source string) map[string]any {
	return map[string]any{
		"kernelspec": map[string]any{
			"display_name": "Go (gonb)",
			"language":     "go",
			"name":         "gonb",
		},
		"language_info": map[string]any{
			"codemirror_mode":    "",
			"file_extension":     ".go",
			"mimetype":           "text/x-go",
			"name":               "go",
			"nbconvert_exporter": "",
			"pygments_lexer":     "go",
			"version":            GoVersion,
		},
		"course": map[string]any{
			"source":    source,
			"generated": GeneratedNote,
		},
	}
}
