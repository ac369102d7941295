//go:build unix

package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/attention-in-go/course/internal/proctree"
	"github.com/attention-in-go/course/internal/runner/runnertest"
)

func TestRunTimeout(t *testing.T) {
	runnertest.RequireJupyter(t)
	dir := t.TempDir()
	runnertest.WriteNotebook(t, dir, "slow", "# Slow\n```go\n%%\nfmt.Println(1)\n```\n```go\n%%\ntime.Sleep(time.Hour)\n```\n")
	start := time.Now()
	// 12 s leaves the first cell time to compile on a busy machine, so
	// that the timeout hits the second.
	r, err := New(context.Background(), Options{Timeout: 12 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	res := r.Run(context.Background(), filepath.Join(dir, "slow.ipynb"), t.TempDir())
	var out bytes.Buffer
	if res.Report(&out, "slow.ipynb") {
		t.Error("Report: the notebook passed, want it to time out")
	}
	// The kernel is interrupted, and nbconvert writes the notebook, which
	// shows the cell that was running.
	runnertest.CheckLines(t, out.String(), []string{
		`FAIL slow\.ipynb  \d+\.\ds  1 of 2 cells failed`,
		`  timed out after 12s`,
		`  cell In\[2\]: time\.Sleep\(time\.Hour\)`,
		// The interrupt stops the cell's program, or, on a busy machine,
		// GoNB still building it.
		`      (.*: )?signal: interrupt`,
	})
	if d := time.Since(start); d > 12*time.Second+proctree.InterruptGrace+2*proctree.KillGrace+30*time.Second {
		t.Errorf("Run took %v after a 12s timeout", d)
	}
	// The kernel runs in the notebook's folder: nothing may be left there.
	time.Sleep(time.Second)
	if left := processesIn(dir); len(left) > 0 {
		t.Errorf("processes left running in %s: %v", dir, left)
		for _, p := range left {
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

// processesIn returns the pids of the processes whose working directory is
// dir, read from /proc (none where there is no /proc).
func processesIn(dir string) []int {
	var pids []int
	cwds, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, cwd := range cwds {
		if target, err := os.Readlink(cwd); err == nil && target == dir {
			if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(cwd))); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}
