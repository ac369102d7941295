package gpt

import (
	"os"
	"testing"
)

// TestMain runs the package's tests and benchmarks with the pure-Go
// backend executing one op at a time (GOMLX_BACKEND=go:ops_sequential,
// unless GOMLX_BACKEND is set): with ops in parallel, GoMLX's compute
// v0.1.6 can deadlock when as many large matrix products as its worker
// pool has slots start at once, each waiting for a free worker (see
// SequentialBackend).
func TestMain(m *testing.M) {
	if _, ok := os.LookupEnv("GOMLX_BACKEND"); !ok {
		os.Setenv("GOMLX_BACKEND", SequentialBackend)
	}
	os.Exit(m.Run())
}
