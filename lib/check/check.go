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
// [Lookup] and runs the learner's function in a separate, sandboxed
// process that links only lib/exercise's [exercise.Task] of the exercise,
// on the visible cases and on hidden ones drawn at grading time, and
// compares the outputs in its own process, so nothing a submission
// prints or does can raise its score.
//
// The learner's function always runs under recover and a time limit: a
// panic, an endless loop, NaN or Inf, or a wrong shape is reported as such
// and never passes. The references live in lib/check/internal/reference, which
// notebooks cannot import.
//
// Introduced in lesson 01's exercises.
package check

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// DefaultTimeout is how long one case may run before the check gives up on
// it as an endless loop.
const DefaultTimeout = exercise.DefaultTimeout

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
// In a case's input and Out the function's result; how the function is
// called is the exercise's [exercise.Task], which the grader's child
// program links; everything else here stays in the grader's process.
type Exercise[F, In, Out any] struct {
	ID        string // the exercise id of the source: go exercise=ID
	Title     string
	Points    int
	Signature string // the Go signature the learner writes
	// Task calls the learner's function on one input (lib/exercise).
	Task *exercise.Task[F, In, Out]
	// Reference computes the expected output (from lib/check/internal/reference).
	Reference func(in In) Out
	// Cases are the visible cases, shown in the notebook; they must be
	// deterministic.
	Cases func() []Case[In]
	// Hidden draws the cases only the grader counts, from r: random
	// shapes and values within the exercise's domain, including the edge
	// cases the visible ones name. The grader seeds r at grading time, so
	// nothing in the course source tells a learner the hidden inputs.
	Hidden func(r *random.Source) []Case[In]
	// Compare returns nil when got is acceptably close to want. It must
	// not panic on any got (any shape, NaN, empty).
	Compare func(got, want Out) *Diff
	Hints   []Hint[In, Out]
	// GradeHiddenOnly makes the grader run the hidden cases only (an
	// exercise that trains: the visible case is what the notebook ran).
	GradeHiddenOnly bool
	// Redact, if set, removes from an input what the learner's function
	// must not see (the test labels of a training exercise): the function
	// gets Redact(in), the reference the whole input.
	Redact func(in In) In
	// Deny lists what a submission must not use for this exercise, as
	// "lib/attention" (any function of the package) or
	// "lib/attention.SoftmaxOf" (one function, or the methods of one
	// type), relative to the course module. The grader looks for them in
	// the symbols of the program it builds, so a use is found however the
	// code reaches it.
	Deny []string
	// Allow is what a solution may use besides the standard library
	// (StdOnly: nothing), as entries described in allow.go. The grader
	// refuses every other package member the learner's code names or its
	// program links beyond the grader's own harness.
	Allow []string
}

// Info describes an exercise for the grader.
type Info struct {
	ID, Title, Signature string
	Points               int
	Deny, Allow          []string
	Visible, Hidden      int // numbers of cases
	// CaseTimeout is how long one case may run (the task's Timeout, else
	// DefaultTimeout): the grader never gives an exercise's whole run
	// less.
	CaseTimeout time.Duration
	// TaskPackage is the import path of the package that declares the
	// exercise's task (lib/exercise or lib/exercise/withlib), as a
	// variable named like the learner's function.
	TaskPackage string
}

// Spec is a registered exercise, as the grader sees it. The grader's
// child program computes the learner's outputs (lib/exercise); the spec
// writes the inputs and judges the outcomes in the grader's process.
type Spec interface {
	Info() Info
	// WriteInputs writes the input of every grading case — the visible
	// cases, then the hidden ones drawn from seed — for the child
	// program to read, and returns their number.
	WriteInputs(w io.Writer, seed uint64) (int, error)
	// Grade reads the outcomes the child program wrote for the same seed
	// and compares them with the reference. It never panics: output it
	// cannot read fails the cases it concerns, and anything after the
	// last outcome makes the whole result malformed (0 points).
	Grade(r io.Reader, seed uint64) *Result
}

var (
	mu       sync.Mutex
	registry = map[string]Spec{}
)

// Register adds e to the registry and returns it. It panics on a
// duplicate id or an incomplete spec, at init time.
func Register[F, In, Out any](e *Exercise[F, In, Out]) *Exercise[F, In, Out] {
	if e.ID == "" || e.Points <= 0 || e.Task == nil || e.Reference == nil || e.Cases == nil || e.Compare == nil {
		panic(fmt.Sprintf("check.Register(%q): ID, Points, Task, Reference, Cases and Compare are required", e.ID))
	}
	if e.Task.ID != e.ID || e.Task.Call == nil {
		panic(fmt.Sprintf("check.Register(%q): the task is exercise %q's (or has no Call)", e.ID, e.Task.ID))
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
	return Info{ID: e.ID, Title: e.Title, Signature: e.Signature, Points: e.Points, Deny: e.Deny, Allow: e.Allow,
		Visible: len(e.Cases()), Hidden: len(e.hidden(1)), CaseTimeout: e.Task.CaseTimeout(),
		TaskPackage: packageOf(e.Task.Call)}
}

// packageOf returns the import path of the package that declares the
// function f ("github.com/…/lib/exercise" for lib/exercise.init.func1).
func packageOf(f any) string {
	name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	slash := strings.LastIndex(name, "/")
	if dot := strings.Index(name[slash+1:], "."); dot >= 0 {
		return name[:slash+1+dot]
	}
	return name
}

// hiddenSource is the random source of exercise id's hidden cases for a
// grading seed: one stream per exercise, so that adding an exercise
// changes no other exercise's cases.
func hiddenSource(seed uint64, id string) *random.Source {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s", seed, id)
	s := h.Sum64()
	return random.New(uint32(s ^ s>>32))
}

// hidden returns the hidden cases drawn for seed, named "hidden: …".
func (e *Exercise[F, In, Out]) hidden(seed uint64) []Case[In] {
	if e.Hidden == nil {
		return nil
	}
	cs := e.Hidden(hiddenSource(seed, e.ID))
	for i := range cs {
		cs[i].Name = "hidden: " + cs[i].Name
	}
	return cs
}

// grading returns the visible cases, then the hidden ones for seed.
func (e *Exercise[F, In, Out]) grading(seed uint64) []Case[In] {
	return append(e.visible(), e.hidden(seed)...)
}

// visible returns the visible cases the grader runs.
func (e *Exercise[F, In, Out]) visible() []Case[In] {
	if e.GradeHiddenOnly {
		return nil
	}
	return e.Cases()
}

// redact is the input as the learner's function gets it.
func (e *Exercise[F, In, Out]) redact(in In) In {
	if e.Redact == nil {
		return in
	}
	return e.Redact(exercise.Clone(in))
}

// judge compares one outcome with the reference and finds the hint. A
// panic of the comparison (a bug of the spec on some odd output) fails
// the case with that message instead of stopping the grader.
func (e *Exercise[F, In, Out]) judge(c Case[In], o exercise.Outcome[Out]) (r CaseResult) {
	r = CaseResult{Name: c.Name}
	defer func() {
		if p := recover(); p != nil {
			r = CaseResult{Name: c.Name, Problem: fmt.Sprintf("the result could not be compared (%v)", p)}
		}
	}()
	switch {
	case o.TimedOut:
		r.Problem = fmt.Sprintf("your function did not return within %v — an endless loop?", e.Task.CaseTimeout())
		r.TimedOut = true
		return r
	case strings.HasPrefix(o.Panic, "TODO"):
		r.Problem = "not done yet: " + o.Panic
		r.Todo = true
		return r
	case o.Panic != "":
		r.Problem = "your function panicked: " + o.Panic
		r.Panicked = true
		return r
	}
	if d := e.Compare(o.Out, e.Reference(exercise.Clone(c.In))); d != nil {
		r.Problem = d.String()
		for _, h := range e.Hints {
			if (h.Wrong != nil && e.Compare(o.Out, h.Wrong(exercise.Clone(c.In))) == nil) ||
				(h.Detect != nil && h.Detect(exercise.Clone(c.In), o.Out)) {
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
	res := e.run(f, e.Cases(), len(e.Cases()))
	fmt.Print(res.Report())
	return res
}

// Run is Check without printing, for tests; hidden adds the hidden cases
// of seeds 1, 2 and 3 (of seed 1 only for an exercise that trains), so
// that a wrong implementation a hidden case of one seed happens not to
// expose is still caught.
func (e *Exercise[F, In, Out]) Run(f F, hidden bool) *Result {
	if hidden {
		if e.GradeHiddenOnly {
			return e.RunSeed(f, 1)
		}
		cases := e.visible()
		for seed := range uint64(3) {
			cases = append(cases, e.hidden(seed+1)...)
		}
		return e.run(f, cases, len(e.visible()))
	}
	return e.run(f, e.Cases(), len(e.Cases()))
}

// RunSeed runs f on the visible cases and the hidden cases of seed, as
// the grader would, in this process.
func (e *Exercise[F, In, Out]) RunSeed(f F, seed uint64) *Result {
	return e.run(f, e.grading(seed), len(e.visible()))
}

// run runs f on cases, of which the first visible are visible ones.
func (e *Exercise[F, In, Out]) run(f F, cases []Case[In], visible int) *Result {
	res := &Result{ID: e.ID, Title: e.Title, Max: e.Points}
	if any(f) == nil || isNilFunc(f) {
		res.Status = "no function given"
		return res
	}
	for i, c := range cases {
		cr := e.judge(c, e.Task.Run(f, e.redact(c.In)))
		cr.Hidden = i >= visible
		res.Cases = append(res.Cases, cr)
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
	TimedOut bool   // the function did not return within the case's time limit
	Panicked bool   // the function panicked (not with TODO)
	Problem  string // what is wrong, when not passed
	Hint     string // the usual mistake it looks like, if recognised
	HintName string
	// Hidden marks a case drawn at grading time: when there are any,
	// only they earn points (the visible cases are in the course source,
	// so their answers could be memorised).
	Hidden bool
}

// score sets Points (Max × the fraction of scored cases passed, rounded
// down to a quarter point; the scored cases are the hidden ones when
// there are any, else all) and Status.
func (r *Result) score() {
	passed, todo, scored, scoredPassed := 0, 0, 0, 0
	hidden := r.hidden()
	for _, c := range r.Cases {
		if c.Passed {
			passed++
		}
		if c.Todo {
			todo++
		}
		if c.Hidden || !hidden {
			scored++
			if c.Passed {
				scoredPassed++
			}
		}
	}
	if scored > 0 {
		r.Points = math.Floor(4*float64(r.Max)*float64(scoredPassed)/float64(scored)) / 4
	}
	switch {
	case len(r.Cases) > 0 && passed == len(r.Cases):
		r.Status = "ok"
	case todo == len(r.Cases) && todo > 0:
		r.Status = "not done"
	case r.Points > 0:
		r.Status = "partial"
	default:
		r.Status = "failed"
	}
}

// hidden reports whether some case is a hidden one.
func (r *Result) hidden() bool {
	for _, c := range r.Cases {
		if c.Hidden {
			return true
		}
	}
	return false
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
		b.WriteString(exercise.PointsLine(0, r.Max, exercise.NotDoneNote) + "\n")
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
	if r.hidden() {
		b.WriteString("  (points count the hidden cases, drawn when grading; the visible ones are the notebook's)\n")
	}
	note := ""
	if r.Status == "ok" {
		note = "all cases pass"
	}
	b.WriteString(exercise.PointsLine(r.Points, r.Max, note) + "\n")
	return b.String()
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

// WriteInputs implements Spec.
func (e *Exercise[F, In, Out]) WriteInputs(w io.Writer, seed uint64) (int, error) {
	enc := gob.NewEncoder(w)
	cases := e.grading(seed)
	for _, c := range cases {
		in := e.redact(c.In)
		if err := enc.Encode(&in); err != nil {
			return 0, err
		}
	}
	return len(cases), nil
}

// Grade implements Spec: it reads the outcomes the child program wrote
// and compares them with the reference; cases without an outcome (the
// program crashed, exited or was killed) fail.
func (e *Exercise[F, In, Out]) Grade(r io.Reader, seed uint64) *Result {
	res := &Result{ID: e.ID, Title: e.Title, Max: e.Points}
	br := bufio.NewReader(r)
	dec := gob.NewDecoder(br)
	missing := ""
	visible := len(e.visible())
	for i, c := range e.grading(seed) {
		var o exercise.Outcome[Out]
		if missing == "" {
			if err := decode(dec, &o); err != nil {
				missing = "no result: the program stopped before this case (exit, crash, time or memory limit)"
				if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
					return malformed(res, "its results could not be read ("+err.Error()+")")
				}
			}
		}
		if missing != "" {
			res.Cases = append(res.Cases, CaseResult{Name: c.Name, Problem: missing, Hidden: i >= visible})
			continue
		}
		cr := e.judge(c, o)
		cr.Hidden = i >= visible
		res.Cases = append(res.Cases, cr)
		if o.TimedOut {
			missing = "not run: an earlier case did not return"
		}
	}
	if missing == "" {
		if _, err := br.ReadByte(); err == nil {
			return malformed(res, "the program wrote more than its results on the results channel")
		}
	}
	res.score()
	return res
}

// decode decodes one value, turning a panic of the decoder on hostile
// input into an error.
func decode(dec *gob.Decoder, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("undecodable: %v", p)
		}
	}()
	return dec.Decode(v)
}

// malformed marks a result whose channel carried something other than
// the child's outcomes: 0 points, every case failed with why.
func malformed(res *Result, why string) *Result {
	res.Cases = []CaseResult{{Name: "results", Problem: why}}
	res.Points, res.Status = 0, "malformed result"
	return res
}
