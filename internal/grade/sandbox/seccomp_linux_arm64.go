package sandbox

import "syscall"

const (
	archAudit = 0xc00000b7 // AUDIT_ARCH_AARCH64
	x32Bit    = 0
	sysClone  = syscall.SYS_CLONE
	sysClone3 = 435
)

// arm64 has no fork or vfork system calls: processes come from clone.
func deniedCalls() []uint32 {
	return []uint32{syscall.SYS_UNSHARE, syscall.SYS_SETNS, syscall.SYS_MOUNT, syscall.SYS_UMOUNT2,
		syscall.SYS_PIVOT_ROOT, syscall.SYS_CHROOT, syscall.SYS_PTRACE, syscall.SYS_KEYCTL,
		syscall.SYS_ADD_KEY, syscall.SYS_REQUEST_KEY, syscall.SYS_PERF_EVENT_OPEN, 280, /* bpf */
		282 /* userfaultfd */, 425 /* io_uring_setup */, 270 /* process_vm_readv */, 271 /* process_vm_writev */}
}
