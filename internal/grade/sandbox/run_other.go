//go:build !linux

package sandbox

import (
	"context"
	"errors"
)

// errNotLinux is why nothing runs here: bubblewrap, prlimit and seccomp
// are Linux's.
var errNotLinux = errors.New("no sandbox: the grader's sandbox (bubblewrap, prlimit, seccomp) needs Linux; " +
	"grade on a Linux machine or in the course's Docker image (docker/)")

func closeInherited() {}

func probe() (string, error) { return "", errNotLinux }

// Run fails: learner code runs only on Linux, in the sandbox or, with
// -unsandboxed, under Linux's resource limits.
func Run(ctx context.Context, c Command) Result { return Result{Err: errNotLinux} }
