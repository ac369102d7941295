package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/internal/runner"
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
comma-separated list of AVX-512, AVX2 and plain (each run with its own
switches, whatever the environment's), "all" (every class this machine
can run, the fastest first: an AVX-512 CPU emulates AVX2 and plain Go by
switching GoMLX's kernels off, GOMLX_SIMD_AVX512=false and
GOMLX_SIMD_AVX2=false) or "others" (all but the first). A switch already
off in the environment makes this a machine without those kernels for
"all" and "others": GOMLX_SIMD_AVX512=false GOMLX_SIMD_AVX2=false make
test runs what a CPU without AVX2 runs. Without -kernels the notebooks
run with the kernels the environment gives. A timing of the
text is checked only on a run on the machine it was measured on (its
kernel class and number of cores), and only against being stale (see
internal/claim); the report says which timings it did not check.
Notebooks whose cells mostly build programs (a cell's build is mostly one
core's work) finish sooner two at a time on two cores. With -j above 1 a
run shares the machine, so a timing of its text must clear a stricter
bound (the text's figure over its factor, times 2: the others may have
slowed it that much); a run whose only failures are claims of its text
that a run alone might satisfy (such a timing, a printed figure) runs
again alone, and that run is the one judged and reported. Each kernel class gets a checkpoint folder of its own
(COURSE_CACHE), new for the run, so that a notebook never loads a model
another run, or another class, trained. Run fails if a notebook fails,
times out or cannot be executed. The executed notebooks are thrown away
unless -keep says where to write them.

Jupyter and the gonb kernel must be installed ('make setup'); $(go env
GOPATH)/bin is put first on the PATH so that the kernel finds gonb's tools.`,
	run: runRun,
}

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
	r, err := e.newRunner(*timeout, *verbose)
	if err != nil {
		return err
	}
	outDir, cleanup, err := outputDir(e, *keep, paths)
	if err != nil {
		return err
	}
	defer cleanup()
	if *kernels != "" && len(classes) == 0 {
		fmt.Fprintf(e.stdout, "-kernels %s: this machine runs only the %s kernels (in this environment); nothing to run\n", *kernels, backend.Classes()[0].Name)
		return nil
	}
	failed, err := r.RunAll(e.ctx, e.stdout, runner.Batch{Paths: paths, Classes: classes, Jobs: *jobs, OutDir: outDir, Name: e.display})
	if err != nil {
		return err
	}
	if failed > 0 {
		return errFailed
	}
	return nil
}

// newRunner returns a runner of notebooks with the time limit timeout,
// showing nbconvert's log on stderr if verbose.
func (e *env) newRunner(timeout time.Duration, verbose bool) (*runner.Runner, error) {
	o := runner.Options{Timeout: timeout, FindJupyter: e.findJupyter}
	if verbose {
		o.Verbose = e.stderr
	}
	return runner.New(e.ctx, o)
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
	for _, c := range backend.CPUClasses() {
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
		// A class named on purpose runs with its own switches, whatever
		// this environment's say: it is one of the CPU's classes.
		cpu := backend.CPUClasses()
		i := slices.IndexFunc(cpu, func(c backend.Class) bool { return c.Name == want })
		if i < 0 {
			return nil, usageErrorf("-kernels %s: this machine cannot run the %s kernels; it runs %s", flag, want, strings.Join(names, ", "))
		}
		if !slices.ContainsFunc(out, func(c backend.Class) bool { return c.Name == want }) {
			out = append(out, cpu[i])
		}
	}
	return out, nil
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
