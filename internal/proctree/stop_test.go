//go:build unix

package proctree

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStop starts a tree that SIGTERM alone cannot stop and that grows
// while it is being stopped:
//
//	sh (own process group, ignores SIGTERM)
//	├── sh: on SIGTERM, ignores it and starts a sleep in a session of its own
//	│   └── sleep
//	├── sleep (ignores SIGTERM)
//	└── setsid sh (own session, ignores SIGTERM)
//	    └── sleep (ignores SIGTERM)
//
// Every process carries a marker in its command line, by which the test
// finds them in /proc itself; after Stop, none may be running.
func TestStop(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command")
	}
	// sleep's argument is the marker: a number of seconds no other
	// process is likely to sleep.
	marker := fmt.Sprint(900000 + os.Getpid()%90000)
	script := strings.ReplaceAll(`
sh -c 'trap "trap \"\" TERM; setsid sleep N & wait" TERM; sleep N & wait' spawner-N &
trap '' TERM
sleep N &
setsid sh -c 'sleep N & wait' session-N &
wait
`, "N", marker)
	cmd := exec.Command("sh", "-c", script, "root-"+marker)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { cmd.Wait(); close(waited) }()
	t.Cleanup(func() {
		for _, p := range marked(marker) {
			syscall.Kill(p, syscall.SIGKILL)
		}
		<-waited
	})

	var before []int
	for deadline := time.Now().Add(10 * time.Second); len(before) < 6 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		before = marked(marker)
	}
	if len(before) != 6 {
		t.Fatalf("the tree has %d processes, want 6: %v", len(before), before)
	}

	start := time.Now()
	const grace = time.Second
	tree := Stop([]int{cmd.Process.Pid}, cmd.Process.Pid, grace)
	if d := time.Since(start); d < grace || d > grace+killWait+time.Second {
		t.Errorf("Stop took %v, want the grace period %v and at most %v more", d, grace, killWait+time.Second)
	}
	if left := marked(marker); len(left) > 0 {
		t.Errorf("processes left running: %v", left)
	}
	for _, p := range before {
		if !slices.Contains(tree, p) {
			t.Errorf("Stop returned %v, without %d", tree, p)
		}
	}
	// The sleep started on SIGTERM in a session of its own was found as
	// it started.
	if len(tree) < len(before)+1 {
		t.Errorf("Stop returned %v: no process started while it stopped the tree", tree)
	}
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Error("the root sh did not exit")
	}
}

// TestStopGone: a tree that exits on SIGTERM is stopped without waiting
// for the grace period.
func TestStopGone(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 300 & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { cmd.Wait(); close(waited) }()
	defer func() { <-waited }()
	for deadline := time.Now().Add(5 * time.Second); len(Descendants(cmd.Process.Pid)) == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	tree := Stop([]int{cmd.Process.Pid}, cmd.Process.Pid, time.Minute)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Stop took %v for processes that exit on SIGTERM", d)
	}
	if left := Alive(tree); len(left) > 0 {
		t.Errorf("left running: %v", left)
	}
	if got := Stop([]int{0, -1, os.Getpid()}, syscall.Getpgrp(), time.Minute); got != nil {
		t.Errorf("Stop of no process but the caller's = %v, want nil", got)
	}
}

// marked returns the running processes whose command line contains
// marker, read from /proc here rather than with the package's functions.
func marked(marker string) []int {
	var pids []int
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		data, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(data), marker) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(filepath.Dir(f), "stat"))
		if err != nil {
			continue
		}
		if fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(fields) > 0 && fields[0] == "Z" {
			continue // a zombie
		}
		var pid int
		fmt.Sscan(filepath.Base(filepath.Dir(f)), &pid)
		pids = append(pids, pid)
	}
	return pids
}
