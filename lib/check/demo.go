package check

import (
	"fmt"
	"strings"

	"github.com/attention-in-go/course/lib/viz"
)

// Demo runs the body of a notebook cell that uses the learner's functions
// after their exercise — a plot or a table of what the function computes.
// While one of those functions is still the exercise stub (it panics with
// "TODO…"), Demo prints a short note instead of failing the cell, so an
// untouched exercise notebook runs from top to bottom. Any other panic is
// the learner's to see and is passed on unchanged.
//
// Introduced in lesson 03's exercises.
func Demo(body func()) {
	defer func() {
		if r := recover(); r != nil {
			if msg := fmt.Sprint(r); strings.HasPrefix(msg, "TODO") {
				fmt.Printf("(this cell uses an exercise that is not done yet: %s)\n", msg)
				return
			}
			panic(r)
		}
	}()
	body()
}

// DemoFigure is [Demo] for a cell that draws a figure: it shows the figure
// build returns, or the note when an exercise it uses is not done yet.
//
// Introduced in lesson 03's exercises.
func DemoFigure(build func() viz.Figure) {
	Demo(func() { viz.Show(build()) })
}
