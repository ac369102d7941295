package grade

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/attention-in-go/course/lib/exercise"
)

// This file sums up a graded class for the instructor's report
// (classreport.go writes it): how the class did on each exercise, which
// mistakes were common, and who needs a word.

// Class is what the class report says.
type Class struct {
	Assignment string // lessons/exercises/NN-slug.md
	Slug       string
	Learners   int
	Total      Distribution // the learners' totals
	Exercises  []ExerciseSummary
	// Common are the most frequent mistakes over all exercises, by the
	// number of learners who made them.
	Common []MistakeSummary
	// Attention lists the learners who need a word, grouped by why.
	Attention []AttentionGroup
	Run       RunInfo
}

// RunInfo is what the report says of the grading run.
type RunInfo struct {
	Seed        uint64
	Unsandboxed int // learners graded without the sandbox
	Version     string
	GoVersion   string
	Started     time.Time
	Took        time.Duration // the whole run
	Graded      int           // submissions graded in this run (not read from the cache)
	Cached      int
	Regraded    []string // the learners of a -learner run
	// Notes are what the instructor should know of the run: how a
	// regrade differs from the class run, learners new to the class.
	Notes []string
}

// Distribution is how a set of learners' points spread over 0…Max.
type Distribution struct {
	Max          float64
	N            int
	Mean, Median float64
	Full         int // learners at full marks
	Buckets      []Bucket
}

// FullShare is the share of learners at full marks.
func (d Distribution) FullShare() float64 {
	if d.N == 0 {
		return 0
	}
	return float64(d.Full) / float64(d.N)
}

// Bucket counts the learners whose points are in [Lo, Hi), or equal Lo
// when Lo == Hi (full marks have a bucket of their own).
type Bucket struct {
	Lo, Hi float64
	Count  int
}

// Label names the bucket by the points it holds: "1.5", or "3–3.75"
// (points are quarter points).
func (b Bucket) Label() string {
	last := b.Hi - 0.25
	if b.Hi == b.Lo || last <= b.Lo {
		return exercise.FormatPoints(b.Lo)
	}
	return exercise.FormatPoints(b.Lo) + "–" + exercise.FormatPoints(last)
}

// ExerciseSummary is how the class did on one exercise.
type ExerciseSummary struct {
	ID       string
	Points   Distribution
	Statuses []StatusCount // most frequent first
	Mistakes []MistakeSummary
	// Unrecognised counts the learners with a failed case that looks
	// like no known mistake.
	Unrecognised int
}

// StatusCount is how many learners an exercise status has.
type StatusCount struct {
	Status   Status
	Learners int
}

// MistakeSummary is one usual mistake and how many learners made it.
type MistakeSummary struct {
	Exercise string
	Hint     string
	Message  string
	Learners int
	// Example is one learner's output against the reference (the first
	// learner in name order who made it), without the learner's name.
	Example string
}

// AttentionGroup is the learners who need a word for one reason.
type AttentionGroup struct {
	Why     string // "refused or flagged code", "time-outs", …
	Entries []AttentionEntry
}

// AttentionEntry is one learner's reason for attention.
type AttentionEntry struct {
	Learner   string
	Exercises []string // none when it concerns the whole submission
	Statuses  []Status // each once
	Detail    string   // the first exercise's problem, in a line
}

// Summarize sums up gs, the graded class of assignment a.
func Summarize(gs []Graded, a *Assignment, info RunInfo) *Class {
	gs = sortedByLearner(gs)
	c := &Class{Assignment: a.Source, Slug: a.Slug, Learners: len(gs), Run: info}
	maxTotal := 0
	for _, e := range a.Exercises {
		maxTotal += e.Points
	}
	totals := make([]float64, len(gs))
	for i, g := range gs {
		totals[i], _ = g.total()
		if g.Unsandboxed {
			c.Run.Unsandboxed++
		}
	}
	c.Total = distribution(totals, float64(maxTotal))
	for _, e := range a.Exercises {
		c.Exercises = append(c.Exercises, summarizeExercise(e, gs))
	}
	for _, e := range c.Exercises {
		c.Common = append(c.Common, e.Mistakes...)
	}
	slices.SortStableFunc(c.Common, func(x, y MistakeSummary) int { return cmp.Compare(y.Learners, x.Learners) })
	c.Common = c.Common[:min(len(c.Common), 10)]
	c.Attention = attention(gs)
	return c
}

func summarizeExercise(e Exercise, gs []Graded) ExerciseSummary {
	s := ExerciseSummary{ID: e.ID}
	var points []float64
	statuses := map[Status]int{}
	mistakes := map[string]*MistakeSummary{}
	var order []string
	for _, g := range gs {
		i := slices.IndexFunc(g.Scores, func(sc Score) bool { return sc.Exercise == e.ID })
		if i < 0 {
			continue
		}
		sc := g.Scores[i]
		points = append(points, sc.Points)
		statuses[sc.Status]++
		if sc.Unrecognised > 0 {
			s.Unrecognised++
		}
		for _, m := range sc.Mistakes {
			ms := mistakes[m.Hint]
			if ms == nil {
				ms = &MistakeSummary{Exercise: e.ID, Hint: m.Hint, Message: m.Message, Example: m.Example}
				mistakes[m.Hint] = ms
				order = append(order, m.Hint)
			}
			ms.Learners++
		}
	}
	s.Points = distribution(points, float64(e.Points))
	for st, n := range statuses {
		s.Statuses = append(s.Statuses, StatusCount{st, n})
	}
	slices.SortFunc(s.Statuses, func(x, y StatusCount) int {
		return cmp.Or(cmp.Compare(y.Learners, x.Learners), cmp.Compare(x.Status, y.Status))
	})
	for _, h := range order {
		s.Mistakes = append(s.Mistakes, *mistakes[h])
	}
	slices.SortStableFunc(s.Mistakes, func(x, y MistakeSummary) int { return cmp.Compare(y.Learners, x.Learners) })
	return s
}

// distribution sums up points out of max. The buckets are one per
// quarter point up to 4 points, else one per point ([k, k+1)), with full
// marks in a bucket of their own.
func distribution(points []float64, max float64) Distribution {
	d := Distribution{Max: max, N: len(points)}
	step := 1.0
	if max <= 4 {
		step = 0.25
	}
	for lo := 0.0; lo < max; lo += step {
		d.Buckets = append(d.Buckets, Bucket{Lo: lo, Hi: math.Min(lo+step, max)})
	}
	d.Buckets = append(d.Buckets, Bucket{Lo: max, Hi: max})
	if len(points) == 0 {
		return d
	}
	sorted := slices.Sorted(slices.Values(points))
	sum := 0.0
	for _, p := range sorted {
		sum += p
		switch {
		case p >= max:
			d.Full++
			d.Buckets[len(d.Buckets)-1].Count++
		default:
			k := int(math.Floor(math.Max(p, 0) / step))
			d.Buckets[min(k, len(d.Buckets)-2)].Count++
		}
	}
	d.Mean = sum / float64(len(sorted))
	n := len(sorted)
	d.Median = sorted[n/2]
	if n%2 == 0 {
		d.Median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	return d
}

// The reasons a learner needs a word, in the order the report lists
// them.
const (
	whyRefused     = "refused or flagged code"
	whyTimeout     = "time-outs"
	whyCrashed     = "crashes and panics"
	whyCompile     = "code that does not compile"
	whyMalformed   = "results the grader could not read, or no function given"
	whyMissing     = "missing exercise cells"
	whyNoNotebook  = "no usable notebook"
	whyNothing     = "nothing attempted"
	whyGrader      = "grader errors (the grader's problem, not the learner's: grade them again)"
	whyUnsandboxed = "graded without the sandbox"
)

var whyOrder = []string{whyRefused, whyTimeout, whyCrashed, whyCompile, whyMalformed, whyMissing, whyNoNotebook, whyNothing, whyGrader, whyUnsandboxed}

// attention lists the learners who need a word, once per reason, in
// learner order. A submission where nothing was attempted (every exercise
// still a TODO or missing) is listed as that alone.
func attention(gs []Graded) []AttentionGroup {
	groups := map[string][]AttentionEntry{}
	for _, g := range sortedByLearner(gs) {
		mine := map[string]*AttentionEntry{}
		var order []string
		add := func(why, exercise string, s Score) {
			e := mine[why]
			if e == nil {
				e = &AttentionEntry{Learner: g.Learner, Detail: firstLine(s.Details, 200)}
				mine[why] = e
				order = append(order, why)
			}
			if exercise != "" {
				e.Exercises = append(e.Exercises, exercise)
			}
			if s.Status != "" && !slices.Contains(e.Statuses, s.Status) {
				e.Statuses = append(e.Statuses, s.Status)
			}
		}
		nothing := len(g.Scores) > 0
		for _, s := range g.Scores {
			if s.Status != StatusNotDone && s.Status != StatusMissing {
				nothing = false
			}
		}
		if nothing {
			add(whyNothing, "", Score{Status: StatusNotDone, Details: "every exercise still panics with TODO or is missing"})
		}
		for _, s := range g.Scores {
			switch {
			case nothing:
			case strings.HasPrefix(string(s.Status), "flagged:"):
				add(whyRefused, s.Exercise, s)
			case s.Status == StatusTimeout || s.TimedOut > 0:
				add(whyTimeout, s.Exercise, s)
			case s.Status == StatusCrashed || s.Panicked > 0:
				add(whyCrashed, s.Exercise, s)
			case s.Status == StatusCompileError:
				add(whyCompile, s.Exercise, s)
			case s.Status == StatusMalformedResult || s.Status == StatusNoFunction:
				add(whyMalformed, s.Exercise, s)
			case s.Status == StatusMissing:
				add(whyMissing, s.Exercise, s)
			case s.Status == StatusGraderError:
				add(whyGrader, s.Exercise, s)
			case s.Status == StatusNoSubmission || s.Status == StatusBrokenNotebook:
				add(whyNoNotebook, "", s) // the whole submission: once
			}
		}
		if g.Unsandboxed {
			add(whyUnsandboxed, "", Score{Details: "the submission's code ran as the instructor (-unsandboxed)"})
		}
		for _, why := range order {
			groups[why] = append(groups[why], *mine[why])
		}
	}
	var out []AttentionGroup
	for _, why := range whyOrder {
		if len(groups[why]) > 0 {
			out = append(out, AttentionGroup{Why: why, Entries: groups[why]})
		}
	}
	return out
}

// firstLine is the first line of s that says what went wrong: past its
// "Exercise …" title and the cases that passed, with the next line too
// when it ends in a colon ("your code does not compile:"); at most n
// runes.
func firstLine(s string, n int) string {
	var out string
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "Exercise ") || strings.HasPrefix(line, "✓") {
			continue
		}
		out += line
		if !strings.HasSuffix(line, ":") {
			break
		}
		out += " "
	}
	out = strings.TrimSpace(out)
	if r := []rune(out); len(r) > n {
		out = string(r[:n-1]) + "…"
	}
	return out
}

// String is the distribution in one line: "mean 2.1, median 2.5, 40 % at full marks (12 of 30)".
func (d Distribution) String() string {
	return fmt.Sprintf("mean %s, median %s, %.0f %% at full marks (%d of %d)",
		exercise.FormatPoints(d.Mean), exercise.FormatPoints(d.Median), 100*d.FullShare(), d.Full, d.N)
}
