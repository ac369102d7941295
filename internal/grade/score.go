package grade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/attention-in-go/course/internal/excerpt"
	"github.com/attention-in-go/course/internal/grade/sandbox"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/lib/check"
)

// maxResults bounds what the grader reads of a child's results: far more
// than any exercise's outputs, small enough that decoding stays cheap.
const maxResults = 8 << 20

// gradeOne grades one submission. It never fails: every problem becomes
// a status of the exercises it affects, with the reason.
func gradeOne(ctx context.Context, tc *toolchain, slot int, dir string, s Submission, a *Assignment, o Options, run Run) Graded {
	g := Graded{Learner: s.Learner, Unsandboxed: run.Unsandboxed}
	zero := func(status Status, details string) Graded {
		for _, e := range a.Exercises {
			g.Scores = append(g.Scores, Score{Exercise: e.ID, Max: e.Points, Status: status, Details: details})
		}
		return g
	}
	if s.Problem != "" {
		return zero(StatusNoSubmission, s.Problem)
	}
	src, cs, ignored, err := cells(s.Data)
	if err != nil {
		return zero(StatusBrokenNotebook, err.Error())
	}
	g.Notes = append(g.Notes, ignored...)
	if src != "" && src != a.Source {
		g.Notes = append(g.Notes, fmt.Sprintf("the notebook says it is %s; it was graded on %s, the assignment of the folder, by its exercise cells",
			printable(src), a.Source))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return zero(StatusGraderError, err.Error())
	}

	// The learner's cells: the checks and the setup cell are the course's,
	// not the learner's; every other cell may declare what the exercises
	// use.
	var parsed []*parsedCell
	fset := token.NewFileSet()
	byNumber := map[int]*parsedCell{}
	parseErr := map[string]string{} // exercise id → its cell's parse error
	var otherErrs []string
	exerciseCell := map[string]bool{}
	for _, c := range cs {
		if c.check != "" || lesson.IsSetup(lesson.Cell{Kind: lesson.Code, Source: c.source}) {
			continue
		}
		if c.exercise != "" {
			exerciseCell[c.exercise] = true
		}
		p, err := parseCell(fset, c.number, c.source)
		if err != nil {
			if c.exercise != "" {
				parseErr[c.exercise] = err.Error()
			} else {
				otherErrs = append(otherErrs, err.Error())
			}
			continue
		}
		parsed = append(parsed, p)
		byNumber[p.number] = p
	}
	source := newSource(parsed)

	scores := make([]Score, len(a.Exercises))
	var ready []Exercise
	closures := map[string][]*decl{} // exercise → the declarations its program holds
	for i, e := range a.Exercises {
		scores[i] = Score{Exercise: e.ID, Max: e.Points}
		var what, why, use string
		if source.function(e.Func) != nil {
			closures[e.ID] = source.closure(e.Func)
			what, why = forbidden(closures[e.ID])
			use = source.unallowedName(closures[e.ID], newAllowList(o.Module, e.Allow), o.Module)
		}
		switch {
		case what != "":
			scores[i].Status = refused(what)
			scores[i].Details = "your code cannot be graded: " + why
		case use != "":
			scores[i].Status = notAllowed(use)
			scores[i].Details = fmt.Sprintf("exercise %s allows %s; your code uses %s, so it scores 0.", e.ID, allowText(e.Allow), use)
		case closures[e.ID] != nil:
			ready = append(ready, e)
		case parseErr[e.ID] != "":
			scores[i].Status, scores[i].Details = StatusCompileError, "the exercise cell "+strings.TrimPrefix(parseErr[e.ID], "code cell ")
		case !exerciseCell[e.ID]:
			scores[i].Status = StatusMissing
			scores[i].Details = fmt.Sprintf("no cell for exercise %s, and no cell declares func %s: its cell (first line \"// Exercise %s …\") was deleted or renamed", e.ID, e.Func, e.ID)
		default:
			scores[i].Status = StatusCompileError
			scores[i].Details = fmt.Sprintf("no cell declares func %s: the exercise asks for %s", e.Func, e.Signature)
		}
	}
	addParseErrors := func(msg string) string {
		for i, pe := range otherErrs {
			if i == 3 {
				msg += fmt.Sprintf("\n… and %d more cells that do not parse", len(otherErrs)-3)
				break
			}
			msg += "\n" + pe
		}
		return msg
	}

	// Build every ready exercise into one program; where that fails, each
	// exercise alone with exactly the declarations it needs, so that a
	// cell that does not compile costs only the exercises that use it.
	progs := map[string]string{} // exercise → program
	bctx, cancel := context.WithTimeout(ctx, tc.buildTimeout)
	defer cancel()
	buildOne := func(name string, exs []Exercise) (string, string) {
		var funcs []string
		for _, e := range exs {
			funcs = append(funcs, e.Func)
		}
		decls := closures[exs[0].ID]
		if len(exs) > 1 {
			decls = source.closure(funcs...)
		}
		prog, msg, err := tc.buildCached(bctx, filepath.Join(dir, name), child{learner: program(decls, parsed), exercises: exs}, byNumber)
		if err != nil {
			return "", "the grader could not build the program: " + err.Error()
		}
		return prog, msg
	}
	// unallowed is what e's program links beyond its harness and allow
	// list, or why that cannot be told.
	baseDir := filepath.Join(filepath.Dir(dir), "baseline")
	unallowed := func(e Exercise, syms map[string]bool) (use string, err error) {
		base, err := tc.baselines.symbols(bctx, tc, baseDir, e)
		if err != nil {
			return "", err
		}
		return unallowedLink(syms, base, newAllowList(o.Module, e.Allow), o.Module), nil
	}
	if len(ready) > 1 {
		if prog, msg := buildOne("all", ready); msg == "" {
			if syms, err := symbols(prog); err == nil {
				for _, e := range ready {
					// A denied or unallowed use is attributed below, on the
					// exercise alone: the combined program links every
					// exercise's code.
					if use, err := unallowed(e, syms); err == nil && use == "" && deniedUse(syms, o.Module, e.Deny) == "" {
						progs[e.ID] = prog
					}
				}
			}
		}
	}
	for i, e := range a.Exercises {
		if !slices.ContainsFunc(ready, func(r Exercise) bool { return r.ID == e.ID }) || progs[e.ID] != "" {
			continue
		}
		prog, msg := buildOne(e.ID, []Exercise{e})
		if msg != "" {
			scores[i].Status = StatusCompileError
			scores[i].Details = addParseErrors("your code does not compile:\n" + msg)
			continue
		}
		syms, err := symbols(prog)
		if err != nil {
			scores[i].Status, scores[i].Details = StatusGraderError, err.Error()
			continue
		}
		if use := deniedUseNaming(syms, o.Module, e.Deny, source.named(closures[e.ID], o.Module)); use != "" {
			scores[i].Status = flagged(use)
			scores[i].Details = fmt.Sprintf("exercise %s asks you to write this yourself; the program built from your code calls %s from the course library, so it scores 0.", e.ID, use)
			continue
		}
		use, err := unallowed(e, syms)
		if err != nil {
			scores[i].Status, scores[i].Details = StatusGraderError, err.Error()
			continue
		}
		if use != "" {
			scores[i].Status = notAllowed(use)
			scores[i].Details = fmt.Sprintf("exercise %s allows %s; the program built from your code links %s, so it scores 0.", e.ID, allowText(e.Allow), use)
			continue
		}
		progs[e.ID] = prog
	}

	for i, e := range a.Exercises {
		prog := progs[e.ID]
		if prog == "" {
			continue
		}
		spec, _ := check.Lookup(e.ID)
		var in bytes.Buffer
		if _, err := spec.WriteInputs(&in, run.Seed); err != nil {
			scores[i].Status, scores[i].Details = StatusGraderError, err.Error()
			continue
		}
		lim := sandbox.Limits{Wall: e.timeLimit(o), Memory: o.Memory, FileSize: 64 << 20, TmpSize: 64 << 20, Procs: 256}
		rr := runChild(ctx, prog, e.ID, in.Bytes(), lim, slot)
		var res *check.Result
		if rr.oversize {
			res = &check.Result{ID: e.ID, Max: e.Points, Status: string(StatusMalformedResult),
				Cases: []check.CaseResult{{Name: "results", Problem: fmt.Sprintf("the program wrote more than %d MiB of results", maxResults>>20)}}}
		} else {
			res = spec.Grade(bytes.NewReader(rr.results), run.Seed)
		}
		scores[i].Points = res.Points
		scores[i].Status = Status(res.Status)
		// The names of hidden cases describe their inputs: the feedback
		// numbers them instead.
		n := 0
		for c := range res.Cases {
			if res.Cases[c].Hidden {
				n++
				res.Cases[c].Name = fmt.Sprintf("hidden case %d", n)
			}
		}
		scores[i].Details = res.Report()
		scores[i].Mistakes, scores[i].Unrecognised = mistakes(res)
		for _, c := range res.Cases {
			if c.TimedOut {
				scores[i].TimedOut++
			}
			if c.Panicked {
				scores[i].Panicked++
			}
		}
		why := rr.why(lim)
		if why == "" && strings.Contains(scores[i].Details, "no result:") {
			why = "the program exited before all cases ran (os.Exit in your code?)"
		}
		if why != "" && Status(res.Status) != StatusOK {
			scores[i].Details += why + "\n"
			if res.Points == 0 && Status(res.Status) != StatusMalformedResult {
				scores[i].Status = StatusCrashed
				if rr.timedOut {
					scores[i].Status = StatusTimeout
				}
			}
		}
	}
	g.Scores = scores
	return g
}

// mistakes sums up the failed cases of res by the usual mistake they
// look like: one Mistake per hint, in the order first met, and the
// number of failed cases that look like none.
func mistakes(res *check.Result) (ms []Mistake, unrecognised int) {
	at := map[string]int{}
	for _, c := range res.Cases {
		switch {
		case c.Passed || c.Todo || c.TimedOut || c.Panicked:
		case c.HintName == "":
			unrecognised++
		default:
			i, seen := at[c.HintName]
			if !seen {
				i = len(ms)
				at[c.HintName] = i
				ms = append(ms, Mistake{Hint: c.HintName, Message: c.Hint, Example: c.Problem})
			}
			ms[i].Cases++
		}
	}
	return ms, unrecognised
}

// runResult is what one run of the child gave.
type runResult struct {
	results  []byte // what the child wrote on fd 3, at most maxResults
	oversize bool   // it wrote more
	stderr   string // its end
	timedOut bool
	err      error // how it ended, if not with status 0
}

// runChild runs the program prog for exercise id in the sandbox: it sees
// only itself (as /prog) and an empty /tmp, gets the inputs on standard
// input and writes its results on file descriptor 3.
func runChild(ctx context.Context, prog, id string, inputs []byte, lim sandbox.Limits, slot int) runResult {
	r, w, err := os.Pipe()
	if err != nil {
		return runResult{err: err}
	}
	var results bytes.Buffer
	var oversize bool
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		io.Copy(&results, io.LimitReader(r, maxResults))
		if n, _ := io.Copy(io.Discard, r); n > 0 {
			oversize = true
		}
	}()
	stderr := excerpt.NewTail(8 << 10)
	sr := sandbox.Run(ctx, sandbox.Command{
		Args: []string{"/prog", id}, Binds: []sandbox.Bind{{Host: prog, Sandbox: "/prog"}},
		// GOMEMLIMIT, half the hard limit: the runtime collects before it.
		Env:    []string{"HOME=/tmp", "TMPDIR=/tmp", "GOMAXPROCS=1", fmt.Sprintf("GOMEMLIMIT=%d", lim.Memory/2)},
		Limits: lim, NoFork: true, Slot: slot,
		Stdin: bytes.NewReader(inputs), Stderr: stderr,
		ExtraFiles: []*os.File{w},
	})
	w.Close()
	// Every process of the sandbox is dead, so the pipe's other end is
	// closed; wait for the copy, but never for long.
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
	}
	r.Close()
	<-copied
	return runResult{results: results.Bytes(), oversize: oversize, stderr: stderr.String(), timedOut: sr.TimedOut, err: sr.Err}
}

// why explains how the child ended, for the feedback, or "".
func (r runResult) why(lim sandbox.Limits) string {
	switch {
	case r.timedOut:
		return fmt.Sprintf("the program was stopped after %v (an endless loop?)", lim.Wall)
	case r.err == nil:
		return ""
	}
	msg := r.err.Error()
	var ee *exec.ExitError
	if errors.As(r.err, &ee) {
		msg = "the program stopped: " + ee.ProcessState.String()
	}
	s := r.stderr
	switch {
	case strings.Contains(s, "out of memory") || strings.Contains(s, "cannot allocate memory"):
		msg += fmt.Sprintf(" — out of memory (limit %d MiB)", lim.Memory>>20)
	default:
		for _, marker := range []string{"panic:", "fatal error:"} {
			if i := strings.Index(s, marker); i >= 0 {
				first, _, _ := strings.Cut(s[i:], "\n")
				msg += " — " + first
				break
			}
		}
	}
	return msg
}
