package sandbox

import "syscall"

const (
	archAudit = 0xc000003e // AUDIT_ARCH_X86_64
	x32Bit    = 0x40000000 // __X32_SYSCALL_BIT: the x32 ABI is refused whole
	sysClone  = syscall.SYS_CLONE
	sysClone3 = 435
)

func deniedCalls() []uint32 {
	return []uint32{syscall.SYS_FORK, syscall.SYS_VFORK, syscall.SYS_UNSHARE, 308, /* setns */
		syscall.SYS_MOUNT, syscall.SYS_UMOUNT2, syscall.SYS_PIVOT_ROOT, syscall.SYS_CHROOT,
		syscall.SYS_PTRACE, syscall.SYS_KEYCTL, syscall.SYS_ADD_KEY, syscall.SYS_REQUEST_KEY,
		syscall.SYS_PERF_EVENT_OPEN, 321 /* bpf */, 323 /* userfaultfd */, 425, /* io_uring_setup */
		310 /* process_vm_readv */, 311 /* process_vm_writev */}
}
