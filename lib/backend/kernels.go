package backend

import (
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/gomlx/compute/support/envutil"
	"golang.org/x/sys/cpu"
)

// MatMulKernels names the matrix-product kernels of this program's pure-Go
// backend: "AVX-512" or "AVX2" when the program was built with Go's simd
// experiment (GOEXPERIMENT=simd) and runs on an amd64 CPU that has them,
// "plain Go" otherwise. GOMLX_SIMD_AVX512=false and GOMLX_SIMD_AVX2=false
// turn a kind off, as they do in GoMLX's compute module.
//
// compute makes this choice when the program starts and does not export
// it; MatMulKernels repeats its rule (CPU features, then the variables),
// and lib/backend's tests check the two agree by watching which kernel
// compute reports using.
//
// The course builds with the experiment (the Makefile, the notebooks'
// setup cell and the grader set GOEXPERIMENT=simd; internal/lesson.GoExperiment
// in the course's tooling says why).
//
// Introduced in lesson 10.
func MatMulKernels() string {
	if runtime.GOARCH != "amd64" || !builtWithSIMD() {
		return "plain Go"
	}
	avx512 := cpu.X86.HasAVX512F && cpu.X86.HasAVX512CD && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL
	switch {
	case avx512 && envAllows(envutil.SIMD_AVX512_Env):
		return "AVX-512"
	case cpu.X86.HasAVX2 && envAllows(envutil.SIMD_AVX2_Env):
		return "AVX2"
	}
	return "plain Go"
}

// builtWithSIMD reports whether the program was built with
// GOEXPERIMENT=simd, from the build settings the go command records.
func builtWithSIMD() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "GOEXPERIMENT" {
			return slices.Contains(strings.Split(s.Value, ","), "simd")
		}
	}
	return false
}

// envAllows reads a kernel switch with compute's own reader: unset leaves
// the kernel on (compute stops the program on a value that is neither true
// nor false, so such a value is never seen running).
func envAllows(name string) bool {
	on, err := envutil.ReadBool(name, true)
	return on || err != nil
}
