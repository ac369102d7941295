package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/attention-in-go/course/internal/claim"
	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/notebook"
)

// claimFailures checks the claims of an executed notebook's Markdown cells
// (their course metadata's Claims, see package claim) against what its code cells
// printed (stdout, and the text of its displayed HTML, Markdown or plain
// text) and its run time in seconds, on machine m: a timing measured on
// another machine is not checked ([claim.Claim.Applies]). A run that
// shared the machine, slowed up to shared times, is held to
// [claim.Claim.CheckShared]'s bound (shared 0: it ran alone). An exercise
// notebook is not checked: its stubs compute nothing. A failure names the
// Markdown cell by the code cell after it.
func claimFailures(nb *notebook.Notebook, seconds float64, m claim.Machine, shared float64) []Failure {
	meta, cells, _ := coursemeta.Read(nb)
	if meta.Flavour == coursemeta.FlavourExercise {
		return nil
	}
	printed := printedText(nb)
	var out []Failure
	n := 0
	for i, c := range nb.Cells {
		if c.Type == notebook.Code {
			n++
			continue
		}
		for _, line := range cells[i].Claims {
			cl, err := claim.Parse(line)
			if err == nil && !cl.Applies(m) {
				continue
			}
			retry := false
			if err == nil {
				err = cl.CheckShared(printed, seconds, shared)
				// A timing that fails alone's bound too stays stale alone.
				retry = err != nil && (!cl.Timing() || cl.Check(printed, seconds) == nil)
			}
			if err != nil {
				out = append(out, Failure{Cell: n + 1, Index: i, Source: c.Source,
					Text: fmt.Sprintf("claim %s: %v", line, err), Retry: retry})
			}
		}
	}
	return out
}

// timedOn reports whether the notebook's text states how long something in
// it takes on machine m ([claim.Claim.Timing], [claim.Claim.Applies]).
func timedOn(nb *notebook.Notebook, m claim.Machine) bool {
	return slices.ContainsFunc(timings(nb), func(cl claim.Claim) bool { return cl.Applies(m) })
}

// timedElsewhere returns the machines, other than m, on which the
// notebook's text states timings: what a run on m does not check.
func timedElsewhere(nb *notebook.Notebook, m claim.Machine) []claim.Machine {
	var out []claim.Machine
	for _, cl := range timings(nb) {
		if !cl.Applies(m) && !slices.Contains(out, cl.On) {
			out = append(out, cl.On)
		}
	}
	return out
}

// timings returns the timing claims of the notebook's Markdown cells.
func timings(nb *notebook.Notebook) []claim.Claim {
	var out []claim.Claim
	_, cells, _ := coursemeta.Read(nb)
	for _, c := range cells {
		for _, line := range c.Claims {
			if cl, err := claim.Parse(line); err == nil && cl.Timing() {
				out = append(out, cl)
			}
		}
	}
	return out
}

// printedText returns what the code cells of an executed notebook printed, in
// order: stdout, and the text of displayed HTML (tags dropped, such as a
// training's progress line), Markdown or plain text.
func printedText(nb *notebook.Notebook) string {
	var printed strings.Builder
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			switch o.Type {
			case notebook.Stream:
				if o.Name == "stdout" {
					printed.WriteString(o.Text)
				}
			case notebook.DisplayData, notebook.ExecuteResult:
				if t, ok := o.Data["text/html"]; ok {
					// A training's progress line: <pre>…</pre> and an image.
					printed.WriteString(htmlText(t) + "\n")
					continue
				}
				for _, mime := range []string{"text/plain", "text/markdown"} {
					if t, ok := o.Data[mime]; ok {
						printed.WriteString(t + "\n")
						break
					}
				}
			}
		}
	}
	return printed.String()
}
