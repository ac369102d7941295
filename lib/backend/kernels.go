package backend

import (
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/gomlx/compute/support/envutil"
	"golang.org/x/sys/cpu"
)

// The kernel classes: which of GoMLX compute's matrix kernels a program
// multiplies with, as [MatMulKernels] and [Class] name them. Each sums in
// its own order, so a training's last digits depend on the class.
const (
	AVX512 = "AVX-512"  // 16-lane kernels (and the course's own AVX-512 ones in third_party/compute)
	AVX2   = "AVX2"     // compute's 8-lane matrix kernels
	Plain  = "plain Go" // CPUs without AVX2, builds without GOEXPERIMENT=simd, arm64: Go loops, and on amd64 the course's SSE2 float32 products
)

// Class is a set of kernels a course program can run with on this
// machine: its name ([AVX512], [AVX2] or [Plain]) and the environment that
// selects it — GoMLX's own switches, GOMLX_SIMD_AVX512=false and
// GOMLX_SIMD_AVX2=false, which turn the faster kernels off. With them a
// machine runs, bit for bit, what a CPU without those kernels runs: an
// AVX-512 machine emulates an AVX2 laptop and a CPU without AVX2.
//
// Part of the library behind lesson 06 (why trained figures are ranges);
// the lesson does not name it.
type Class struct {
	Name string
	Env  []string // NAME=value pairs, empty for the CPU's best class
}

// Classes returns the kernel classes a course program can run with on
// this machine in this environment, the fastest first, then each one it
// can emulate.
// Course programs are built with GOEXPERIMENT=simd (the Makefile, the
// notebooks' setup cell and the grader set it), so on an amd64 CPU with
// AVX-512 that is AVX-512, AVX2 and plain Go; with AVX2, AVX2 and plain
// Go; elsewhere plain Go alone. The test targets run the kernel-sensitive
// tests and the trained lessons once per class (`course kernels`).
//
// A switch already off in this program's environment makes the machine
// one without those kernels ([CPUClasses] lists them whatever the
// environment says): with GOMLX_SIMD_AVX512=false and
// GOMLX_SIMD_AVX2=false, an AVX-512 machine's classes are plain Go alone,
// as a CPU without AVX2 has them, and `make test` then runs the course's
// tests and notebooks under the classes such a CPU has. A class's Env
// selects it once the GOMLX_SIMD_ variables of the environment it is
// added to are removed, as the runner does.
//
// Part of the library behind lesson 06; the lesson does not name it.
func Classes() []Class {
	return classesIn(os.Environ())
}

// classesIn returns [Classes] for a program whose environment is env.
func classesIn(env []string) []Class {
	var cs []Class
	for _, c := range CPUClasses() {
		if allows(env, c.Name) {
			cs = append(cs, c)
		}
	}
	return cs
}

// CPUClasses returns the kernel classes of the CPU, whatever this
// program's environment says: its own (fastest) first, then the ones it
// emulates, each with the environment that selects it. A class named on
// purpose (`course run -kernels AVX2`) is looked up here: its runs replace
// the environment's switches.
//
// Part of the library behind lesson 06; the lesson does not name it.
func CPUClasses() []Class {
	off512 := envutil.SIMD_AVX512_Env + "=false"
	off2 := envutil.SIMD_AVX2_Env + "=false"
	var cs []Class
	if runtime.GOARCH == "amd64" && hasAVX512() {
		cs = append(cs, Class{Name: AVX512})
	}
	// compute's AVX2 kernels multiply-add (VFMADD): AVX2 without FMA, which a
	// few CPUs have, keeps the plain kernels.
	if runtime.GOARCH == "amd64" && cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		c := Class{Name: AVX2}
		if len(cs) > 0 {
			c.Env = []string{off512}
		}
		cs = append(cs, c)
	}
	c := Class{Name: Plain}
	if len(cs) > 0 {
		c.Env = []string{off512, off2}
	}
	return append(cs, c)
}

// MatMulKernels names the matrix-product kernels of this program's pure-Go
// backend: [AVX512] or [AVX2] when the program was built with Go's simd
// experiment (GOEXPERIMENT=simd) and runs on an amd64 CPU that has them,
// [Plain] otherwise. GOMLX_SIMD_AVX512=false and GOMLX_SIMD_AVX2=false
// turn a kind off, as they do in GoMLX's compute module.
//
// compute makes this choice when the program starts and does not export
// it; MatMulKernels repeats its rule (CPU features, then the variables),
// and lib/backend's tests check the two agree by reading which kernel
// compute reports using, under every class of [Classes].
//
// The course builds with the experiment (the Makefile, the notebooks'
// setup cell and the grader set GOEXPERIMENT=simd; internal/lesson.GoExperiment
// in the course's tooling says why).
//
// Introduced in lesson 06.
func MatMulKernels() string {
	if !builtWithSIMD() {
		return Plain
	}
	return KernelsWith(os.Environ())
}

// KernelsWith names the kernels a course program, built with
// GOEXPERIMENT=simd, uses on this machine when started with the
// environment env (NAME=value pairs, as [os.Environ] gives): the fastest
// class the CPU has that env's GOMLX_SIMD_AVX512 and GOMLX_SIMD_AVX2
// allow. Tools that start course programs (the notebook runner) use it to
// say which kernels a run used.
//
// Part of the library behind lesson 06; the lesson does not name it.
func KernelsWith(env []string) string {
	for _, c := range CPUClasses() {
		if allows(env, c.Name) {
			return c.Name
		}
	}
	return Plain
}

// allows reports whether env leaves on the kernels of class name (its own
// switch is not off). KernelsWith asks the classes fastest first, so the
// first one allowed is the one compute picks.
func allows(env []string, name string) bool {
	on := func(v string) bool { return envOn(env, v) }
	switch name {
	case AVX512:
		return on(envutil.SIMD_AVX512_Env)
	case AVX2:
		return on(envutil.SIMD_AVX2_Env)
	}
	return true
}

// envOn reads a kernel switch as compute's envutil.ReadBool does: only
// one of its false values turns the kernel off (unset leaves it on; on a
// value that is neither true nor false compute stops the program, so that
// is never seen running).
func envOn(env []string, name string) bool {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val // the last one wins, as in os/exec
		}
	}
	return !envutil.FalseValues.Has(strings.ToLower(v))
}

// hasAVX512 reports whether the CPU has the AVX-512 subsets compute's
// kernels need (its archsimd.X86.AVX512 test).
func hasAVX512() bool {
	return cpu.X86.HasAVX512F && cpu.X86.HasAVX512CD && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL
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
