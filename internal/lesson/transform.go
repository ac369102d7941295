package lesson

import "strings"

// SetupCell is the source of the code cell that starts every notebook, right
// after the title. Its first line runs scripts/gonb-setup.sh, found from the
// notebook's folder ($GONB_DIR) or $COURSE_ROOT, in GoNB's temporary module
// directory so that cells can import the course's packages; %goworkfix then
// makes GoNB use the resulting go.work.
//
// The next two lines make a cell cost about half what it would (lesson 1's
// 19 cells: 17.8 s to 11.0 s, median wall, on a quiet 2-core machine;
// git show 83f17c7:docs/PERFORMANCE.md).
// %noautoget stops GoNB running `go get` before every cell's build (0.4 s
// each): the workspace already provides every package a cell can import
// (the course's, its dependencies', the standard library's), offline, at
// the versions of the course's go.mod; a package from elsewhere fails to
// build with Go's own "no required module provides package" error (a
// `go get` in the workspace would also write it into the course's own
// go.mod). %goflags links every cell's program without
// its symbol table and debug information (-ldflags=-s), which shortens the
// link, most of a build (0.93 s to 0.78 s for a cell that imports
// lib/attention and lib/viz); a panic still shows function names, files
// and lines, which come from the Go runtime's own tables.
//
// %env sets GOEXPERIMENT to [GoExperiment] in the kernel, so that every
// later cell is built with GoMLX's vector matrix kernels, as the Makefile
// and the grader build, and GODEBUG to [GoDebug], so that every later
// cell runs as the Makefile runs programs.
const SetupCell = `!*for d in "$COURSE_ROOT" "$GONB_DIR" "$GONB_DIR/.." "$GONB_DIR/../.."; do [ -f "$d/scripts/gonb-setup.sh" ] && exec bash "$d/scripts/gonb-setup.sh" "$(cd "$d" && pwd)"; done; echo "Cannot find the course folder: start Jupyter inside the course (make course) or set COURSE_ROOT." >&2; exit 1
%goworkfix
%noautoget
%goflags "-ldflags=-s"
%env GOEXPERIMENT ` + GoExperiment + `
%env GODEBUG ` + GoDebug

// GoExperiment is the GOEXPERIMENT the course's programs are built with:
// Go's simd experiment, without which GoMLX's compute module (v0.1.6)
// leaves out its AVX2 and AVX-512 matrix kernels. Measured on the course's
// 2-core AVX-512 machine on 2026-11-25, before third_party/compute's
// patch, lesson 8's classifier trained in 7.5 s instead of 11.8 s and
// lesson 10's GPT in 101–114 s instead of 164–198 s (git show
// 83f17c7:docs/PERFORMANCE.md).
// CPUs without AVX2 and other architectures keep the plain kernels;
// lib/backend.MatMulKernels says which a program uses.
const GoExperiment = "simd"

// GoDebug is the GODEBUG the course's programs run with: no asynchronous
// preemption. When the runtime preempts a goroutine by a signal it restores
// the goroutine's vector registers and leaves their upper halves "dirty";
// on Intel CPUs every later switch between SSE and AVX instructions then
// pays a penalty, and math.Exp's amd64 assembly switches a dozen times per
// call. Measured on the course's 2-core Xeon (Sapphire Rapids) in a build
// with GOEXPERIMENT=simd: math.Exp 6 ns, over 600 ns once a preemption has
// happened; lesson 11's full attention in Go at n = 1024, 1.31 s against
// 0.094 s without preemption (docs/PERFORMANCE.md, "The AVX–SSE penalty";
// the figures: git show 83f17c7:docs/PERFORMANCE.md). Goroutines still yield
// at function calls; a loop without calls keeps its core until it ends.
const GoDebug = "asyncpreemptoff=1"

// A Transform rewrites a lesson's cells for one output flavour: it returns
// the new cells and must not modify l.Cells in place. Errors should be of
// type *Error, located with the cells' Line.
type Transform func(l *Lesson) ([]Cell, error)

// InsertSetup is the Transform that inserts [SetupCell] right after the first
// Markdown cell (the title), unless the lesson already has such a cell.
func InsertSetup(l *Lesson) ([]Cell, error) {
	for _, c := range l.Cells {
		if IsSetup(c) {
			return l.Cells, nil
		}
	}
	at := 0
	for i, c := range l.Cells {
		if c.Kind == Markdown {
			at = i + 1
			break
		}
	}
	cells := make([]Cell, 0, len(l.Cells)+1)
	cells = append(cells, l.Cells[:at]...)
	cells = append(cells, Cell{Kind: Code, Source: SetupCell})
	return append(cells, l.Cells[at:]...), nil
}

// IsSetup reports whether c is the setup cell, ignoring surrounding space.
func IsSetup(c Cell) bool {
	return c.Kind == Code && strings.TrimSpace(c.Source) == SetupCell
}
