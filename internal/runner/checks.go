package runner

import (
	"fmt"
	"strings"

	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/notebook"
	"github.com/attention-in-go/course/lib/exercise"
)

// checkFailures returns the check cells (coursemeta.Cell.Check) of an
// executed exercise or solution notebook that did not report as they
// should: every check cell must print a lib/check report ending in
// "points: X/Y", and with full, X must equal Y. An exercise notebook
// whose stubs panic with "TODO" passes (its checks report "not done
// yet" and 0 points, without failing the cell); a solution notebook must
// score full marks.
func checkFailures(nb *notebook.Notebook, full bool) []Failure {
	_, cells, _ := coursemeta.Read(nb)
	var out []Failure
	n := 0
	for i, c := range nb.Cells {
		if c.Type != notebook.Code {
			continue
		}
		n++
		id := cells[i].Check
		if id == "" || failed(c) {
			continue
		}
		var text strings.Builder
		for _, o := range c.Outputs {
			if o.Type == notebook.Stream && o.Name == "stdout" {
				text.WriteString(o.Text)
			}
		}
		earned, max, ok := exercise.ParsePoints(text.String())
		switch {
		case !ok:
			out = append(out, Failure{Cell: n, Index: i, Source: c.Source,
				Text: fmt.Sprintf("the check of exercise %s printed no \"points: X/Y\" line", id)})
		case full && earned != float64(max):
			out = append(out, Failure{Cell: n, Index: i, Source: c.Source,
				Text: fmt.Sprintf("solution of exercise %s scores %s/%d, want full points:\n%s", id, exercise.FormatPoints(earned), max, text.String())})
		}
	}
	return out
}
