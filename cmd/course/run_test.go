package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/backend"
)

func TestOutputDirRefusesNotebookFolder(t *testing.T) {
	dir := t.TempDir()
	e := &env{dir: dir}
	_, _, err := outputDir(e, ".", []string{filepath.Join(dir, "x.ipynb")})
	var uerr *usageError
	if !errors.As(err, &uerr) || !strings.Contains(err.Error(), "would overwrite") {
		t.Errorf("outputDir(-keep .) error = %v, want a usage error about overwriting", err)
	}
}

func TestKernelClasses(t *testing.T) {
	here := backend.Classes()
	for _, tt := range []struct {
		flag string
		want []backend.Class
		err  string
	}{
		{"", nil, ""},
		{"all", here, ""},
		{"others", here[1:], ""},
		{"plain", here[len(here)-1:], ""},
		{"Plain Go, plain", here[len(here)-1:], ""},
		{"AVX-1024", nil, "not a kernel class"},
	} {
		got, err := kernelClasses(tt.flag)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("kernelClasses(%q) = %v, %v; want %v, %q", tt.flag, got, err, tt.want, tt.err)
		}
	}
	cpu := backend.CPUClasses()
	if cpu[0].Name != backend.AVX512 {
		if _, err := kernelClasses("AVX-512"); err == nil || !strings.Contains(err.Error(), "cannot run the AVX-512 kernels") {
			t.Errorf("kernelClasses(AVX-512) on a CPU without it: %v", err)
		}
	}
	// A switch off in the environment leaves its class out of "all", but a
	// class named on purpose still runs (with its own switches).
	if i := slices.IndexFunc(cpu, func(c backend.Class) bool { return c.Name == backend.AVX2 }); i >= 0 {
		t.Setenv("GOMLX_SIMD_AVX2", "false")
		all, err := kernelClasses("all")
		if err != nil || slices.ContainsFunc(all, func(c backend.Class) bool { return c.Name == backend.AVX2 }) {
			t.Errorf("with GOMLX_SIMD_AVX2=false, kernelClasses(all) = %v, %v", all, err)
		}
		if got, err := kernelClasses("AVX2"); err != nil || fmt.Sprint(got) != fmt.Sprint(cpu[i:i+1]) {
			t.Errorf("with GOMLX_SIMD_AVX2=false, kernelClasses(AVX2) = %v, %v; want %v", got, err, cpu[i:i+1])
		}
	}
}
