// Package runner executes the course's notebooks headless, as a reader
// would with "Run All": Jupyter's nbconvert runs each one through the GoNB
// kernel, and the executed notebook is judged by its outputs, not by
// nbconvert's exit status (which is 0 when a Go cell panics). A notebook
// fails when a cell shows an error output or a panic, a compile error or a
// non-zero exit status on stderr ([Failures]); when a figure a cell shows
// goes missing ([MissingFigures]); when a check cell of an exercise or
// solution notebook does not report as it should; or when a claim of its
// text (internal/claim) no longer holds for what it printed or how long it
// ran.
//
// A [Runner] holds the jupyter program and the environment the kernels
// get. [Runner.Run] executes one notebook and [Result.Report] says how it
// went; [Runner.RunAll] runs a batch — several at once, each under the
// kernel classes asked for, and again alone a run whose claims failed
// beside the others — and reports each in the order given. When the context ends,
// the kernel is interrupted and nbconvert's process tree stopped
// ([proctree.Run]). `course run` and `course site` are its commands.
package runner

import (
	"context"
	"errors"
	"fmt"
	"go/build"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/attention-in-go/course/internal/claim"
	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/excerpt"
	"github.com/attention-in-go/course/internal/jupyter"
	"github.com/attention-in-go/course/internal/notebook"
	"github.com/attention-in-go/course/internal/proctree"
	"github.com/attention-in-go/course/lib/backend"
)

// stderrTailLines is how much of nbconvert's stderr a report shows when
// nbconvert fails; failureLines is how much of a cell's error it shows.
const (
	stderrTailLines = 20
	failureLines    = 15
)

// Options configures a [Runner].
type Options struct {
	// Timeout limits the run of each notebook; it is also nbconvert's
	// limit per cell.
	Timeout time.Duration
	// Verbose, if not nil, gets a copy of nbconvert's stderr, with the
	// kernel's log, as the notebooks run.
	Verbose io.Writer
	// FindJupyter locates the jupyter program; nil means [jupyter.Find].
	FindJupyter func() (string, error)
}

// Runner executes notebooks with nbconvert.
type Runner struct {
	jupyter string
	env     []string // the child's environment
	timeout time.Duration
	verbose io.Writer // nbconvert's stderr is copied here if not nil
	suffix  string    // ends the executed notebook's name: its kernel class, when named
}

// New returns a Runner, or an error that says how to install what is
// missing: Jupyter, or its gonb kernel.
func New(ctx context.Context, o Options) (*Runner, error) {
	find := o.FindJupyter
	if find == nil {
		find = jupyter.Find
	}
	program, err := find()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, jupyter.SetupAdvice)
	}
	r := &Runner{jupyter: program, env: childEnv(), timeout: o.Timeout, verbose: o.Verbose}
	if err := jupyter.CheckKernel(ctx, r.jupyter, r.env, "gonb"); err != nil {
		return nil, err
	}
	return r, nil
}

// Batch is what [Runner.RunAll] runs.
type Batch struct {
	// Paths are the notebooks, in the order their reports come.
	Paths []string
	// Classes, if any, are the kernel classes each notebook runs under,
	// one after the other: each class's switches replace the
	// environment's, and the report names the class of each run. None
	// means one run of each notebook with the environment's kernels.
	Classes []backend.Class
	// Jobs is how many notebooks run at once (at least 1). With more
	// than one, a run shares the machine: its timings are held to the
	// stricter bound of [claim.Claim.CheckShared], with Slowdown, and a
	// run whose only failures are claims of its text that a run alone
	// might satisfy ([Failure.Retry]) runs again alone, which is the run
	// reported.
	Jobs int
	// Slowdown is how many times slower than alone a notebook may run
	// beside the others; 0 means [SharedSlowdown].
	Slowdown float64
	// OutDir is where the executed notebooks go.
	OutDir string
	// Name returns how the report names the notebook at path.
	Name func(path string) string
}

// SharedSlowdown is how many times slower than alone a notebook is taken
// to run when it shares the machine with other notebooks: two notebooks
// on two cores each get about one.
const SharedSlowdown = 2

// RunAll runs the notebooks of b and writes each one's report to w, in
// the order given, as soon as it and those before it are done, then a
// line that says how many failed, if any; it returns that number. Each
// kernel class gets a checkpoint folder of its own (COURSE_CACHE), new
// for the run, so that a notebook never loads a model another run, or
// another class, trained. Once ctx ends, no more notebooks start.
func (r *Runner) RunAll(ctx context.Context, w io.Writer, b Batch) (failed int, err error) {
	caches, err := os.MkdirTemp("", "course-checkpoints-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(caches)

	// A job is one notebook under one kernel class; the classes are run
	// one after the other, each over every notebook.
	type job struct {
		path  string
		class backend.Class
	}
	named := len(b.Classes) > 0
	var todo []job
	for _, c := range b.Classes {
		for _, p := range b.Paths {
			todo = append(todo, job{p, c})
		}
	}
	if !named { // the environment's kernels
		c := backend.Class{Name: backend.KernelsWith(r.env)}
		for _, p := range b.Paths {
			todo = append(todo, job{path: p, class: c})
		}
	}

	// Up to b.Jobs notebooks run at once, started in the order given;
	// each is reported, in that order, as soon as it and those before it
	// are done. Once the run is interrupted, no more notebooks start.
	results := make([]chan Result, len(todo))
	for i := range results {
		results[i] = make(chan Result, 1)
	}
	next := make(chan int, len(todo))
	for i := range todo {
		next <- i
	}
	close(next)
	// Notebooks run side by side. One whose run fails only on claims of
	// its text that a run alone might satisfy — a timing too close to the
	// text's to vouch for it, a printed figure that may be a ratio of two
	// timings the others' load skewed — runs again alone, holding
	// the lock the others share (a waiting Lock stops new RLocks, so the
	// order given is kept), and that run is judged.
	jobs := min(max(b.Jobs, 1), len(todo))
	slowdown := 0.0 // alone
	if jobs > 1 {
		slowdown = b.Slowdown
		if slowdown <= 0 {
			slowdown = SharedSlowdown
		}
	}
	var alone sync.RWMutex
	for range jobs {
		go func() {
			for i := range next {
				if ctx.Err() != nil {
					close(results[i])
					continue
				}
				j := todo[i]
				rc := r.withClass(j.class, named, caches)
				alone.RLock()
				res := rc.Run(ctx, j.path, b.OutDir)
				res.Machine, res.Shared = runMachine(j.class.Name), slowdown
				alone.RUnlock()
				if missed := res.retries(); len(missed) > 0 && ctx.Err() == nil {
					alone.Lock()
					if ctx.Err() == nil { // the wait for the lock can be long
						again := rc.Run(ctx, j.path, b.OutDir)
						again.Machine = res.Machine
						again.Again = fmt.Sprintf("ran again alone: beside other notebooks it took %.1fs, and %d %s of its text did not hold",
							res.Elapsed.Seconds(), len(missed), plural(len(missed), "claim", "claims"))
						for _, f := range missed {
							again.Missed = append(again.Missed, f.Text)
						}
						res = again
					}
					alone.Unlock()
				}
				results[i] <- res
			}
		}()
	}
	for i, j := range todo {
		res, ran := <-results[i]
		if !ran {
			break
		}
		name := b.Name(j.path)
		if named {
			name += "  [" + j.class.Name + "]"
		}
		if !res.Report(w, name) {
			failed++
		}
	}
	if failed > 0 {
		what := "notebooks"
		if named {
			what = "notebook runs"
		}
		fmt.Fprintf(w, "%d of %d %s failed\n", failed, len(todo), what)
	}
	return failed, nil
}

// withClass returns a runner whose notebooks use the kernels of class c
// (when named, its switches replace any of the environment's) and keep
// their checkpoints in a folder of caches of that class's own.
func (r *Runner) withClass(c backend.Class, named bool, caches string) *Runner {
	rc := *r
	rc.env = slices.DeleteFunc(slices.Clone(r.env), func(kv string) bool {
		return strings.HasPrefix(kv, courseCacheEnv+"=") || named && strings.HasPrefix(kv, "GOMLX_SIMD_")
	})
	slug := strings.ToLower(strings.ReplaceAll(c.Name, " ", "-"))
	if named {
		rc.env = append(rc.env, c.Env...)
		rc.suffix = "." + slug
	}
	rc.env = append(rc.env, courseCacheEnv+"="+filepath.Join(caches, slug))
	return &rc
}

// courseCacheEnv names the folder of trained checkpoints (lib/train.Dir).
const courseCacheEnv = "COURSE_CACHE"

// childEnv returns the environment for nbconvert: ours, with $(go env
// GOPATH)/bin first on the PATH, where gonb and its tools are installed,
// and COURSE_HEADLESS=1, which tells the cells that no browser is attached
// (lib/explore then draws its starting picture instead of waiting for
// GoNB's sliders to answer).
func childEnv() []string {
	bin := filepath.Join(goPath(), "bin")
	path := bin
	if old := os.Getenv("PATH"); old != "" {
		path += string(filepath.ListSeparator) + old
	}
	env := []string{"PATH=" + path, headlessEnv + "=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, headlessEnv+"=") {
			env = append(env, kv)
		}
	}
	return env
}

// headlessEnv is set in the environment of headless notebook runs.
const headlessEnv = "COURSE_HEADLESS"

// goPath returns the first entry of `go env GOPATH`.
func goPath() string {
	out, err := exec.Command("go", "env", "GOPATH").Output()
	gopath := strings.TrimSpace(string(out))
	if err != nil || gopath == "" {
		gopath = build.Default.GOPATH
	}
	return filepath.SplitList(gopath)[0]
}

// Result is the outcome of executing one notebook.
type Result struct {
	// Machine is where it ran, its kernels and cores, as RunAll sets
	// it: the text's timings measured there are checked. Run leaves it
	// zero, and no timing is checked.
	Machine claim.Machine
	// Shared, when not 0, is how many times slower than alone the run
	// may have been for sharing the machine with other notebooks: its
	// timings are held to [claim.Claim.CheckShared]'s bound.
	Shared float64
	// Again, if not empty, says why this is a second run, made alone;
	// Missed are the claims the first run missed, as it reported them.
	Again    string
	Missed   []string
	Elapsed  time.Duration
	Notebook *notebook.Notebook // the executed notebook, if nbconvert wrote it
	Err      error              // a timeout, or why nbconvert failed
	Stderr   []string           // the end of nbconvert's stderr, if it failed
}

// Run executes the notebook at path, writing the executed copy to outDir
// (named after the notebook, with its folder's name first for exercises/
// and solutions/), and returns what happened; [Result.Report] says it.
func (r *Runner) Run(ctx context.Context, path, outDir string) Result {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
	if dir := filepath.Base(filepath.Dir(path)); dir == "exercises" || dir == "solutions" {
		name = dir + "-" + name // exercises/01-x and solutions/01-x side by side in -keep
	}
	name += r.suffix // and the runs of each kernel class
	out := filepath.Join(outDir, name+".ipynb")
	if err := os.Remove(out); err != nil && !errors.Is(err, os.ErrNotExist) {
		return Result{Err: err}
	}
	cmd := exec.Command(r.jupyter, "nbconvert",
		"--to", "notebook", "--execute", "--allow-errors",
		"--ExecutePreprocessor.timeout="+strconv.Itoa(int(r.timeout.Seconds())),
		"--output-dir", outDir, "--output", name, path)
	cmd.Env = r.env
	cmd.Dir = filepath.Dir(path)
	stderr := excerpt.NewTail(stderrTailSize)
	cmd.Stderr = stderr
	if r.verbose != nil {
		cmd.Stderr = io.MultiWriter(stderr, r.verbose)
	}
	err := proctree.Run(ctx, cmd)
	res := Result{Elapsed: time.Since(start)}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.Err = fmt.Errorf("timed out after %v", r.timeout)
	case ctx.Err() != nil:
		res.Err = fmt.Errorf("interrupted: %v", ctx.Err())
	case err != nil:
		res.Err = fmt.Errorf("nbconvert failed: %v", err)
	}
	// After a timeout, nbconvert usually still writes the notebook, in which
	// the interrupted cell shows.
	nb, readErr := readNotebook(out)
	switch {
	case readErr == nil:
		res.Notebook = nb
	case res.Err == nil:
		res.Err = readErr
	}
	if res.Notebook == nil {
		res.Stderr = stderrLines(stderr.String(), stderrTailLines)
	}
	return res
}

// Convert runs `jupyter nbconvert ARGS` with the runner's environment,
// as Run does, for conversions that run no code (the site's HTML pages).
// When ctx ends, nbconvert's process tree is stopped. An error ends with
// the last lines of nbconvert's stderr.
func (r *Runner) Convert(ctx context.Context, args ...string) error {
	cmd := exec.Command(r.jupyter, append([]string{"nbconvert"}, args...)...)
	cmd.Env = r.env
	stderr := excerpt.NewTail(stderrTailSize)
	cmd.Stderr = stderr
	if err := proctree.Run(ctx, cmd); err != nil {
		return fmt.Errorf("%v\n%s", err, strings.Join(stderrLines(stderr.String(), stderrTailLines), "\n"))
	}
	return nil
}

// Report prints the result for the notebook shown as name and reports
// whether it passed: the run did not fail or time out, no cell failed, no
// figure a cell shows went missing, every check cell of an exercise or
// solution notebook reported as it should, and every claim of the text
// holds.
func (res Result) Report(w io.Writer, name string) bool {
	secs := fmt.Sprintf("%.1fs", res.Elapsed.Seconds())
	failures := res.failures()
	if res.Err == nil && len(failures) == 0 {
		fmt.Fprintf(w, "ok   %s  %s  %d cells  %d images\n", name, secs, res.Notebook.CodeCells(), Images(res.Notebook))
		res.reportAgain(w)
		res.reportElsewhere(w)
		return true
	}
	fmt.Fprintf(w, "FAIL %s  %s", name, secs)
	if res.Notebook != nil {
		claims := 0
		for _, f := range failures {
			if res.Notebook.Cells[f.Index].Type == notebook.Markdown {
				claims++
			}
		}
		if cells := len(failures) - claims; cells > 0 || claims == 0 {
			fmt.Fprintf(w, "  %d of %d cells failed", cells, res.Notebook.CodeCells())
		}
		if claims > 0 {
			fmt.Fprintf(w, "  %d %s of the text %s", claims, plural(claims, "claim", "claims"), plural(claims, "does not hold", "do not hold"))
		}
	}
	fmt.Fprintln(w)
	if res.Err != nil {
		fmt.Fprintf(w, "  %v\n", res.Err)
	}
	for _, f := range failures {
		if res.Notebook.Cells[f.Index].Type == notebook.Markdown {
			fmt.Fprintf(w, "  text before In[%d]: %s\n", f.Cell, f.FirstLine())
		} else {
			fmt.Fprintf(w, "  cell In[%d]: %s\n", f.Cell, f.FirstLine())
		}
		for _, line := range limitLines(f.Text, failureLines) {
			fmt.Fprintf(w, "      %s\n", line)
		}
	}
	if len(res.Stderr) > 0 {
		fmt.Fprintf(w, "  nbconvert's stderr ends with:\n")
		for _, line := range res.Stderr {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
	res.reportAgain(w)
	res.reportElsewhere(w)
	return false
}

// failures returns what failed in the executed notebook: its cells
// ([Failures]), its figures ([MissingFigures]), its check cells (for an
// exercise or solution notebook) and the claims of its text, by cell.
func (res Result) failures() []Failure {
	if res.Notebook == nil {
		return nil
	}
	failures := Failures(res.Notebook)
	failures = append(failures, MissingFigures(res.Notebook, "viz.Show")...)
	if meta, _, _ := coursemeta.Read(res.Notebook); meta.Flavour != "" {
		failures = append(failures, checkFailures(res.Notebook, meta.Flavour == coursemeta.FlavourSolution)...)
	}
	failures = append(failures, claimFailures(res.Notebook, res.Elapsed.Seconds(), res.Machine, res.Shared)...)
	slices.SortFunc(failures, func(a, b Failure) int { return a.Cell - b.Cell })
	return failures
}

// retries returns the claims of the text that failed in a run that shared
// the machine, if a run alone might satisfy them all ([Failure.Retry]) and
// nothing else failed; nil otherwise.
func (res Result) retries() []Failure {
	if res.Shared == 0 || res.Err != nil || res.Notebook == nil {
		return nil
	}
	failures := res.failures()
	for _, f := range failures {
		if !f.Retry {
			return nil
		}
	}
	return failures
}

// reportAgain says why the run reported is a second one, if it is, and
// which claims the first one missed: a text whose timings a shared run
// keeps coming close to is one to measure again.
func (res Result) reportAgain(w io.Writer) {
	if res.Again == "" {
		return
	}
	fmt.Fprintf(w, "     (%s)\n", res.Again)
	for _, m := range res.Missed {
		first, _, _ := strings.Cut(m, "\n")
		fmt.Fprintf(w, "       %s\n", first)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// reportElsewhere says which of the text's timings this run did not check:
// those measured on another machine.
func (res Result) reportElsewhere(w io.Writer) {
	if res.Notebook == nil {
		return
	}
	var on []string
	for _, m := range timedElsewhere(res.Notebook, res.Machine) {
		on = append(on, m.String())
	}
	if len(on) == 0 {
		return
	}
	if timedOn(res.Notebook, res.Machine) {
		fmt.Fprintf(w, "     (checked the text's timings for %s, this run's machine; not those for %s)\n", res.Machine, strings.Join(on, " and "))
		return
	}
	fmt.Fprintf(w, "     (timings not checked: the text's are for %s, this run is on %s)\n", strings.Join(on, " and "), res.Machine)
}

// limitLines returns the lines of s, at most max of them, the last one
// saying how many were left out.
func limitLines(s string, max int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= max {
		return lines
	}
	return append(lines[:max-1], fmt.Sprintf("… (%d more lines)", len(lines)-max+1))
}

// stderrTailSize is how much of the end of nbconvert's stderr a run keeps.
const stderrTailSize = 256 << 10

// klogLine matches the log lines GoNB writes to stderr (klog format: I1122
// 21:23:21.889721   10142 file.go:237] …), which are noise in a report.
var klogLine = regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^ ]+:\d+\]`)

// goStackLine matches the lines of a Go stack trace, which some of GoNB's
// log lines are followed by.
var goStackLine = regexp.MustCompile(`^(goroutine \d+ \[.*\]:|\t.*|created by .*|[\w./*()-]+\(.*\)(\s+\+0x[0-9a-f]+)?)$`)

// stderrLines returns the last n lines of stderr that are not blank,
// GoNB's log lines, or stack traces following those.
func stderrLines(stderr string, n int) []string {
	var lines []string
	inLog := false
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimRight(stripANSI(line), " \r\t")
		switch {
		case klogLine.MatchString(line):
			inLog = true
		case inLog && goStackLine.MatchString(line):
		case line == "":
		default:
			inLog = false
			lines = append(lines, line)
		}
	}
	return lines[max(0, len(lines)-n):]
}

// runMachine is the machine a notebook runs on with the kernels named: its
// timings are held to the text's only if the text measured them there.
func runMachine(kernels string) claim.Machine {
	return claim.Machine{Kernels: kernels, Cores: runtime.GOMAXPROCS(0)}
}

// readNotebook reads the notebook at path and checks its course metadata
// (internal/coursemeta), which says how to judge it.
func readNotebook(path string) (*notebook.Notebook, error) {
	nb, err := notebook.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if _, _, err := coursemeta.Read(nb); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nb, nil
}
