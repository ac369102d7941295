package sandbox

import (
	"encoding/binary"
	"fmt"
)

// The seccomp filter of learner runs, a classic BPF program as bwrap's
// --seccomp reads it (struct sock_filter, native byte order). It allows
// every system call except those that make a new process or leave the
// sandbox's namespaces; clone is allowed only with CLONE_THREAD (the Go
// runtime's new threads), and clone3 answers ENOSYS, so that libraries
// fall back to clone.

// sockFilter is struct sock_filter.
type sockFilter struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

const (
	bpfLdAbsW = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeqK   = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJgeK   = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfJsetK  = 0x45 // BPF_JMP | BPF_JSET | BPF_K
	bpfRetK   = 0x06 // BPF_RET | BPF_K

	retAllow       = 0x7fff0000 // SECCOMP_RET_ALLOW
	retErrno       = 0x00050000 // SECCOMP_RET_ERRNO | errno
	retKillProcess = 0x80000000 // SECCOMP_RET_KILL_PROCESS
	eperm, enosys  = 1, 38

	offNr, offArch, offArg0 = 0, 4, 16 // in struct seccomp_data
	cloneThread             = 0x00010000
)

// noForkFilter assembles the filter for this architecture (archAudit,
// deniedCalls, sysClone, sysClone3 and x32Bit come from seccomp_GOARCH.go).
func noForkFilter() ([]byte, error) {
	if archAudit == 0 {
		return nil, fmt.Errorf("sandbox: no seccomp filter for this architecture; run with -unsandboxed")
	}
	denied := deniedCalls()
	// Layout: [check arch] [load nr] [x32?] [denied…] [clone3] [clone] [load arg0] [jset] ALLOW DENY ENOSYS
	var p []sockFilter
	p = append(p,
		sockFilter{bpfLdAbsW, 0, 0, offArch},
		sockFilter{bpfJeqK, 1, 0, archAudit},
		sockFilter{bpfRetK, 0, 0, retKillProcess},
		sockFilter{bpfLdAbsW, 0, 0, offNr})
	tail := len(denied) + 4 // instructions from the first denied check to ALLOW
	if x32Bit != 0 {
		tail++
	}
	// jump computes the offset from the instruction about to be appended
	// to the label at position label (counted from the first check).
	first := len(p)
	jump := func(label int) uint8 { return uint8(first + label - (len(p) + 1)) }
	allow, deny, nosys := tail, tail+1, tail+2
	if x32Bit != 0 {
		p = append(p, sockFilter{bpfJgeK, jump(deny), 0, x32Bit})
	}
	for _, nr := range denied {
		p = append(p, sockFilter{bpfJeqK, jump(deny), 0, nr})
	}
	p = append(p, sockFilter{bpfJeqK, jump(nosys), 0, sysClone3})
	p = append(p, sockFilter{bpfJeqK, 0, jump(allow), sysClone})
	p = append(p, sockFilter{bpfLdAbsW, 0, 0, offArg0})
	p = append(p, sockFilter{bpfJsetK, jump(allow), jump(deny), cloneThread})
	if len(p)-first != allow {
		return nil, fmt.Errorf("sandbox: seccomp program layout is off (%d != %d)", len(p)-first, allow)
	}
	p = append(p,
		sockFilter{bpfRetK, 0, 0, retAllow},
		sockFilter{bpfRetK, 0, 0, retErrno | eperm},
		sockFilter{bpfRetK, 0, 0, retErrno | enosys})
	out := make([]byte, 0, 8*len(p))
	for _, f := range p {
		out = binary.NativeEndian.AppendUint16(out, f.code)
		out = append(out, f.jt, f.jf)
		out = binary.NativeEndian.AppendUint32(out, f.k)
	}
	return out, nil
}
