// Command course builds, runs and checks the course's notebooks.
//
// Each lesson has a single source, lessons/NN-slug.md: prose in Markdown and
// code in ```go blocks. The notebooks in notebooks/ are built from those
// sources and committed, so that they open straight from a clone. To change
// a lesson, edit its .md file, run `make notebooks` (go run ./cmd/course
// build) and commit both files.
//
// Usage:
//
//	go run ./cmd/course <command> [flags] [arguments]
//
// The commands are:
//
//	build   build notebooks/*.ipynb from lessons/*.md (-check: verify only)
//	run     execute notebooks headless with Jupyter and GoNB, report failed cells
//	grade   grade a folder of submitted exercise notebooks: gradebook CSV and feedback
//	site    build the static HTML edition: every notebook executed and rendered
//	bench   run the library's benchmarks; one table with GFLOP/s and the share of peak
//	help    show help for the course tool or one of its commands
//
// Run `go run ./cmd/course help <command>` or `<command> -h` for details.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopWithParent()
	os.Exit(Main(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// env is what a command runs with; tests provide their own.
type env struct {
	ctx    context.Context
	stdout io.Writer
	stderr io.Writer
	dir    string // working directory, from which the course root is found

	// findJupyter locates the jupyter program; nil means [jupyter.Find].
	findJupyter func() (string, error)
}

// command is a subcommand of the course tool. To add one (grade, …), write
// its run function, which defines its flags on fs and parses args with
// e.parseFlags, and list it in commands. Run returns a *usageError for a
// wrong command line (exit status 2), errFailed once it has reported a
// failure, or any other error to print (both exit status 1).
type command struct {
	name    string
	args    string // synopsis of flags and arguments
	summary string // one line for the command list
	help    string // paragraphs shown by `course help <name>` and -h
	run     func(e *env, fs *flag.FlagSet, args []string) error
}

var commands []*command

func init() {
	// Assigned here rather than in the declaration because help refers to
	// commands.
	commands = []*command{buildCommand, runCommand, gradeCommand, siteCommand, benchCommand, kernelsCommand, helpCommand}
}

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // the command ran and found problems, or failed
	exitUsage  = 2 // the command line is wrong
)

// errFailed reports a failure that the command has already explained.
var errFailed = errors.New("failed")

// usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

const intro = `course builds and runs the notebooks of the course.

Each lesson has a single source, lessons/NN-slug.md: prose in Markdown and
code in ` + "```go" + ` blocks, which become the code cells. The notebooks in
notebooks/ are built from the sources and committed so that they open
straight from a clone. The workflow:

  1. edit lessons/NN-slug.md (never the .ipynb: it is overwritten)
  2. make notebooks          (go run ./cmd/course build)
  3. go run ./cmd/course run notebooks/NN-slug.ipynb, to check it runs
  4. commit both the .md and the .ipynb

Usage:

  go run ./cmd/course <command> [flags] [arguments]

Commands:
`

// Main runs the course tool with the command-line arguments args (without
// the program name) and returns the exit status.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "course:", err)
		return exitFailed
	}
	return (&env{ctx: ctx, stdout: stdout, stderr: stderr, dir: dir}).main(args)
}

func (e *env) main(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "course: missing command")
		e.usage(e.stderr)
		return exitUsage
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" {
		e.usage(e.stdout)
		return exitOK
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(e.stderr, "course: unknown command %q\n", name)
		e.usage(e.stderr)
		return exitUsage
	}
	err := cmd.run(e, e.flagSet(cmd), args[1:])
	var uerr *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsageReported):
		return exitUsage
	case errors.As(err, &uerr):
		fmt.Fprintf(e.stderr, "course %s: %v\n", cmd.name, err)
		cmd.printUsage(e.stderr)
		return exitUsage
	case errors.Is(err, errFailed):
		return exitFailed
	default:
		fmt.Fprintf(e.stderr, "course %s: %v\n", cmd.name, err)
		return exitFailed
	}
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usage writes the tool's help.
func (e *env) usage(w io.Writer) {
	fmt.Fprint(w, intro)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-6s  %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'go run ./cmd/course help <command>' or '<command> -h' for details.\n")
}

// flagSet returns the flag set of cmd. Its -h prints the command's help.
func (e *env) flagSet(cmd *command) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {} // parseFlags explains
	return fs
}

// parseFlags parses the arguments of a command with its flag set. For -h it
// prints the command's help to stdout and returns flag.ErrHelp; for a wrong
// flag, which the flag package has reported, a short usage and
// errUsageReported.
func (e *env) parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil {
		return nil
	}
	cmd := lookup(fs.Name())
	if errors.Is(err, flag.ErrHelp) {
		cmd.printHelp(e.stdout, fs)
		return err
	}
	cmd.printUsage(e.stderr)
	return errUsageReported
}

// errUsageReported is a usage error that has already been reported.
var errUsageReported = errors.New("usage error already reported")

func (c *command) printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: go run ./cmd/course %s %s\nRun 'go run ./cmd/course help %s' for details.\n", c.name, c.args, c.name)
}

func (c *command) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: go run ./cmd/course %s %s\n\n%s\n", c.name, c.args, strings.TrimSpace(c.help))
	if fs != nil && hasFlags(fs) {
		fmt.Fprint(w, "\nFlags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

var helpCommand = &command{
	name:    "help",
	args:    "[command]",
	summary: "show this help, or a command's",
	help:    "Help shows how to use the course tool, or one of its commands.",
	run:     runHelp,
}

func runHelp(e *env, fs *flag.FlagSet, args []string) error {
	switch len(args) {
	case 0:
		e.usage(e.stdout)
		return nil
	case 1:
		cmd := lookup(args[0])
		if cmd == nil {
			return usageErrorf("unknown command %q", args[0])
		}
		// The help shows the flags, which only exist once the command
		// defines them: run it with -h.
		if cmd.name == "help" {
			cmd.printHelp(e.stdout, nil)
			return nil
		}
		return cmd.run(e, e.flagSet(cmd), []string{"-h"})
	default:
		return usageErrorf("help takes at most one command")
	}
}
