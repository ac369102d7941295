//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Grace periods when stopping nbconvert: how long it gets to finish after
// its kernel is interrupted, and how long processes get to exit after
// SIGTERM before SIGKILL.
const (
	interruptGrace = 10 * time.Second
	killGrace      = 5 * time.Second
)

// runTree runs cmd in its own process group and waits for it. When ctx is
// done it stops cmd and its descendants, including those that left the
// group (Jupyter starts each kernel in a session of its own, and a GoNB
// kernel whose nbconvert dies keeps running):
//
//  1. The descendants (the kernel and its children) get SIGINT, like
//     Jupyter's "Interrupt kernel": the running cell stops with "signal:
//     interrupt", and nbconvert usually finishes and writes the notebook,
//     which then shows the cell that was running.
//  2. If nbconvert is still running after interruptGrace, everyone gets
//     SIGTERM (GoNB then stops gopls and the cell's program and removes its
//     temporary files), and SIGKILL after killGrace.
//
// Wait returns at most killGrace after cmd exits even if a process it left
// behind still holds its stderr.
func runTree(ctx context.Context, cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = killGrace
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- ignoreWaitDelay(cmd.Wait()) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	pid := cmd.Process.Pid
	kernel := descendants(pid)
	for _, p := range kernel {
		_ = syscall.Kill(p, syscall.SIGINT)
	}
	select {
	case err := <-done:
		// nbconvert shuts its kernel down as it exits.
		waitGone(kernel, killGrace)
		signalAll(pid, kernel, syscall.SIGKILL)
		return err
	case <-time.After(interruptGrace):
	}
	tree := append(append(kernel, descendants(pid)...), pid)
	signalAll(pid, tree, syscall.SIGTERM)
	waitGone(tree, killGrace)
	signalAll(pid, tree, syscall.SIGKILL)
	return <-done
}

// waitGone waits until none of pids is running, at most for d.
func waitGone(pids []int, d time.Duration) {
	for deadline := time.Now().Add(d); time.Now().Before(deadline) && anyAlive(pids); {
		time.Sleep(100 * time.Millisecond)
	}
}

// anyAlive reports whether any of pids is still running (zombies, which
// no longer run, do not count).
func anyAlive(pids []int) bool {
	for _, p := range pids {
		if syscall.Kill(p, 0) != nil {
			continue
		}
		if data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat"); err == nil {
			if fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:])); len(fields) > 0 && fields[0] == "Z" {
				continue
			}
		}
		return true
	}
	return false
}

// ignoreWaitDelay turns exec.ErrWaitDelay, which reports a successful exit
// whose output was cut short by WaitDelay, into success.
func ignoreWaitDelay(err error) error {
	if errors.Is(err, exec.ErrWaitDelay) {
		return nil
	}
	return err
}

// signalAll sends sig to the process group pgid and to each of pids.
func signalAll(pgid int, pids []int, sig syscall.Signal) {
	_ = syscall.Kill(-pgid, sig)
	for _, p := range pids {
		_ = syscall.Kill(p, sig)
	}
}

// descendants returns the processes descended from pid, read from /proc
// (Linux); nil where there is no /proc.
func descendants(pid int) []int {
	children := make(map[int][]int)
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		p, ppid, ok := readStat(stat)
		if ok {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
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
	s := string(data)
	end := strings.LastIndexByte(s, ')')
	open := strings.IndexByte(s, '(')
	if open < 0 || end < 0 {
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
