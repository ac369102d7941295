package grade

import (
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/lib/exercise"
	xhtml "golang.org/x/net/html"
)

// classAssignment is a synthetic assignment: a 2-point, a 3-point and a
// 4-point exercise (totals out of 9, so the totals' buckets are whole
// points and the exercises' quarter points).
var classAssignment = &Assignment{Source: "lessons/exercises/99-class.md", Slug: "99-class",
	Exercises: []Exercise{{ID: "small", Points: 2}, {ID: "medium", Points: 3}, {ID: "large", Points: 4}}}

// hints of the synthetic class, per exercise.
var classHints = map[string][]string{"small": {"swapped-axes", "no-scale"}, "medium": {"inverted-mask"}, "large": {"off-by-one", "ties", "pad-zero"}}

// syntheticClass is n learners with points drawn on quarter points, a
// few usual mistakes each, and every kind of trouble sprinkled in.
func syntheticClass(n int, seed uint64) []Graded {
	r := rand.New(rand.NewPCG(seed, 1))
	gs := make([]Graded, n)
	for i := range gs {
		g := Graded{Learner: fmt.Sprintf("learner%04d", i), File: fmt.Sprintf("learner%04d", i)}
		for _, e := range classAssignment.Exercises {
			s := Score{Exercise: e.ID, Max: e.Points, Points: float64(r.IntN(4*e.Points+1)) / 4, Status: StatusPartial}
			switch {
			case s.Points == float64(e.Points):
				s.Status = StatusOK
			case r.IntN(10) == 0:
				s.Points, s.Status = 0, StatusTimeout
			case r.IntN(10) == 0:
				s.Points, s.Status = 0, notAllowed("lib/precision.Softmax")
			case r.IntN(12) == 0: // a case panicked, or did not return
				if r.IntN(2) == 0 {
					s.Panicked = 1 + r.IntN(3)
				} else {
					s.TimedOut = 1
				}
			default:
				for _, h := range classHints[e.ID] {
					if r.IntN(3) == 0 {
						s.Mistakes = append(s.Mistakes, Mistake{Hint: h, Message: "did you " + h + "?", Cases: 1 + r.IntN(3),
							Example: fmt.Sprintf("row %d: got %d, want %d", i, i, i+1)})
					}
				}
				if r.IntN(4) == 0 {
					s.Unrecognised = 1
				}
			}
			g.Scores = append(g.Scores, s)
		}
		gs[i] = g
	}
	return gs
}

// TestSummarize checks the report's numbers against counts made
// directly from the learners' scores.
func TestSummarize(t *testing.T) {
	gs := syntheticClass(257, 7)
	// Three learners with nothing done, one broken notebook, one
	// graded unsandboxed.
	for i := range 3 {
		for j := range gs[i].Scores {
			gs[i].Scores[j].Points, gs[i].Scores[j].Status, gs[i].Scores[j].Mistakes, gs[i].Scores[j].Unrecognised = 0, StatusNotDone, nil, 0
		}
	}
	for j := range gs[3].Scores {
		gs[3].Scores[j] = Score{Exercise: gs[3].Scores[j].Exercise, Max: gs[3].Scores[j].Max, Status: StatusBrokenNotebook, Details: "the file is not JSON"}
	}
	gs[4].Unsandboxed = true
	// The report sorts by name; the input order must not matter.
	shuffled := slices.Clone(gs)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	c := Summarize(shuffled, classAssignment, RunInfo{})

	if c.Learners != len(gs) || c.Run.Unsandboxed != 1 {
		t.Errorf("learners %d, unsandboxed %d; want %d, 1", c.Learners, c.Run.Unsandboxed, len(gs))
	}
	// The distributions: every quarter-point value counted directly.
	check := func(name string, d Distribution, points []float64, max float64) {
		t.Helper()
		if d.N != len(points) || d.Max != max {
			t.Errorf("%s: N %d, max %v; want %d, %v", name, d.N, d.Max, len(points), max)
		}
		sum, full := 0.0, 0
		for _, p := range points {
			sum += p
			if p == max {
				full++
			}
		}
		sorted := slices.Sorted(slices.Values(points))
		median := (sorted[(len(sorted)-1)/2] + sorted[len(sorted)/2]) / 2
		if math.Abs(d.Mean-sum/float64(len(points))) > 1e-12 || d.Median != median || d.Full != full {
			t.Errorf("%s: mean %v median %v full %d; want %v %v %d", name, d.Mean, d.Median, d.Full, sum/float64(len(points)), median, full)
		}
		total := 0
		for _, b := range d.Buckets {
			want := 0
			for _, p := range points {
				// A bucket holds Lo, the quarter points up to its label's
				// last value, or exactly max.
				last := b.Lo
				if b.Hi > b.Lo {
					last = b.Hi - 0.25
				}
				if p >= b.Lo && p <= last && (p < max || b.Lo == max) {
					want++
				}
			}
			if b.Count != want {
				t.Errorf("%s: bucket %s holds %d, want %d", name, b.Label(), b.Count, want)
			}
			total += b.Count
		}
		if total != len(points) {
			t.Errorf("%s: buckets hold %d learners of %d", name, total, len(points))
		}
	}
	var totals []float64
	for _, g := range gs {
		t, _ := g.total()
		totals = append(totals, t)
	}
	check("totals", c.Total, totals, 9)
	if got := len(c.Total.Buckets); got != 10 { // 0, 1, …, 8 and 9
		t.Errorf("totals: %d buckets, want 10 (one per point and full marks)", got)
	}
	if got := c.Exercises[2].Points.Buckets; len(got) != 17 || got[1].Label() != "0.25" || got[16].Label() != "4" {
		t.Errorf("exercise large: buckets %v, want one per quarter point 0 … 4", got)
	}
	for k, e := range classAssignment.Exercises {
		var points []float64
		statuses := map[Status]int{}
		hints := map[string]int{}
		unrecognised := 0
		for _, g := range gs {
			s := g.Scores[k]
			points = append(points, s.Points)
			statuses[s.Status]++
			for _, m := range s.Mistakes {
				hints[m.Hint]++
			}
			if s.Unrecognised > 0 {
				unrecognised++
			}
		}
		es := c.Exercises[k]
		check(e.ID, es.Points, points, float64(e.Points))
		if len(es.Statuses) != len(statuses) {
			t.Errorf("%s: %d statuses, want %d", e.ID, len(es.Statuses), len(statuses))
		}
		for i, s := range es.Statuses {
			if s.Learners != statuses[s.Status] || (i > 0 && s.Learners > es.Statuses[i-1].Learners) {
				t.Errorf("%s: status %q has %d learners (want %d), or is out of order", e.ID, s.Status, s.Learners, statuses[s.Status])
			}
		}
		if len(es.Mistakes) != len(hints) {
			t.Errorf("%s: %d mistakes, want %d", e.ID, len(es.Mistakes), len(hints))
		}
		for i, m := range es.Mistakes {
			if m.Learners != hints[m.Hint] || (i > 0 && m.Learners > es.Mistakes[i-1].Learners) {
				t.Errorf("%s: mistake %s has %d learners (want %d), or is out of order", e.ID, m.Hint, m.Learners, hints[m.Hint])
			}
			if strings.Contains(m.Example, "learner") {
				t.Errorf("%s: the example names a learner: %q", e.ID, m.Example)
			}
		}
		if es.Unrecognised != unrecognised {
			t.Errorf("%s: %d unrecognised, want %d", e.ID, es.Unrecognised, unrecognised)
		}
	}
	for i, m := range c.Common {
		if i > 0 && m.Learners > c.Common[i-1].Learners {
			t.Errorf("common mistakes out of order: %v", c.Common)
		}
	}
	// Attention: each group holds exactly the learners with its status,
	// once each, with the exercises concerned.
	exercisesOf := map[string]map[string]string{} // group → learner → exercises
	count := func(why string, ok func(Score) bool) int {
		exercisesOf[why] = map[string]string{}
		for _, g := range gs {
			var ids []string
			for _, s := range g.Scores {
				if ok(s) {
					ids = append(ids, s.Exercise)
				}
			}
			if ids != nil {
				exercisesOf[why][g.Learner] = strings.Join(ids, ", ")
			}
		}
		return len(exercisesOf[why])
	}
	want := map[string]int{
		whyRefused:     count(whyRefused, func(s Score) bool { return strings.HasPrefix(string(s.Status), "flagged:") }),
		whyTimeout:     count(whyTimeout, func(s Score) bool { return s.Status == StatusTimeout || s.TimedOut > 0 }),
		whyCrashed:     count(whyCrashed, func(s Score) bool { return s.Panicked > 0 }),
		whyNoNotebook:  1,
		whyNothing:     3,
		whyUnsandboxed: 1,
	}
	got := map[string]int{}
	for _, g := range c.Attention {
		got[g.Why] = len(g.Entries)
		for _, e := range g.Entries {
			if want, ok := exercisesOf[g.Why][e.Learner]; ok && strings.Join(e.Exercises, ", ") != want {
				t.Errorf("attention %q: %s's exercises %q, want %q", g.Why, e.Learner, e.Exercises, want)
			}
		}
	}
	for why, n := range want {
		if got[why] != n {
			t.Errorf("attention %q: %d entries, want %d", why, got[why], n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("attention groups %v, want %v", got, want)
	}
}

// hostileClass is a class whose names, statuses and outputs try to
// break out of the report's HTML, Markdown and CSV.
func hostileClass() []Graded {
	names := []string{`<script>alert("name")</script>`, "=HYPERLINK(\"http://x\")", "| pipe | `tick` *bold*", "\x1b[31mred\x1b[0m", "ok"}
	var gs []Graded
	for i, n := range names {
		g := Graded{Learner: n, File: safeName(n), Notes: []string{"<b>note</b>"}}
		for _, e := range classAssignment.Exercises {
			g.Scores = append(g.Scores, Score{Exercise: e.ID, Max: e.Points, Points: float64(i % 2), Status: StatusCrashed,
				Details: "panic: </pre><img src=x onerror=alert(1)>",
				Mistakes: []Mistake{{Hint: "swapped-axes", Message: "did you swap?",
					Example: "got </pre><script>alert(2)</script> ```` fence \x1b[2J"}}})
		}
		gs = append(gs, g)
	}
	return gs
}

func TestReportEscapesWhatLearnersWrote(t *testing.T) {
	html, md, err := Report(hostileClass(), classAssignment, RunInfo{Started: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	// The page, parsed as a browser would: no script, no event handler,
	// no element a learner wrote; every <img> one of the report's
	// figures (an SVG in a data URL: one per exercise and the totals').
	doc, err := xhtml.Parse(bytes.NewReader(html))
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true,
		"h1": true, "h2": true, "h3": true, "p": true, "nav": true, "a": true, "figure": true, "img": true, "table": true,
		"tbody": true, "tr": true, "th": true, "td": true, "pre": true, "code": true, "small": true, "strong": true, "br": true}
	figures := 0
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode {
			if !allowed[n.Data] {
				t.Errorf("report.html has a <%s> element", n.Data)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(strings.ToLower(a.Key), "on") {
					t.Errorf("report.html has an event handler %s=%q", a.Key, a.Val)
				}
				if n.Data == "img" && a.Key == "src" {
					data, ok := strings.CutPrefix(a.Val, "data:image/svg+xml;base64,")
					svg, err := base64.StdEncoding.DecodeString(data)
					if !ok || err != nil || !bytes.Contains(svg, []byte("<svg")) {
						t.Errorf("an image is not an SVG data URL: %.80q", a.Val)
					}
					figures++
				}
				if n.Data == "a" && a.Key == "href" && !strings.HasPrefix(a.Val, "#") && !strings.HasPrefix(a.Val, "feedback/") {
					t.Errorf("a link leaves the report: %q", a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if figures != len(classAssignment.Exercises)+1 {
		t.Errorf("%d figures, want %d", figures, len(classAssignment.Exercises)+1)
	}
	for _, good := range []string{"&lt;script&gt;alert(&#34;name&#34;)&lt;/script&gt;", `\x1b[31mred\x1b[0m`, "&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt;"} {
		if !strings.Contains(page, good) {
			t.Errorf("report.html lacks the escaped %q", good)
		}
	}
	if strings.ContainsRune(page, 0x1b) {
		t.Error("report.html has a raw escape character")
	}

	text := string(md)
	// Outside code blocks, no markup a learner wrote.
	prose := regexp.MustCompile("(?s)`````text\n.*?\n *`````\n").ReplaceAllString(text, "")
	if strings.ContainsRune(text, 0x1b) || regexp.MustCompile(`(^|[^\\])<`).MatchString(prose) || strings.Contains(prose, "| pipe |") {
		t.Errorf("report.md lets learner text through:\n%s", text)
	}
	// The example stays inside its fence: a fence longer than its run of
	// backticks opens and closes it.
	if !strings.Contains(text, "  `````text\n  got </pre>") {
		t.Errorf("report.md's example is not fenced past its backticks:\n%s", text)
	}
}

func TestReportFacts(t *testing.T) {
	gs := syntheticClass(40, 3)
	html, md, err := Report(gs, classAssignment, RunInfo{Seed: 42, Version: Version, Regraded: []string{"learner0007"}})
	if err != nil {
		t.Fatal(err)
	}
	c := Summarize(gs, classAssignment, RunInfo{})
	for _, doc := range []string{string(html), string(md)} {
		for _, want := range []string{"seed 42", Version, "regraded learner0007", c.Total.String(), c.Exercises[1].Points.String(),
			whyTimeout, "lib/precision.Softmax", "learner0039"} {
			if !strings.Contains(doc, want) {
				t.Errorf("the report lacks %q", want)
			}
		}
	}
}

func TestExports(t *testing.T) {
	all := append(syntheticClass(30, 5), hostileClass()...)
	// A grader error would export as 0 points: that learner waits for a
	// regrade. Names that are not identifiers as they are wait for a
	// rename (the hostile class has three: an escape, a formula, a
	// quote; a pipe and backticks are fine).
	all[0].Scores[1].Status = StatusGraderError
	gs, left := exportable(all, Export{})
	if len(gs) != len(all)-4 || len(left) != 4 || !strings.Contains(strings.Join(left, " "), `learner0000: a grader error — regrade with -learner "learner0000"`) ||
		strings.Count(strings.Join(left, " "), "not an LMS identifier") != 3 {
		t.Fatalf("exportable kept %d of %d, left out %q", len(gs), len(all), left)
	}
	totals := map[string]string{}
	for _, g := range gs {
		t, _ := g.total()
		totals[g.Learner] = exercise.FormatPoints(t)
	}
	parse := func(data []byte) [][]string {
		t.Helper()
		rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatalf("the export does not parse: %v", err)
		}
		if len(rows) != len(gs)+1 {
			t.Fatalf("%d rows, want a header and %d learners", len(rows), len(gs))
		}
		return rows
	}
	tests := []struct {
		x            Export
		canvasColumn int    // the column of the learner's name in canvas.csv
		moodleHeader string // the identifier's header in moodle.csv
	}{
		{Export{}, 3, "Username"},
		{Export{ID: LMSSIS, Column: "Homework 3 (1234)"}, 2, "ID number"},
		{Export{ID: LMSUserID}, 1, "User ID"},
		{Export{ID: LMSEmail}, -1, "Email address"},
	}
	for _, tc := range tests {
		column := tc.x.column(classAssignment)
		canvas, err := canvasCSV(gs, classAssignment, tc.x)
		if tc.canvasColumn < 0 {
			if err == nil {
				t.Errorf("%s: a Canvas export, but Canvas cannot match learners by it", tc.x.id())
			}
		} else {
			if err != nil {
				t.Fatal(err)
			}
			rows := parse(canvas)
			if want := []string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", column}; !slices.Equal(rows[0], want) {
				t.Errorf("%s: canvas header %q, want %q", tc.x.id(), rows[0], want)
			}
			for _, r := range rows[1:] {
				if totals[r[tc.canvasColumn]] != r[5] || r[0] != csvCell(r[tc.canvasColumn]) {
					t.Errorf("%s: canvas row %q: total %s, want %s in column %d", tc.x.id(), r, r[5], totals[r[tc.canvasColumn]], tc.canvasColumn)
				}
				for j := 1; j <= 4; j++ {
					if j != tc.canvasColumn && r[j] != "" {
						t.Errorf("%s: canvas row %q fills column %d", tc.x.id(), r, j)
					}
				}
			}
		}
		moodle, err := moodleCSV(gs, classAssignment, tc.x)
		if err != nil {
			t.Fatal(err)
		}
		rows := parse(moodle)
		if want := []string{tc.moodleHeader, column, column + " feedback"}; !slices.Equal(rows[0], want) {
			t.Errorf("%s: moodle header %q, want %q", tc.x.id(), rows[0], want)
		}
		for _, r := range rows[1:] {
			if totals[r[0]] != r[1] || !strings.HasPrefix(r[2], r[1]+"/9: small ") {
				t.Errorf("%s: moodle row %q, want total %s", tc.x.id(), r, totals[r[0]])
			}
			for _, cell := range r {
				if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) || strings.ContainsRune(cell, '\x1b') {
					t.Errorf("%s: moodle cell %q could run as a formula or an escape", tc.x.id(), cell)
				}
			}
		}
	}
}

// TestCanvasDownloadNames: with -lms-id id, a submission named as in
// Canvas's archive of submissions is exported under its user id.
func TestCanvasDownloadNames(t *testing.T) {
	x := Export{ID: LMSUserID}
	for name, want := range map[string]string{
		"smithjane_12345_67890_01-scaled-dot-product-attention": "12345",
		"smithjane_late_2345_67890_homework":                    "2345",
		"SmithJane_LATE_77_1_x":                                 "77",
		"alice":                                                 "alice",
		"smith_jane_12_34_x":                                    "smith_jane_12_34_x", // not Canvas's form: kept
	} {
		if got := x.identifier(name); got != want {
			t.Errorf("identifier(%q) = %q, want %q", name, got, want)
		}
	}
	if got := (Export{}).identifier("smithjane_12345_67890_x"); got != "smithjane_12345_67890_x" {
		t.Errorf("with -lms-id login, a Canvas archive name is kept whole; got %q", got)
	}
}

func TestProgress(t *testing.T) {
	var b strings.Builder
	now := time.Unix(1000, 0)
	p := newProgress(&b, 4, 1, func() time.Time { return now })
	g := Graded{Learner: "alice\x1b[2J", Scores: []Score{{Points: 1.5, Max: 2}}}
	p.finished(g, 0, true) // cached: says nothing of the pace
	now = now.Add(10 * time.Second)
	p.finished(g, 10*time.Second, false)
	now = now.Add(10 * time.Second)
	p.finished(g, 10*time.Second, false)
	now = now.Add(95 * time.Second)
	p.finished(g, 95*time.Second, false)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^\[1/4\] alice\\x1b\[2J +1\.5/2  \(cached\)  0\.0s elapsed$`),
		// One graded in 10 s: two left at that pace.
		regexp.MustCompile(`^\[2/4\] alice.* \(10\.0s\)  10\.0s elapsed, about 20\.0s left$`),
		regexp.MustCompile(`^\[3/4\] alice.* \(10\.0s\)  20\.0s elapsed, about 10\.0s left$`),
		regexp.MustCompile(`^\[4/4\] alice.* \(1:35\)  1:55 elapsed$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("progress wrote\n%s\nwant %d lines", b.String(), len(want))
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d: %q, want %s", i+1, lines[i], re)
		}
	}
	newProgress(nil, 3, 1, nil).finished(g, 0, false) // quiet: must not panic or write

	// Two jobs: the first two finish together, so the estimate waits for
	// both.
	b.Reset()
	now = time.Unix(1000, 0)
	p = newProgress(&b, 4, 2, func() time.Time { return now })
	now = now.Add(10 * time.Second)
	p.finished(g, 10*time.Second, false)
	p.finished(g, 10*time.Second, false)
	lines = strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if strings.Contains(lines[0], "left") || !strings.HasSuffix(lines[1], "10.0s elapsed, about 10.0s left") {
		t.Errorf("two jobs:\n%s\nwant no estimate after one submission, 10 s left after two", b.String())
	}
}

// TestDistribution checks the statistics and buckets on hand-worked
// classes.
func TestDistribution(t *testing.T) {
	tests := []struct {
		points       []float64
		max          float64
		mean, median float64
		full         int
		buckets      string // label:count of every bucket
	}{
		// Quarter-point buckets up to 4 points; an even class's median is
		// the mean of its middle two.
		{[]float64{0, 0.75, 1, 1, 2}, 2, 0.95, 1, 1, "0:1 0.25:0 0.5:0 0.75:1 1:2 1.25:0 1.5:0 1.75:0 2:1"},
		{[]float64{2, 0, 1, 0.5}, 2, 0.875, 0.75, 1, "0:1 0.25:0 0.5:1 0.75:0 1:1 1.25:0 1.5:0 1.75:0 2:1"},
		// Whole-point buckets above 4: 8.75 is in 8–8.75, 9 alone.
		{[]float64{8.75, 9, 0.25, 4.5, 4}, 9, 5.3, 4.5, 1, "0–0.75:1 1–1.75:0 2–2.75:0 3–3.75:0 4–4.75:2 5–5.75:0 6–6.75:0 7–7.75:0 8–8.75:1 9:1"},
		{nil, 1, 0, 0, 0, "0:0 0.25:0 0.5:0 0.75:0 1:0"},
	}
	for _, tc := range tests {
		d := distribution(tc.points, tc.max)
		var got []string
		for _, b := range d.Buckets {
			got = append(got, fmt.Sprintf("%s:%d", b.Label(), b.Count))
		}
		if math.Abs(d.Mean-tc.mean) > 1e-12 || d.Median != tc.median || d.Full != tc.full || strings.Join(got, " ") != tc.buckets {
			t.Errorf("distribution(%v, %v): mean %v median %v full %d buckets %q; want %v %v %d %q",
				tc.points, tc.max, d.Mean, d.Median, d.Full, strings.Join(got, " "), tc.mean, tc.median, tc.full, tc.buckets)
		}
	}
}

// TestAttention: every status that needs a word lands in its group,
// once per learner, with its exercises.
func TestAttention(t *testing.T) {
	score := func(ex string, st Status) Score {
		return Score{Exercise: ex, Max: 1, Status: st, Details: "Exercise " + ex + "\n  ✗ what went wrong:\n  the detail\n"}
	}
	gs := []Graded{
		{Learner: "ann", Scores: []Score{score("a", StatusCompileError), score("b", StatusCompileError), score("c", StatusOK)}},
		{Learner: "ben", Scores: []Score{score("a", StatusTimeout), {Exercise: "b", Status: StatusFailed, TimedOut: 1}, score("c", StatusCrashed)}},
		{Learner: "cat", Scores: []Score{score("a", StatusMissing), score("b", StatusNotDone), score("c", StatusNotDone)}},
		{Learner: "dan", Scores: []Score{score("a", StatusMissing), score("b", StatusGraderError), score("c", StatusMalformedResult)}},
		{Learner: "eve", Unsandboxed: true, Scores: []Score{score("a", StatusNoSubmission), score("b", StatusNoSubmission), score("c", StatusNoSubmission)}},
		{Learner: "fay", Scores: []Score{score("a", refused("go:linkname")), score("b", StatusNoFunction), {Exercise: "c", Status: StatusFailed, Panicked: 2, Details: "✗ what went wrong: the detail"}}},
	}
	want := map[string]string{
		whyCompile:     "ann:a,b",
		whyTimeout:     "ben:a,b",
		whyCrashed:     "ben:c fay:c",
		whyNothing:     "cat:",
		whyMissing:     "dan:a",
		whyGrader:      "dan:b",
		whyMalformed:   "dan:c fay:b",
		whyNoNotebook:  "eve:",
		whyUnsandboxed: "eve:",
		whyRefused:     "fay:a",
	}
	got := map[string]string{}
	var order []string
	for _, g := range attention(gs) {
		var parts []string
		for _, e := range g.Entries {
			parts = append(parts, e.Learner+":"+strings.Join(e.Exercises, ","))
			if g.Why != whyNothing && g.Why != whyUnsandboxed && e.Detail != "✗ what went wrong: the detail" {
				t.Errorf("%s, %s: detail %q", g.Why, e.Learner, e.Detail)
			}
		}
		got[g.Why] = strings.Join(parts, " ")
		order = append(order, g.Why)
	}
	for why, w := range want {
		if got[why] != w {
			t.Errorf("group %q: %q, want %q", why, got[why], w)
		}
	}
	if len(got) != len(want) || !slices.IsSortedFunc(order, func(x, y string) int { return slices.Index(whyOrder, x) - slices.Index(whyOrder, y) }) {
		t.Errorf("groups %v, want %d in the order %v", order, len(want), whyOrder)
	}
}

// BenchmarkClassReport builds the report (HTML and Markdown, figures
// included) of a class of 100 and of 1,000 learners; B/report is the
// HTML's size.
func BenchmarkClassReport(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			gs := syntheticClass(n, 1)
			var size int
			for b.Loop() {
				html, md, err := Report(gs, classAssignment, RunInfo{})
				if err != nil {
					b.Fatal(err)
				}
				size = len(html) + 0*len(md)
			}
			b.ReportMetric(float64(size), "B/report")
		})
	}
}

// TestGradebookSandboxColumn: the gradebook says per learner whether the
// submission ran in the sandbox (a regrade may differ from the class).
func TestGradebookSandboxColumn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gradebook.csv")
	gs := []Graded{
		{Learner: "alice", Scores: []Score{{Exercise: "small", Points: 2, Max: 2, Status: StatusOK}}},
		{Learner: "bob", Unsandboxed: true, Scores: []Score{{Exercise: "small", Points: 1, Max: 2, Status: StatusPartial}}},
	}
	if err := writeGradebook(path, gs, Run{Seed: 9}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"alice": "yes", "bob": "NO (-unsandboxed)"}
	for _, r := range rows[1:] {
		if r[6] != want[r[0]] || r[5] != "9" {
			t.Errorf("row %q: sandboxed %q, seed %q; want %q, 9", r, r[6], r[5], want[r[0]])
		}
	}
}

// TestMerge: a regrade replaces every entry of its learners (two
// submissions may share a name) and adds, and names, the new ones.
func TestMerge(t *testing.T) {
	g := func(learner, file string) Graded { return Graded{Learner: learner, File: file} }
	class := []Graded{g("ann", "ann"), g("bob", "bob"), g("bob", "bob-1a2b"), g("cat", "cat")}
	out, added := merge(class, []Graded{g("bob", "bob"), g("dan", "dan"), g("dan", "dan-3c4d")})
	var got []string
	for _, o := range out {
		got = append(got, o.File)
	}
	if strings.Join(got, " ") != "ann cat bob dan dan-3c4d" || strings.Join(added, " ") != "dan" {
		t.Errorf("merge: %v, added %v; want ann cat bob dan dan-3c4d, added dan", got, added)
	}
}
