package grade

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"strings"

	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/viz"
	"gonum.org/v1/plot/vg"
)

// This file writes the class report: OUT/report.html, one page readable
// offline (its figures are SVG images inside it, no script, nothing
// fetched), and OUT/report.md with the same facts. Everything a learner
// controls in them (names, outputs, messages) is escaped, as in the
// gradebook.

// Report renders the class report of gs, the graded class of a: the
// HTML page and the same facts in Markdown.
func Report(gs []Graded, a *Assignment, info RunInfo) (html, md []byte, err error) {
	c := Summarize(gs, a, info)
	if html, err = reportHTML(c, gs, a); err != nil {
		return nil, nil, fmt.Errorf("class report: %v", err)
	}
	return html, reportMarkdown(c, gs, a), nil
}

// histogram is the bar chart of d, as an SVG data URL for an <img>. A
// bar is labelled with the least points it counts; the last one is full
// marks.
func histogram(d Distribution, title string) (template.URL, error) {
	labels := make([]string, len(d.Buckets))
	counts := make([]float64, len(d.Buckets))
	for i, b := range d.Buckets {
		labels[i], counts[i] = exercise.FormatPoints(b.Lo), float64(b.Count)
	}
	xLabel := "points"
	if len(d.Buckets) > 1 && d.Buckets[0].Hi-d.Buckets[0].Lo > 0.25 {
		xLabel = "points (a bar counts its label up to the next; the last, full marks)"
	}
	fig := &viz.Bars{Title: title, XLabel: xLabel, YLabel: "learners", Labels: labels,
		Groups: []viz.BarGroup{{Name: "learners", Values: counts}}, Annotate: true, Format: "%.0f", Counts: true,
		Width: 16 * vg.Centimeter, Height: 6.5 * vg.Centimeter}
	if len(labels) > 12 { // room for every label, upright
		fig.Width = 20 * vg.Centimeter
	}
	svg, err := viz.SVG(fig)
	if err != nil {
		return "", err
	}
	return template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(svg)), nil
}

// reportPage is what the HTML template reads.
type reportPage struct {
	*Class
	Started     string
	TotalFigure template.URL
	Exercises   []exercisePage // shadows Class.Exercises
	Rows        []learnerRow
}

// exercisePage is an exercise's section of the page.
type exercisePage struct {
	ExerciseSummary
	Figure template.URL
}

// learnerRow is one learner's line of the report's table.
type learnerRow struct {
	Learner, File string
	Total         string
	Points        []string // per exercise
	Flags         string   // statuses other than ok, partial and failed
}

func learnerRows(gs []Graded, a *Assignment) []learnerRow {
	var rows []learnerRow
	for _, g := range sortedByLearner(gs) {
		t, m := g.total()
		r := learnerRow{Learner: g.Learner, File: g.File, Total: exercise.FormatPoints(t) + " / " + fmt.Sprint(m)}
		var flags []string
		for _, e := range a.Exercises {
			p := "—"
			for _, s := range g.Scores {
				if s.Exercise == e.ID {
					p = exercise.FormatPoints(s.Points)
					switch s.Status {
					case StatusOK, StatusPartial, StatusFailed:
					default:
						flags = append(flags, e.ID+": "+string(s.Status))
					}
				}
			}
			r.Points = append(r.Points, p)
		}
		r.Flags = strings.Join(flags, "; ")
		rows = append(rows, r)
	}
	return rows
}

// reportHTML is the class report as a self-contained HTML page.
func reportHTML(c *Class, gs []Graded, a *Assignment) ([]byte, error) {
	page := reportPage{Class: c, Rows: learnerRows(gs, a), Started: c.Run.Started.Format("2006-01-02 15:04 MST")}
	var err error
	if page.TotalFigure, err = histogram(c.Total, "Totals out of "+exercise.FormatPoints(c.Total.Max)); err != nil {
		return nil, err
	}
	for _, e := range c.Exercises {
		f, err := histogram(e.Points, "Exercise "+e.ID+" (out of "+exercise.FormatPoints(e.Points.Max)+")")
		if err != nil {
			return nil, err
		}
		page.Exercises = append(page.Exercises, exercisePage{e, f})
	}
	var b bytes.Buffer
	if err := reportTemplate.Execute(&b, page); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"p":        func(s any) string { return printable(fmt.Sprint(s)) },
	"pts":      exercise.FormatPoints,
	"list":     func(xs any) string { return printable(joinAny(xs)) },
	"learners": learnersHave,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Class report — {{.Slug}}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 1rem auto; padding: 0 1rem; color: #222; line-height: 1.45 }
h1 { font-size: 1.6rem } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd } h3 { margin-top: 1.6rem }
table { border-collapse: collapse; margin: .6rem 0 } th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: left; vertical-align: top }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; font-size: .85rem; max-width: 40rem }
.warn { background: #fff3cd; border: 1px solid #e0c36c; padding: .5rem .8rem }
.stats { color: #444 } figure { margin: .5rem 0 } figure img { max-width: 100%; height: auto }
nav a { margin-right: .8rem }
</style>
</head>
<body>
<h1>Class report — {{.Slug}}</h1>
<p class="stats">{{.Learners}} learners graded on <code>{{.Assignment}}</code>.
Hidden cases from seed {{.Run.Seed}} · grader {{.Run.Version}}, {{.Run.GoVersion}} · started {{.Started}}, took {{.Run.Took}}
({{.Run.Graded}} graded, {{.Run.Cached}} from the cache){{if .Run.Regraded}} · this run regraded {{range $i, $l := .Run.Regraded}}{{if $i}}, {{end}}{{p $l}}{{end}}{{end}}.</p>
{{range .Run.Notes}}<p class="warn">{{p .}}</p>
{{end}}{{if .Run.Unsandboxed}}<p class="warn">{{.Run.Unsandboxed}} of {{.Learners}} submissions were graded <strong>without the sandbox</strong> (-unsandboxed): their code ran as the instructor.</p>
{{else}}<p>Every submission was graded in the sandbox.</p>{{end}}
<nav><a href="#totals">Totals</a><a href="#attention">Needs attention</a><a href="#mistakes">Common mistakes</a>{{range .Exercises}}<a href="#ex-{{.ID}}">{{.ID}}</a>{{end}}<a href="#learners">Learners</a></nav>

<h2 id="totals">Totals</h2>
<figure><img src="{{.TotalFigure}}" alt="histogram of the learners' totals"></figure>
<p class="stats">Out of {{pts .Total.Max}}: {{.Total}}.</p>

<h2 id="attention">Needs attention</h2>
{{if not .Attention}}<p>Nobody: no refused code, time-out, crash, compile error, missing cell or empty submission.</p>{{end}}
{{range .Attention}}<h3>{{.Why}} ({{len .Entries}})</h3>
<table><tr><th>learner</th><th>exercise</th><th>status</th><th>detail</th></tr>
{{range .Entries}}<tr><td>{{p .Learner}}</td><td>{{list .Exercises}}</td><td>{{list .Statuses}}</td><td><pre>{{p .Detail}}</pre></td></tr>
{{end}}</table>
{{end}}

<h2 id="mistakes">Most common mistakes</h2>
{{if not .Common}}<p>No failed case looks like a known mistake.</p>{{else}}
<p>The {{len .Common}} mistakes most learners made, over all exercises (each exercise's section lists all of its own).</p>
<table><tr><th>exercise</th><th class="n">learners</th><th>the hint they got</th></tr>
{{range .Common}}<tr><td><a href="#ex-{{.Exercise}}">{{.Exercise}}</a></td><td class="n">{{.Learners}}</td><td>{{.Message}}</td></tr>
{{end}}</table>{{end}}

{{range $e := .Exercises}}
<h2 id="ex-{{$e.ID}}">Exercise {{$e.ID}}</h2>
<figure><img src="{{$e.Figure}}" alt="histogram of the points on exercise {{$e.ID}}"></figure>
<p class="stats">Out of {{pts $e.Points.Max}}: {{$e.Points}}.</p>
<table><tr><th>status</th><th class="n">learners</th></tr>
{{range $e.Statuses}}<tr><td>{{p .Status}}</td><td class="n">{{.Learners}}</td></tr>
{{end}}</table>
{{if $e.Mistakes}}<h3>Mistakes, most frequent first</h3>
<table><tr><th class="n">learners</th><th>hint</th><th>one learner's output (anonymised)</th></tr>
{{range $e.Mistakes}}<tr><td class="n">{{.Learners}}</td><td>{{.Message}}<br><small><code>{{.Hint}}</code></small></td><td><pre>{{p .Example}}</pre></td></tr>
{{end}}</table>{{end}}
{{if $e.Unrecognised}}<p>{{learners $e.Unrecognised}} a failed case that looks like no known mistake: read their feedback.</p>{{end}}
{{end}}

<h2 id="learners">Learners</h2>
<table><tr><th>learner</th><th class="n">total</th>{{range .Exercises}}<th class="n">{{.ID}}</th>{{end}}<th>not graded as usual</th></tr>
{{range .Rows}}<tr><td><a href="feedback/{{.File}}.md">{{p .Learner}}</a></td><td class="n">{{.Total}}</td>{{range .Points}}<td class="n">{{.}}</td>{{end}}<td>{{p .Flags}}</td></tr>
{{end}}</table>
</body>
</html>
`))

// reportMarkdown is the class report's facts in Markdown.
func reportMarkdown(c *Class, gs []Graded, a *Assignment) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Class report — %s\n\n", mdText(c.Slug))
	fmt.Fprintf(&b, "%d learners graded on `%s`. Hidden cases from seed %d; grader %s, %s; started %s, took %v (%d graded, %d from the cache).\n\n",
		c.Learners, c.Assignment, c.Run.Seed, c.Run.Version, c.Run.GoVersion, c.Run.Started.Format("2006-01-02 15:04 MST"), c.Run.Took, c.Run.Graded, c.Run.Cached)
	if len(c.Run.Regraded) > 0 {
		names := make([]string, len(c.Run.Regraded))
		for i, n := range c.Run.Regraded {
			names[i] = mdText(n)
		}
		fmt.Fprintf(&b, "This run regraded %s; the others are as the last run graded them.\n\n", strings.Join(names, ", "))
	}
	for _, n := range c.Run.Notes {
		fmt.Fprintf(&b, "> **Note:** %s\n\n", mdText(n))
	}
	if c.Run.Unsandboxed > 0 {
		fmt.Fprintf(&b, "> **%d of %d submissions were graded without the sandbox** (-unsandboxed): their code ran as the instructor.\n\n", c.Run.Unsandboxed, c.Learners)
	} else {
		b.WriteString("Every submission was graded in the sandbox.\n\n")
	}
	writeDist := func(d Distribution) {
		fmt.Fprintf(&b, "Out of %s: %s.\n\n| points | learners |\n|---|---|\n", exercise.FormatPoints(d.Max), d)
		for _, bk := range d.Buckets {
			fmt.Fprintf(&b, "| %s | %d |\n", bk.Label(), bk.Count)
		}
		b.WriteString("\n")
	}
	b.WriteString("## Totals\n\n")
	writeDist(c.Total)

	b.WriteString("## Needs attention\n\n")
	if len(c.Attention) == 0 {
		b.WriteString("Nobody: no refused code, time-out, crash, compile error, missing cell or empty submission.\n\n")
	}
	for _, g := range c.Attention {
		fmt.Fprintf(&b, "### %s (%d)\n\n| learner | exercise | status | detail |\n|---|---|---|---|\n", g.Why, len(g.Entries))
		for _, e := range g.Entries {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdText(e.Learner), mdText(joinAny(e.Exercises)), mdText(joinAny(e.Statuses)), mdText(e.Detail))
		}
		b.WriteString("\n")
	}

	b.WriteString("## Most common mistakes\n\n")
	if len(c.Common) == 0 {
		b.WriteString("No failed case looks like a known mistake.\n\n")
	} else {
		fmt.Fprintf(&b, "The %d mistakes most learners made, over all exercises (each exercise's section lists all of its own).\n\n", len(c.Common))
		b.WriteString("| exercise | learners | the hint they got |\n|---|---|---|\n")
		for _, m := range c.Common {
			fmt.Fprintf(&b, "| %s | %d | %s |\n", mdText(m.Exercise), m.Learners, mdText(m.Message))
		}
		b.WriteString("\n")
	}

	for _, e := range c.Exercises {
		fmt.Fprintf(&b, "## Exercise %s\n\n", mdText(e.ID))
		writeDist(e.Points)
		b.WriteString("| status | learners |\n|---|---|\n")
		for _, s := range e.Statuses {
			fmt.Fprintf(&b, "| %s | %d |\n", mdText(string(s.Status)), s.Learners)
		}
		b.WriteString("\n")
		for _, m := range e.Mistakes {
			fmt.Fprintf(&b, "- **%s** (`%s`): %s One learner's output:\n\n%s\n", plural(m.Learners, "learner"), m.Hint, mdText(m.Message), indentBlock(fenced(m.Example)))
		}
		if e.Unrecognised > 0 {
			fmt.Fprintf(&b, "%s a failed case that looks like no known mistake: read their feedback.\n\n", learnersHave(e.Unrecognised))
		}
	}

	b.WriteString("## Learners\n\n| learner | total |")
	for _, e := range a.Exercises {
		fmt.Fprintf(&b, " %s |", mdText(e.ID))
	}
	b.WriteString(" not graded as usual |\n|---|---|" + strings.Repeat("---|", len(a.Exercises)+1) + "\n")
	for _, r := range learnerRows(gs, a) {
		fmt.Fprintf(&b, "| %s | %s |", mdText(r.Learner), r.Total)
		for _, p := range r.Points {
			fmt.Fprintf(&b, " %s |", p)
		}
		fmt.Fprintf(&b, " %s |\n", mdText(r.Flags))
	}
	return []byte(b.String())
}

// joinAny joins a list of strings or statuses with ", ".
func joinAny(xs any) string {
	switch xs := xs.(type) {
	case []string:
		return strings.Join(xs, ", ")
	case []Status:
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = string(x)
		}
		return strings.Join(parts, "; ")
	}
	return fmt.Sprint(xs)
}

// plural is "1 learner", "2 learners".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// learnersHave is "1 learner has", "2 learners have".
func learnersHave(n int) string {
	if n == 1 {
		return "1 learner has"
	}
	return plural(n, "learner") + " have"
}

// indentBlock indents every line of s by two spaces (a code block inside
// a list item).
func indentBlock(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		b.WriteString("  " + line)
	}
	return b.String()
}
