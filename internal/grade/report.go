package grade

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/attention-in-go/course/lib/exercise"
)

// This file writes what the instructor reads and sends: the gradebook
// and the feedback files. Everything in them that a learner controls
// (names, panic messages, compiler messages quoting their code, the
// values their functions returned) is escaped: no control character
// reaches a terminal or an editor, no cell of the CSV starts a formula,
// and no text leaves its code fence in the Markdown.

// printable escapes control and invisible formatting characters (ANSI
// escapes, bidirectional overrides, …) as \x.. or \u...., keeping
// newlines and tabs.
func printable(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// csvCell makes s safe for a spreadsheet: printable, on one line, and
// not read as a formula (a leading = + - @ gets a ').
func csvCell(s string) string {
	s = strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(printable(s))
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		s = "'" + s
	}
	return s
}

func writeGradebook(path string, gs []Graded, run Run) error {
	var b strings.Builder
	w := csv.NewWriter(&b)
	seed := strconv.FormatUint(run.Seed, 10)
	w.Write([]string{"learner", "exercise", "points", "max_points", "status", "seed", "sandboxed", "notes"})
	for _, g := range sortedByLearner(gs) {
		// Per learner: a regrade may have run otherwise than the class.
		sandboxed := "yes"
		if g.Unsandboxed {
			sandboxed = "NO (-unsandboxed)"
		}
		for _, s := range g.Scores {
			w.Write([]string{csvCell(g.Learner), csvCell(s.Exercise), exercise.FormatPoints(s.Points), fmt.Sprint(s.Max), csvCell(string(s.Status)), seed, sandboxed, ""})
		}
		t, m := g.total()
		w.Write([]string{csvCell(g.Learner), "total", exercise.FormatPoints(t), fmt.Sprint(m), "", seed, sandboxed, csvCell(strings.Join(g.Notes, "; "))})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return writeFileAtomic(path, []byte(b.String()))
}

// sortedByLearner is a copy of gs in learners' name order.
func sortedByLearner(gs []Graded) []Graded {
	sorted := append([]Graded(nil), gs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Learner < sorted[j].Learner })
	return sorted
}

// mdSpecial are the characters that start Markdown markup inside a line.
var mdSpecial = regexp.MustCompile("[\\\\`*_\\[\\]<>|~]")

// mdText escapes s for Markdown prose.
func mdText(s string) string {
	return mdSpecial.ReplaceAllString(strings.ReplaceAll(printable(s), "\n", " "), `\$0`)
}

// fenced puts s in a code block whose fence is longer than any run of
// backticks in s, so that nothing in s can close it.
func fenced(s string) string {
	s = printable(s)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + "text\n" + s + "\n" + fence + "\n"
}

func feedback(g Graded, a *Assignment, run Run) string {
	var b strings.Builder
	t, m := g.total()
	fmt.Fprintf(&b, "# Feedback for %s — %s\n\nTotal: **%s / %d** points.\n\n", mdText(g.Learner), a.Slug, exercise.FormatPoints(t), m)
	if run.Unsandboxed {
		b.WriteString("> Graded without a sandbox (the instructor's -unsandboxed choice).\n\n")
	}
	for _, n := range g.Notes {
		fmt.Fprintf(&b, "> Note: %s\n\n", mdText(n))
	}
	b.WriteString("| exercise | points | status |\n|---|---|---|\n")
	for _, s := range g.Scores {
		fmt.Fprintf(&b, "| %s | %s / %d | %s |\n", mdText(s.Exercise), exercise.FormatPoints(s.Points), s.Max, mdText(string(s.Status)))
	}
	for _, s := range g.Scores {
		fmt.Fprintf(&b, "\n## %s\n\n%s", mdText(s.Exercise), fenced(strings.TrimRight(s.Details, "\n")))
	}
	return b.String()
}

var unsafeRE = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName is a file name for a learner's name.
func safeName(s string) string {
	s = unsafeRE.ReplaceAllString(s, "_")
	if s == "" || s[0] == '.' || s[0] == '-' {
		s = "_" + s
	}
	if len(s) > 100 {
		s = s[:100]
	}
	return s
}

// feedbackNames gives every submission a feedback file name: its safe
// name, and where two safe names clash ("a b" and "a_b"), each followed
// by a hash of the learner's name — distinct, and the same on every run.
func feedbackNames(subs []Submission) []string {
	names := make([]string, len(subs))
	count := map[string]int{}
	for i, s := range subs {
		names[i] = safeName(s.Learner)
		count[strings.ToLower(names[i])]++
	}
	for i, s := range subs {
		if count[strings.ToLower(names[i])] > 1 {
			h := sha256.Sum256([]byte(s.Learner))
			names[i] += "-" + hex.EncodeToString(h[:4])
		}
	}
	return names
}
