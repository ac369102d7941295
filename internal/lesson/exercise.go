package lesson

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// This file holds the exercise format. An exercise source
// (lessons/exercises/NN-slug.md) is a lesson with two more kinds of code
// cells:
//
//	```go exercise=softmax points=2
//	func Softmax(logits []float64, temperature float64) []float64 {
//		// BEGIN SOLUTION
//		…
//		// END SOLUTION
//	}
//	```
//
//	```go check=softmax
//	check.Softmax(Softmax)
//	```
//
// From one source, [Exercise] makes the learners' notebook (each solution
// region replaced by a stub that panics with "TODO") and [Solution] the
// instructors' (the markers dropped). Both put the marker line
// [MarkerLine] first in exercise cells, so that the grader finds them even
// if a notebook loses its cell metadata.

// Region markers, on lines of their own inside an exercise cell.
const (
	BeginSolution = "// BEGIN SOLUTION"
	EndSolution   = "// END SOLUTION"
	// StubPrefix starts a line inside a region that gives the stub's code.
	StubPrefix = "// STUB: "
)

// MarkerLine returns the first line of exercise id's cell.
func MarkerLine(id string, points int) string {
	unit := "points"
	if points == 1 {
		unit = "point"
	}
	return fmt.Sprintf("// Exercise %s (%d %s) — keep this line", id, points, unit)
}

// markerRE matches a marker line and captures the id and the points.
var markerRE = regexp.MustCompile(`^// Exercise (\S+) \((\d+) points?\)`)

// ParseMarker returns the exercise id and points of a marker line.
func ParseMarker(line string) (id string, points int, ok bool) {
	m := markerRE.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return "", 0, false
	}
	points, _ = strconv.Atoi(m[2])
	return m[1], points, true
}

// idRE is what an exercise id may be.
var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// parseAttributes sets c's Exercise, Points or Check from the info string
// of its fence ("go exercise=ID points=N" or "go check=ID").
func parseAttributes(name string, f fence, c *Cell) error {
	if f.info == "go" {
		return nil
	}
	bad := func(format string, args ...any) error {
		return &Error{Path: name, Line: f.line, Msg: fmt.Sprintf(format, args...)}
	}
	attrs := map[string]string{}
	for _, field := range strings.Fields(strings.TrimPrefix(f.info, "go ")) {
		k, v, ok := strings.Cut(field, "=")
		if !ok || v == "" {
			return bad("%q: want key=value", field)
		}
		if _, dup := attrs[k]; dup {
			return bad("%s given twice", k)
		}
		attrs[k] = v
	}
	switch {
	case attrs["exercise"] != "":
		if len(attrs) != 2 || attrs["points"] == "" {
			return bad("an exercise cell is ```go exercise=ID points=N, got %q", f.info)
		}
		n, err := strconv.Atoi(attrs["points"])
		if err != nil || n < 1 {
			return bad("points=%s: want a positive integer", attrs["points"])
		}
		c.Exercise, c.Points = attrs["exercise"], n
	case attrs["check"] != "":
		if len(attrs) != 1 {
			return bad("a check cell is ```go check=ID, got %q", f.info)
		}
		c.Check = attrs["check"]
	}
	for _, id := range []string{c.Exercise, c.Check} {
		if id != "" && !idRE.MatchString(id) {
			return bad("exercise id %q: use lower-case letters, digits and dashes", id)
		}
	}
	if c.Exercise != "" {
		if _, err := regions(c.Source, c.Exercise, false); err != nil {
			return bad("%v", err)
		}
	}
	return nil
}

// regions rewrites an exercise cell's source: with stub, each solution
// region becomes its stub; without, the marker lines are dropped.
func regions(src, id string, stub bool) (string, error) {
	var out, stubLines []string
	in, found := false, false
	indent := ""
	for i, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == BeginSolution:
			if in {
				return "", fmt.Errorf("line %d of the cell: %s inside a solution region", i+1, BeginSolution)
			}
			in, found, stubLines = true, true, nil
			indent = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		case t == EndSolution:
			if !in {
				return "", fmt.Errorf("line %d of the cell: %s without %s", i+1, EndSolution, BeginSolution)
			}
			in = false
			if stub {
				if len(stubLines) == 0 {
					stubLines = []string{
						"// TODO: write your code here",
						fmt.Sprintf("panic(\"TODO: exercise %s — write your code here\")", id),
					}
				}
				for _, s := range stubLines {
					out = append(out, indent+s)
				}
			}
		case in && strings.HasPrefix(t, StubPrefix):
			stubLines = append(stubLines, strings.TrimPrefix(t, StubPrefix))
		case in && stub:
			// solution code: dropped from the exercise
		default:
			out = append(out, line)
		}
	}
	if in {
		return "", fmt.Errorf("%s without %s", BeginSolution, EndSolution)
	}
	if !found {
		return "", fmt.Errorf("exercise %s has no %s … %s region", id, BeginSolution, EndSolution)
	}
	return strings.Join(out, "\n"), nil
}

// Exercise is the Transform of the learners' notebooks: every solution
// region becomes a stub, and exercise cells start with their marker line.
func Exercise(l *Lesson) ([]Cell, error) { return exerciseCells(l, true) }

// Solution is the Transform of the solutions' notebooks: the region
// markers are dropped, and exercise cells start with their marker line.
func Solution(l *Lesson) ([]Cell, error) { return exerciseCells(l, false) }

func exerciseCells(l *Lesson, stub bool) ([]Cell, error) {
	cells := make([]Cell, len(l.Cells))
	seen := map[string]bool{}
	for i, c := range l.Cells {
		if c.Exercise != "" {
			if seen[c.Exercise] {
				return nil, &Error{Path: l.Path, Line: c.Line, Msg: "exercise " + c.Exercise + " appears twice"}
			}
			seen[c.Exercise] = true
			src, err := regions(c.Source, c.Exercise, stub)
			if err != nil {
				return nil, &Error{Path: l.Path, Line: c.Line, Msg: err.Error()}
			}
			c.Source = MarkerLine(c.Exercise, c.Points) + "\n" + src
		}
		cells[i] = c
	}
	for _, c := range l.Cells {
		if c.Check != "" && !seen[c.Check] {
			return nil, &Error{Path: l.Path, Line: c.Line, Msg: "check of unknown exercise " + c.Check}
		}
	}
	return cells, nil
}
