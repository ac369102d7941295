//go:build unix

package proctree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestRunStopsTree: when the context ends, Run interrupts the
// children, and what is left of them after the parent exits (here a shell
// in a session of its own that ignores SIGINT and SIGTERM, and its sleep)
// is killed: no process is left in the folder they ran in.
func TestRunStopsTree(t *testing.T) {
	if testing.Short() {
		t.Skip("takes KillGrace")
	}
	dir := t.TempDir()
	cmd := exec.Command("sh", "-c", `setsid sh -c 'trap "" INT TERM; sleep 300 & wait' & sleep 300`)
	cmd.Dir = dir
	t.Cleanup(func() {
		for _, p := range processesIn(dir) {
			syscall.Kill(p, syscall.SIGKILL)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the whole tree runs.
		for deadline := time.Now().Add(10 * time.Second); len(processesIn(dir)) < 4 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	err := Run(ctx, cmd)
	if d := time.Since(start); d > 10*time.Second+InterruptGrace+2*KillGrace {
		t.Errorf("Run took %v", d)
	}
	// sh exits when its sleep dies of the SIGINT, with sleep's status.
	if err != nil {
		t.Logf("Run: %v", err)
	}
	if left := processesIn(dir); len(left) > 0 {
		t.Errorf("processes left running in %s: %v", dir, left)
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
