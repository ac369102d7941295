//go:build !unix

package proctree

import (
	"context"
	"os/exec"
)

// Run runs cmd and waits for it, killing it when ctx is done. Unlike on
// Unix, the processes it started, such as nbconvert's kernel, may survive.
func Run(ctx context.Context, cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		return <-done
	}
}
