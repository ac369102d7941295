package exercise

import (
	"strconv"
	"strings"
)

// pointsPrefix starts the points line of a check's report.
const pointsPrefix = "points: "

// NotDoneNote is the note of the points line of an exercise whose
// function still panics with "TODO".
const NotDoneNote = `not done yet: replace the panic("TODO…") with your code`

// PointsLine returns the line that ends a check's report, without a line
// break: "points: X/Y", where X is earned as [FormatPoints] writes it and
// Y is max, followed by two spaces, a dash and note when note is not
// empty ("points: 0/2  — " + [NotDoneNote]). [ParsePoints] reads it back.
func PointsLine(earned float64, max int, note string) string {
	s := pointsPrefix + FormatPoints(earned) + "/" + strconv.Itoa(max)
	if note != "" {
		s += "  — " + note
	}
	return s
}

// FormatPoints writes points with at most two decimals and no trailing
// zeros: 2, 2.5, 0.33.
func FormatPoints(p float64) string {
	return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(p, 'f', 2, 64), "0"), ".")
}

// ParsePoints returns the points earned and the maximum stated by the
// first line of text that starts with a points line (see [PointsLine]),
// and whether there is one. What follows the numbers on that line, such
// as a note, is ignored.
func ParsePoints(text string) (earned float64, max int, ok bool) {
	for line := range strings.Lines(text) {
		rest, found := strings.CutPrefix(line, pointsPrefix)
		if !found {
			continue
		}
		x, y, found := strings.Cut(rest, "/")
		if !found || x == "" || strings.Trim(x, "0123456789.") != "" {
			continue
		}
		end := strings.IndexFunc(y, func(r rune) bool { return r < '0' || r > '9' })
		if end < 0 {
			end = len(y)
		}
		e, err1 := strconv.ParseFloat(x, 64)
		m, err2 := strconv.Atoi(y[:end])
		if err1 != nil || err2 != nil {
			continue
		}
		return e, m, true
	}
	return 0, 0, false
}
