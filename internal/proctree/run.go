//go:build unix

package proctree

import (
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// Run's grace periods when stopping a command, such as nbconvert: how long
// it gets to finish after its descendants (nbconvert's kernel) are
// interrupted, and how long processes get to exit after SIGTERM before
// SIGKILL.
const (
	InterruptGrace = 10 * time.Second
	KillGrace      = 5 * time.Second
)

// Run runs cmd in its own process group and waits for it. When ctx is
// done it stops cmd and its descendants, including those that left the
// group (Jupyter starts each kernel in a session of its own, and a GoNB
// kernel whose nbconvert dies keeps running):
//
//  1. The descendants (the kernel and its children) get SIGINT, like
//     Jupyter's "Interrupt kernel": the running cell stops with "signal:
//     interrupt", and nbconvert usually finishes and writes the notebook,
//     which then shows the cell that was running.
//  2. If nbconvert is still running after InterruptGrace, everyone gets
//     SIGTERM (GoNB then stops gopls and the cell's program and removes its
//     temporary files), and what is left SIGKILL after KillGrace
//     ([Stop]). If nbconvert exited, what is left of the kernel is
//     stopped the same way.
//
// Run returns at most KillGrace after cmd exits even if a process it left
// behind still holds its stderr.
func Run(ctx context.Context, cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = KillGrace
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- ignoreWaitDelay(cmd.Wait()) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	pid := cmd.Process.Pid
	kernel := Descendants(pid)
	for _, p := range kernel {
		_ = syscall.Kill(p, syscall.SIGINT)
	}
	select {
	case err := <-done:
		// nbconvert shuts its kernel down as it exits: stop what is left.
		Stop(kernel, pid, KillGrace)
		return err
	case <-time.After(InterruptGrace):
	}
	Stop(append(append(kernel, Descendants(pid)...), pid), pid, KillGrace)
	return <-done
}

// ignoreWaitDelay turns exec.ErrWaitDelay, which reports a successful exit
// whose output was cut short by WaitDelay, into success.
func ignoreWaitDelay(err error) error {
	if errors.Is(err, exec.ErrWaitDelay) {
		return nil
	}
	return err
}
