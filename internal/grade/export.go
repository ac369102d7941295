package grade

import (
	"encoding/csv"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/attention-in-go/course/lib/exercise"
)

// This file writes the gradebook in the grade-import formats of two
// learning management systems, next to gradebook.csv: OUT/canvas.csv and
// OUT/moodle.csv, one row per learner with the assignment's total.

// LMSID says which identifier of the learning management system the
// learners' names (their submission's file or folder name) are.
type LMSID string

const (
	LMSLogin  LMSID = "login" // Canvas's SIS Login ID, Moodle's username
	LMSSIS    LMSID = "sis"   // Canvas's SIS User ID, Moodle's ID number
	LMSUserID LMSID = "id"    // Canvas's and Moodle's own numeric user id
	LMSEmail  LMSID = "email" // Moodle's email address (Canvas cannot match by it)
)

// LMSIDs are the identifiers -lms-id accepts.
var LMSIDs = []LMSID{LMSLogin, LMSSIS, LMSUserID, LMSEmail}

// Export configures the LMS exports.
type Export struct {
	ID LMSID // what the learners' names are; "" means LMSLogin
	// Column is the assignment's column: the name of the LMS assignment
	// the grades go to ("" means the assignment's slug). Canvas matches
	// it with an assignment "Name (id)" of the course, or creates one.
	Column string
}

func (x Export) id() LMSID {
	if x.ID == "" {
		return LMSLogin
	}
	return x.ID
}

func (x Export) column(a *Assignment) string {
	if x.Column == "" {
		return a.Slug
	}
	return x.Column
}

// canvasColumn is the column of Canvas's gradebook import that holds the
// learner's identifier, or "" when Canvas cannot match learners by it.
func (x Export) canvasColumn() string {
	switch x.id() {
	case LMSLogin:
		return "SIS Login ID"
	case LMSSIS:
		return "SIS User ID"
	case LMSUserID:
		return "ID"
	}
	return ""
}

// moodleColumn is the header of the learner's identifier in the Moodle
// file, named after the user field it maps to in Moodle's CSV import
// ("Identify user by": map from this column to that field).
func (x Export) moodleColumn() string {
	switch x.id() {
	case LMSSIS:
		return "ID number"
	case LMSUserID:
		return "User ID"
	case LMSEmail:
		return "Email address"
	}
	return "Username"
}

// canvasDownload is the name Canvas gives a submission in the archive of
// an assignment's submissions: the learner's name in lower case, "late"
// for a late one, the learner's Canvas user id, the submission's id and
// the file's name ("smithjane_late_12345_67890_01-…ipynb").
var canvasDownload = regexp.MustCompile(`^([a-z0-9]+)_(?:late_)?([0-9]+)_[0-9]+_`)

// identifier is the learner's identifier in the LMS: the learner's name
// (the submission's file or folder name), or, with LMSUserID, the user id
// in a name from Canvas's archive of submissions.
func (x Export) identifier(learner string) string {
	if x.id() == LMSUserID {
		if m := canvasDownload.FindStringSubmatch(strings.ToLower(learner)); m != nil {
			return m[2]
		}
	}
	return learner
}

// exportable splits gs into the learners the exports can hold and the
// reasons the others are left out: a grader error (their total would
// count it as 0 — regrade them first), or a name that cannot be an LMS
// identifier as it is (the exports write identifiers verbatim, so that
// they match, and refuse what a spreadsheet would run as a formula).
func exportable(gs []Graded, x Export) (ok []Graded, left []string) {
	for _, g := range sortedByLearner(gs) {
		id := x.identifier(g.Learner)
		switch {
		case slices.ContainsFunc(g.Scores, func(s Score) bool { return s.Status == StatusGraderError }):
			left = append(left, fmt.Sprintf("%s: a grader error — regrade with -learner %q", printable(g.Learner), g.Learner))
		case id == "" || csvCell(id) != id || strings.ContainsAny(id, ",\"\r\n"):
			left = append(left, fmt.Sprintf("%s: the name is not an LMS identifier as it is — rename the submission to the learner's %s", printable(g.Learner), x.id()))
		default:
			ok = append(ok, g)
		}
	}
	return ok, left
}

// canvasCSV is Canvas's gradebook import: Student, ID, SIS User ID, SIS
// Login ID, Section and the assignment's column, one row per learner of
// gs (see exportable), the learner's identifier in the column x.ID names
// and the learner's name as Student.
func canvasCSV(gs []Graded, a *Assignment, x Export) ([]byte, error) {
	idCol := x.canvasColumn()
	if idCol == "" {
		return nil, fmt.Errorf("canvas matches learners by ID, SIS User ID or SIS Login ID, not by %s", x.id())
	}
	header := []string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", csvCell(x.column(a))}
	at := map[string]int{"ID": 1, "SIS User ID": 2, "SIS Login ID": 3}[idCol]
	return writeCSV(header, gs, func(g Graded) []string {
		row := make([]string, len(header))
		row[0], row[at] = csvCell(g.Learner), x.identifier(g.Learner)
		t, _ := g.total()
		row[5] = exercise.FormatPoints(t)
		return row
	})
}

// moodleCSV is a file for Moodle's grade import from CSV: the learner's
// identifier, the assignment's total and a feedback column with the
// points of every exercise.
func moodleCSV(gs []Graded, a *Assignment, x Export) ([]byte, error) {
	col := csvCell(x.column(a))
	header := []string{x.moodleColumn(), col, col + " feedback"}
	return writeCSV(header, gs, func(g Graded) []string {
		t, m := g.total()
		var parts []string
		for _, s := range g.Scores {
			parts = append(parts, fmt.Sprintf("%s %s/%d", s.Exercise, exercise.FormatPoints(s.Points), s.Max))
		}
		fb := fmt.Sprintf("%s/%d: %s", exercise.FormatPoints(t), m, strings.Join(parts, ", "))
		return []string{x.identifier(g.Learner), exercise.FormatPoints(t), csvCell(fb)}
	})
}

func writeCSV(header []string, gs []Graded, row func(Graded) []string) ([]byte, error) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(header)
	for _, g := range sortedByLearner(gs) {
		w.Write(row(g))
	}
	w.Flush()
	return []byte(b.String()), w.Error()
}
