//go:build unix

package proctree

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		stat      string
		pid, ppid int
		ok        bool
	}{
		{"42 (bash) S 7 42 42 0", 42, 7, true},
		{"43 (a (weird) name) R 42 43", 43, 42, true}, // comm with spaces and ")"
		{"44 (sh)", 0, 0, false},
		{"garbage", 0, 0, false},
	}
	for _, tc := range tests {
		pid, ppid, ok := parseStat(tc.stat)
		if pid != tc.pid || ppid != tc.ppid || ok != tc.ok {
			t.Errorf("parseStat(%q) = %d, %d, %v; want %d, %d, %v", tc.stat, pid, ppid, ok, tc.pid, tc.ppid, tc.ok)
		}
	}
}

// TestDescendantsAndAlive starts sh, which starts sleep: sleep is a
// descendant of this test process and of sh, alive until killed, and a
// zombie does not count as alive.
func TestDescendantsAndAlive(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	cmd := exec.Command("sh", "-c", "sleep 30 & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var kids []int
	for deadline := time.Now().Add(5 * time.Second); len(kids) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		kids = Descendants(cmd.Process.Pid)
	}
	if len(kids) != 1 {
		t.Fatalf("Descendants(sh) = %v, want the one sleep", kids)
	}
	if all := Descendants(os.Getpid()); !slices.Contains(all, cmd.Process.Pid) || !slices.Contains(all, kids[0]) {
		t.Errorf("Descendants(test) = %v, want sh %d and sleep %d in it", all, cmd.Process.Pid, kids[0])
	}
	if got := Alive([]int{cmd.Process.Pid, kids[0]}); len(got) != 2 {
		t.Errorf("Alive = %v, want both running", got)
	}
	sleep, _ := os.FindProcess(kids[0])
	sleep.Kill()
	cmd.Process.Kill()
	// sh is our child: until Wait it is a zombie, which is not alive.
	for deadline := time.Now().Add(5 * time.Second); IsAlive(cmd.Process.Pid) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if IsAlive(cmd.Process.Pid) {
		t.Error("a killed child not yet waited for (a zombie) counts as alive")
	}
	cmd.Wait()
}

func TestMatching(t *testing.T) {
	self := Matching(func(p Process) bool { return p.Pid == os.Getpid() })
	if len(self) != 1 || self[0] != os.Getpid() {
		t.Errorf("Matching(own pid) = %v, want [%d]", self, os.Getpid())
	}
	mine := Matching(func(p Process) bool { return p.UID == os.Getuid() && p.Pid == os.Getpid() && len(p.Cmdline) > 0 })
	if len(mine) != 1 {
		t.Errorf("the uid and command line of this process are not read: %v", mine)
	}
	if none := Matching(func(Process) bool { return false }); len(none) != 0 {
		t.Errorf("Matching(false) = %v", none)
	}
}
