// Package backend gives every lesson, exercise and test of the course one
// shared GoMLX compute backend.
//
// The course runs on GoMLX's pure-Go backend ("go"), which needs no C
// libraries, no GPU and no network. Setting the environment variable
// GOMLX_BACKEND selects another registered backend (for example "go" with
// options); only the backends compiled into the program can be chosen, and the
// course compiles in the pure-Go one. It deliberately does not import
// github.com/gomlx/gomlx/backends/default: that package pulls in XLA, which
// tries to download its plugin at start and fails offline.
//
// Course programs run with GODEBUG=asyncpreemptoff=1 (the Makefile and the
// notebooks' setup cell set it; a program cannot set it for itself). In a
// build with GOEXPERIMENT=simd, Go's asynchronous preemption leaves the
// upper halves of the vector registers in use, and on Intel CPUs every
// later switch between SSE and AVX instructions then pays a penalty:
// math.Exp, which switches a dozen times a call, went from 6 ns to over
// 600 ns on the course's Xeon, and lesson 11's attentions in Go became ten
// times slower. The backend itself cleans the state after each operation
// (third_party/compute, package avxstate).
//
// Part of the library behind lesson 01 (scaled dot-product attention); the lesson does not import it.
package backend

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // the pure-Go backend, registered as "go"
)

var (
	once    sync.Once
	shared  compute.Backend
	initErr error
)

// Default returns the backend shared by the whole process, creating it on the
// first call. It honours GOMLX_BACKEND; without it the pure-Go backend is used,
// with the schedule [Config] chooses.
//
// It panics with an explanation when the configured backend cannot be created,
// because nothing in the course can run without one. Use New to get the error.
func Default() compute.Backend {
	once.Do(func() { shared, initErr = New() })
	if initErr != nil {
		panic(initErr)
	}
	return shared
}

// New creates a fresh backend, honouring GOMLX_BACKEND (without it, the
// pure-Go backend with the schedule [Config] chooses), and explains a failure
// in terms of what to change.
func New() (b compute.Backend, err error) {
	defer func() {
		// compute.NewWithConfig panics on an unknown backend name.
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
		if err != nil {
			err = fmt.Errorf("creating the GoMLX backend failed (GOMLX_BACKEND=%q; this program has only the backends %q: unset GOMLX_BACKEND or set it to \"go\"): %w",
				os.Getenv(compute.ConfigEnvVar), compute.List(), err)
		}
	}()
	if _, set := os.LookupEnv(compute.ConfigEnvVar); !set {
		return compute.NewWithConfig(Config())
	}
	return compute.New()
}

// DefaultConfig is the backend used when GOMLX_BACKEND is not set and
// the program is built with the course's copy of GoMLX's compute module
// (see [Config]): the pure-Go backend with its own schedule. A graph that
// runs alone has its independent operations run at the same time on a pool
// of workers; while other graphs run (two trainings side by side), its
// operations run one after the other. Each large matrix product uses every
// core either way.
//
// The course ran everything one operation at a time ([SequentialConfig])
// until its backend's kernels got faster: in GoMLX compute v0.1.6 the
// parallel schedule could deadlock (a matrix product that splits itself
// over the pool waited for a free worker while holding one; lesson 09's
// Transformer stopped that way), which the course's copy of compute
// (third_party/compute, patch 0001 of third_party/patches) fixes. On the
// course's two cores, with the vector kernels, the backend's schedule
// trains lesson 09's Transformer and lesson 10's GPT about a third faster
// and costs lessons 06 and 07, whose small models train side by side, a
// few seconds; the results are the same bit for bit. See
// docs/PERFORMANCE.md.
//
// Introduced in lesson 09.
const DefaultConfig = "go"

// SequentialConfig is the backend used when GOMLX_BACKEND is not set and
// the program is built against GoMLX's own release of compute (see
// [Config]): the pure-Go backend running a graph's operations one after
// the other, which cannot deadlock in the release's worker pool. Each
// large matrix product still uses every core; the results are those of
// [DefaultConfig] bit for bit, only slower for graphs with independent
// large products.
const SequentialConfig = "go:ops_sequential"

// computeModule is the module path of GoMLX's compute, which the course's
// go.mod replaces with its copy, third_party/compute.
const computeModule = "github.com/gomlx/compute"

// Config returns the backend configuration [New] and [Default] use when
// GOMLX_BACKEND is not set: [DefaultConfig] when the program was built
// with a replacement of github.com/gomlx/compute (the course's go.mod
// replaces it with third_party/compute, whose worker pool cannot
// deadlock), and [SequentialConfig] when it was built against compute's
// own release — go.mod without the replace, or a module of its own that
// requires the course's packages (a replace applies only in the main
// module). So correctness never depends on the patch; only the speed of
// graphs with independent large products does.
//
// Config reads the module information the go command records in a program
// (runtime/debug.ReadBuildInfo). A test binary records no dependencies
// (golang/go#76926), nor does a program built from files named on the
// command line; there Config looks at where compute's code was compiled
// from: a file of the module cache's release (a path with
// "github.com/gomlx/compute@") or not.
//
// Part of the library behind lesson 09; the lesson does not name it.
func Config() string {
	info, ok := debug.ReadBuildInfo()
	return configFor(info, ok, computeSource())
}

// configFor is Config's choice for the build information info (ok as
// debug.ReadBuildInfo returns it) and source, the file one of compute's
// functions was compiled from.
func configFor(info *debug.BuildInfo, ok bool, source string) string {
	if ok && info != nil {
		if m := dependency(info, computeModule); m != nil {
			if m.Replace != nil {
				return DefaultConfig
			}
			return SequentialConfig
		}
	}
	if source != "" && !strings.Contains(filepath.ToSlash(source), computeModule+"@") {
		return DefaultConfig
	}
	return SequentialConfig
}

// dependency returns the module path among info's dependencies, or nil.
func dependency(info *debug.BuildInfo, path string) *debug.Module {
	for _, m := range info.Deps {
		if m.Path == path {
			return m
		}
	}
	return nil
}

// computeSource returns the source file of compute.New as the program
// records it (-trimpath keeps the module path and version), or "".
func computeSource() string {
	f := runtime.FuncForPC(reflect.ValueOf(compute.New).Pointer())
	if f == nil {
		return ""
	}
	file, _ := f.FileLine(f.Entry())
	return file
}
