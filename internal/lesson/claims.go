package lesson

import (
	"errors"
	"strings"

	"github.com/attention-in-go/course/internal/claim"
)

// Claimed is a Transform that fails when a Markdown cell states a figure
// that no claim covers, or has a claim whose text it does not contain
// (see package claim), or states a timing without naming the machine it
// was measured on: a figure in the prose must say where it comes from, so
// that the test run can hold it to what the notebook computes.
func Claimed(l *Lesson) ([]Cell, error) {
	var errs []error
	for _, c := range l.Cells {
		if c.Kind != Markdown {
			continue
		}
		figures, stale := claim.Unclaimed(c.Source, c.Claims)
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
