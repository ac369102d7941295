package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/attention-in-go/course/internal/proctree"
	"github.com/attention-in-go/course/internal/runner/runnertest"
)

// TestRunStopsWithParent: when the process that started `course run` dies
// — `go run` killed by SIGTERM, which it does not pass on — the runner
// stops the notebook it is running and starts no other. A shell stands in
// for `go run`: it starts the course command, prints its own pid, and is
// killed.
func TestRunStopsWithParent(t *testing.T) {
	runnertest.RequireJupyter(t)
	dir := t.TempDir()
	sleep := "```go\n%%\ntime.Sleep(30 * time.Second)\nfmt.Println(\"slept\")\n```\n"
	for _, name := range []string{"a", "b"} {
		runnertest.WriteNotebook(t, dir, name, "# "+name+"\n"+sleep)
	}
	bin := filepath.Join(dir, "course")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var out bytes.Buffer
	parent := exec.Command("sh", "-c", `"$0" run -j 1 a.ipynb b.ipynb; echo "course exited with $?"`, bin)
	parent.Dir, parent.Stdout, parent.Stderr = dir, &out, &out
	parent.WaitDelay = time.Second // the course command holds the output pipe: do not wait for it
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	// The course command's pid: the shell's first descendant.
	var course int
	for deadline := time.Now().Add(10 * time.Second); course == 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if d := proctree.Descendants(parent.Process.Pid); len(d) > 0 {
			course = d[0]
		}
	}
	if course == 0 {
		t.Fatalf("the course command did not start: %s", out.String())
	}
	time.Sleep(8 * time.Second) // well into notebook a
	start := time.Now()
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	for syscall.Kill(course, 0) == nil {
		if time.Since(start) > 25*time.Second {
			proctree.Stop([]int{course}, 0, time.Second) // and the notebook's kernel with it
			t.Fatalf("course run still running %v after its parent died (notebook b would start at 30 s)", time.Since(start))
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("course run stopped %v after its parent died", time.Since(start).Round(100*time.Millisecond))
}
