package build

import (
	"fmt"
	"go/token"
	"regexp"
	"strings"

	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/lib/check"
)

// exerciseBuilder returns b with a first transform that checks every
// exercise and check cell against lib/check's registry: the id must be
// registered and the points must be the spec's, so that the notebook, the
// check cell and the grader agree.
func exerciseBuilder(b Builder) Builder {
	return Builder{Transforms: append([]lesson.Transform{registered}, b.Transforms...), Flavour: b.Flavour}
}

func registered(l *lesson.Lesson) ([]lesson.Cell, error) {
	start := 0 // the first cell of the current exercise's text
	intro := preamble(l.Cells)
	for i, c := range l.Cells {
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
		if c.Check != "" {
			if names := unnamedDeny(intro, l.Cells[start:i], spec.Info().Deny); names != nil {
				return nil, &lesson.Error{Path: l.Path, Line: c.Line,
					Msg: fmt.Sprintf("exercise %s: lib/check denies %s, which the exercise's text does not name; tell the learner not to call them (the grader gives 0 for a call)", id, strings.Join(names, ", "))}
			}
			if names := unnamedAllow(intro, l.Cells[start:i], spec.Info().Allow); names != nil {
				return nil, &lesson.Error{Path: l.Path, Line: c.Line,
					Msg: fmt.Sprintf("exercise %s: lib/check allows %s, which the exercise's text does not name; tell the learner what the code may use (the grader gives 0 for anything else)", id, strings.Join(names, ", "))}
			}
			start = i + 1
		}
	}
	return l.Cells, nil
}

// preamble returns the Markdown before the lesson's first "## " heading:
// what it says applies to every exercise.
func preamble(cells []lesson.Cell) string {
	var text strings.Builder
	for _, c := range cells {
		if c.Kind != lesson.Markdown {
			continue
		}
		for line := range strings.Lines(c.Source) {
			if strings.HasPrefix(line, "## ") {
				return text.String()
			}
			text.WriteString(line)
		}
		text.WriteString("\n")
	}
	return text.String()
}

// unnamedDeny returns the entries of deny that neither intro nor the
// Markdown of cells names as a learner reads them: "lib/attention" for a
// package, "attention.LookAhead" for a function or type (unexported names
// are skipped). A learner who is not told cannot avoid what the grader
// gives 0 for.
func unnamedDeny(intro string, cells []lesson.Cell, deny []string) []string {
	text := exerciseText(intro, cells)
	var missing []string
	for _, d := range deny {
		name := d
		if _, sym, ok := strings.Cut(d, "."); ok {
			if !token.IsExported(sym) {
				continue // only a hostile program reaches it (go:linkname)
			}
			pkg := d[:len(d)-len(sym)-1]
			name = pkg[strings.LastIndex(pkg, "/")+1:] + "." + sym
		}
		if !names(text, name) {
			missing = append(missing, name)
		}
	}
	return missing
}

// exerciseText is what a learner reads of an exercise: the intro and the
// Markdown of its cells.
func exerciseText(intro string, cells []lesson.Cell) string {
	var text strings.Builder
	text.WriteString(intro + "\n")
	for _, c := range cells {
		if c.Kind == lesson.Markdown {
			text.WriteString(c.Source + "\n")
		}
	}
	return text.String()
}

// names reports whether text names name ("attention.Explain") as itself,
// not as part of a longer or a qualified name.
func names(text, name string) bool {
	return regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(name) + `\b`).MatchString(text)
}

// unnamedAllow returns what the text (intro and cells, as unnamedDeny
// reads them) should say of allow and does not: "standard library" for
// every exercise, "GoMLX" when GoMLX's graph operations are allowed, and
// each course entry ("viz.Heatmap" for a member, "lib/viz" for a
// package).
func unnamedAllow(intro string, cells []lesson.Cell, allow []string) []string {
	t := exerciseText(intro, cells)
	var missing []string
	if !strings.Contains(t, "standard library") {
		missing = append(missing, "the standard library")
	}
	gomlx := false
	for _, a := range allow {
		if !strings.HasPrefix(a, "lib/") {
			gomlx = true
			continue
		}
		name := a
		if _, sym, ok := strings.Cut(a, "."); ok {
			pkg := a[:len(a)-len(sym)-1]
			name = pkg[strings.LastIndex(pkg, "/")+1:] + "." + sym
		}
		if !names(t, name) {
			missing = append(missing, name)
		}
	}
	if gomlx && !strings.Contains(t, "GoMLX") {
		missing = append(missing, "GoMLX's graph operations")
	}
	return missing
}
