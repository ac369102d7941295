// Package grade is the instructor's grader of exercise notebooks (the
// course's answer to nbgrader): `go run ./cmd/course grade DIR`.
//
// A submission is arbitrary Go that runs at grading time, so the grader
// treats it as hostile:
//
//   - It never runs the notebook's check cells. For every submission it
//     takes the learner's declarations (GoNB's rule: the last definition
//     of a name wins), keeps those each exercise needs, and builds them
//     with its own main into a child program that links the learner's
//     code and lib/exercise's tasks only — no reference, no expected
//     output, no hidden case (lib/check stays in the grader's process).
//   - The build and every run happen in a sandbox (package sandbox:
//     bubblewrap namespaces, resource limits, and for runs a seccomp
//     filter that refuses new processes). A run sees only its program.
//   - The child computes the learner's function on the inputs the
//     grader sends — the visible cases and hidden ones drawn at grading
//     time from a seed the instructor controls — and writes the
//     outcomes on file descriptor 3; the grader reads at most a bounded
//     amount, decodes it into the exercise's types, and compares with
//     the reference itself. Anything else on that channel scores 0.
//   - A use of the course library that implements an exercise is found
//     in the symbols the linker kept in the program (inlining is off for
//     the learner's and the course's packages), however the code reaches
//     it: aliases, dot imports, other cells, methods, initialisers,
//     reflection, linknames.
//
// The results go to a gradebook CSV and one Markdown feedback file per
// learner, written atomically; each submission's result is cached under
// a key of everything that decides it (notebook, grader, seed, limits)
// and authenticated with a key kept in the output folder, so a second
// run, or one resumed after an interruption, regrades nothing finished.
package grade

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/attention-in-go/course/internal/grade/sandbox"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/lib/check"
)

// Version is part of every cache key: change it when grading changes.
const Version = "grade-3"

// Exercise is one exercise of the assignment.
type Exercise struct {
	ID        string
	Points    int
	Func      string // the function the learner writes
	Signature string // its whole signature, for messages
	// TaskPackage declares the exercise's task as a variable named Func
	// (lib/exercise or lib/exercise/withlib).
	TaskPackage string
	Deny        []string
	// Allow is what a solution may use besides the standard library
	// (lib/check's entries, see allow.go).
	Allow []string
	// MinTimeout is the least time the exercise's run gets, whatever
	// Options.Timeout says: one case's time limit in lib/exercise (the
	// ViT trains for minutes on a slow machine).
	MinTimeout time.Duration
}

// timeLimit is the time the exercise's run gets: Options.Timeout, or
// MinTimeout when that is longer.
func (e Exercise) timeLimit(o Options) time.Duration { return max(o.Timeout, e.MinTimeout) }

// Assignment is the set of exercises the submissions are graded on.
type Assignment struct {
	Source    string // lessons/exercises/NN-slug.md
	Slug      string
	Exercises []Exercise
}

// LoadAssignment reads an exercise source and matches its exercises with
// lib/check's registry.
func LoadAssignment(root, source string) (*Assignment, error) {
	l, err := lesson.ParseFile(filepath.Join(root, source))
	if err != nil {
		return nil, err
	}
	a := &Assignment{Source: filepath.ToSlash(source), Slug: l.Slug}
	for _, c := range l.Cells {
		if c.Exercise == "" {
			continue
		}
		spec, ok := check.Lookup(c.Exercise)
		if !ok {
			return nil, fmt.Errorf("%s: exercise %s is not registered in lib/check", source, c.Exercise)
		}
		info := spec.Info()
		fn := funcName(info.Signature)
		if fn == "" {
			return nil, fmt.Errorf("exercise %s: signature %q does not start with func Name(", c.Exercise, info.Signature)
		}
		if info.Deny == nil {
			return nil, fmt.Errorf("exercise %s has no deny list in lib/check: say which library functions implement it (an empty list if none does)", c.Exercise)
		}
		if info.Allow == nil {
			return nil, fmt.Errorf("exercise %s has no allow list in lib/check: say what a solution may use besides the standard library (check.StdOnly if nothing)", c.Exercise)
		}
		a.Exercises = append(a.Exercises, Exercise{ID: info.ID, Points: info.Points, Func: fn, Signature: info.Signature,
			TaskPackage: info.TaskPackage, Deny: info.Deny, Allow: info.Allow, MinTimeout: info.CaseTimeout})
	}
	if len(a.Exercises) == 0 {
		return nil, fmt.Errorf("%s has no exercises", source)
	}
	return a, nil
}

var funcRE = regexp.MustCompile(`^func ([A-Za-z_][A-Za-z0-9_]*)\(`)

func funcName(sig string) string {
	m := funcRE.FindStringSubmatch(sig)
	if m == nil {
		return ""
	}
	return m[1]
}

// Options configure a grading run.
type Options struct {
	Root, Module string // the course checkout and its module path
	Out          string // where the gradebook, feedback and cache go
	Jobs         int
	Timeout      time.Duration // per exercise run; an exercise may get more (Exercise.MinTimeout)
	Memory       int64         // bytes of memory per exercise run
	// Seed draws the hidden cases; 0 means: the seed of an earlier run
	// into the same Out, else a random one. The seed used is in the
	// gradebook and in Out/.cache/seed.
	Seed uint64
	// Unsandboxed runs learner code without the sandbox (only resource
	// limits): the instructor's explicit choice where no sandbox can be
	// created. The gradebook and every feedback file say so.
	Unsandboxed bool
	// Log gets what the run does: the seed, warnings, what was skipped.
	Log io.Writer
	// Progress gets a line per finished submission with an estimate of
	// the time left; nil is quiet.
	Progress io.Writer
	// Learners, when set, regrades only these learners (a late or
	// corrected submission): the others stay as the last run into Out
	// graded them, and the gradebook, report and exports are rewritten.
	Learners []string
	// Export configures the LMS exports (canvas.csv, moodle.csv).
	Export Export
}

// Score is one exercise's outcome for one learner.
type Score struct {
	Exercise string  `json:"exercise"`
	Points   float64 `json:"points"`
	Max      int     `json:"max"`
	Status   Status  `json:"status"`
	Details  string  `json:"details"` // the report shown in the feedback
	// Mistakes are the usual mistakes (lib/check's hints) the failed
	// cases look like, one per hint, for the class report.
	Mistakes []Mistake `json:"mistakes,omitempty"`
	// Unrecognised counts the failed cases that look like no known
	// mistake.
	Unrecognised int `json:"unrecognised,omitempty"`
	// TimedOut and Panicked count the cases whose call of the learner's
	// function did not return in time, or panicked.
	TimedOut int `json:"timed_out,omitempty"`
	Panicked int `json:"panicked,omitempty"`
}

// Mistake is one usual mistake recognised in a learner's outputs.
type Mistake struct {
	Hint    string `json:"hint"`    // the hint's name in lib/check
	Message string `json:"message"` // what the learner is told
	Cases   int    `json:"cases"`   // how many cases look like it
	Example string `json:"example"` // the first such case's problem: the output against the reference
}

// Status is how an exercise of a submission fared, as the gradebook and
// the feedback write it. Besides the constants, a flagged exercise's
// status names the denied function it uses ([flagged]).
type Status string

// The statuses of lib/check's results (check.Result.Status): the
// exercise's program ran and was judged.
const (
	StatusOK              Status = "ok"
	StatusPartial         Status = "partial"
	StatusFailed          Status = "failed"
	StatusNotDone         Status = "not done"          // the function still panics with "TODO"
	StatusNoFunction      Status = "no function given" // the check was called with nil
	StatusMalformedResult Status = "malformed result"  // the program's results do not decode
)

// The grader's own statuses: why an exercise did not run, or how its
// program ended.
const (
	StatusNoSubmission   Status = "no submission"   // no usable notebook
	StatusBrokenNotebook Status = "broken notebook" // the notebook does not decode
	StatusMissing        Status = "missing"         // no cell for the exercise
	StatusCompileError   Status = "compile error"
	StatusGraderError    Status = "grader error"
	StatusCrashed        Status = "crashed" // the program ended before all cases ran, 0 points
	StatusTimeout        Status = "timeout" // the program was stopped at its time limit, 0 points
)

// flagged is the status of an exercise whose program calls use, a
// function its spec denies.
func flagged(use string) Status {
	return Status("flagged: uses " + use + ", the course's reference")
}

// notAllowed is the status of an exercise whose code names or links use,
// which the exercise's allow list does not hold.
func notAllowed(use string) Status {
	return Status("flagged: uses " + use + ", which the exercise does not allow")
}

// refused is the status of an exercise whose code uses what no
// submission may (forbidden's what: "go:linkname").
func refused(what string) Status {
	return Status("flagged: uses " + what)
}

// Graded is one submission's outcome, cached as JSON.
type Graded struct {
	Learner string   `json:"learner"`
	File    string   `json:"file"` // the feedback file's name, without .md
	Notes   []string `json:"notes,omitempty"`
	Scores  []Score  `json:"scores"`
	// Unsandboxed records a submission graded without the sandbox.
	Unsandboxed bool `json:"unsandboxed,omitempty"`
}

// Run is what a grading run used, written in the gradebook.
type Run struct {
	Seed        uint64
	Unsandboxed bool
}

// Grade grades every submission of dir on a and writes, in OUT, the
// gradebook (gradebook.csv), the feedback (feedback/LEARNER.md), the
// class report (report.html, report.md) and the LMS exports (canvas.csv,
// moodle.csv). Submissions already graded (same content, grader, seed
// and limits) are read from OUT/.cache; with o.Learners, only those
// learners are graded (again) and the rest is the last run's.
func Grade(ctx context.Context, dir string, a *Assignment, o Options) ([]Graded, error) {
	start := time.Now()
	if o.Unsandboxed {
		sandbox.Unsafe()
	} else if err := sandbox.Check(); err != nil {
		return nil, err
	}
	subs, err := Find(dir, a.Slug)
	if err != nil {
		return nil, err
	}
	// The output folder may be inside the submissions folder (the
	// default, DIR/graded): it is not a learner.
	subs = slices.DeleteFunc(subs, func(s Submission) bool { return sameDir(filepath.Join(dir, s.name), o.Out) })
	if len(subs) == 0 {
		return nil, fmt.Errorf("no submissions in %s: put one .ipynb per learner, or one folder per learner", dir)
	}
	names := feedbackNames(subs) // over the whole folder, so that a regrade names files as the class run did
	cacheDir := filepath.Join(o.Out, ".cache")
	if err := os.MkdirAll(cacheDir, 0o700); err != nil {
		return nil, err
	}
	c, err := openCache(cacheDir)
	if err != nil {
		return nil, err
	}
	run := Run{Seed: o.Seed, Unsandboxed: o.Unsandboxed}
	var record classRecord
	regrade := len(o.Learners) > 0
	if regrade {
		if !c.get(classKey, &record) || record.Source != a.Source {
			return nil, fmt.Errorf("no earlier grading of %s in %s to update: grade the whole class first (without -learner)", a.Source, o.Out)
		}
		if o.Seed != 0 && o.Seed != record.Seed {
			return nil, fmt.Errorf("-seed %d: the class was graded with seed %d, and one learner is regraded on the same hidden cases (leave -seed out)", o.Seed, record.Seed)
		}
		o.Seed = record.Seed
		if subs, names, err = selectLearners(subs, names, o.Learners, dir); err != nil {
			return nil, err
		}
	}
	if run.Seed, err = resolveSeed(cacheDir, o.Seed); err != nil {
		return nil, err
	}
	if o.Log != nil {
		fmt.Fprintf(o.Log, "hidden cases drawn from seed %d (-seed %d reproduces them)\n", run.Seed, run.Seed)
		if run.Unsandboxed {
			fmt.Fprintln(o.Log, "WARNING: grading WITHOUT a sandbox (-unsandboxed): learner code runs as you, with your files and network in reach")
		}
	}
	tc, err := newToolchain(o)
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "course-grade-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	// Slot users (the grader as root) must reach the programs to run
	// them, and nothing else: the folder is traversable, not listable.
	if err := os.Chmod(work, 0o711); err != nil {
		return nil, err
	}
	engine, err := engineID()
	if err != nil {
		return nil, err
	}

	out := make([]Graded, len(subs))
	fromCache := make([]bool, len(subs))
	prog := newProgress(o.Progress, len(subs), o.Jobs, nil)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for slot := range max(1, o.Jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				s := subs[i] // a copy: its notebook is read here and let go after
				s.load()
				key := cacheKey(engine, s, a, o, run)
				s.slim()
				start := time.Now()
				g, cached := Graded{}, false
				if !regrade { // a regrade is asked for because the cached result will not do
					g, cached = c.read(key)
				}
				if !cached {
					g = gradeOne(ctx, tc, slot, filepath.Join(work, strconv.Itoa(i)), s, a, o, run)
					if ctx.Err() == nil {
						if err := c.write(key, g); err != nil && o.Log != nil {
							fmt.Fprintf(o.Log, "cache: %v\n", err)
						}
					}
				}
				g.Learner, g.File = s.Learner, names[i]
				g.Notes = append(append([]string{}, s.Notes...), g.Notes...)
				if names[i] != safeName(s.Learner) {
					g.Notes = append(g.Notes, fmt.Sprintf("another learner's name gives the same file name: this feedback is %s.md", names[i]))
				}
				out[i], fromCache[i] = g, cached
				prog.finished(g, time.Since(start), cached)
			}
		}()
	}
	for i := range subs {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("interrupted (%v): run the same command again to resume", err)
	}

	class := out
	info := RunInfo{Seed: run.Seed, Version: Version, GoVersion: runtime.Version(), Started: start}
	for _, cached := range fromCache {
		if cached {
			info.Cached++
		} else {
			info.Graded++
		}
	}
	now := classRecord{Source: a.Source, Seed: run.Seed, Engine: engine, Timeout: o.Timeout, Memory: o.Memory, Unsandboxed: run.Unsandboxed}
	if regrade {
		var added []string
		class, added = merge(record.Graded, out)
		for _, g := range out {
			if !slices.Contains(info.Regraded, g.Learner) {
				info.Regraded = append(info.Regraded, g.Learner)
			}
		}
		if len(added) > 0 {
			info.Notes = append(info.Notes, fmt.Sprintf("new to the class since it was graded: %s", strings.Join(added, ", ")))
		}
		info.Notes = append(info.Notes, record.differences(now)...)
		// The class record keeps describing the class run.
		now.Engine, now.Timeout, now.Memory, now.Unsandboxed = record.Engine, record.Timeout, record.Memory, record.Unsandboxed
	}
	if o.Log != nil {
		for _, n := range info.Notes {
			fmt.Fprintf(o.Log, "note: %s\n", printable(n))
		}
	}
	now.Graded = class
	if err := c.put(classKey, now); err != nil {
		return nil, err
	}
	for _, g := range out {
		if err := writeFileAtomic(filepath.Join(o.Out, "feedback", g.File+".md"), []byte(feedback(g, a, run))); err != nil {
			return nil, err
		}
	}
	info.Took = time.Since(start).Round(100 * time.Millisecond)
	if err := writeClass(o.Out, class, a, run, info, o.Export, o.Log); err != nil {
		return nil, err
	}
	return class, nil
}

// selectLearners keeps the submissions of the learners named, and their
// feedback names; a name with no submission is an error that lists the
// learners there are.
func selectLearners(subs []Submission, names []string, learners []string, dir string) ([]Submission, []string, error) {
	var keptSubs []Submission
	var keptNames []string
	for i, l := range learners {
		if slices.Contains(learners[:i], l) {
			continue
		}
		found := false
		for i, s := range subs {
			if s.Learner == l {
				keptSubs, keptNames = append(keptSubs, s), append(keptNames, names[i])
				found = true
			}
		}
		if !found {
			var all []string
			for _, s := range subs {
				all = append(all, s.Learner)
			}
			if len(all) > 20 {
				all = append(all[:20], fmt.Sprintf("… (%d in all)", len(subs)))
			}
			return nil, nil, fmt.Errorf("no submission of %q in %s (learners: %s)", l, dir, strings.Join(all, ", "))
		}
	}
	return keptSubs, keptNames, nil
}

// merge is the class record with the regraded learners' entries (all of
// them, should two submissions share a name) replaced by their new ones,
// and the names of the regraded learners the record did not hold.
func merge(class, regraded []Graded) (out []Graded, added []string) {
	inClass, isRegraded := map[string]bool{}, map[string]bool{}
	for _, c := range class {
		inClass[c.Learner] = true
	}
	for _, g := range regraded {
		isRegraded[g.Learner] = true
		if !inClass[g.Learner] && !slices.Contains(added, g.Learner) {
			added = append(added, g.Learner)
		}
	}
	for _, c := range class {
		if !isRegraded[c.Learner] {
			out = append(out, c)
		}
	}
	return append(out, regraded...), added
}

// differences says how a regrade runs otherwise than the class run it
// updates, for the log and the report.
func (r classRecord) differences(now classRecord) []string {
	var d []string
	if r.Engine != now.Engine {
		d = append(d, "the grader changed since the class was graded (another build of the course): the regraded learners were graded by the new one, the others by the old")
	}
	if r.Timeout != now.Timeout || r.Memory != now.Memory {
		d = append(d, fmt.Sprintf("the limits differ from the class run's: -timeout %v -memory %d MiB now, %v and %d MiB then",
			now.Timeout, now.Memory>>20, r.Timeout, r.Memory>>20))
	}
	if r.Unsandboxed != now.Unsandboxed {
		d = append(d, fmt.Sprintf("the class was graded %s, this regrade %s", sandboxWord(r.Unsandboxed), sandboxWord(now.Unsandboxed)))
	}
	return d
}

func sandboxWord(unsandboxed bool) string {
	if unsandboxed {
		return "without the sandbox"
	}
	return "in the sandbox"
}

// writeClass writes what concerns the whole class: the gradebook, the
// class report and the LMS exports.
func writeClass(outDir string, gs []Graded, a *Assignment, run Run, info RunInfo, x Export, log io.Writer) error {
	if err := writeGradebook(filepath.Join(outDir, "gradebook.csv"), gs, run); err != nil {
		return err
	}
	exported, left := exportable(gs, x)
	if len(left) > 0 {
		note := fmt.Sprintf("%d learners are left out of the LMS exports: %s", len(left), strings.Join(left, "; "))
		info.Notes = append(info.Notes, note)
		if log != nil {
			fmt.Fprintf(log, "note: %s\n", note)
		}
	}
	html, md, err := Report(gs, a, info)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(outDir, "report.html"), html); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(outDir, "report.md"), md); err != nil {
		return err
	}
	canvas, err := canvasCSV(exported, a, x)
	if err == nil {
		err = writeFileAtomic(filepath.Join(outDir, "canvas.csv"), canvas)
	} else {
		// An export of an earlier run would no longer match the gradebook.
		if rerr := os.Remove(filepath.Join(outDir, "canvas.csv")); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return rerr
		}
		if log != nil {
			fmt.Fprintf(log, "canvas.csv not written: %v\n", err)
		}
		err = nil
	}
	if err != nil {
		return err
	}
	moodle, err := moodleCSV(exported, a, x)
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(outDir, "moodle.csv"), moodle)
}

// resolveSeed returns the seed of the run: the one asked for, else the
// one of an earlier run into the same cache folder, else a random one;
// it records it in the cache folder.
func resolveSeed(cacheDir string, asked uint64) (uint64, error) {
	path := filepath.Join(cacheDir, "seed")
	seed := asked
	if seed == 0 {
		if data, err := os.ReadFile(path); err == nil {
			if s, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64); err == nil && s != 0 {
				return s, nil
			}
		}
		var b [8]byte
		for seed == 0 {
			if _, err := rand.Read(b[:]); err != nil {
				return 0, err
			}
			seed = binary.LittleEndian.Uint64(b[:]) >> 1 // fits an int64 flag too
		}
	}
	return seed, writeFileAtomic(path, []byte(strconv.FormatUint(seed, 10)+"\n"))
}

func (g Graded) total() (float64, int) {
	t, m := 0.0, 0
	for _, s := range g.Scores {
		t += s.Points
		m += s.Max
	}
	return t, m
}

// sameDir reports whether a and b are the same folder.
func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// ErrNoAssignment is returned by InferAssignment when the submissions do
// not say which exercise source they come from.
var ErrNoAssignment = errors.New("cannot tell the assignment from the submissions")

// InferAssignment returns the exercise source named in the metadata of
// most submissions (course.source). Notebooks that name another source
// are graded against it all the same, with a note; a tie is an error.
func InferAssignment(dir string) (string, error) {
	subs, err := Find(dir, "")
	if err != nil {
		return "", err
	}
	seen := map[string]int{}
	for _, s := range subs {
		s.load()
		s.slim()
		if src, _, _, err := cells(s.Data); err == nil && src != "" && validSource(src) {
			seen[src]++
		}
	}
	var names []string
	for src := range seen {
		names = append(names, src)
	}
	sort.Slice(names, func(i, j int) bool {
		if seen[names[i]] != seen[names[j]] {
			return seen[names[i]] > seen[names[j]]
		}
		return names[i] < names[j]
	})
	switch {
	case len(names) == 0:
		return "", ErrNoAssignment
	case len(names) > 1 && seen[names[0]] == seen[names[1]]:
		return "", fmt.Errorf("as many submissions of %s as of %s: say which with -assignment", names[0], names[1])
	}
	return names[0], nil
}

// validSource reports whether a notebook's course.source looks like an
// exercise source of the course (so that a doctored one cannot point the
// grader at another file).
func validSource(src string) bool {
	return regexp.MustCompile(`^lessons/exercises/[A-Za-z0-9][A-Za-z0-9._-]*\.md$`).MatchString(src) && !strings.Contains(src, "..")
}
