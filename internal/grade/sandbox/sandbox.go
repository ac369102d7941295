// Package sandbox runs a command with the walls the grader puts around a
// learner's code: Debian's bubblewrap (bwrap) for new user, PID,
// network, IPC and mount namespaces — the command sees only the folders
// it is given, no network, no other process, and its whole process tree
// dies with it — plus resource limits (memory, CPU time, file
// size, processes) and, for runs of learner code, a seccomp filter that
// refuses to create processes, so that a run is one process whose
// memory the address-space limit bounds.
//
// When the grader runs as root, learner runs go further: bwrap itself
// runs as a user of its own per concurrent slot (not root, not the
// instructor, not another slot's), so the process-count limit of one
// run cannot starve another.
//
// Memory is bounded with RLIMIT_DATA, private writable memory: for a Go
// program its heap and stacks. Unlike the address space (RLIMIT_AS) it
// does not count what the Go runtime reserves without using (a Go
// program does not even start under an address-space limit of 600 MiB),
// so the limit means what it says.
package sandbox

import (
	"io"
	"os"
	"sync"
	"time"
)

// Limits bound one sandboxed command.
type Limits struct {
	Wall     time.Duration // killed after this long
	CPU      time.Duration // RLIMIT_CPU (0: Wall + 1 s)
	Memory   int64         // private writable memory per process, bytes (RLIMIT_DATA; see below)
	Procs    int           // processes and threads of the sandbox's user (RLIMIT_NPROC); 0: no limit
	FileSize int64         // largest file it may write (RLIMIT_FSIZE)
	TmpSize  int64         // size of its /tmp (a tmpfs)
}

// Bind makes a host path visible in the sandbox.
type Bind struct {
	Host, Sandbox string
	Writable      bool
}

// Command is one sandboxed command.
type Command struct {
	Args   []string // the command, as seen inside the sandbox
	Binds  []Bind
	Dir    string   // working folder inside (default /tmp)
	Env    []string // the whole environment (nothing is inherited)
	Limits Limits
	// NoFork installs the seccomp filter that refuses fork, vfork, clone
	// of a process, clone3, unshare, setns, mount, ptrace and a few other
	// calls a computation never needs. Use it for learner code; the Go
	// toolchain forks, so a build cannot have it.
	NoFork bool
	// Slot is the concurrent slot (0, 1, …): as root, learner runs
	// (NoFork) use a user of their own per slot.
	Slot int

	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// ExtraFiles are inherited as file descriptors 3, 4, … (as in
	// os/exec).
	ExtraFiles []*os.File
}

// Result is how a sandboxed command ended.
type Result struct {
	Err      error // nil after exit status 0
	TimedOut bool
	// Pid is the host pid of the sandbox's first process (bubblewrap's
	// child, pid 1 of its namespace), 0 when unknown. The process is gone
	// when Run returns; tests check that it was reaped, not left a zombie.
	Pid int
}

// unsafeMode runs commands without namespaces (only the limits): the
// instructor's explicit choice when no sandbox can be created.
var unsafeMode bool

// Unsafe makes Run work without bubblewrap: resource limits and a
// process group only. The grader records that it was used.
func Unsafe() {
	unsafeMode = true
	closeInherited()
}

// slotUIDBase is the first user id of the per-slot users root runs
// learner code as. Chosen far above the ids distributions hand out to
// people (1000…) and to subordinate ranges (100000…), and below 2³¹
// (bwrap reads ids as signed ints).
const slotUIDBase = 2_000_000_000

// SlotUID is the user id of slot when the grader runs as root, else -1.
func SlotUID(slot int) int {
	if os.Geteuid() != 0 {
		return -1
	}
	return slotUIDBase + slot
}

var (
	bwrapOnce sync.Once
	bwrapPath string
	bwrapErr  error
)

// Check reports whether sandboxes can be created here: bwrap is
// installed and can create the namespaces, as the grader's user and, as
// root, as a slot user. The error says what to do.
func Check() error {
	if unsafeMode {
		return nil
	}
	bwrapOnce.Do(func() {
		closeInherited()
		bwrapPath, bwrapErr = probe()
	})
	return bwrapErr
}

// Advice is what to do when no sandbox can be created.
const Advice = `install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap, or scripts/install.sh --grader) ` +
	`and allow user namespaces (sysctl user.max_user_namespaces > 0, kernel.unprivileged_userns_clone=1 ` +
	`where it exists; in a container: docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined); ` +
	`or pass -unsandboxed to grade without a sandbox, which the gradebook and every feedback file then say`
