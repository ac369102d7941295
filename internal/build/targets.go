package build

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
)

// StaleAdvice ends the report of out-of-date notebooks.
const StaleAdvice = "run `make notebooks` and commit the result"

// Target is one flavour of notebooks: where its sources are, where its
// notebooks go, and how they are built.
type Target struct {
	Layout
	Builder Builder
}

// Targets returns the course's targets: the lessons' notebooks, built
// from the folder lessons into out, and, with exercises, the exercise and
// solution notebooks built from the folder exercises into
// exercisesOut/exercises and exercisesOut/solutions (none when that
// folder does not exist). Relative folders are relative to the course
// root; lessons and out must differ.
func Targets(root, lessons, out, exercises, exercisesOut string, withExercises bool) []Target {
	l := Layout{Root: root, Lessons: courseroot.Resolve(root, lessons), Out: courseroot.Resolve(root, out)}
	ts := []Target{{l, Default}}
	if !withExercises {
		return ts
	}
	src, dst := courseroot.Resolve(root, exercises), courseroot.Resolve(root, exercisesOut)
	if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
		return ts
	}
	return append(ts,
		Target{Layout{Root: root, Lessons: src, Out: filepath.Join(dst, "exercises")}, exerciseBuilder(Exercises)},
		Target{Layout{Root: root, Lessons: src, Out: filepath.Join(dst, "solutions")}, exerciseBuilder(Solutions)},
	)
}

// Layout locates the course's folders.
type Layout struct {
	Root    string // the course root
	Lessons string // the lesson sources
	Out     string // the built notebooks
}

// display returns path relative to the course root, for messages.
func (l Layout) display(path string) string { return courseroot.Rel(l.Root, path) }

// readQuoted reads the file a lesson quotes (```go noexec quote=PATH),
// whose slash-separated path is relative to the course root.
func (l Layout) readQuoted(path string) ([]byte, error) {
	return os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(path)))
}

// sourceOf returns the lesson source of the notebook at path, for messages.
func (l Layout) sourceOf(path string) string {
	return l.display(filepath.Join(l.Lessons, strings.TrimSuffix(filepath.Base(path), ".ipynb")+".md"))
}

// Built is a notebook built in memory.
type Built struct {
	Source   string // the lesson, relative to the course root, e.g. lessons/01-x.md
	Path     string // where the notebook goes
	Notebook *notebook.Notebook
	Data     []byte // Notebook serialised
}

// BuildAll builds every t.Lessons/*.md in memory with t.Builder, in file
// name order, failing on a quote of the library that no longer matches
// it. It reports all the lessons' errors at once.
func (t Target) BuildAll() ([]Built, error) {
	l, b := t.Layout, t.Builder
	sources, err := filepath.Glob(filepath.Join(l.Lessons, "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(sources)
	var builds []Built
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

func buildOne(l Layout, src string, b Builder) (Built, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return Built{}, err
	}
	name := l.display(src)
	ls, err := lesson.Parse(name, data)
	if err != nil {
		return Built{}, err
	}
	if err := ls.CheckQuotes(l.readQuoted); err != nil {
		return Built{}, err
	}
	nb, err := b.Build(ls)
	if err != nil {
		return Built{}, err
	}
	out, err := notebook.Marshal(nb)
	if err != nil {
		return Built{}, fmt.Errorf("%s: %w", name, err)
	}
	return Built{Source: name, Path: filepath.Join(l.Out, ls.Slug+".ipynb"), Notebook: nb, Data: out}, nil
}

// orphans returns the notebooks in outDir that no build produces.
func orphans(builds []Built, outDir string) ([]string, error) {
	existing, err := filepath.Glob(filepath.Join(outDir, "*.ipynb"))
	if err != nil {
		return nil, err
	}
	made := make(map[string]bool)
	for _, b := range builds {
		made[b.Path] = true
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

// Problems lists what is out of date in l.Out compared with builds: stale
// or missing notebooks and notebooks without a source, one message each.
func (l Layout) Problems(builds []Built) ([]string, error) {
	var msgs []string
	for _, b := range builds {
		old, err := os.ReadFile(b.Path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			msgs = append(msgs, fmt.Sprintf("missing %s (built from %s)", l.display(b.Path), b.Source))
		case err != nil:
			return nil, err
		case !bytes.Equal(old, b.Data):
			msgs = append(msgs, fmt.Sprintf("stale   %s (differs from what %s builds)", l.display(b.Path), b.Source))
		}
	}
	orph, err := orphans(builds, l.Out)
	if err != nil {
		return nil, err
	}
	for _, p := range orph {
		msgs = append(msgs, fmt.Sprintf("orphan  %s (no source %s)", l.display(p), l.sourceOf(p)))
	}
	return msgs, nil
}

// Check compares the notebooks in l.Out with builds, writing nothing: it
// says on stdout that they are up to date, or lists on stderr what is not
// ([Layout.Problems]) and how to fix it, and reports which.
func (l Layout) Check(builds []Built, stdout, stderr io.Writer) (upToDate bool, err error) {
	msgs, err := l.Problems(builds)
	if err != nil {
		return false, err
	}
	if len(msgs) == 0 {
		fmt.Fprintf(stdout, "ok: %s/ is up to date (%d notebooks)\n", l.display(l.Out), len(builds))
		return true, nil
	}
	for _, m := range msgs {
		fmt.Fprintln(stderr, m)
	}
	fmt.Fprintf(stderr, "notebooks are out of date: %s\n", StaleAdvice)
	return false, nil
}

// Write writes builds to l.Out, each only if it changed, saying on stdout
// which were written and which unchanged, and warns on stderr of the
// notebooks in l.Out that no source builds.
func (l Layout) Write(builds []Built, stdout, stderr io.Writer) error {
	if len(builds) == 0 {
		fmt.Fprintln(stdout, "no lessons to build")
	}
	if err := os.MkdirAll(l.Out, 0o755); err != nil {
		return err
	}
	for _, b := range builds {
		written, err := notebook.WriteFile(b.Path, b.Notebook)
		if err != nil {
			return err
		}
		state := "unchanged"
		if written {
			state = "written  "
		}
		fmt.Fprintf(stdout, "%s %s\n", state, l.display(b.Path))
	}
	orph, err := orphans(builds, l.Out)
	if err != nil {
		return err
	}
	for _, p := range orph {
		fmt.Fprintf(stderr, "warning: %s has no source: add %s or delete it\n", l.display(p), l.sourceOf(p))
	}
	return nil
}
