package notebook

import (
	"fmt"
	"regexp"
	"strings"
)

// pointsRE matches the last line of a lib/check report.
var pointsRE = regexp.MustCompile(`(?m)^points: ([0-9.]+)/([0-9]+)`)

// Flavour returns the notebook's course.flavour metadata: "exercise",
// "solution", or "" for a lesson.
func Flavour(nb *Notebook) string {
	c, _ := nb.Metadata["course"].(map[string]any)
	f, _ := c["flavour"].(string)
	return f
}

// CheckFailures returns the check cells (metadata course.check) of an
// executed exercise or solution notebook that did not report as they
// should: every check cell must print a lib/check report ending in
// "points: X/Y", and with full, X must equal Y. An exercise notebook
// whose stubs panic with "TODO" passes (its checks report "not done
// yet" and 0 points, without failing the cell); a solution notebook must
// score full marks.
func CheckFailures(nb *Notebook, full bool) []Failure {
	var out []Failure
	n := 0
	for i, c := range nb.Cells {
		if c.Type != Code {
			continue
		}
		n++
		meta, _ := c.Metadata["course"].(map[string]any)
		id, _ := meta["check"].(string)
		if id == "" || failed(c) {
			continue
		}
		var text strings.Builder
		for _, o := range c.Outputs {
			if o.Type == Stream && o.Name == "stdout" {
				text.WriteString(o.Text)
			}
		}
		m := pointsRE.FindStringSubmatch(text.String())
		switch {
		case m == nil:
			out = append(out, Failure{Cell: n, Index: i, Source: c.Source,
				Text: fmt.Sprintf("the check of exercise %s printed no \"points: X/Y\" line", id)})
		case full && m[1] != m[2]:
			out = append(out, Failure{Cell: n, Index: i, Source: c.Source,
				Text: fmt.Sprintf("solution of exercise %s scores %s/%s, want full points:\n%s", id, m[1], m[2], text.String())})
		}
	}
	return out
}
