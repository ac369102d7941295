package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
)

var buildCommand = &command{
	name:    "build",
	args:    "[-check] [-lessons DIR] [-out DIR]",
	summary: "build notebooks/*.ipynb from lessons/*.md (-check: verify only)",
	help: `
Build turns every lesson source lessons/NN-slug.md into the notebook
notebooks/NN-slug.ipynb and prints, for each, whether it was written or
unchanged. It fails when a lesson's ` + "```go noexec quote=PATH" + ` block
no longer matches the library file PATH it quotes. Notebooks are build output: edit the .md file, run
'make notebooks', and commit both.

With -check, build writes nothing and fails if a committed notebook is not
exactly what the build produces, or if a notebook has no source; CI runs
it. Directories are relative to the course root (the folder of the go.mod
of ` + courseroot.ModulePath + `), wherever the command is run from.`,
	run: runBuild,
}

// staleAdvice ends the report of out-of-date notebooks.
const staleAdvice = "run `make notebooks` and commit the result"

func runBuild(e *env, fs *flag.FlagSet, args []string) error {
	lessonsFlag := fs.String("lessons", "lessons", "read the lesson sources from `DIR`")
	outFlag := fs.String("out", "notebooks", "write the notebooks to `DIR`")
	exFlag := fs.String("exercises", "lessons/exercises", "read the exercise sources from `DIR` (skipped when only -lessons or -out is given)")
	exOutFlag := fs.String("exercises-out", ".", "write the exercise and solution notebooks to `DIR`/exercises and DIR/solutions")
	check := fs.Bool("check", false, "write nothing; fail if the committed notebooks are out of date")
	if err := e.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	root, err := courseroot.Find(e.dir)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	withExercises := set["exercises"] || set["exercises-out"] || !(set["lessons"] || set["out"])
	targets, err := buildTargets(root, *lessonsFlag, *outFlag, *exFlag, *exOutFlag, withExercises)
	if err != nil {
		return err
	}
	var errs []error
	for _, t := range targets {
		builds, err := buildAll(t.layout, t.builder)
		if err != nil {
			return err
		}
		if *check {
			err = checkBuilds(e, t.layout, builds)
		} else {
			err = writeBuilds(e, t.layout, builds)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		if *check {
			return errFailed
		}
		return errors.Join(errs...)
	}
	return nil
}

// target is one flavour of notebooks: where its sources are, where its
// notebooks go, and how they are built.
type target struct {
	layout  layout
	builder notebook.Builder
}

// buildTargets returns the lessons' notebooks and, with exercises, the
// exercise and solution notebooks built from the exercise sources.
func buildTargets(root, lessons, out, exercises, exercisesOut string, withExercises bool) ([]target, error) {
	l := layout{root: root, lessons: courseroot.Resolve(root, lessons), out: courseroot.Resolve(root, out)}
	if l.lessons == l.out {
		return nil, usageErrorf("-out must not be the lessons folder %s", l.display(l.lessons))
	}
	ts := []target{{l, notebook.Default}}
	if !withExercises {
		return ts, nil
	}
	src, dst := courseroot.Resolve(root, exercises), courseroot.Resolve(root, exercisesOut)
	if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
		return ts, nil
	}
	return append(ts,
		target{layout{root: root, lessons: src, out: filepath.Join(dst, "exercises")}, exerciseBuilder(notebook.Exercises)},
		target{layout{root: root, lessons: src, out: filepath.Join(dst, "solutions")}, exerciseBuilder(notebook.Solutions)},
	), nil
}

// layout locates the course's folders.
type layout struct {
	root    string // the course root
	lessons string // the lesson sources
	out     string // the built notebooks
}

// display returns path relative to the course root, for messages.
func (l layout) display(path string) string { return courseroot.Rel(l.root, path) }

// readQuoted reads the file a lesson quotes (```go noexec quote=PATH),
// whose slash-separated path is relative to the course root.
func (l layout) readQuoted(path string) ([]byte, error) {
	return os.ReadFile(filepath.Join(l.root, filepath.FromSlash(path)))
}

// sourceOf returns the lesson source of the notebook at path, for messages.
func (l layout) sourceOf(path string) string {
	return l.display(filepath.Join(l.lessons, strings.TrimSuffix(filepath.Base(path), ".ipynb")+".md"))
}

// built is a notebook built in memory.
type built struct {
	source string // the lesson, relative to the course root, e.g. lessons/01-x.md
	path   string // where the notebook goes
	nb     *notebook.Notebook
	data   []byte // nb serialised
}

// buildAll builds every l.lessons/*.md in memory with b, in file name
// order. It reports all the lessons' errors at once.
func buildAll(l layout, b notebook.Builder) ([]built, error) {
	sources, err := filepath.Glob(filepath.Join(l.lessons, "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(sources)
	var builds []built
	var errs []error
	for _, src := range sources {
		bt, err := buildOne(l, src, b)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		builds = append(builds, bt)
	}
	return builds, errors.Join(errs...)
}

func buildOne(l layout, src string, b notebook.Builder) (built, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return built{}, err
	}
	name := l.display(src)
	ls, err := lesson.Parse(name, data)
	if err != nil {
		return built{}, err
	}
	if err := ls.CheckQuotes(l.readQuoted); err != nil {
		return built{}, err
	}
	nb, err := b.Build(ls)
	if err != nil {
		return built{}, err
	}
	out, err := notebook.Marshal(nb)
	if err != nil {
		return built{}, fmt.Errorf("%s: %w", name, err)
	}
	return built{source: name, path: filepath.Join(l.out, ls.Slug+".ipynb"), nb: nb, data: out}, nil
}

// orphans returns the notebooks in outDir that no build produces.
func orphans(builds []built, outDir string) ([]string, error) {
	existing, err := filepath.Glob(filepath.Join(outDir, "*.ipynb"))
	if err != nil {
		return nil, err
	}
	made := make(map[string]bool)
	for _, b := range builds {
		made[b.path] = true
	}
	var out []string
	for _, p := range existing {
		if !made[p] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// problems lists what is out of date in l.out compared with builds: stale
// or missing notebooks and notebooks without a source, one message each.
func problems(l layout, builds []built) ([]string, error) {
	var msgs []string
	for _, b := range builds {
		old, err := os.ReadFile(b.path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			msgs = append(msgs, fmt.Sprintf("missing %s (built from %s)", l.display(b.path), b.source))
		case err != nil:
			return nil, err
		case !bytes.Equal(old, b.data):
			msgs = append(msgs, fmt.Sprintf("stale   %s (differs from what %s builds)", l.display(b.path), b.source))
		}
	}
	orph, err := orphans(builds, l.out)
	if err != nil {
		return nil, err
	}
	for _, p := range orph {
		msgs = append(msgs, fmt.Sprintf("orphan  %s (no source %s)", l.display(p), l.sourceOf(p)))
	}
	return msgs, nil
}

func checkBuilds(e *env, l layout, builds []built) error {
	msgs, err := problems(l, builds)
	if err != nil {
		return err
	}
	if len(msgs) == 0 {
		fmt.Fprintf(e.stdout, "ok: %s/ is up to date (%d notebooks)\n", l.display(l.out), len(builds))
		return nil
	}
	for _, m := range msgs {
		fmt.Fprintln(e.stderr, m)
	}
	fmt.Fprintf(e.stderr, "notebooks are out of date: %s\n", staleAdvice)
	return errFailed
}

func writeBuilds(e *env, l layout, builds []built) error {
	if len(builds) == 0 {
		fmt.Fprintln(e.stdout, "no lessons to build")
	}
	if err := os.MkdirAll(l.out, 0o755); err != nil {
		return err
	}
	for _, b := range builds {
		written, err := notebook.WriteFile(b.path, b.nb)
		if err != nil {
			return err
		}
		state := "unchanged"
		if written {
			state = "written  "
		}
		fmt.Fprintf(e.stdout, "%s %s\n", state, l.display(b.path))
	}
	orph, err := orphans(builds, l.out)
	if err != nil {
		return err
	}
	for _, p := range orph {
		fmt.Fprintf(e.stderr, "warning: %s has no source: add %s or delete it\n", l.display(p), l.sourceOf(p))
	}
	return nil
}
