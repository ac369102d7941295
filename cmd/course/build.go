package main

import (
	"errors"
	"flag"
	"strings"

	"github.com/attention-in-go/course/internal/build"
	"github.com/attention-in-go/course/internal/courseroot"
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
	if lessons := courseroot.Resolve(root, *lessonsFlag); lessons == courseroot.Resolve(root, *outFlag) {
		return usageErrorf("-out must not be the lessons folder %s", courseroot.Rel(root, lessons))
	}
	var errs []error
	stale := false
	for _, t := range build.Targets(root, *lessonsFlag, *outFlag, *exFlag, *exOutFlag, withExercises) {
		builds, err := t.BuildAll()
		if err != nil {
			return err
		}
		if *check {
			var ok bool
			ok, err = t.Check(builds, e.stdout, e.stderr)
			stale = stale || !ok
		} else {
			err = t.Write(builds, e.stdout, e.stderr)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if *check && (stale || len(errs) > 0) {
		return errFailed
	}
	return errors.Join(errs...)
}
