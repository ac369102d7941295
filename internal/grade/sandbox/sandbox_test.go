//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/internal/proctree"
)

// prober builds testdata/prober (static, so it runs in an empty sandbox)
// into a folder every user can read, as the grader does with learner
// programs.
func prober(t *testing.T) string {
	t.Helper()
	if err := Check(); err != nil {
		t.Fatalf("sandbox unavailable: %v", err)
	}
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "prober")
	cmd := exec.Command("go", "build", "-o", bin, "./testdata/prober")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the prober: %v\n%s", err, out)
	}
	return bin
}

var limits = Limits{Wall: 20 * time.Second, Memory: 512 << 20, FileSize: 8 << 20, TmpSize: 8 << 20, Procs: 64}

// sandboxed runs the prober with args in a sandbox, as /prober (so that
// no test mistakes the grader's /prog, run by tests of another package at
// the same time, for it), and returns its output.
func sandboxed(t *testing.T, bin string, c Command, args ...string) (string, Result) {
	t.Helper()
	var out bytes.Buffer
	c.Args = append([]string{"/prober"}, args...)
	c.Binds = append(c.Binds, Bind{Host: bin, Sandbox: "/prober"})
	c.Stdout, c.Stderr = &out, &out
	if c.Limits == (Limits{}) {
		c.Limits = limits
	}
	r := Run(context.Background(), c)
	return out.String(), r
}

// TestWalls tries to cross each wall of a learner run from inside and
// checks that it holds.
func TestWalls(t *testing.T) {
	bin := prober(t)

	// A listener of the host on loopback: nothing may reach it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	reached := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			reached <- struct{}{}
			c.Close()
		}
	}()

	// A secret of the host, readable by everyone, and a folder everyone may
	// write to.
	host := t.TempDir()
	os.Chmod(host, 0o777)
	secret := filepath.Join(host, "secret")
	os.WriteFile(secret, []byte("the answers"), 0o644)
	escaped := filepath.Join(host, "escaped")

	tests := []struct {
		name string
		args []string
		want string // a substring the output must have
	}{
		{"not root, not the grader", []string{"id"}, "uid=65534 euid=65534 gid=65534 pid="},
		{"network", []string{"dial", ln.Addr().String()}, "dial: dial tcp " + ln.Addr().String() + ": connect: connection refused"}, // its own loopback, empty
		{"host file", []string{"read", secret}, "read: 0 bytes, open " + secret + ": no such file or directory"},
		{"host /etc/passwd", []string{"read", "/etc/passwd"}, "no such file or directory"},
		{"write to the host", []string{"write", escaped}, "write: open " + escaped + ": no such file or directory"},
		{"what the file system shows", []string{"ls", "/"}, "ls: dev prober proc tmp <nil>"},
		{"other processes", []string{"procs"}, "procs: 2"},
		{"kill the grader", []string{"kill", strconv.Itoa(os.Getpid())}, "kill: no such process"},
		{"start a process", []string{"exec", "/prober", "id"}, "exec: fork/exec /prober: operation not permitted"},
		{"raw fork", []string{"fork"}, "fork: operation not permitted"},
		{"a daemon", []string{"daemon", "30"}, "daemon: fork/exec /prober: operation not permitted"},
		{"file size", []string{"bigfile", "64"}, "bigfile: write /tmp/big: file too large"},
		{"environment", []string{"env"}, "env: ONLY=this PWD=/tmp\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := sandboxed(t, bin, Command{NoFork: true, Env: []string{"ONLY=this"}}, tc.args...)
			if !strings.Contains(out, tc.want) {
				t.Errorf("output %q, want it to contain %q", out, tc.want)
			}
		})
	}
	// No process the learner's code can see shows a path of the host (the
	// sandbox's init is bubblewrap, whose command line names every bind).
	if out, _ := sandboxed(t, bin, Command{NoFork: true, Binds: []Bind{{Host: host, Sandbox: "/data"}}}, "cmdlines"); !strings.Contains(out, "cmdline 1:") ||
		strings.Contains(out, filepath.Dir(bin)) || strings.Contains(out, host) {
		t.Errorf("the command lines seen from the sandbox show the host's paths (%s, %s):\n%s", filepath.Dir(bin), host, out)
	}
	if _, err := os.Stat(escaped); err == nil {
		t.Error("a sandboxed run wrote a file on the host")
	}
	select {
	case <-reached:
		t.Error("a sandboxed run connected to the host's listener")
	default:
	}
	if SlotUID(3) >= 0 {
		// As root, bwrap runs as the slot's own user: seen from the host,
		// the learner's process is not root either.
		done := make(chan struct{})
		go func() {
			sandboxed(t, bin, Command{NoFork: true, Slot: 3}, "sleep", "3")
			close(done)
		}()
		var uids []string
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline) && len(uids) == 0; time.Sleep(50 * time.Millisecond) {
			for _, pid := range running(t, bin) {
				status, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
				for _, l := range strings.Split(string(status), "\n") {
					if f := strings.Fields(l); len(f) > 1 && f[0] == "Uid:" {
						uids = append(uids, f[1])
					}
				}
			}
		}
		<-done
		if want := strconv.Itoa(SlotUID(3)); len(uids) == 0 || slices.ContainsFunc(uids, func(u string) bool { return u != want }) {
			t.Errorf("host uids of the sandboxed process: %v, want %s", uids, want)
		}
	}
}

// TestTreeDies starts a daemon that leaves its session and outlives its
// parent (no seccomp filter, as in a build): it must die with the
// sandbox.
func TestTreeDies(t *testing.T) {
	bin := prober(t)
	out, r := sandboxed(t, bin, Command{}, "daemon", "300")
	if !strings.Contains(out, "daemon: <nil>") || r.Err != nil {
		t.Fatalf("the daemon did not start: %q, %v", out, r.Err)
	}
	time.Sleep(200 * time.Millisecond)
	if pids := running(t, bin); len(pids) > 0 {
		t.Errorf("processes of the sandbox survived it: %v", pids)
	}
}

// running returns the pids of live processes running the prober.
func running(t *testing.T, bin string) []int {
	t.Helper()
	return proctree.Matching(func(p proctree.Process) bool { return bytes.HasPrefix(p.Cmdline, []byte("/prober\x00")) })
}

// TestLimits checks that the resource limits stop what exceeds them.
func TestLimits(t *testing.T) {
	bin := prober(t)
	t.Run("memory", func(t *testing.T) {
		out, r := sandboxed(t, bin, Command{NoFork: true}, "alloc", "2048")
		if r.Err == nil || strings.Contains(out, "alloc: done") {
			t.Errorf("2 GiB allocated under a 512 MiB limit: %q, %v", out, r.Err)
		}
	})
	t.Run("wall time", func(t *testing.T) {
		start := time.Now()
		l := limits
		l.Wall = 2 * time.Second
		_, r := sandboxed(t, bin, Command{NoFork: true, Limits: l}, "spin")
		if !r.TimedOut || time.Since(start) > 10*time.Second {
			t.Errorf("spin: timed out %v after %v", r.TimedOut, time.Since(start))
		}
		// The sandbox's first process must be gone when Run returns: killed
		// through its pid, it is reaped by bubblewrap, which Run reaps. (A
		// sandbox killed only through its process group orphans it to the
		// machine's init, as a zombie until init reaps it. Counting all
		// zombies instead mistook those of other packages' sandboxes, killed
		// at the same time, for this one's.)
		if r.Pid <= 0 {
			t.Fatalf("the sandbox did not report its first process (Result.Pid %d)", r.Pid)
		}
		if status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(r.Pid), "status")); err == nil {
			state, _, _ := strings.Cut(string(status[bytes.Index(status, []byte("State:")):]), "\n")
			t.Errorf("the killed sandbox's first process (pid %d) is still there: %s", r.Pid, state)
		}
	})
	t.Run("cpu time", func(t *testing.T) {
		l := limits
		l.Wall, l.CPU = 30*time.Second, time.Second
		start := time.Now()
		_, r := sandboxed(t, bin, Command{NoFork: true, Limits: l}, "spin")
		if r.TimedOut || r.Err == nil || time.Since(start) > 10*time.Second {
			t.Errorf("spin with 1 s of CPU: %v, timed out %v, after %v", r.Err, r.TimedOut, time.Since(start))
		}
	})
	t.Run("tmp size", func(t *testing.T) {
		l := limits
		l.FileSize = 1 << 30
		out, _ := sandboxed(t, bin, Command{NoFork: true, Limits: l}, "bigfile", "64")
		if !strings.Contains(out, "no space left on device") {
			t.Errorf("64 MiB in an 8 MiB /tmp: %q", out)
		}
	})
	t.Run("results channel", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		out, res := sandboxed(t, bin, Command{NoFork: true, ExtraFiles: []*os.File{w}}, "fd3")
		w.Close()
		var got bytes.Buffer
		got.ReadFrom(r)
		if res.Err != nil || got.String() != "hello" {
			t.Errorf("fd 3: %q (%q, %v)", got.String(), out, res.Err)
		}
	})
}

// TestFilter checks the seccomp program's layout on this architecture.
func TestFilter(t *testing.T) {
	p, err := noForkFilter()
	if err != nil {
		t.Fatal(err)
	}
	if len(p)%8 != 0 || len(p) < 8*10 {
		t.Errorf("program of %d bytes", len(p))
	}
}

func TestRunBeforeCheck(t *testing.T) {
	saved := bwrapPath
	bwrapPath = ""
	defer func() { bwrapPath = saved }()
	if r := Run(context.Background(), Command{Args: []string{"/prog"}}); r.Err == nil {
		t.Error("Run before Check succeeded")
	}
}

// TestUnsafe: without the sandbox (-unsandboxed) the command runs as the
// grader, on the host's paths, still under the limits.
func TestUnsafe(t *testing.T) {
	bin := prober(t)
	unsafeMode = true
	defer func() { unsafeMode = false }()
	out, r := sandboxed(t, bin, Command{NoFork: true}, "id")
	if want := "uid=" + strconv.Itoa(os.Getuid()) + " "; r.Err != nil || !strings.Contains(out, want) {
		t.Errorf("unsafe run: %q, %v; want %q", out, r.Err, want)
	}
	l := limits
	l.Wall = time.Second
	if _, r := sandboxed(t, bin, Command{Limits: l}, "spin"); !r.TimedOut {
		t.Error("an unsafe run is not stopped at its time limit")
	}
}
