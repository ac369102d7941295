package browser

import "syscall"

// setParentDeathSignal makes the kernel send SIGTERM to the child when the
// thread that started it exits: if a test binary is killed, its Jupyter
// server still shuts its kernels down.
func setParentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }
