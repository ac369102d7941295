// Package exercise is the contract between a learner's function and the
// course's checks: for every graded exercise, a [Task] says the type of
// the function the learner writes, the input and output of one case, and
// how to call the function on an input, under recover and a time limit.
//
// It is the only course package the instructor's grader links into the
// program it builds from a learner's cells (besides what the learner's
// own code imports), so it holds nothing worth stealing: no reference
// implementation, no expected output, no hidden case. The references,
// the cases and the comparison live in lib/check and run in the
// grader's own process. The child program's main is one call to
// [Serve]; it reads the case inputs on standard input and writes one
// [Outcome] per case on file descriptor 3.
//
// Tasks whose function types use GoMLX or the course library's types
// (graphs, figures, models) are in lib/exercise/withlib, so that a
// program serving plain-Go exercises does not link GoMLX and gonum/plot.
//
// Part of the grader behind lesson 01's exercises; the notebooks do not import it.
package exercise

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"
)

// DefaultTimeout is how long one case may run before the call gives up on
// it as an endless loop.
const DefaultTimeout = 5 * time.Second

// Task is how one exercise calls the learner's function: F is the
// function's type, In the input of one case and Out its result. In and
// Out must be encodable with encoding/gob (exported fields, no funcs).
type Task[F, In, Out any] struct {
	ID string // the exercise id of the source: go exercise=ID
	// Call calls the learner's function on one input.
	Call func(f F, in In) Out
	// Timeout per case; 0 means DefaultTimeout.
	Timeout time.Duration
}

// CaseTimeout is how long one case may run.
func (t *Task[F, In, Out]) CaseTimeout() time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return DefaultTimeout
}

// Outcome is what one call of the learner's function gave: its result,
// or the panic it raised, or that it did not return in time.
type Outcome[Out any] struct {
	Out      Out
	Panic    string // the panic value and the learner's stack lines, if it panicked
	TimedOut bool
}

// Run calls f on a copy of in under recover and the time limit. A call
// that does not return in time is left running (a goroutine cannot be
// stopped); the grader's child stops serving after it.
func (t *Task[F, In, Out]) Run(f F, in In) Outcome[Out] {
	in = Clone(in)
	done := make(chan Outcome[Out], 1)
	go func() {
		var res Outcome[Out]
		defer func() {
			if r := recover(); r != nil {
				res.Panic = fmt.Sprint(r)
				if !strings.HasPrefix(res.Panic, "TODO") {
					res.Panic += "\n" + learnerFrames(debug.Stack())
				}
			}
			done <- res
		}()
		res.Out = t.Call(f, in)
	}()
	timer := time.NewTimer(t.CaseTimeout())
	defer timer.Stop()
	select {
	case r := <-done:
		return r
	case <-timer.C:
		return Outcome[Out]{TimedOut: true}
	}
}

// learnerFrames keeps the stack lines of the learner's code (package main).
func learnerFrames(stack []byte) string {
	var out []string
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "main.") && i+1 < len(lines) {
			out = append(out, "    "+l, "    "+strings.TrimSpace(lines[i+1]))
		}
	}
	return strings.Join(out, "\n")
}

// Clone deep-copies v through gob, so that the learner's function can
// change its inputs without changing anyone else's copy.
func Clone[T any](v T) T {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&v); err != nil {
		panic(fmt.Sprintf("exercise: cannot copy a case input: %v", err))
	}
	var out T
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		panic(fmt.Sprintf("exercise: cannot copy a case input: %v", err))
	}
	return out
}

// Server is one exercise of the grader's child program: a task bound to
// the learner's function by [Bind].
type Server interface {
	ID() string
	// Serve reads case inputs from r until its end and writes one outcome
	// per case to w; it stops after a case that timed out.
	Serve(r io.Reader, w io.Writer) error
}

// Bind binds the learner's function f to the task t. The grader's child
// program calls it with the learner's function by name, so a function of
// the wrong type is a compile error, which the grader reports as such.
func Bind[F, In, Out any](t *Task[F, In, Out], f F) Server { return bound[F, In, Out]{t, f} }

type bound[F, In, Out any] struct {
	t *Task[F, In, Out]
	f F
}

func (b bound[F, In, Out]) ID() string { return b.t.ID }

func (b bound[F, In, Out]) Serve(r io.Reader, w io.Writer) error {
	dec, enc := gob.NewDecoder(r), gob.NewEncoder(w)
	for {
		var in In
		if err := dec.Decode(&in); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		o := b.t.Run(b.f, in)
		if err := enc.Encode(&o); err != nil {
			return err
		}
		if o.TimedOut {
			return nil // the endless loop is still running: stop here
		}
	}
}

// ResultsFD is the file descriptor on which the child program writes its
// outcomes.
const ResultsFD = 3

// Serve is the main function of the grader's child program: it serves
// the exercise named by the program's first argument, reading inputs on
// standard input and writing outcomes on file descriptor [ResultsFD].
// It exits the process.
func Serve(servers ...Server) {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "exercise.Serve: usage: PROGRAM EXERCISE_ID")
		os.Exit(3)
	}
	for _, s := range servers {
		if s.ID() != os.Args[1] {
			continue
		}
		out := os.NewFile(ResultsFD, "results")
		if err := s.Serve(os.Stdin, out); err != nil {
			fmt.Fprintln(os.Stderr, "exercise.Serve:", err)
			os.Exit(3)
		}
		out.Close()
		os.Exit(0)
	}
	fmt.Fprintf(os.Stderr, "exercise.Serve: this program does not serve exercise %q\n", os.Args[1])
	os.Exit(3)
}
