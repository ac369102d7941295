package main

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// stopWithParent asks Linux to send this process SIGTERM when the process
// that started it dies, which main's signal handling then treats as a
// request to stop. The Makefile starts the course command with `go run`,
// which dies on SIGTERM (a CI timeout, `timeout`, an editor's stop button)
// without passing it on: the runner then went on with every notebook left,
// orphaned. A parent already gone by the time this runs counts too.
func stopWithParent() {
	ppid := os.Getppid()
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0); err != nil {
		return // not fatal: only a parent's death goes unnoticed
	}
	if os.Getppid() != ppid {
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	}
}
