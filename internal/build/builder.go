// Package build builds the course's notebooks from their lesson sources:
// notebooks/ from lessons/, and exercises/ and solutions/ from
// lessons/exercises/, with the setup cell, the course's metadata
// (internal/coursemeta), content-derived cell ids,
// and the checks that hold a source to what it quotes, claims and grades
// (Lesson.CheckQuotes, the claims of internal/claim, the exercises
// registered in lib/check). [Target.BuildAll] builds a folder of sources
// in memory; [Layout.Write] writes the notebooks and [Layout.Check]
// compares them with those on disk (`course build -check`).
//
// The tests of this package also hold the course's sources to the
// library: TestCommittedNotebooksUpToDate (the committed notebooks are
// what the sources build) and TestCellsCheckErrors (no code cell of a
// lesson drops an error).
package build

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
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
	// Flavour, when set, is recorded in the notebook's course metadata:
	// coursemeta.FlavourExercise or coursemeta.FlavourSolution, which
	// tells the runner how the check cells must report.
	Flavour string
}

// Exercises and Solutions are the Builders of the notebooks in exercises/
// and solutions/, built from lessons/exercises/: stubs for learners, and
// the worked solutions. Exercise and check cells carry their id in their
// course metadata: {"course": {"exercise": ID, "points": N}} or
// {"course": {"check": ID}}.
var (
	Exercises = Builder{Transforms: []lesson.Transform{lesson.Claimed, lesson.InsertSetup, lesson.Exercise}, Flavour: coursemeta.FlavourExercise}
	Solutions = Builder{Transforms: []lesson.Transform{lesson.Claimed, lesson.InsertSetup, lesson.Solution}, Flavour: coursemeta.FlavourSolution}
)

// Default is the Builder of the notebooks in notebooks/: the lesson's cells
// with the setup cell after the title.
var Default = Builder{Transforms: []lesson.Transform{lesson.Claimed, lesson.InsertSetup}}

// Build returns the notebook for l. Cell ids are derived from the lesson's
// slug and each cell's type and source (see [CellID]), so they are stable
// across rebuilds and change only for the cells that change.
func (b Builder) Build(l *lesson.Lesson) (*notebook.Notebook, error) {
	l, err := l.Apply(b.Transforms...)
	if err != nil {
		return nil, err
	}
	nb := &notebook.Notebook{Metadata: Metadata(), NBFormatMinor: 5}
	coursemeta.Set(nb, coursemeta.Notebook{Source: l.Path, Generated: GeneratedNote, Flavour: b.Flavour})
	ids := make(map[string]int)
	for _, lc := range l.Cells {
		c := notebook.Cell{Type: string(lc.Kind), Source: lc.Source}
		var meta coursemeta.Cell
		switch {
		case lc.Exercise != "":
			meta = coursemeta.Cell{Exercise: lc.Exercise, Points: lc.Points}
		case lc.Check != "":
			meta = coursemeta.Cell{Check: lc.Check}
		case len(lc.Claims) > 0:
			for _, cl := range lc.Claims {
				meta.Claims = append(meta.Claims, cl.Line)
			}
		}
		coursemeta.SetCell(&c, meta)
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

// Metadata returns the notebook metadata of a built notebook besides the
// course's own: the GoNB kernel and the Go language.
func Metadata() map[string]any {
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
	}
}
