package lesson

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/attention-in-go/course/internal/claim"
)

// Claimed is a Transform that fails when a Markdown cell states a figure
// that no claim covers and the lesson's code does not set, or has a claim whose text it does not contain
// (see package claim), or states a timing without naming the machine it
// was measured on: a figure in the prose must say where it comes from, so
// that the test run can hold it to what the notebook computes.
func Claimed(l *Lesson) ([]Cell, error) {
	var code []string
	for _, c := range l.Cells {
		if c.Kind == Code {
			code = append(code, c.Source)
		}
	}
	settings := claim.CodeSettings(code...)
	root := repoRoot(l.Path)
	var errs []error
	for _, c := range l.Cells {
		if c.Kind != Markdown {
			continue
		}
		for _, cl := range c.Claims {
			if err := cl.CheckSource(root); err != nil {
				errs = append(errs, &Error{Path: l.Path, Line: c.Line, Msg: err.Error()})
			}
		}
		figures, stale := claim.Unclaimed(c.Source, c.Claims, settings.With(c.Claims...))
		if msg := claim.Describe(figures, stale, claim.Unlabelled(c.Source, c.Claims)...); msg != "" {
			line := c.Line // the first figure's line, if it can be found
			if len(figures) > 0 {
				f, _, _ := strings.Cut(figures[0], " (")
				if i := strings.Index(c.Source, f); i >= 0 {
					line += strings.Count(c.Source[:i], "\n")
				}
			}
			errs = append(errs, &Error{Path: l.Path, Line: line, Msg: msg})
		}
	}
	return l.Cells, errors.Join(errs...)
}

// repoRoot returns the directory above path that holds go.mod, or "."
// (the lessons are built from the repository's root).
func repoRoot(path string) string {
	dir, err := filepath.Abs(filepath.Dir(path))
	for err == nil {
		if _, e := os.Stat(filepath.Join(dir, "go.mod")); e == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "."
}
