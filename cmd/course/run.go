package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/attention-in-go/course/internal/claim"
	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/internal/excerpt"
	"github.com/attention-in-go/course/internal/jupyter"
	"github.com/attention-in-go/course/internal/notebook"
	"github.com/attention-in-go/course/internal/proctree"
	"github.com/attention-in-go/course/lib/backend"
)

var runCommand = &command{
	name:    "run",
	args:    "[-timeout 10m] [-j 1] [-kernels CLASSES] [-keep DIR] [-v] [NOTEBOOK...]",
	summary: "execute notebooks headless with Jupyter and GoNB, report failed cells",
	help: `
Run executes notebooks headless, one at a time (or -j at a time), with
Jupyter's nbconvert and the GoNB kernel, as a reader would with "Run All",
then reports each one, in the order given:

  ok   notebooks/01-x.ipynb  23.4s  12 cells  5 images

or FAIL followed by the failed cells ("In [n]" counts code cells) and their
errors: panics, compile errors, non-zero exit statuses. The default is every
notebooks/*.ipynb of the course, in order. Each kernel starts in the
notebook's own folder. A notebook still running after -timeout is stopped:
its kernel is interrupted, so the cell that was running shows as failed.
Exercise and solution notebooks (exercises/, solutions/) are also
checked against their lib/check reports: every check cell must print its
"points: X/Y" line, and in a solution notebook X must equal Y. In an
exercise notebook the stubs panic with "TODO"; the checks catch the panic
and report "not done yet", which is expected and does not fail the run.
The figures a lesson's text states are held to what the notebook computed:
each line of its "claims" blocks (see internal/claim) is checked against
what the executed notebook printed, or its run time, and a claim that no
longer holds fails the notebook ("text before In[n]"). Exercise notebooks
are not checked; their stubs compute nothing.
A trained figure moves with the order of the sums, which depends on the
CPU's kernels (AVX-512, AVX2, plain Go): the text states what every class
gives, and -kernels runs each notebook under each class named — a
comma-separated list of AVX-512, AVX2 and plain, "all" (every class this
machine can run, its own first: an AVX-512 CPU emulates AVX2 and plain Go
by switching GoMLX's kernels off, GOMLX_SIMD_AVX512=false and
GOMLX_SIMD_AVX2=false) or "others" (all but its own). Without -kernels
the notebooks run with the kernels the environment gives. A timing of the
text is checked only on a run on the machine it was measured on (its
kernel class and number of cores), and only against being stale (see
internal/claim); the report says which timings it did not check.
Notebooks whose cells mostly build programs (a cell's build is mostly one
core's work) finish sooner two at a time on two cores; a notebook whose
text states how long something takes on this machine runs alone even
with -j. Each kernel class gets a checkpoint folder of its own
(COURSE_CACHE), new for the run, so that a notebook never loads a model
another run, or another class, trained. Run fails if a notebook fails,
times out or cannot be executed. The executed notebooks are thrown away
unless -keep says where to write them.

Jupyter and the gonb kernel must be installed ('make setup'); $(go env
GOPATH)/bin is put first on the PATH so that the kernel finds gonb's tools.`,
	run: runRun,
}

// stderrTailLines is how much of nbconvert's stderr run shows when
// nbconvert fails; failureLines is how much of a cell's error it shows.
const (
	stderrTailLines = 20
	failureLines    = 15
)

func runRun(e *env, fs *flag.FlagSet, args []string) error {
	timeout := fs.Duration("timeout", 10*time.Minute, "time limit per notebook, also nbconvert's limit per cell")
	keep := fs.String("keep", "", "write the executed notebooks to `DIR` instead of a temporary folder")
	verbose := fs.Bool("v", false, "show nbconvert's and the kernel's log as they run")
	jobs := fs.Int("j", 1, "run up to `N` notebooks at once")
	kernels := fs.String("kernels", "", "run every notebook under each kernel class of `CLASSES`: AVX-512, AVX2, plain (comma-separated), all or others")
	if err := e.parseFlags(fs, args); err != nil {
		return err
	}
	classes, err := kernelClasses(*kernels)
	if err != nil {
		return err
	}
	if *timeout < time.Second {
		return usageErrorf("-timeout %v is too short", *timeout)
	}
	if *jobs < 1 {
		return usageErrorf("-j %d: run at least one notebook at a time", *jobs)
	}
	paths, err := notebookPaths(e, fs.Args())
	if err != nil {
		return err
	}
	r, err := newRunner(e, *timeout, *verbose)
	if err != nil {
		return err
	}
	outDir, cleanup, err := outputDir(e, *keep, paths)
	if err != nil {
		return err
	}
	defer cleanup()
	caches, err := os.MkdirTemp("", "course-checkpoints-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(caches)

	// A job is one notebook under one kernel class; the classes are run
	// one after the other, each over every notebook. Classes asked for
	// with -kernels are named in the report.
	type job struct {
		path  string
		class backend.Class
	}
	named := *kernels != ""
	var todo []job
	for _, c := range classes {
		for _, p := range paths {
			todo = append(todo, job{p, c})
		}
	}
	switch {
	case !named: // the environment's kernels
		c := backend.Class{Name: backend.KernelsWith(r.env)}
		for _, p := range paths {
			todo = append(todo, job{path: p, class: c})
		}
	case len(classes) == 0:
		fmt.Fprintf(e.stdout, "-kernels %s: this machine runs only the %s kernels; nothing to run\n", *kernels, backend.Classes()[0].Name)
		return nil
	}

	// Up to jobs notebooks run at once, started in the order given; each
	// is reported, in that order, as soon as it and those before it are
	// done. Once the run is interrupted, no more notebooks start.
	results := make([]chan result, len(todo))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	next := make(chan int, len(todo))
	for i := range todo {
		next <- i
	}
	close(next)
	// A notebook whose text states how long something takes on this
	// machine runs alone: it holds the lock, the others share it (a
	// waiting Lock stops new RLocks, so the order given is kept).
	var alone sync.RWMutex
	for range min(*jobs, len(todo)) {
		go func() {
			for i := range next {
				if e.ctx.Err() != nil {
					close(results[i])
					continue
				}
				j := todo[i]
				m := runMachine(j.class.Name)
				lock, unlock := alone.RLock, alone.RUnlock
				if timed(j.path, m) {
					lock, unlock = alone.Lock, alone.Unlock
				}
				lock()
				res := r.withClass(j.class, named, caches).run(e.ctx, j.path, outDir)
				res.machine = m
				results[i] <- res
				unlock()
			}
		}()
	}
	failed := 0
	for i, j := range todo {
		res, ran := <-results[i]
		if !ran {
			break
		}
		name := e.display(j.path)
		if named {
			name += "  [" + j.class.Name + "]"
		}
		if !res.report(e.stdout, name) {
			failed++
		}
	}
	if failed > 0 {
		what := "notebooks"
		if named {
			what = "notebook runs"
		}
		fmt.Fprintf(e.stdout, "%d of %d %s failed\n", failed, len(todo), what)
		return errFailed
	}
	return nil
}

// kernelClasses returns the classes -kernels names: none for an empty
// flag (one run per notebook with the environment's kernels), and none
// for "others" on a machine that runs one class only.
func kernelClasses(flag string) ([]backend.Class, error) {
	if flag == "" {
		return nil, nil
	}
	here := backend.Classes()
	var names []string
	for _, c := range here {
		names = append(names, c.Name)
	}
	switch flag {
	case "all":
		return here, nil
	case "others":
		return here[1:], nil
	}
	var out []backend.Class
	for _, name := range strings.Split(flag, ",") {
		name = strings.TrimSpace(name)
		want := map[string]string{"avx-512": backend.AVX512, "avx512": backend.AVX512, "avx2": backend.AVX2, "plain": backend.Plain, "plain go": backend.Plain}[strings.ToLower(name)]
		if want == "" {
			return nil, usageErrorf("-kernels %s: %q is not a kernel class (AVX-512, AVX2, plain, or all, others)", flag, name)
		}
		i := slices.IndexFunc(here, func(c backend.Class) bool { return c.Name == want })
		if i < 0 {
			return nil, usageErrorf("-kernels %s: this machine cannot run the %s kernels; it runs %s", flag, want, strings.Join(names, ", "))
		}
		if !slices.ContainsFunc(out, func(c backend.Class) bool { return c.Name == want }) {
			out = append(out, here[i])
		}
	}
	return out, nil
}

// runMachine is the machine a notebook runs on with the kernels named: its
// timings are held to the text's only if the text measured them there.
func runMachine(kernels string) claim.Machine {
	return claim.Machine{Kernels: kernels, Cores: runtime.GOMAXPROCS(0)}
}

// timed reports whether the notebook at path states timings on machine m
// ([notebook.Timed]); one that cannot be read is run alone, and its run
// reports why.
func timed(path string, m claim.Machine) bool {
	nb, err := notebook.ReadFile(path)
	return err != nil || notebook.Timed(nb, m)
}

// display returns path relative to the working directory if it is inside.
func (e *env) display(path string) string { return courseroot.Rel(e.dir, path) }

// notebookPaths returns the notebooks to run: args, relative to the working
// directory, or else every notebook of the course.
func notebookPaths(e *env, args []string) ([]string, error) {
	if len(args) > 0 {
		paths := make([]string, len(args))
		for i, a := range args {
			if filepath.Ext(a) != ".ipynb" {
				return nil, usageErrorf("%s is not a notebook (.ipynb)", a)
			}
			if !filepath.IsAbs(a) {
				a = filepath.Join(e.dir, a)
			}
			if _, err := os.Stat(a); err != nil {
				return nil, err
			}
			paths[i] = a
		}
		return paths, nil
	}
	root, err := courseroot.Find(e.dir)
	if err != nil {
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(root, "notebooks", "*.ipynb"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no notebooks in %s: run `make notebooks` first", filepath.Join(root, "notebooks"))
	}
	sort.Strings(paths)
	return paths, nil
}

// outputDir returns the folder for executed notebooks: keep, or a temporary
// folder removed by cleanup. It refuses a folder holding one of the
// notebooks, which nbconvert would overwrite.
func outputDir(e *env, keep string, paths []string) (dir string, cleanup func(), err error) {
	if keep == "" {
		dir, err := os.MkdirTemp("", "course-run-")
		if err != nil {
			return "", nil, err
		}
		return dir, func() { os.RemoveAll(dir) }, nil
	}
	if !filepath.IsAbs(keep) {
		keep = filepath.Join(e.dir, keep)
	}
	for _, p := range paths {
		if filepath.Dir(p) == filepath.Clean(keep) {
			return "", nil, usageErrorf("-keep %s holds %s, which the executed copy would overwrite", e.display(keep), e.display(p))
		}
	}
	if err := os.MkdirAll(keep, 0o755); err != nil {
		return "", nil, err
	}
	return keep, func() {}, nil
}

// runner executes notebooks with nbconvert.
type runner struct {
	jupyter string
	env     []string // the child's environment
	timeout time.Duration
	verbose io.Writer // nbconvert's stderr is copied here if not nil
	suffix  string    // ends the executed notebook's name: its kernel class, when named
}

// withClass returns a runner whose notebooks use the kernels of class c
// (when named, its switches replace any of the environment's) and keep
// their checkpoints in a folder of caches of that class's own.
func (r *runner) withClass(c backend.Class, named bool, caches string) *runner {
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

func newRunner(e *env, timeout time.Duration, verbose bool) (*runner, error) {
	find := e.findJupyter
	if find == nil {
		find = jupyter.Find
	}
	program, err := find()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, jupyter.SetupAdvice)
	}
	r := &runner{jupyter: program, env: childEnv(), timeout: timeout}
	if verbose {
		r.verbose = e.stderr
	}
	if err := jupyter.CheckKernel(e.ctx, r.jupyter, r.env, "gonb"); err != nil {
		return nil, err
	}
	return r, nil
}

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

// result is the outcome of executing one notebook.
type result struct {
	machine claim.Machine // where it ran: its kernels and cores
	elapsed time.Duration
	nb      *notebook.Notebook // the executed notebook, if nbconvert wrote it
	err     error              // a timeout, or why nbconvert failed
	stderr  []string           // the end of nbconvert's stderr, if it failed
}

// run executes the notebook at path, writing the executed copy to outDir.
func (r *runner) run(ctx context.Context, path, outDir string) result {
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
		return result{err: err}
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
	res := result{elapsed: time.Since(start)}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.err = fmt.Errorf("timed out after %v", r.timeout)
	case ctx.Err() != nil:
		res.err = fmt.Errorf("interrupted: %v", ctx.Err())
	case err != nil:
		res.err = fmt.Errorf("nbconvert failed: %v", err)
	}
	// After a timeout, nbconvert usually still writes the notebook, in which
	// the interrupted cell shows.
	nb, readErr := notebook.ReadFile(out)
	switch {
	case readErr == nil:
		res.nb = nb
	case res.err == nil:
		res.err = readErr
	}
	if res.nb == nil {
		res.stderr = stderrLines(stderr.String(), stderrTailLines)
	}
	return res
}

// report prints the result for the notebook shown as name and reports
// whether it passed.
func (res result) report(w io.Writer, name string) bool {
	secs := fmt.Sprintf("%.1fs", res.elapsed.Seconds())
	var failures []notebook.Failure
	if res.nb != nil {
		failures = notebook.Failures(res.nb)
		failures = append(failures, notebook.MissingFigures(res.nb, "viz.Show")...)
		if f := res.nb.Course.Flavour; f != "" {
			failures = append(failures, notebook.CheckFailures(res.nb, f == notebook.FlavourSolution)...)
		}
		failures = append(failures, notebook.ClaimFailures(res.nb, res.elapsed.Seconds(), res.machine)...)
		slices.SortFunc(failures, func(a, b notebook.Failure) int { return a.Cell - b.Cell })
	}
	if res.err == nil && len(failures) == 0 {
		fmt.Fprintf(w, "ok   %s  %s  %d cells  %d images\n", name, secs, res.nb.CodeCells(), notebook.Images(res.nb))
		res.reportElsewhere(w)
		return true
	}
	fmt.Fprintf(w, "FAIL %s  %s", name, secs)
	if res.nb != nil {
		claims := 0
		for _, f := range failures {
			if res.nb.Cells[f.Index].Type == notebook.Markdown {
				claims++
			}
		}
		if cells := len(failures) - claims; cells > 0 || claims == 0 {
			fmt.Fprintf(w, "  %d of %d cells failed", cells, res.nb.CodeCells())
		}
		if claims > 0 {
			fmt.Fprintf(w, "  %d claims of the text do not hold", claims)
		}
	}
	fmt.Fprintln(w)
	if res.err != nil {
		fmt.Fprintf(w, "  %v\n", res.err)
	}
	for _, f := range failures {
		if res.nb.Cells[f.Index].Type == notebook.Markdown {
			fmt.Fprintf(w, "  text before In[%d]: %s\n", f.Cell, f.FirstLine())
		} else {
			fmt.Fprintf(w, "  cell In[%d]: %s\n", f.Cell, f.FirstLine())
		}
		for _, line := range limitLines(f.Text, failureLines) {
			fmt.Fprintf(w, "      %s\n", line)
		}
	}
	if len(res.stderr) > 0 {
		fmt.Fprintf(w, "  nbconvert's stderr ends with:\n")
		for _, line := range res.stderr {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
	res.reportElsewhere(w)
	return false
}

// reportElsewhere says which of the text's timings this run did not check:
// those measured on another machine.
func (res result) reportElsewhere(w io.Writer) {
	if res.nb == nil {
		return
	}
	var on []string
	for _, m := range notebook.TimedElsewhere(res.nb, res.machine) {
		on = append(on, m.String())
	}
	if len(on) == 0 {
		return
	}
	if notebook.Timed(res.nb, res.machine) {
		fmt.Fprintf(w, "     (checked the text's timings for %s, this run's machine; not those for %s)\n", res.machine, strings.Join(on, " and "))
		return
	}
	fmt.Fprintf(w, "     (timings not checked: the text's are for %s, this run is on %s)\n", strings.Join(on, " and "), res.machine)
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

// stderrTailSize is how much of the end of nbconvert's stderr run keeps.
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
		line = strings.TrimRight(notebook.StripANSI(line), " \r\t")
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
