package main

import (
	"fmt"

	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
	"github.com/attention-in-go/course/lib/check"
)

// exerciseBuilder returns b with a first transform that checks every
// exercise and check cell against lib/check's registry: the id must be
// registered and the points must be the spec's, so that the notebook, the
// check cell and the grader agree.
func exerciseBuilder(b notebook.Builder) notebook.Builder {
	return notebook.Builder{Transforms: append([]lesson.Transform{registered}, b.Transforms...), Flavour: b.Flavour}
}

func registered(l *lesson.Lesson) ([]lesson.Cell, error) {
	for _, c := range l.Cells {
		id := c.Exercise + c.Check
		if id == "" {
			continue
		}
		spec, ok := check.Lookup(id)
		if !ok {
			return nil, &lesson.Error{Path: l.Path, Line: c.Line, Msg: fmt.Sprintf("exercise %q is not registered in lib/check", id)}
		}
		if c.Exercise != "" && spec.Info().Points != c.Points {
			return nil, &lesson.Error{Path: l.Path, Line: c.Line,
				Msg: fmt.Sprintf("exercise %s: points=%d, but lib/check says %d", id, c.Points, spec.Info().Points)}
		}
	}
	return l.Cells, nil
}
