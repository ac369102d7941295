package runner

import (
	"fmt"
	"strings"

	"github.com/attention-in-go/course/internal/notebook"
)

// MissingFigures returns the code cells that call show (for the course,
// "viz.Show") more often than they display images, and did not already fail
// for another reason. A figure can go missing without any error: a cell's
// program that exits while GoNB is still reading the image, or a figure
// drawn outside a notebook-aware path. Calls on comment lines do not count;
// a call in a loop may show more images than it has calls, which is fine.
func MissingFigures(nb *notebook.Notebook, show string) []Failure {
	var missing []Failure
	n := 0
	for i, c := range nb.Cells {
		if c.Type != notebook.Code {
			continue
		}
		n++
		calls := 0
		for line := range strings.Lines(c.Source) {
			code, _, _ := strings.Cut(line, "//")
			calls += strings.Count(code, show+"(")
		}
		if calls == 0 || failed(c) {
			continue
		}
		images := 0
		for _, o := range c.Outputs {
			if isImage(o) {
				images++
			}
		}
		if images < calls {
			missing = append(missing, Failure{Cell: n, Index: i, Source: c.Source,
				Text: fmt.Sprintf("the cell calls %s %d time(s) but displays %d image(s): a figure was lost", show, calls, images)})
		}
	}
	return missing
}
