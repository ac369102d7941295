package sandbox

import "golang.org/x/sys/unix"

const (
	archAudit = unix.AUDIT_ARCH_X86_64
	x32Bit    = 0x40000000 // __X32_SYSCALL_BIT: the x32 ABI is refused whole
	sysClone  = unix.SYS_CLONE
	sysClone3 = unix.SYS_CLONE3
)

func deniedCalls() []uint32 {
	return []uint32{unix.SYS_FORK, unix.SYS_VFORK, unix.SYS_UNSHARE, unix.SYS_SETNS,
		unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT,
		unix.SYS_PTRACE, unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
		unix.SYS_PERF_EVENT_OPEN, unix.SYS_BPF, unix.SYS_USERFAULTFD, unix.SYS_IO_URING_SETUP,
		unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV}
}
