package main

import (
	"errors"
	"flag"
	"strings"
	"time"

	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/internal/runner"
	"github.com/attention-in-go/course/internal/site"
)

var siteCommand = &command{
	name:    "site",
	args:    "[-out DIR] [-timeout 10m] [-v]",
	summary: "build the static HTML edition: every notebook executed and rendered",
	help: `
Site builds the course's static HTML edition: every notebooks/*.ipynb is
executed headless exactly as 'run' does (and reported the same way), then
rendered to HTML with its figures by nbconvert's lab template, next to an
index page that lists the lessons in order with the title and first
paragraph of each lesson source (lessons/NN-slug.md).

The site works offline, from the files alone: figures are embedded in the
pages, and formulas are typeset by a copy of Debian's MathJax
(/usr/share/javascript/mathjax, package libjs-mathjax, which Jupyter
Notebook depends on) in DIR/assets. Without it, pages load MathJax from a
CDN and formulas show as TeX source when offline. The setup cell, which only
matters in Jupyter, is left out of the pages.

Nothing is written if a notebook fails. DIR (default build/site, relative to
the course root) is replaced as a whole, so it must not exist, be empty or
hold a site built before (marked by its .course-site file); open
DIR/index.html in a browser.`,
	run: runSite,
}

func runSite(e *env, fs *flag.FlagSet, args []string) error {
	outFlag := fs.String("out", "build/site", "write the site to `DIR`, replacing it")
	timeout := fs.Duration("timeout", 10*time.Minute, "time limit per notebook, also nbconvert's limit per cell")
	verbose := fs.Bool("v", false, "show nbconvert's and the kernel's log as they run")
	if err := e.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments: %s (site builds every notebook)", strings.Join(fs.Args(), " "))
	}
	if *timeout < time.Second {
		return usageErrorf("-timeout %v is too short", *timeout)
	}
	root, err := courseroot.Find(e.dir)
	if err != nil {
		return err
	}
	out := courseroot.Resolve(root, *outFlag)
	if err := site.CheckDir(root, out); err != nil {
		return usageErrorf("-out %s %v", *outFlag, err)
	}
	paths, err := notebookPaths(e, nil)
	if err != nil {
		return err
	}
	o := site.Options{Root: root, Out: out, Notebooks: paths, Stdout: e.stdout, Name: e.display,
		Runner: runner.Options{Timeout: *timeout, FindJupyter: e.findJupyter}}
	if *verbose {
		o.Runner.Verbose = e.stderr
	}
	err = site.Build(e.ctx, o)
	if errors.Is(err, site.ErrFailed) {
		return errFailed
	}
	return err
}
