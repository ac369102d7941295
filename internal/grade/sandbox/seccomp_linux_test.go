package sandbox

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// TestFilterVerdicts runs the seccomp program in x/net/bpf's virtual
// machine on the seccomp_data of each call it must judge: every denied
// call gets EPERM, clone3 ENOSYS, clone a new thread but not a new
// process, ordinary calls pass, and another architecture (or, on amd64,
// the x32 ABI) kills the process. TestWalls tries the same walls for real
// inside bwrap; this covers each call, on either architecture it is
// built for.
func TestFilterVerdicts(t *testing.T) {
	prog, err := noForkProgram()
	if err != nil {
		t.Skip(err)
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	const (
		allow  = unix.SECCOMP_RET_ALLOW
		eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
		kill   = unix.SECCOMP_RET_KILL_PROCESS
	)
	// verdict runs the filter on struct seccomp_data {nr, arch, ip, args}.
	// The VM loads words big-endian, the kernel in native order: the data
	// is written big-endian so that the VM sees the values the kernel would.
	verdict := func(nr, arch uint32, arg0 uint64) uint32 {
		data := make([]byte, 64)
		binary.BigEndian.PutUint32(data[offNr:], nr)
		binary.BigEndian.PutUint32(data[offArch:], arch)
		binary.BigEndian.PutUint32(data[offArg0:], uint32(arg0)) // the low word, as the filter loads it
		v, err := vm.Run(data)
		if err != nil {
			t.Fatal(err)
		}
		return uint32(v)
	}
	cases := []struct {
		name string
		nr   uint32
		arg0 uint64
		want uint32
	}{
		{"read", unix.SYS_READ, 0, allow},
		{"openat", unix.SYS_OPENAT, 0, allow},
		{"execve", unix.SYS_EXECVE, 0, allow},
		{"clone3", unix.SYS_CLONE3, 0, enosys},
		{"clone of a thread", unix.SYS_CLONE, unix.CLONE_VM | unix.CLONE_FS | unix.CLONE_FILES | unix.CLONE_SIGHAND | unix.CLONE_THREAD, allow},
		{"clone of a process", unix.SYS_CLONE, uint64(unix.SIGCHLD), eperm},
		{"clone of a process sharing memory", unix.SYS_CLONE, unix.CLONE_VM | unix.CLONE_VFORK | uint64(unix.SIGCHLD), eperm},
	}
	for _, nr := range deniedCalls() {
		cases = append(cases, struct {
			name string
			nr   uint32
			arg0 uint64
			want uint32
		}{"denied call", nr, 0, eperm})
	}
	for _, c := range cases {
		if got := verdict(c.nr, archAudit, c.arg0); got != c.want {
			t.Errorf("%s (nr %d, arg0 %#x): verdict %#x, want %#x", c.name, c.nr, c.arg0, got, c.want)
		}
	}
	for _, arch := range []uint32{unix.AUDIT_ARCH_I386, unix.AUDIT_ARCH_X86_64, unix.AUDIT_ARCH_AARCH64, unix.AUDIT_ARCH_ARM} {
		if arch == archAudit {
			continue
		}
		if got := verdict(unix.SYS_READ, arch, 0); got != kill {
			t.Errorf("read under audit arch %#x: verdict %#x, want the process killed (%#x)", arch, got, kill)
		}
	}
	if x32Bit != 0 {
		if got := verdict(x32Bit|unix.SYS_READ, archAudit, 0); got != eperm {
			t.Errorf("x32 read: verdict %#x, want EPERM (%#x)", got, eperm)
		}
	}
	// The calls that leave the sandbox's namespaces or reach into another
	// process, named here independently of deniedCalls.
	for _, nr := range []uint32{unix.SYS_UNSHARE, unix.SYS_SETNS, unix.SYS_MOUNT, unix.SYS_UMOUNT2,
		unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT, unix.SYS_PTRACE, unix.SYS_BPF, unix.SYS_USERFAULTFD,
		unix.SYS_IO_URING_SETUP, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
		unix.SYS_KEYCTL, unix.SYS_PERF_EVENT_OPEN} {
		if got := verdict(nr, archAudit, 0); got != eperm {
			t.Errorf("call %d: verdict %#x, want EPERM (%#x)", nr, got, eperm)
		}
	}
}
