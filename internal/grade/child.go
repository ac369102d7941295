package grade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// mainFile is the grader's own file of the child program: it serves the
// exercise named by its first argument with the learner's function.
const mainFile = `package main

import (
	grader_check "%s/lib/check"
	grader_os "os"
)

func main() {
	fns := map[string]any{%s}
	grader_check.Serve(grader_os.Args[1], fns[grader_os.Args[1]])
}
`

// toolchain is how the grader builds and runs programs.
type toolchain struct {
	root, module, goVersion string
	goimports               string // "" when not installed
	buildTimeout            time.Duration
}

// build writes the learner's file and the grader's main (serving fns:
// exercise id → function name) into a fresh module in dir, and builds it
// to dir/prog. It returns the compiler's message on failure.
func (t *toolchain) build(ctx context.Context, dir string, learner []byte, fns map[string]string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var entries []string
	for id, fn := range fns {
		entries = append(entries, fmt.Sprintf("%q: %s", id, fn))
	}
	files := map[string]string{
		"go.mod":         fmt.Sprintf("module learner\n\ngo %s\n", t.goVersion),
		"go.work":        fmt.Sprintf("go %s\n\nuse (\n\t.\n\t%s\n)\n", t.goVersion, strconv.Quote(t.root)),
		"learner.go":     string(learner),
		"grader_main.go": fmt.Sprintf(mainFile, t.module, strings.Join(entries, ", ")),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return "", err
		}
	}
	env := append(os.Environ(), "GOWORK="+filepath.Join(dir, "go.work"), "GOPROXY=off", "GOFLAGS=",
		"GOTOOLCHAIN=local", "CGO_ENABLED=0")
	if t.goimports != "" {
		cmd := exec.CommandContext(ctx, t.goimports, "-w", "learner.go")
		cmd.Dir, cmd.Env = dir, env
		cmd.Run() // best effort: go build reports what is still wrong
	}
	ctx, cancel := context.WithTimeout(ctx, t.buildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", "prog", ".")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", fmt.Errorf("build timed out after %v", t.buildTimeout)
	}
	if err != nil {
		return compilerMessage(string(out)), nil
	}
	return "", nil
}

// compilerMessage keeps the compiler's errors about the learner's file.
func compilerMessage(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "./"), "learner.go:"))
	}
	if len(lines) > 10 {
		lines = append(lines[:10], fmt.Sprintf("… and %d more lines", len(lines)-10))
	}
	return strings.Join(lines, "\n")
}

// limits of one run of the child program.
type limits struct {
	timeout time.Duration
	memory  int64 // bytes of address space
}

// runResult is what one run of the child gave.
type runResult struct {
	results  []byte // what the child wrote on fd 3
	stderr   string // its end
	timedOut bool
	err      error // how it ended, if not with status 0
}

// run runs dir/prog for exercise id, in an empty working folder with HOME
// there, with inputs on stdin and fd 3 for the results, under the limits.
// The whole process group is killed at the time limit.
func run(ctx context.Context, dir, id string, inputs []byte, lim limits) runResult {
	work, err := os.MkdirTemp(dir, "run-")
	if err != nil {
		return runResult{err: err}
	}
	defer os.RemoveAll(work)
	r, w, err := os.Pipe()
	if err != nil {
		return runResult{err: err}
	}
	prog := filepath.Join(dir, "prog")
	args := []string{prog, id}
	if p, err := exec.LookPath("prlimit"); err == nil && lim.memory > 0 {
		args = append([]string{p, "--as=" + strconv.FormatInt(lim.memory, 10), "--"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = work
	cmd.Env = []string{"HOME=" + work, "TMPDIR=" + work, "PATH=/usr/bin:/bin",
		"GOMEMLIMIT=" + strconv.FormatInt(lim.memory/2, 10), "GOMAXPROCS=1"}
	cmd.Stdin = bytes.NewReader(inputs)
	var stderr tail
	cmd.Stdout = io.Discard
	cmd.Stderr = &stderr
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return runResult{err: err}
	}
	w.Close()
	var results bytes.Buffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&results, io.LimitReader(r, 64<<20))
		io.Copy(io.Discard, r)
		close(copied)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	res := runResult{}
	timer := time.NewTimer(lim.timeout)
	defer timer.Stop()
	select {
	case res.err = <-done:
	case <-timer.C:
		res.timedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		res.err = <-done
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		res.err = <-done
		if res.err == nil {
			res.err = ctx.Err()
		}
	}
	// Grandchildren holding fd 3 are in the process group: kill them too,
	// then wait for the copy.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
	}
	r.Close()
	res.results = results.Bytes()
	res.stderr = stderr.String()
	return res
}

// why explains how the child ended, for the feedback, or "".
func (r runResult) why(lim limits) string {
	switch {
	case r.timedOut:
		return fmt.Sprintf("the program was stopped after %v (an endless loop?)", lim.timeout)
	case r.err == nil:
		return ""
	}
	msg := r.err.Error()
	var ee *exec.ExitError
	if errors.As(r.err, &ee) {
		msg = "the program stopped: " + ee.ProcessState.String()
	}
	s := r.stderr
	switch {
	case strings.Contains(s, "out of memory") || strings.Contains(s, "cannot allocate memory"):
		msg += fmt.Sprintf(" — out of memory (limit %d MiB)", lim.memory>>20)
	default:
		for _, marker := range []string{"panic:", "fatal error:"} {
			if i := strings.Index(s, marker); i >= 0 {
				first, _, _ := strings.Cut(s[i:], "\n")
				msg += " — " + first
				break
			}
		}
	}
	return msg
}

// tail keeps the last 8 KiB written.
type tail struct{ b []byte }

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 8<<10 {
		t.b = t.b[len(t.b)-8<<10:]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.b) }
