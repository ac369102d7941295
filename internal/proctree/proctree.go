//go:build unix

package proctree

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Descendants returns the processes descended from any of pids, in
// breadth-first order, each once.
func Descendants(pids ...int) []int {
	children := make(map[int][]int)
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		if p, ppid, ok := readStat(stat); ok {
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

// readStat returns the pid and parent pid in a /proc/PID/stat file, whose
// format is "pid (comm) state ppid …"; comm may contain spaces and ")".
func readStat(path string) (pid, ppid int, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, false
	}
	return parseStat(string(data))
}

func parseStat(s string) (pid, ppid int, ok bool) {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return 0, 0, false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 2 {
		return 0, 0, false
	}
	pid, err1 := strconv.Atoi(strings.TrimSpace(s[:open]))
	ppid, err2 := strconv.Atoi(fields[1])
	return pid, ppid, err1 == nil && err2 == nil
}

// IsAlive reports whether pid is running; zombies, which no longer run, do
// not count.
func IsAlive(pid int) bool {
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
		if IsAlive(p) {
			out = append(out, p)
		}
	}
	return out
}

// Process is what Matching tells of a running process.
type Process struct {
	Pid     int
	UID     int    // real user id
	Cmdline []byte // NUL-separated arguments
}

// Matching returns the pids of the running processes (zombies excluded)
// for which match is true.
func Matching(match func(Process) bool) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !IsAlive(pid) {
			continue
		}
		p := Process{Pid: pid, UID: -1}
		p.Cmdline, _ = os.ReadFile("/proc/" + e.Name() + "/cmdline")
		status, _ := os.ReadFile("/proc/" + e.Name() + "/status")
		for _, l := range strings.Split(string(status), "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[0] == "Uid:" {
				p.UID, _ = strconv.Atoi(f[1])
			}
		}
		if match(p) {
			pids = append(pids, pid)
		}
	}
	return pids
}
