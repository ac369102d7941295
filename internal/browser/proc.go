//go:build unix

package browser

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/attention-in-go/course/internal/proctree"
)

// ProcessesIn returns the processes whose working directory is dir or a
// folder inside it, read from /proc (none where there is no /proc).
func ProcessesIn(dir string) []int {
	dir = filepath.Clean(dir)
	var pids []int
	cwds, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, cwd := range cwds {
		target, err := os.Readlink(cwd)
		if err != nil || (target != dir && !strings.HasPrefix(target, dir+string(filepath.Separator))) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(cwd))); err == nil && pid != os.Getpid() && proctree.IsAlive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// processGroup returns the process group of pid, or 0 if unknown.
func processGroup(pid int) int {
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		return 0
	}
	return pgid
}
