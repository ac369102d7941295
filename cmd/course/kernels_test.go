package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/backend"
)

// TestKernels: the list names every class this machine runs, its own
// first; a command runs once per class with that class's switches and
// none of the parent's, and a failing run fails the command.
func TestKernels(t *testing.T) {
	classes := backend.Classes()
	code, stdout, stderr := runCourse(t, t.TempDir(), "kernels")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != exitOK || len(lines) != len(classes) {
		t.Fatalf("kernels: status %d, %q (stderr %q); want one line per class of %v", code, stdout, stderr, classes)
	}
	for i, c := range classes {
		if !strings.HasPrefix(lines[i], c.Name) || !strings.HasSuffix(strings.TrimSpace(lines[i]), strings.Join(c.Env, " ")) {
			t.Errorf("line %d = %q, want %s and its environment %q", i, lines[i], c.Name, c.Env)
		}
	}

	// A switch off in the parent makes this a machine without those
	// kernels: their class is not run, and the switch does not reach the
	// other classes' runs, each of which gets its own.
	t.Setenv("GOMLX_SIMD_AVX2", "false")
	classes = backend.Classes()
	if slices.ContainsFunc(classes, func(c backend.Class) bool { return c.Name == backend.AVX2 }) {
		t.Errorf("with GOMLX_SIMD_AVX2=false the classes are %v", classes)
	}
	code, stdout, stderr = runCourse(t, t.TempDir(), "kernels", "sh", "-c", `echo "env GOMLX_SIMD_AVX512=$GOMLX_SIMD_AVX512 GOMLX_SIMD_AVX2=$GOMLX_SIMD_AVX2"`)
	if code != exitOK {
		t.Fatalf("kernels sh: status %d, %q %q", code, stdout, stderr)
	}
	// Each run has exactly its class's switches: the parent's
	// GOMLX_SIMD_AVX2=false printed in the AVX-512 run would be a leak.
	var got, want []string
	for _, line := range strings.Split(stdout, "\n") {
		if env, ok := strings.CutPrefix(line, "env "); ok {
			got = append(got, env)
		}
	}
	for _, c := range classes {
		want = append(want, exactSwitches(c.Env))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the runs had %q, want %q:\n%s", got, want, stdout)
	}

	code, stdout, _ = runCourse(t, t.TempDir(), "kernels", "-others", "sh", "-c", "echo R\"A\"N")
	if n := strings.Count(stdout, "RAN\n"); code != exitOK || n != len(classes)-1 {
		t.Errorf("kernels -others: status %d, %d runs; want %d:\n%s", code, n, len(classes)-1, stdout)
	}
	if code, stdout, _ = runCourse(t, t.TempDir(), "kernels", "false"); code != exitFailed || !strings.Contains(stdout, "kernels "+classes[0].Name+": exit status 1") {
		t.Errorf("kernels false: status %d, %q; want a failure naming the class", code, stdout)
	}
}

// exactSwitches is what a run with exactly the switches env sets prints:
// "GOMLX_SIMD_AVX512=… GOMLX_SIMD_AVX2=…", empty where env sets none.
func exactSwitches(env []string) string {
	v := map[string]string{}
	for _, kv := range env {
		k, val, _ := strings.Cut(kv, "=")
		v[k] = val
	}
	return "GOMLX_SIMD_AVX512=" + v["GOMLX_SIMD_AVX512"] + " GOMLX_SIMD_AVX2=" + v["GOMLX_SIMD_AVX2"]
}
