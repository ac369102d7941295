//go:build unix

package browser

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/attention-in-go/course/internal/proctree"
)

// stopTree stops the processes roots and every process descended from them,
// and the process group pgid if it is not 0 (and not ours), in three steps:
//
//  1. SIGTERM to the roots and the group, so that a Jupyter server can shut
//     its kernels down itself and GoNB can remove its temporary files;
//  2. after half of grace, SIGTERM to every process of the tree still
//     running, including any started in the meantime;
//  3. after grace, SIGKILL to what is left.
//
// It returns every process it found, so that callers can check that none
// is left.
func stopTree(roots []int, pgid int, grace time.Duration) []int {
	var tree []int
	for _, p := range roots {
		if p > 0 && p != os.Getpid() {
			tree = append(tree, p)
		}
	}
	if len(tree) == 0 {
		return nil
	}
	tree = append(tree, proctree.Descendants(tree...)...)
	ownGroup := pgid > 0 && pgid != syscall.Getpgrp()
	signal := func(pids []int, sig syscall.Signal) {
		if ownGroup {
			_ = syscall.Kill(-pgid, sig)
		}
		for _, p := range pids {
			_ = syscall.Kill(p, sig)
		}
	}
	// waitGone waits up to d for the tree to exit, adding the processes
	// started meanwhile; it reports whether all are gone.
	waitGone := func(d time.Duration) bool {
		for deadline := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
			for _, p := range proctree.Descendants(tree...) {
				if !slices.Contains(tree, p) {
					tree = append(tree, p)
				}
			}
			if len(proctree.Alive(tree)) == 0 {
				return true
			}
			if time.Now().After(deadline) {
				return false
			}
		}
	}
	signal(roots, syscall.SIGTERM)
	if waitGone(grace / 2) {
		return tree
	}
	signal(proctree.Alive(tree), syscall.SIGTERM)
	if waitGone(grace / 2) {
		return tree
	}
	signal(proctree.Alive(tree), syscall.SIGKILL)
	waitGone(2 * time.Second)
	return tree
}

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
