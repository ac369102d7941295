//go:build !linux

package main

// stopWithParent does nothing: only Linux lets a process ask for a signal
// when its parent dies. Elsewhere a SIGTERM that reaches `go run` alone
// leaves the course command running.
func stopWithParent() {}
