package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/internal/grade"
)

var gradeCommand = &command{
	name:    "grade",
	args:    "[-assignment SOURCE] [-out DIR] [-j N] [-timeout 60s] [-memory 2048] [-seed N] [-unsandboxed] [-learner NAME]... [-lms-id login|sis|id|email] [-lms-assignment NAME] SUBMISSIONS_DIR",
	summary: "grade a folder of submitted exercise notebooks: class report, gradebook, feedback, LMS exports",
	help: `
Grade grades learners' exercise notebooks (exercises/NN-slug.ipynb, filled
in) with the checks of lib/check, including hidden cases the learners never
see. The workflow:

  1. hand out exercises/NN-slug.ipynb; learners return the notebook
  2. put the notebooks in one folder, one file per learner
     (alice.ipynb, bob.ipynb, …) or one folder per learner (alice/, bob/…,
     each with its notebook); the file or folder name is the learner's
  3. go run ./cmd/course grade SUBMISSIONS_DIR
  4. open OUT/report.html, the class report: the distribution of points
     per exercise, the mistakes the class made most (with the hint each
     learner got and one anonymised example), the learners who need a
     word (refused code, time-outs, crashes, compile errors, empty
     submissions) and the run's seed, sandbox and grader (OUT/report.md
     has the same facts)
  5. send each learner OUT/feedback/LEARNER.md; OUT/gradebook.csv has
     every exercise's points and status (learner, exercise, points,
     max_points, status; one "total" row per learner)
  6. import the totals into the LMS: OUT/canvas.csv (Canvas, Grades →
     Import) or OUT/moodle.csv (Moodle, Grades → Import → CSV file; map
     the first column to the user field it names). -lms-id says which
     identifier the learners' names are (login: Canvas's SIS Login ID,
     Moodle's username; sis: SIS User ID / ID number; id: the LMS's
     numeric user id — a Canvas archive name smithjane_12345_678_….ipynb
     gives 12345; email: Moodle only), -lms-assignment names the LMS's
     column (default: the assignment's slug). A learner with a grader
     error, or whose name is no identifier as it is, is left out of the
     exports; the report says who.

A late or corrected submission: put it in the folder and run
grade -learner NAME SUBMISSIONS_DIR (the flag may be repeated). Only
that learner is graded, on the class's hidden cases; everyone else stays
as the last run graded them, and the gradebook, report and exports are
rewritten.

On a terminal, grade writes a line per finished submission with the time
elapsed and an estimate of what remains (-progress=false silences it,
-progress forces it when the output is a file).

The assignment is the one most notebooks name in their metadata
(course.source), or -assignment lessons/exercises/NN-slug.md; a notebook
that names another is graded on it all the same, with a note.

Learner code is hostile until sandboxed. Each exercise is compiled from
the learner's cells (exactly the declarations it needs) with the grader's
own main, which links lib/exercise and nothing of lib/check or the
references, and runs in a sandbox: bubblewrap (Debian's bubblewrap
package; scripts/install.sh --grader installs it) gives it new user,
PID, network and mount namespaces — it sees only its own program and an
empty /tmp, no network, no other process — and limits its memory, CPU
time, files and processes; a seccomp filter refuses new processes. As
root, each parallel job runs learner code as a user of its own. The
compile runs in a sandbox too. The run only computes the learner's
function on the grader's inputs: the visible cases and hidden ones drawn
from a seed (random, or -seed N; the gradebook records it, and a rerun
into the same -out reuses it); the grader compares the outputs with the
reference in its own process. The notebook's check cells are never run:
editing them, printing "PASS", exiting or panicking earns nothing. A
broken notebook, a missing exercise cell, a compile error, a panic, an
endless loop or a huge allocation scores 0 on the exercises it affects,
with the reason (and the cell at fault) in the feedback. Each exercise
allows the standard library and what its text names (lib/check's Allow);
code that uses anything else — found in its names and in the symbols its
program links — scores 0, flagged with what it used. //go:linkname,
//go:embed, cgo and unsafe are refused outright.

Where no sandbox can be created (no bubblewrap, or user namespaces
disabled, as in a default Docker container), grade stops and says what
to enable. -unsandboxed grades anyway, with only the resource limits;
the gradebook, the report and every feedback file then say so.

Results are cached in OUT/.cache by a hash of each submission, the
grader, the seed and the limits, authenticated with a key kept there:
running again gives the same gradebook at once, and an interrupted run
resumes where it stopped. Delete OUT/.cache to regrade everything (with
a new seed unless -seed is given). Every file is written atomically.`,
	run: runGrade,
}

func runGrade(e *env, fs *flag.FlagSet, args []string) error {
	assignment := fs.String("assignment", "", "the exercise `SOURCE`, e.g. lessons/exercises/01-scaled-dot-product-attention.md (default: from the notebooks' metadata)")
	out := fs.String("out", "", "write the gradebook, feedback and cache to `DIR` (default: SUBMISSIONS_DIR/graded)")
	jobs := fs.Int("j", max(1, runtime.NumCPU()/2), "grade `N` submissions in parallel")
	timeout := fs.Duration("timeout", 60*time.Second, "time limit of one exercise's run (all its cases); an exercise whose check allows one case longer (the ViT: 5m) gets that")
	memory := fs.Int("memory", 2048, "memory limit of one exercise's run, in `MiB` (heap and stacks)")
	seed := fs.Uint64("seed", 0, "draw the hidden cases from seed `N` (default: the seed of an earlier run into -out, else random)")
	unsandboxed := fs.Bool("unsandboxed", false, "grade without the sandbox where none can be created: learner code then runs as you (recorded in the gradebook and feedback)")
	var learners []string
	fs.Func("learner", "regrade only learner `NAME` (repeat for several); the others stay as the last run graded them", func(v string) error {
		if strings.TrimSpace(v) == "" {
			return errors.New("empty learner name")
		}
		learners = append(learners, v)
		return nil
	})
	lmsID := fs.String("lms-id", string(grade.LMSLogin), "what the learners' names are in the LMS exports: `login`, sis, id or email")
	lmsColumn := fs.String("lms-assignment", "", "the LMS assignment `NAME` the exports' grades go to (default: the assignment's slug)")
	progress := fs.Bool("progress", isTerminal(e.stdout), "a line per finished submission, with the time left (default: when the output is a terminal)")
	if err := e.parseFlags(fs, args); err != nil {
		return err
	}
	if !slices.Contains(grade.LMSIDs, grade.LMSID(*lmsID)) {
		return usageErrorf("-lms-id %s: want login, sis, id or email", *lmsID)
	}
	switch {
	case fs.NArg() == 0:
		return usageErrorf("missing SUBMISSIONS_DIR: the folder of submitted notebooks")
	case fs.NArg() > 1:
		return usageErrorf("one SUBMISSIONS_DIR, got %d arguments: %s", fs.NArg(), strings.Join(fs.Args(), " "))
	case *jobs < 1:
		return usageErrorf("-j %d: want at least 1", *jobs)
	case *timeout < time.Second:
		return usageErrorf("-timeout %v is too short", *timeout)
	case *memory < 256:
		return usageErrorf("-memory %d MiB is too small for a Go program (at least 256)", *memory)
	}
	dir := fs.Arg(0)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(e.dir, dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usageErrorf("%s is not a folder of submissions", fs.Arg(0))
	}
	root, err := courseroot.Find(e.dir)
	if err != nil {
		return err
	}
	src := *assignment
	if src == "" {
		src, err = grade.InferAssignment(dir)
		if errors.Is(err, grade.ErrNoAssignment) {
			return usageErrorf("%v: give -assignment lessons/exercises/NN-slug.md", err)
		}
		if err != nil {
			return err
		}
	} else if filepath.IsAbs(src) {
		if rel, err := filepath.Rel(root, src); err == nil {
			src = rel
		}
	}
	a, err := grade.LoadAssignment(root, src)
	if err != nil {
		return err
	}
	outDir := *out
	if outDir == "" {
		outDir = filepath.Join(dir, "graded")
	} else if !filepath.IsAbs(outDir) {
		outDir = filepath.Join(e.dir, outDir)
	}
	fmt.Fprintf(e.stdout, "grading %s on %s (%d exercises)\n", courseroot.Rel(e.dir, dir), a.Source, len(a.Exercises))
	o := grade.Options{Root: root, Module: courseroot.ModulePath, Out: outDir, Jobs: *jobs,
		Timeout: *timeout, Memory: int64(*memory) << 20, Seed: *seed, Unsandboxed: *unsandboxed, Log: e.stdout,
		Learners: learners, Export: grade.Export{ID: grade.LMSID(*lmsID), Column: *lmsColumn}}
	if *progress {
		o.Progress = e.stdout
	}
	gs, err := grade.Grade(e.ctx, dir, a, o)
	if err != nil {
		return err
	}
	at := func(name string) string { return courseroot.Rel(e.dir, filepath.Join(outDir, name)) }
	fmt.Fprintf(e.stdout, "%d learners: report %s, gradebook %s, feedback in %s\n", len(gs), at("report.html"), at("gradebook.csv"), at("feedback"))
	if _, err := os.Stat(filepath.Join(outDir, "canvas.csv")); err == nil {
		fmt.Fprintf(e.stdout, "LMS imports: %s, %s\n", at("canvas.csv"), at("moodle.csv"))
	} else {
		fmt.Fprintf(e.stdout, "LMS import: %s\n", at("moodle.csv"))
	}
	return nil
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
