package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/attention-in-go/course/internal/proctree"
	"github.com/attention-in-go/course/lib/backend"
)

var kernelsCommand = &command{
	name:    "kernels",
	args:    "[-others] [COMMAND [ARG...]]",
	summary: "list the kernel classes this machine can run, or run a command under each",
	help: `
Kernels lists the classes of GoMLX compute kernels a course program can
run with on this machine, the fastest first, each with the environment
that selects it:

  AVX-512
  AVX2      GOMLX_SIMD_AVX512=false
  plain Go  GOMLX_SIMD_AVX512=false GOMLX_SIMD_AVX2=false

Each class sums in its own order, so a training's last digits depend on
it; a machine with AVX-512 runs, bit for bit, what an AVX2 laptop and a
CPU without AVX2 run (lib/backend.Classes). A switch already off in the
environment leaves its class out, as on a CPU without those kernels.
Course programs are built with GOEXPERIMENT=simd, which the Makefile
sets.

Given a command, kernels runs it once per class, in that order, with the
class's environment (replacing any GOMLX_SIMD_ variable of its own), and
fails as soon as one run fails. -others leaves out the first, fastest
class. make test-go runs the library's tests this way:

  go run ./cmd/course kernels -others go test -short ./lib/...
`,
	run: runKernels,
}

func runKernels(e *env, fs *flag.FlagSet, args []string) error {
	others := fs.Bool("others", false, "leave out the first, fastest class")
	if err := e.parseFlags(fs, args); err != nil {
		return err
	}
	classes := backend.Classes()
	if *others {
		classes = classes[1:]
	}
	if fs.NArg() == 0 {
		for _, c := range classes {
			fmt.Fprintf(e.stdout, "%-9s %s\n", c.Name, strings.Join(c.Env, " "))
		}
		return nil
	}
	if len(classes) == 0 {
		fmt.Fprintf(e.stdout, "==> this machine runs only the %s kernels (in this environment): no other class to run %s under\n", backend.Classes()[0].Name, fs.Arg(0))
	}
	for _, c := range classes {
		fmt.Fprintf(e.stdout, "==> kernels %s: %s\n", c.Name, strings.Join(append(slices.Clone(c.Env), fs.Args()...), " "))
		cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
		cmd.Dir = e.dir
		cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOMLX_SIMD_") }), c.Env...)
		cmd.Stdout, cmd.Stderr = e.stdout, e.stderr
		if err := proctree.Run(e.ctx, cmd); err != nil {
			fmt.Fprintf(e.stdout, "kernels %s: %v\n", c.Name, err)
			return errFailed
		}
	}
	return nil
}
