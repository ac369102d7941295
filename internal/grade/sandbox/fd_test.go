//go:build linux

package sandbox

import (
	"os"
	"strings"
	"testing"
)

// TestDescriptors: a learner run inherits only its standard streams and
// the results channel (fd 3) — not the seccomp program nor bwrap's info
// pipe, nor what the grader itself inherited (a CI runner's descriptors).
func TestDescriptors(t *testing.T) {
	bin := prober(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out, res := sandboxed(t, bin, Command{NoFork: true, ExtraFiles: []*os.File{w}}, "fds")
	w.Close()
	fds := strings.Fields(strings.TrimPrefix(strings.TrimSpace(out), "fds: "))
	if res.Err != nil || len(fds) < 4 {
		t.Fatalf("descriptors: %q, %v", out, res.Err)
	}
	for _, fd := range fds {
		n, _, _ := strings.Cut(fd, "=")
		if n != "0" && n != "1" && n != "2" && n != "3" && !strings.HasSuffix(fd, "=") { // "=": the directory being listed
			t.Errorf("the run inherits descriptor %s: %q", fd, out)
		}
	}
}
