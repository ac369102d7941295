//go:build unix

package browser

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process trees are read from /proc (Linux). Where there is no /proc,
// descendants finds nothing and only the processes themselves and their
// groups are signalled.

// descendants returns the processes descended from any of pids, read from
// /proc, in breadth-first order.
func descendants(pids ...int) []int {
	children := make(map[int][]int)
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		if p, ppid, _, ok := readStat(stat); ok {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	seen := make(map[int]bool)
	queue := append([]int(nil), pids...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// readStat returns the pid, parent pid and process group in a
// /proc/PID/stat file, whose format is "pid (comm) state ppid pgrp …"; comm
// may contain spaces and ")".
func readStat(path string) (pid, ppid, pgrp int, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, 0, false
	}
	s := string(data)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return 0, 0, 0, false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 3 {
		return 0, 0, 0, false
	}
	pid, err1 := strconv.Atoi(strings.TrimSpace(s[:open]))
	ppid, err2 := strconv.Atoi(fields[1])
	pgrp, err3 := strconv.Atoi(fields[2])
	return pid, ppid, pgrp, err1 == nil && err2 == nil && err3 == nil
}

// alive reports whether pid is running; zombies, which no longer run, do
// not count.
func alive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: trust kill(pid, 0)
	}
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

// Alive returns those of pids that are still running.
func Alive(pids []int) []int {
	var out []int
	for _, p := range pids {
		if alive(p) {
			out = append(out, p)
		}
	}
	return out
}

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
	tree = append(tree, descendants(tree...)...)
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
			for _, p := range descendants(tree...) {
				if !slices.Contains(tree, p) {
					tree = append(tree, p)
				}
			}
			if len(Alive(tree)) == 0 {
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
	signal(Alive(tree), syscall.SIGTERM)
	if waitGone(grace / 2) {
		return tree
	}
	signal(Alive(tree), syscall.SIGKILL)
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
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(cwd))); err == nil && pid != os.Getpid() && alive(pid) {
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
