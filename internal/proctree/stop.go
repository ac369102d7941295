//go:build unix

package proctree

import (
	"os"
	"slices"
	"syscall"
	"time"
)

// killWait is how long Stop waits for the processes it killed to be gone.
const killWait = 2 * time.Second

// Stop stops the processes pids, every process descended from them, and
// the process group pgid if it is not 0 (and not the caller's own), in
// three steps:
//
//  1. SIGTERM to pids and the group, so that a server can shut its own
//     children down (a Jupyter server its kernels) and GoNB can remove its
//     temporary files;
//  2. after half of grace, SIGTERM to every process of the tree still
//     running;
//  3. after grace, SIGKILL to what is left, repeated for up to two
//     seconds until it is gone.
//
// While it waits, Stop reads the descendants of the tree again, so that a
// process started in the meantime is stopped too, even one that left the
// group. The caller's own process is never signalled. Stop returns every
// process of the tree it found, so that callers can check with [Alive] that
// none is left; where there is no /proc, that is pids alone.
func Stop(pids []int, pgid int, grace time.Duration) []int {
	var roots []int
	for _, p := range pids {
		if p > 0 && p != os.Getpid() && !slices.Contains(roots, p) {
			roots = append(roots, p)
		}
	}
	if len(roots) == 0 {
		return nil
	}
	tree := append(slices.Clone(roots), Descendants(roots...)...)
	ownGroup := pgid > 0 && pgid != syscall.Getpgrp()
	signal := func(pids []int, sig syscall.Signal) {
		if ownGroup {
			_ = syscall.Kill(-pgid, sig)
		}
		for _, p := range pids {
			if p != os.Getpid() {
				_ = syscall.Kill(p, sig)
			}
		}
	}
	// waitGone waits up to d for the tree to exit, adding the processes
	// started meanwhile; it reports whether all are gone.
	waitGone := func(d time.Duration) bool {
		for deadline := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
			for _, p := range Descendants(tree...) {
				if !slices.Contains(tree, p) {
					tree = append(tree, p)
				}
			}
			if len(Alive(tree)) == 0 {
				return true
			}
			if time.Now().After(deadline) {
				return false
			}
		}
	}
	signal(Alive(roots), syscall.SIGTERM)
	if waitGone(grace / 2) {
		return tree
	}
	signal(Alive(tree), syscall.SIGTERM)
	if waitGone(grace - grace/2) {
		return tree
	}
	// SIGKILL again while waiting, for a process started just before.
	for deadline := time.Now().Add(killWait); ; {
		signal(Alive(tree), syscall.SIGKILL)
		if waitGone(100*time.Millisecond) || time.Now().After(deadline) {
			return tree
		}
	}
}
