// Package check runs the course's exercise checks: a learner's function is
// called on several cases (edge cases included) and compared with the
// course's reference, and the cell shows, in the learner's terms, what is
// wrong — which row, position or dimension, expected against got — with a
// hint for the usual mistakes, and the points earned.
//
// Every exercise is an [Exercise] registered with [Register] (one file per
// topic: softmax.go, masks.go, scores.go, …). A check cell of an exercise
// notebook calls the exercise's typed wrapper, e.g. check.Softmax(Softmax);
// the instructor's grader (cmd/course grade) finds the same exercise with
// [Lookup] and runs the learner's function in a separate process through
// [Serve], on the visible cases and on hidden ones, and compares the
// outputs itself, so nothing a submission prints or does can raise its
// score.
//
// The learner's function always runs under recover and a time limit: a
// panic, an endless loop, NaN or Inf, or a wrong shape is reported as such
// and never passes. The references live in internal/reference, which
// notebooks cannot import.
//
// Introduced in lesson 01's exercises.
package check

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"
)

// DefaultTimeout is how long one case may run before the check gives up on
// it as an endless loop.
const DefaultTimeout = 5 * time.Second

// Case is one input of an exercise, with a name in the learner's terms
// ("3 logits, temperature 1", "fully padded row").
type Case[In any] struct {
	Name string
	In   In
}

// Diff says how an output differs from the expected one: where, in the
// learner's terms ("row 1, position 2"), what was expected and what came
// back. Msg replaces Where/Want/Got for differences that are not about one
// value ("expected 3 rows, got 4").
type Diff struct {
	Where, Want, Got string
	Msg              string
}

func (d *Diff) String() string {
	if d.Msg != "" {
		return d.Msg
	}
	return fmt.Sprintf("at %s: expected %s, got %s", d.Where, d.Want, d.Got)
}

// Hint recognises one usual mistake. The hint is shown when the learner's
// output matches Wrong(in) (a known-wrong variant of the reference,
// compared with the exercise's Compare) or when Detect(in, got) is true.
type Hint[In, Out any] struct {
	Name    string // short name of the mistake, used by tests: "no-scale"
	Message string // what to tell the learner
	Wrong   func(in In) Out
	Detect  func(in In, got Out) bool
}

// Exercise is the spec of one exercise. F is the learner's function type,
// In a case's input and Out the function's result; In and Out must be
// encodable with encoding/gob (exported fields, no funcs).
type Exercise[F, In, Out any] struct {
	ID        string // the exercise id of the source: go exercise=ID
	Title     string
	Points    int
	Signature string // the Go signature the learner writes
	// Call calls the learner's function on one input.
	Call func(f F, in In) Out
	// Reference computes the expected output (from internal/reference).
	Reference func(in In) Out
	// Cases are the visible cases; Hidden are counted only by the grader.
	// Both must be deterministic.
	Cases, Hidden func() []Case[In]
	// Compare returns nil when got is acceptably close to want.
	Compare func(got, want Out) *Diff
	Hints   []Hint[In, Out]
	// Deny lists what a submission must not use for this exercise, as
	// "lib/attention" (any use of the package) or "lib/attention.SoftmaxOf"
	// (one function), relative to the course module.
	Deny []string
	// Timeout per case; 0 means DefaultTimeout.
	Timeout time.Duration
}

// Info describes an exercise for the grader.
type Info struct {
	ID, Title, Signature string
	Points               int
	Deny                 []string
	Visible, Hidden      int // numbers of cases
	// CaseTimeout is how long one case may run (Exercise.Timeout, else
	// DefaultTimeout): the grader never gives an exercise's whole run
	// less.
	CaseTimeout time.Duration
}

// Spec is a registered exercise, as the grader sees it.
type Spec interface {
	Info() Info
	// WriteInputs writes the inputs of every case (visible then hidden)
	// for Serve to read.
	WriteInputs(w io.Writer) error
	// Grade reads what Serve wrote and compares it with the reference.
	Grade(r io.Reader) *Result
	// serve runs the learner's function for Serve.
	serve(fn any, in io.Reader, out io.Writer) error
}

var (
	mu       sync.Mutex
	registry = map[string]Spec{}
)

// Register adds e to the registry and returns it. It panics on a
// duplicate id or an incomplete spec, at init time.
func Register[F, In, Out any](e *Exercise[F, In, Out]) *Exercise[F, In, Out] {
	if e.ID == "" || e.Points <= 0 || e.Call == nil || e.Reference == nil || e.Cases == nil || e.Compare == nil {
		panic(fmt.Sprintf("check.Register(%q): ID, Points, Call, Reference, Cases and Compare are required", e.ID))
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[e.ID]; dup {
		panic(fmt.Sprintf("check.Register: exercise %q registered twice", e.ID))
	}
	registry[e.ID] = e
	return e
}

// Lookup returns the registered exercise id.
func Lookup(id string) (Spec, bool) {
	mu.Lock()
	defer mu.Unlock()
	s, ok := registry[id]
	return s, ok
}

// IDs returns the registered exercise ids, sorted.
func IDs() []string {
	mu.Lock()
	defer mu.Unlock()
	var ids []string
	for id := range registry {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Info implements Spec.
func (e *Exercise[F, In, Out]) Info() Info {
	n := 0
	if e.Hidden != nil {
		n = len(e.Hidden())
	}
	return Info{ID: e.ID, Title: e.Title, Signature: e.Signature, Points: e.Points, Deny: e.Deny,
		Visible: len(e.Cases()), Hidden: n, CaseTimeout: e.timeout()}
}

func (e *Exercise[F, In, Out]) timeout() time.Duration {
	if e.Timeout > 0 {
		return e.Timeout
	}
	return DefaultTimeout
}

// all returns the visible cases, then the hidden ones when hidden is true.
func (e *Exercise[F, In, Out]) all(hidden bool) []Case[In] {
	cs := e.Cases()
	if hidden && e.Hidden != nil {
		for _, c := range e.Hidden() {
			c.Name = "hidden: " + c.Name
			cs = append(cs, c)
		}
	}
	return cs
}

// outcome is what one call of the learner's function gave.
type outcome[Out any] struct {
	Out      Out
	Panic    string // the panic value, if it panicked
	TimedOut bool
}

// call runs f on a copy of in under recover and the time limit.
func (e *Exercise[F, In, Out]) call(f F, in In) outcome[Out] {
	in = clone(in)
	done := make(chan outcome[Out], 1)
	go func() {
		var res outcome[Out]
		defer func() {
			if r := recover(); r != nil {
				res.Panic = fmt.Sprint(r)
				if !strings.HasPrefix(res.Panic, "TODO") {
					res.Panic += "\n" + learnerFrames(debug.Stack())
				}
			}
			done <- res
		}()
		res.Out = e.Call(f, in)
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(e.timeout()):
		return outcome[Out]{TimedOut: true}
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

// clone deep-copies v through gob, so the learner's function can change
// its inputs without changing the reference's.
func clone[T any](v T) T {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&v); err != nil {
		panic(fmt.Sprintf("check: cannot copy a case input: %v", err))
	}
	var out T
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		panic(fmt.Sprintf("check: cannot copy a case input: %v", err))
	}
	return out
}

// judge compares one outcome with the reference and finds the hint.
func (e *Exercise[F, In, Out]) judge(c Case[In], o outcome[Out]) CaseResult {
	r := CaseResult{Name: c.Name}
	switch {
	case o.TimedOut:
		r.Problem = fmt.Sprintf("your function did not return within %v — an endless loop?", e.timeout())
		return r
	case strings.HasPrefix(o.Panic, "TODO"):
		r.Problem = "not done yet: " + o.Panic
		r.Todo = true
		return r
	case o.Panic != "":
		r.Problem = "your function panicked: " + o.Panic
		return r
	}
	if d := e.Compare(o.Out, e.Reference(clone(c.In))); d != nil {
		r.Problem = d.String()
		for _, h := range e.Hints {
			if (h.Wrong != nil && e.Compare(o.Out, h.Wrong(clone(c.In))) == nil) ||
				(h.Detect != nil && h.Detect(clone(c.In), o.Out)) {
				r.Hint, r.HintName = h.Message, h.Name
				break
			}
		}
		return r
	}
	r.Passed = true
	return r
}

// Check runs the learner's function f on the visible cases, prints the
// report to standard output and returns the result. It never panics
// because of f.
func (e *Exercise[F, In, Out]) Check(f F) *Result {
	res := e.run(f, false)
	fmt.Print(res.Report())
	return res
}

// Run is Check without printing, for tests; hidden adds the hidden cases.
func (e *Exercise[F, In, Out]) Run(f F, hidden bool) *Result {
	return e.run(f, hidden)
}

func (e *Exercise[F, In, Out]) run(f F, hidden bool) *Result {
	res := &Result{ID: e.ID, Title: e.Title, Max: e.Points}
	if any(f) == nil || isNilFunc(f) {
		res.Status = "no function given"
		return res
	}
	for _, c := range e.all(hidden) {
		res.Cases = append(res.Cases, e.judge(c, e.call(f, c.In)))
	}
	res.score()
	return res
}

func isNilFunc(f any) bool {
	v := reflect.ValueOf(f)
	return v.Kind() == reflect.Func && v.IsNil()
}

// Result is the outcome of checking one exercise.
type Result struct {
	ID, Title string
	Cases     []CaseResult
	Points    float64 // earned
	Max       int
	// Status is "ok", "partial", "failed", "not done", or the reason the
	// function could not be checked at all.
	Status string
}

// CaseResult is the outcome of one case.
type CaseResult struct {
	Name     string
	Passed   bool
	Todo     bool   // the stub's TODO panic
	Problem  string // what is wrong, when not passed
	Hint     string // the usual mistake it looks like, if recognised
	HintName string
}

// score sets Points (Max × the fraction of cases passed, rounded down to
// a quarter point) and Status.
func (r *Result) score() {
	passed, todo := 0, 0
	for _, c := range r.Cases {
		if c.Passed {
			passed++
		}
		if c.Todo {
			todo++
		}
	}
	if len(r.Cases) > 0 {
		r.Points = math.Floor(4*float64(r.Max)*float64(passed)/float64(len(r.Cases))) / 4
	}
	switch {
	case len(r.Cases) > 0 && passed == len(r.Cases):
		r.Status = "ok"
	case todo == len(r.Cases) && todo > 0:
		r.Status = "not done"
	case passed > 0:
		r.Status = "partial"
	default:
		r.Status = "failed"
	}
}

// Report is the result as the check cell shows it: ✓/✗ per case, the
// first problem and hint of each failed case, and the points.
func (r *Result) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Exercise %s", r.ID)
	if r.Title != "" {
		fmt.Fprintf(&b, " — %s", r.Title)
	}
	b.WriteString("\n")
	if len(r.Cases) == 0 {
		fmt.Fprintf(&b, "  ✗ %s\n", r.Status)
	}
	if r.Status == "not done" {
		fmt.Fprintf(&b, "  ✗ %d cases not run: the function still panics with %q\n", len(r.Cases), "TODO")
		fmt.Fprintf(&b, "points: 0/%d  — not done yet: replace the panic(\"TODO…\") with your code\n", r.Max)
		return b.String()
	}
	for _, c := range r.Cases {
		if c.Passed {
			fmt.Fprintf(&b, "  ✓ %s\n", c.Name)
			continue
		}
		fmt.Fprintf(&b, "  ✗ %s: %s\n", c.Name, indent(c.Problem))
		if c.Hint != "" {
			fmt.Fprintf(&b, "    hint: %s\n", indent(c.Hint))
		}
	}
	fmt.Fprintf(&b, "points: %s/%d", fmtPoints(r.Points), r.Max)
	switch r.Status {
	case "ok":
		b.WriteString("  — all cases pass\n")
	default:
		b.WriteString("\n")
	}
	return b.String()
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

func fmtPoints(p float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", p), "0"), ".")
}

// Serve is the main function of the grader's child program: it reads the
// case inputs the grader wrote on standard input, runs the learner's
// function fn on each (under recover and the time limit) and writes the
// outputs to file descriptor 3. The grader compares them with the
// reference itself. Serve exits the process.
func Serve(id string, fn any) {
	spec, ok := Lookup(id)
	if !ok {
		fmt.Fprintf(os.Stderr, "check.Serve: no exercise %q\n", id)
		os.Exit(3)
	}
	out := os.NewFile(3, "results")
	if err := spec.serve(fn, os.Stdin, out); err != nil {
		fmt.Fprintln(os.Stderr, "check.Serve:", err)
		os.Exit(3)
	}
	out.Close()
	os.Exit(0)
}

// WriteInputs implements Spec.
func (e *Exercise[F, In, Out]) WriteInputs(w io.Writer) error {
	enc := gob.NewEncoder(w)
	for _, c := range e.all(true) {
		if err := enc.Encode(&c.In); err != nil {
			return err
		}
	}
	return nil
}

func (e *Exercise[F, In, Out]) serve(fn any, r io.Reader, w io.Writer) error {
	f, ok := fn.(F)
	if !ok {
		var want F
		return fmt.Errorf("exercise %s wants a %T, got a %T", e.ID, want, fn)
	}
	dec, enc := gob.NewDecoder(r), gob.NewEncoder(w)
	for range e.all(true) {
		var in In
		if err := dec.Decode(&in); err != nil {
			return err
		}
		o := e.call(f, in)
		if err := enc.Encode(&o); err != nil {
			return err
		}
		if o.TimedOut {
			return nil // the endless loop is still running: stop here
		}
	}
	return nil
}

// Grade implements Spec: it reads the outcomes Serve wrote and compares
// them with the reference; cases without an outcome (the program
// crashed, exited or was killed) fail.
func (e *Exercise[F, In, Out]) Grade(r io.Reader) *Result {
	res := &Result{ID: e.ID, Title: e.Title, Max: e.Points}
	dec := gob.NewDecoder(r)
	missing := ""
	for _, c := range e.all(true) {
		var o outcome[Out]
		if missing == "" {
			if err := dec.Decode(&o); err != nil {
				missing = "no result: the program stopped before this case (exit, crash, time or memory limit)"
				if err != io.EOF && err != io.ErrUnexpectedEOF {
					missing = "unreadable result: " + err.Error()
				}
			}
		}
		if missing != "" {
			res.Cases = append(res.Cases, CaseResult{Name: c.Name, Problem: missing})
			continue
		}
		res.Cases = append(res.Cases, e.judge(c, o))
		if o.TimedOut {
			missing = "not run: an earlier case did not return"
		}
	}
	res.score()
	return res
}
