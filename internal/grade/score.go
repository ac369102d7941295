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
//
// It goes in phases, each of which may settle an exercise's score and
// leave it out of the next: the notebook is read, the learner's cells
// parsed and each exercise screened on the code it needs, the exercises
// left built in the sandbox and their programs checked on what they
// link, and the programs that pass run in the sandbox and scored.
func gradeOne(ctx context.Context, tc *toolchain, slot int, dir string, s Submission, a *Assignment, o Options, run Run) Graded {
	g := Graded{Learner: s.Learner, Unsandboxed: run.Unsandboxed}
	cs, notes, bad := openSubmission(s, a, dir)
	g.Notes = notes
	if bad.status != "" {
		g.Scores = bad.scores(a)
		return g
	}
	code := parseCells(cs)
	attempts := code.screen(a, o.Module)
	buildPrograms(ctx, tc, dir, code, o.Module, ready(attempts))
	runPrograms(ctx, slot, o, run.Seed, attempts)
	g.Scores = scores(attempts)
	return g
}

// unusable is why no exercise of a submission can be graded: the status
// every exercise gets, and the details; a zero unusable is none.
type unusable struct {
	status  Status
	details string
}

// scores are a's exercises scored 0 with u's status and details.
func (u unusable) scores(a *Assignment) []Score {
	var out []Score
	for _, e := range a.Exercises {
		out = append(out, Score{Exercise: e.ID, Max: e.Points, Status: u.status, Details: u.details})
	}
	return out
}

// openSubmission returns the code cells of s, with notes for the
// feedback (cells that were ignored, a notebook that says it is another
// assignment), and makes dir, where its programs are built. It returns
// why s cannot be graded at all when it cannot: no usable notebook, one
// that does not decode, or no work folder.
func openSubmission(s Submission, a *Assignment, dir string) (cs []codeCell, notes []string, bad unusable) {
	if s.Problem != "" {
		return nil, nil, unusable{StatusNoSubmission, s.Problem}
	}
	src, cs, ignored, err := cells(s.Data)
	if err != nil {
		return nil, nil, unusable{StatusBrokenNotebook, err.Error()}
	}
	notes = append(notes, ignored...)
	if src != "" && src != a.Source {
		notes = append(notes, fmt.Sprintf("the notebook says it is %s; it was graded on %s, the assignment of the folder, by its exercise cells",
			printable(src), a.Source))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, notes, unusable{StatusGraderError, err.Error()}
	}
	return cs, notes, unusable{}
}

// learnerCode is what a submission's cells declare, as the grader reads
// them: parsed, and resolved as GoNB would run them.
type learnerCode struct {
	cells    []*parsedCell       // the cells that parse, in the notebook's order
	byNumber map[int]*parsedCell // by their position in the notebook
	source   *source             // their declarations, resolved
	// parseErr is the parse error of each exercise's own cell; otherErrs
	// are those of the other cells.
	parseErr  map[string]string
	otherErrs []string
	hasCell   map[string]bool // exercise id → the notebook has its cell
}

// parseCells parses the learner's cells. The checks and the setup cell
// are the course's, not the learner's; every other cell may declare
// what the exercises use.
func parseCells(cs []codeCell) *learnerCode {
	code := &learnerCode{byNumber: map[int]*parsedCell{}, parseErr: map[string]string{}, hasCell: map[string]bool{}}
	fset := token.NewFileSet()
	for _, c := range cs {
		if c.check != "" || lesson.IsSetup(lesson.Cell{Kind: lesson.Code, Source: c.source}) {
			continue
		}
		if c.exercise != "" {
			code.hasCell[c.exercise] = true
		}
		p, err := parseCell(fset, c.number, c.source)
		if err != nil {
			if c.exercise != "" {
				code.parseErr[c.exercise] = err.Error()
			} else {
				code.otherErrs = append(code.otherErrs, err.Error())
			}
			continue
		}
		code.cells = append(code.cells, p)
		code.byNumber[p.number] = p
	}
	code.source = newSource(code.cells)
	return code
}

// withParseErrors is msg followed by the first parse errors of the cells
// that are not an exercise's: a compiler message may come of a name one
// of them declares.
func (code *learnerCode) withParseErrors(msg string) string {
	for i, pe := range code.otherErrs {
		if i == 3 {
			msg += fmt.Sprintf("\n… and %d more cells that do not parse", len(code.otherErrs)-3)
			break
		}
		msg += "\n" + pe
	}
	return msg
}

// attempt is the learner's attempt at one exercise on its way through
// gradeOne's phases: a phase that settles its score sets score.Status,
// and the phases after leave it alone.
type attempt struct {
	e     Exercise
	score Score
	decls []*decl // the declarations its program holds; nil if no cell declares its function
	prog  string  // its program, built and cleared to run
}

// screen returns an attempt per exercise of a, settled before any build
// where the code the exercise needs uses what no submission may, or
// names what its allow list lacks, or where there is no function to
// grade.
func (code *learnerCode) screen(a *Assignment, module string) []*attempt {
	attempts := make([]*attempt, len(a.Exercises))
	for i, e := range a.Exercises {
		attempts[i] = code.screenOne(e, module)
	}
	return attempts
}

func (code *learnerCode) screenOne(e Exercise, module string) *attempt {
	at := &attempt{e: e, score: Score{Exercise: e.ID, Max: e.Points}}
	var what, why, use string
	if code.source.function(e.Func) != nil {
		at.decls = code.source.closure(e.Func)
		what, why = forbidden(at.decls)
		use = code.source.unallowedName(at.decls, newAllowList(module, e.Allow), module)
	}
	sc := &at.score
	switch {
	case what != "":
		sc.Status = refused(what)
		sc.Details = "your code cannot be graded: " + why
	case use != "":
		sc.Status = notAllowed(use)
		sc.Details = fmt.Sprintf("exercise %s allows %s; your code uses %s, so it scores 0.", e.ID, allowText(e.Allow), use)
	case at.decls != nil:
		// ready to build
	case code.parseErr[e.ID] != "":
		sc.Status, sc.Details = StatusCompileError, "the exercise cell "+strings.TrimPrefix(code.parseErr[e.ID], "code cell ")
	case !code.hasCell[e.ID]:
		sc.Status = StatusMissing
		sc.Details = fmt.Sprintf("no cell for exercise %s, and no cell declares func %s: its cell (first line \"// Exercise %s …\") was deleted or renamed", e.ID, e.Func, e.ID)
	default:
		sc.Status = StatusCompileError
		sc.Details = fmt.Sprintf("no cell declares func %s: the exercise asks for %s", e.Func, e.Signature)
	}
	return at
}

// ready are the attempts that screening left to build.
func ready(attempts []*attempt) []*attempt {
	var out []*attempt
	for _, at := range attempts {
		if at.score.Status == "" && at.decls != nil {
			out = append(out, at)
		}
	}
	return out
}

// builder builds a submission's programs in the sandbox and checks what
// they link.
type builder struct {
	tc     *toolchain
	dir    string // the submission's work folder
	code   *learnerCode
	module string
}

// buildPrograms builds the ready attempts' programs: every exercise into
// one program first, and where that fails or links what one of them may
// not, each exercise alone with exactly the declarations it needs, so
// that a cell that does not compile costs only the exercises that use
// it. All the builds share one budget, tc.buildTimeout. An attempt whose
// program builds and passes the link checks gets it in prog; the others
// are scored.
func buildPrograms(ctx context.Context, tc *toolchain, dir string, code *learnerCode, module string, ready []*attempt) {
	ctx, cancel := context.WithTimeout(ctx, tc.buildTimeout)
	defer cancel()
	b := builder{tc: tc, dir: dir, code: code, module: module}
	if len(ready) > 1 {
		b.buildTogether(ctx, ready)
	}
	for _, at := range ready {
		if at.prog == "" {
			b.buildAlone(ctx, at)
		}
	}
}

// buildTogether builds the attempts into one program and gives it to those
// it links nothing denied or unallowed for. It scores none: a denied or
// unallowed use is attributed by buildAlone, on the exercise alone,
// since the combined program links every exercise's code.
func (b builder) buildTogether(ctx context.Context, attempts []*attempt) {
	prog, msg := b.build(ctx, "all", attempts)
	if msg != "" {
		return
	}
	syms, err := symbols(prog)
	if err != nil {
		return
	}
	for _, at := range attempts {
		if use, err := b.unallowed(ctx, at.e, syms); err == nil && use == "" && deniedUse(syms, b.module, at.e.Deny) == "" {
			at.prog = prog
		}
	}
}

// buildAlone builds the attempt's program from the declarations its
// exercise needs and gives it the program, or scores it: a compile
// error, a call of a denied function, a link beyond the allow list, or
// the grader's error.
func (b builder) buildAlone(ctx context.Context, at *attempt) {
	sc := &at.score
	prog, msg := b.build(ctx, at.e.ID, []*attempt{at})
	if msg != "" {
		sc.Status = StatusCompileError
		sc.Details = b.code.withParseErrors("your code does not compile:\n" + msg)
		return
	}
	syms, err := symbols(prog)
	if err != nil {
		sc.Status, sc.Details = StatusGraderError, err.Error()
		return
	}
	if use := deniedUseNaming(syms, b.module, at.e.Deny, b.code.source.named(at.decls, b.module)); use != "" {
		sc.Status = flagged(use)
		sc.Details = fmt.Sprintf("exercise %s asks you to write this yourself; the program built from your code calls %s from the course library, so it scores 0.", at.e.ID, use)
		return
	}
	use, err := b.unallowed(ctx, at.e, syms)
	if err != nil {
		sc.Status, sc.Details = StatusGraderError, err.Error()
		return
	}
	if use != "" {
		sc.Status = notAllowed(use)
		sc.Details = fmt.Sprintf("exercise %s allows %s; the program built from your code links %s, so it scores 0.", at.e.ID, allowText(at.e.Allow), use)
		return
	}
	at.prog = prog
}

// build builds the attempts' exercises into one program in the folder name
// of the work folder. It returns the program's path, or the compiler's
// message (or the grader's, when it could not build).
func (b builder) build(ctx context.Context, name string, attempts []*attempt) (prog, msg string) {
	var exs []Exercise
	var funcs []string
	for _, at := range attempts {
		exs = append(exs, at.e)
		funcs = append(funcs, at.e.Func)
	}
	decls := attempts[0].decls
	if len(attempts) > 1 {
		decls = b.code.source.closure(funcs...)
	}
	prog, msg, err := b.tc.buildCached(ctx, filepath.Join(b.dir, name), child{learner: program(decls, b.code.cells), exercises: exs}, b.code.byNumber)
	if err != nil {
		return "", "the grader could not build the program: " + err.Error()
	}
	return prog, msg
}

// unallowed is what a program of e that links syms links beyond its
// harness and allow list, or why that cannot be told.
func (b builder) unallowed(ctx context.Context, e Exercise, syms map[string]bool) (use string, err error) {
	base, err := b.tc.baselines.symbols(ctx, b.tc, filepath.Join(filepath.Dir(b.dir), "baseline"), e)
	if err != nil {
		return "", err
	}
	return unallowedLink(syms, base, newAllowList(b.module, e.Allow), b.module), nil
}

// runPrograms runs and scores the attempts that have a program.
func runPrograms(ctx context.Context, slot int, o Options, seed uint64, attempts []*attempt) {
	for _, at := range attempts {
		if at.prog != "" {
			at.runAndScore(ctx, slot, o, seed)
		}
	}
}

// runAndScore runs the attempt's program in the sandbox on the
// exercise's inputs — the visible cases and hidden ones drawn from seed —
// and scores what it wrote against the reference, in the grader's
// process.
func (at *attempt) runAndScore(ctx context.Context, slot int, o Options, seed uint64) {
	spec, _ := check.Lookup(at.e.ID)
	var in bytes.Buffer
	if _, err := spec.WriteInputs(&in, seed); err != nil {
		at.score.Status, at.score.Details = StatusGraderError, err.Error()
		return
	}
	lim := sandbox.Limits{Wall: at.e.timeLimit(o), Memory: o.Memory, FileSize: 64 << 20, TmpSize: 64 << 20, Procs: 256}
	rr := runChild(ctx, at.prog, at.e.ID, in.Bytes(), lim, slot)
	at.score.record(judge(spec, at.e, rr, seed), rr.why(lim), rr.timedOut)
}

// judge is lib/check's verdict on what the child wrote; more than
// maxResults is a malformed result, not decoded.
func judge(spec check.Spec, e Exercise, rr runResult, seed uint64) *check.Result {
	if rr.oversize {
		return &check.Result{ID: e.ID, Max: e.Points, Status: string(StatusMalformedResult),
			Cases: []check.CaseResult{{Name: "results", Problem: fmt.Sprintf("the program wrote more than %d MiB of results", maxResults>>20)}}}
	}
	return spec.Grade(bytes.NewReader(rr.results), seed)
}

// record sets sc from res. The names of hidden cases describe their
// inputs: the feedback numbers them instead. why is how the program
// ended ("" for an ordinary exit); when the exercise did not pass, it is
// added to the details, and a program that ended early with no point is
// said to have crashed or timed out.
func (sc *Score) record(res *check.Result, why string, timedOut bool) {
	sc.Points = res.Points
	sc.Status = Status(res.Status)
	n := 0
	for c := range res.Cases {
		if res.Cases[c].Hidden {
			n++
			res.Cases[c].Name = fmt.Sprintf("hidden case %d", n)
		}
	}
	sc.Details = res.Report()
	sc.Mistakes, sc.Unrecognised = mistakes(res)
	for _, c := range res.Cases {
		if c.TimedOut {
			sc.TimedOut++
		}
		if c.Panicked {
			sc.Panicked++
		}
	}
	if why == "" && strings.Contains(sc.Details, "no result:") {
		why = "the program exited before all cases ran (os.Exit in your code?)"
	}
	if why != "" && Status(res.Status) != StatusOK {
		sc.Details += why + "\n"
		if res.Points == 0 && Status(res.Status) != StatusMalformedResult {
			sc.Status = StatusCrashed
			if timedOut {
				sc.Status = StatusTimeout
			}
		}
	}
}

// scores are the attempts' scores, in the assignment's order.
func scores(attempts []*attempt) []Score {
	out := make([]Score, len(attempts))
	for i, at := range attempts {
		out[i] = at.score
	}
	return out
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
