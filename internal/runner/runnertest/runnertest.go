// Package runnertest holds what the tests that run notebooks share: a
// skip without Jupyter, a notebook built from a lesson source, and a
// check of a report's lines, as net/http/httptest does for servers.
package runnertest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/build"
	"github.com/attention-in-go/course/internal/jupyter"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
)

// RequireJupyter skips a test that runs notebooks in -short mode, or
// without Jupyter and the gonb kernel.
func RequireJupyter(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs Jupyter: skipped in -short mode")
	}
	j, err := jupyter.Find()
	if err == nil {
		err = jupyter.CheckKernel(context.Background(), j, os.Environ(), "gonb")
	}
	if err != nil {
		t.Skip(err)
	}
}

// WriteNotebook builds a lesson source into dir/name.ipynb without the
// setup cell (the cells of such tests do not import the course).
func WriteNotebook(t testing.TB, dir, name, src string) {
	t.Helper()
	l, err := lesson.Parse("lessons/"+name+".md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := build.Builder{}.Build(l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := notebook.WriteFile(filepath.Join(dir, name+".ipynb"), nb); err != nil {
		t.Fatal(err)
	}
}

// CheckLines checks that the lines of out include lines matching the
// regular expressions of want, whole and in order.
func CheckLines(t testing.TB, out string, want []string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	i := 0
	for _, w := range want {
		re := regexp.MustCompile("^" + w + "$")
		for i < len(lines) && !re.MatchString(lines[i]) {
			i++
		}
		if i == len(lines) {
			t.Errorf("no line matching %q (in order) in output:\n%s", w, out)
			return
		}
		i++
	}
}
