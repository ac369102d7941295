package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCourse runs the course tool in dir and returns its exit status and
// output.
func runCourse(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &out, stderr: &errOut, dir: dir}
	code = e.main(args)
	return code, out.String(), errOut.String()
}

func TestUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args       []string
		wantCode   int
		wantStdout string // substring
		wantStderr string // substring
	}{
		{nil, exitUsage, "", "course: missing command"},
		{[]string{"frobnicate"}, exitUsage, "", `course: unknown command "frobnicate"`},
		{[]string{"frobnicate"}, exitUsage, "", "Commands:\n  build"},
		{[]string{"help"}, exitOK, "make notebooks", ""},
		{[]string{"-h"}, exitOK, "edit lessons/NN-slug.md", ""},
		{[]string{"help", "build"}, exitOK, "-check", ""},
		{[]string{"help", "run"}, exitOK, "-timeout duration", ""},
		{[]string{"help", "help"}, exitOK, "usage: go run ./cmd/course help", ""},
		{[]string{"help", "nope"}, exitUsage, "", `unknown command "nope"`},
		{[]string{"help", "a", "b"}, exitUsage, "", "at most one command"},
		{[]string{"build", "-h"}, exitOK, "usage: go run ./cmd/course build [-check]", ""},
		{[]string{"build", "-nope"}, exitUsage, "", "flag provided but not defined: -nope\nusage: go run ./cmd/course build"},
		{[]string{"build", "extra"}, exitUsage, "", "unexpected arguments: extra"},
		{[]string{"build"}, exitFailed, "", "not inside the course"},
		{[]string{"run", "-h"}, exitOK, "-keep DIR", ""},
		{[]string{"run", "-timeout", "0s"}, exitUsage, "", "-timeout 0s is too short"},
		{[]string{"run", "lesson.md"}, exitUsage, "", "lesson.md is not a notebook"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCourse(t, dir, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit status = %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, stdout, stderr)
			}
			if !strings.Contains(stdout, tt.wantStdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.wantStdout, stdout)
			}
			if !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantStderr, stderr)
			}
		})
	}
}

// A wrong command line gets a short usage and exit status 2.
func Example_usageError() {
	code := Main(context.Background(), []string{"build", "extra"}, os.Stdout, os.Stdout)
	fmt.Println("exit status", code)
	// Output:
	// course build: unexpected arguments: extra
	// usage: go run ./cmd/course build [-check] [-lessons DIR] [-out DIR]
	// Run 'go run ./cmd/course help build' for details.
	// exit status 2
}

// An unknown command is reported before the tool's help, exit status 2.
func Example_unknownCommand() {
	var stderr bytes.Buffer
	code := Main(context.Background(), []string{"biuld"}, os.Stdout, &stderr)
	first, _, _ := strings.Cut(stderr.String(), "\n")
	fmt.Println(first)
	fmt.Println("exit status", code)
	// Output:
	// course: unknown command "biuld"
	// exit status 2
}

func TestRunWithoutJupyter(t *testing.T) {
	dir := t.TempDir()
	nb := filepath.Join(dir, "x.ipynb")
	if err := os.WriteFile(nb, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &out, stderr: &errOut, dir: dir,
		findJupyter: func() (string, error) { return "", errors.New("jupyter not found") }}
	if code := e.main([]string{"run", "x.ipynb"}); code != exitFailed {
		t.Errorf("exit status = %d, want %d", code, exitFailed)
	}
	if want := "course run: jupyter not found: run `make setup`"; !strings.Contains(errOut.String(), want) {
		t.Errorf("stderr = %q, want it to contain %q", errOut.String(), want)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
