package sandbox

import (
	"encoding/binary"
	"fmt"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp filter of learner runs, a classic BPF program as bwrap's
// --seccomp reads it (struct sock_filter, native byte order). It allows
// every system call except those that make a new process or leave the
// sandbox's namespaces; clone is allowed only with CLONE_THREAD (the Go
// runtime's new threads), and clone3 answers ENOSYS, so that libraries
// fall back to clone.

// Offsets in struct seccomp_data.
const offNr, offArch, offArg0 = 0, 4, 16

// noForkFilter assembles the filter for this architecture (archAudit,
// deniedCalls, sysClone, sysClone3 and x32Bit come from seccomp_GOARCH.go)
// into the bytes bwrap reads.
func noForkFilter() ([]byte, error) {
	prog, err := noForkProgram()
	if err != nil {
		return nil, err
	}
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return nil, fmt.Errorf("sandbox: assembling the seccomp filter: %w", err)
	}
	out := make([]byte, 0, 8*len(raw))
	for _, r := range raw {
		out = binary.NativeEndian.AppendUint16(out, r.Op)
		out = append(out, r.Jt, r.Jf)
		out = binary.NativeEndian.AppendUint32(out, r.K)
	}
	return out, nil
}

// noForkProgram is the filter as instructions.
func noForkProgram() ([]bpf.Instruction, error) {
	if archAudit == 0 {
		return nil, fmt.Errorf("sandbox: no seccomp filter for this architecture; run with -unsandboxed")
	}
	load := func(off uint32) bpf.Instruction { return bpf.LoadAbsolute{Off: off, Size: 4} }
	ret := func(v uint32) bpf.Instruction { return bpf.RetConstant{Val: v} }
	denied := deniedCalls()
	// Layout: [check arch] [load nr] [x32?] [denied…] [clone3] [clone] [load arg0] [jset] ALLOW DENY ENOSYS
	p := []bpf.Instruction{
		load(offArch),
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: archAudit, SkipTrue: 1},
		ret(unix.SECCOMP_RET_KILL_PROCESS),
		load(offNr),
	}
	tail := len(denied) + 4 // instructions from the first denied check to ALLOW
	if x32Bit != 0 {
		tail++
	}
	// jump is the skip from the instruction about to be appended to the
	// label at position label (counted from the first check).
	first := len(p)
	jump := func(label int) uint8 { return uint8(first + label - (len(p) + 1)) }
	allow, deny, nosys := tail, tail+1, tail+2
	if x32Bit != 0 {
		p = append(p, bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: x32Bit, SkipTrue: jump(deny)})
	}
	for _, nr := range denied {
		p = append(p, bpf.JumpIf{Cond: bpf.JumpEqual, Val: nr, SkipTrue: jump(deny)})
	}
	p = append(p, bpf.JumpIf{Cond: bpf.JumpEqual, Val: sysClone3, SkipTrue: jump(nosys)})
	p = append(p, bpf.JumpIf{Cond: bpf.JumpEqual, Val: sysClone, SkipFalse: jump(allow)})
	p = append(p, load(offArg0))
	p = append(p, bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: unix.CLONE_THREAD, SkipTrue: jump(allow), SkipFalse: jump(deny)})
	if len(p)-first != allow {
		return nil, fmt.Errorf("sandbox: seccomp program layout is off (%d != %d)", len(p)-first, allow)
	}
	return append(p,
		ret(unix.SECCOMP_RET_ALLOW),
		ret(unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM)),
		ret(unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))), nil
}
