// Package grade is the instructor's grader of exercise notebooks (the
// course's answer to nbgrader): `go run ./cmd/course grade DIR`.
//
// For every submission (one notebook per learner, or a folder per
// learner) and every exercise of the assignment, the grader takes the
// learner's declarations from the notebook — the exercise cell found by
// its metadata or its marker line, plus the learner's other declaration
// cells — and builds them with its own main into a program in a
// throwaway module. The program only computes the learner's function on
// the inputs the grader sends (the visible and hidden cases of
// lib/check's spec) and writes the outputs on file descriptor 3; the
// grader compares them with the reference itself. The check cells of the
// notebook are never run, so editing them, printing "PASS", exiting
// early or panicking earns nothing. Each exercise runs in its own process
// with a time and memory limit, in an empty folder; a submission that
// calls the course library the exercise asks to write (the spec's deny
// list) is flagged and scores 0 on that exercise.
//
// The results go to a gradebook CSV and one Markdown feedback file per
// learner, written atomically; each submission's result is cached under
// the hash of its content, so a second run, or one resumed after an
// interruption, regrades nothing that is finished.
package grade

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/lib/check"
)

// Version is part of every cache key: change it when grading changes.
const Version = "grade-1"

// Exercise is one exercise of the assignment.
type Exercise struct {
	ID     string
	Points int
	Func   string // the function the learner writes
	Deny   []string
	// MinTimeout is the least time the exercise's run gets, whatever
	// Options.Timeout says: one case's time limit in lib/check (the ViT
	// trains for minutes on a slow machine).
	MinTimeout time.Duration
}

// timeLimit is the time the exercise's run gets: Options.Timeout, or
// MinTimeout when that is longer.
func (e Exercise) timeLimit(o Options) time.Duration { return max(o.Timeout, e.MinTimeout) }

// Assignment is the set of exercises the submissions are graded on.
type Assignment struct {
	Source    string // lessons/exercises/NN-slug.md
	Slug      string
	Exercises []Exercise
}

// LoadAssignment reads an exercise source and matches its exercises with
// lib/check's registry.
func LoadAssignment(root, source string) (*Assignment, error) {
	l, err := lesson.ParseFile(filepath.Join(root, source))
	if err != nil {
		return nil, err
	}
	a := &Assignment{Source: filepath.ToSlash(source), Slug: l.Slug}
	for _, c := range l.Cells {
		if c.Exercise == "" {
			continue
		}
		spec, ok := check.Lookup(c.Exercise)
		if !ok {
			return nil, fmt.Errorf("%s: exercise %s is not registered in lib/check", source, c.Exercise)
		}
		info := spec.Info()
		fn := funcName(info.Signature)
		if fn == "" {
			return nil, fmt.Errorf("exercise %s: signature %q does not start with func Name(", c.Exercise, info.Signature)
		}
		a.Exercises = append(a.Exercises, Exercise{ID: info.ID, Points: info.Points, Func: fn,
			Deny: append([]string{"lib/check"}, info.Deny...), MinTimeout: info.CaseTimeout})
	}
	if len(a.Exercises) == 0 {
		return nil, fmt.Errorf("%s has no exercises", source)
	}
	return a, nil
}

var funcRE = regexp.MustCompile(`^func ([A-Za-z_][A-Za-z0-9_]*)\(`)

func funcName(sig string) string {
	m := funcRE.FindStringSubmatch(sig)
	if m == nil {
		return ""
	}
	return m[1]
}

// Options configure a grading run.
type Options struct {
	Root, Module string // the course checkout and its module path
	Out          string // where the gradebook, feedback and cache go
	Jobs         int
	Timeout      time.Duration // per exercise run; an exercise may get more (Exercise.MinTimeout)
	Memory       int64         // bytes of address space per exercise run
	Log          io.Writer     // progress, one line per submission
}

// Score is one exercise's outcome for one learner.
type Score struct {
	Exercise string  `json:"exercise"`
	Points   float64 `json:"points"`
	Max      int     `json:"max"`
	Status   string  `json:"status"`
	Details  string  `json:"details"` // the report shown in the feedback
}

// Graded is one submission's outcome, cached as JSON.
type Graded struct {
	Learner string  `json:"learner"`
	Hash    string  `json:"hash"`
	Scores  []Score `json:"scores"`
}

// Grade grades every submission of dir on a and writes OUT/gradebook.csv
// and OUT/feedback/LEARNER.md. Submissions already graded (same content,
// same grader version) are read from OUT/.cache.
func Grade(ctx context.Context, dir string, a *Assignment, o Options) ([]Graded, error) {
	subs, err := Find(dir, a.Slug)
	if err != nil {
		return nil, err
	}
	subs = slices.DeleteFunc(subs, func(s Submission) bool { return sameDir(filepath.Join(dir, s.Learner), o.Out) })
	if len(subs) == 0 {
		return nil, fmt.Errorf("no submissions in %s: put one .ipynb per learner, or one folder per learner", dir)
	}
	cache := filepath.Join(o.Out, ".cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, err
	}
	tc, err := newToolchain(o)
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "course-grade-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)

	out := make([]Graded, len(subs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var logMu sync.Mutex
	for range max(1, o.Jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				s := subs[i]
				key := cacheKey(s, a, o)
				path := filepath.Join(cache, key+".json")
				start := time.Now()
				g, cached := readCache(path)
				if !cached {
					g = gradeOne(ctx, tc, filepath.Join(work, fmt.Sprint(i)), s, a, o)
					g.Hash = key
					if ctx.Err() == nil {
						writeJSON(path, g)
					}
				}
				out[i] = g
				if o.Log != nil {
					logMu.Lock()
					total, max := g.total()
					how := fmt.Sprintf("%.1fs", time.Since(start).Seconds())
					if cached {
						how = "cached"
					}
					fmt.Fprintf(o.Log, "%-20s %6s/%d  (%s)\n", g.Learner, fmtPoints(total), max, how)
					logMu.Unlock()
				}
			}
		}()
	}
	for i := range subs {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("interrupted (%v): run the same command again to resume", err)
	}
	if err := writeGradebook(filepath.Join(o.Out, "gradebook.csv"), out); err != nil {
		return nil, err
	}
	for _, g := range out {
		if err := writeFileAtomic(filepath.Join(o.Out, "feedback", safeName(g.Learner)+".md"), []byte(feedback(g, a))); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func newToolchain(o Options) (*toolchain, error) {
	gomod, err := os.ReadFile(filepath.Join(o.Root, "go.mod"))
	if err != nil {
		return nil, err
	}
	ver := "1.26"
	if m := regexp.MustCompile(`(?m)^go (\S+)`).FindSubmatch(gomod); m != nil {
		ver = string(m[1])
	}
	tc := &toolchain{root: o.Root, module: o.Module, goVersion: ver, buildTimeout: 5 * time.Minute}
	if p, err := exec.LookPath("goimports"); err == nil {
		tc.goimports = p
	} else if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(strings.Split(string(out), string(filepath.ListSeparator))[0]), "bin", "goimports")
		if _, err := os.Stat(p); err == nil {
			tc.goimports = p
		}
	}
	return tc, nil
}

func cacheKey(s Submission, a *Assignment, o Options) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%v\x00%d\x00", Version, a.Source, s.Learner, o.Timeout, o.Memory)
	for _, e := range a.Exercises {
		fmt.Fprintf(h, "%s:%d:%v:%v\x00", e.ID, e.Points, e.Deny, e.MinTimeout)
	}
	h.Write(s.Data)
	return hex.EncodeToString(h.Sum(nil))[:24]
}

func readCache(path string) (Graded, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Graded{}, false
	}
	var g Graded
	if json.Unmarshal(data, &g) != nil {
		return Graded{}, false
	}
	return g, true
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(data, '\n'))
}

// writeFileAtomic writes a temporary file next to path and renames it.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

func (g Graded) total() (float64, int) {
	t, m := 0.0, 0
	for _, s := range g.Scores {
		t += s.Points
		m += s.Max
	}
	return t, m
}

// sameDir reports whether a and b are the same folder.
func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// gradeOne grades one submission. It never fails: every problem becomes
// a status of the exercises it affects.
func gradeOne(ctx context.Context, tc *toolchain, dir string, s Submission, a *Assignment, o Options) Graded {
	g := Graded{Learner: s.Learner}
	zero := func(status, details string) Graded {
		for _, e := range a.Exercises {
			g.Scores = append(g.Scores, Score{Exercise: e.ID, Max: e.Points, Status: status, Details: details})
		}
		return g
	}
	if s.Problem != "" {
		return zero("no submission", s.Problem)
	}
	_, cs, err := cells(s.Data)
	if err != nil {
		return zero("broken notebook", err.Error())
	}
	defer os.RemoveAll(dir)

	// The learner's cells: one per exercise (the last one, as GoNB keeps
	// the last definition), and the other declaration cells as helpers.
	exCells := map[string]*parsedCell{}
	exErr := map[string]error{}
	var helpers []*parsedCell
	for _, c := range cs {
		switch {
		case c.check != "" || lesson.IsSetup(lesson.Cell{Kind: lesson.Code, Source: c.source}):
			continue // the grader's checks replace the notebook's
		case c.exercise != "":
			p, err := parseCell(c.source)
			exCells[c.exercise], exErr[c.exercise] = p, err
		default:
			if p, err := parseCell(c.source); err == nil {
				helpers = append(helpers, p)
			}
		}
	}
	// Fallback: a cell declaring the exercise's function, when the marker
	// and the metadata are gone.
	for _, e := range a.Exercises {
		if _, ok := exCells[e.ID]; ok {
			continue
		}
		for i := len(helpers) - 1; i >= 0; i-- {
			if declares(helpers[i], e.Func) {
				exCells[e.ID] = helpers[i]
				break
			}
		}
	}

	scores := make([]Score, len(a.Exercises))
	ready := map[string]bool{} // exercises to build into the shared program
	for i, e := range a.Exercises {
		scores[i] = Score{Exercise: e.ID, Max: e.Points}
		p, found := exCells[e.ID]
		switch {
		case !found && exErr[e.ID] == nil:
			scores[i].Status = "missing"
			scores[i].Details = fmt.Sprintf("no cell for exercise %s: its cell (first line \"// Exercise %s …\") was deleted or renamed", e.ID, e.ID)
		case exErr[e.ID] != nil:
			scores[i].Status = "compile error"
			scores[i].Details = "the exercise cell does not parse: " + strings.TrimPrefix(exErr[e.ID].Error(), "cell.go:")
		case !declares(p, e.Func):
			scores[i].Status = "compile error"
			scores[i].Details = fmt.Sprintf("the exercise cell does not declare func %s", e.Func)
		default:
			if use := usesDenied(p, helpers, o.Module, e.Deny); use != "" {
				scores[i].Status = "flagged: uses " + use + ", the course's reference"
				scores[i].Details = fmt.Sprintf("exercise %s asks you to write this yourself; the submission calls %s from the course library, so it scores 0.", e.ID, use)
				continue
			}
			ready[e.ID] = true
		}
	}
	// One program with every exercise; if it does not compile, each
	// exercise alone with the helpers, then alone.
	built := map[string]string{} // exercise → folder of its program
	var all []*parsedCell
	all = append(all, helpers...)
	fns := map[string]string{}
	for _, e := range a.Exercises {
		if p := exCells[e.ID]; p != nil {
			all = append(all, p)
		}
		if ready[e.ID] {
			fns[e.ID] = e.Func
		}
	}
	if len(fns) > 0 {
		d := filepath.Join(dir, "all")
		if msg, err := tc.build(ctx, d, program(all), fns); err == nil && msg == "" {
			for id := range fns {
				built[id] = d
			}
		}
	}
	for i, e := range a.Exercises {
		if !ready[e.ID] || built[e.ID] != "" {
			continue
		}
		var msg string
		for k, cs := range [][]*parsedCell{all, append(append([]*parsedCell{}, helpers...), exCells[e.ID]), {exCells[e.ID]}} {
			if k == 0 && len(fns) == 1 {
				continue // already tried above
			}
			d := filepath.Join(dir, fmt.Sprintf("%s-%d", e.ID, k))
			m, err := tc.build(ctx, d, program(cs), map[string]string{e.ID: e.Func})
			if err != nil {
				m = err.Error()
			}
			if m == "" {
				built[e.ID] = d
				break
			}
			if msg == "" {
				msg = m
			}
		}
		if built[e.ID] == "" {
			scores[i].Status = "compile error"
			scores[i].Details = "your code does not compile:\n" + msg
		}
	}
	for i, e := range a.Exercises {
		d := built[e.ID]
		if d == "" {
			continue
		}
		lim := limits{timeout: e.timeLimit(o), memory: o.Memory}
		spec, _ := check.Lookup(e.ID)
		var in strings.Builder
		if err := spec.WriteInputs(&in); err != nil {
			scores[i].Status, scores[i].Details = "grader error", err.Error()
			continue
		}
		rr := run(ctx, d, e.ID, []byte(in.String()), lim)
		res := spec.Grade(strings.NewReader(string(rr.results)))
		scores[i].Points = res.Points
		scores[i].Status = res.Status
		scores[i].Details = maskHidden(res.Report())
		why := rr.why(lim)
		if why == "" && strings.Contains(scores[i].Details, "no result:") {
			why = "the program exited before all cases ran (os.Exit in your code?)"
		}
		if why != "" && res.Status != "ok" {
			scores[i].Details += why + "\n"
			if res.Points == 0 {
				scores[i].Status = "crashed"
				if rr.timedOut {
					scores[i].Status = "timeout"
				}
			}
		}
	}
	g.Scores = scores
	return g
}

// declares reports whether a cell declares the function name.
func declares(p *parsedCell, name string) bool {
	for _, d := range p.file.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && f.Name.Name == name {
			return true
		}
	}
	return false
}

// usesDenied returns the first denied use in the exercise cell ex or in
// the helper declarations it refers to, directly or through other
// helpers. Helper cells the exercise does not use (a lesson's setup code
// calling the library) do not count.
func usesDenied(ex *parsedCell, helpers []*parsedCell, module string, deny []string) string {
	if use := denied(ex.file, module, deny); use != "" {
		return use
	}
	type helperDecl struct {
		decl ast.Decl
		cell *parsedCell
	}
	byName := map[string][]helperDecl{}
	for _, h := range helpers {
		for _, d := range h.file.Decls {
			for _, name := range declNames(d) {
				byName[name] = append(byName[name], helperDecl{d, h})
			}
		}
	}
	seen := map[string]bool{}
	queue := []ast.Node{ex.file}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		var found string
		ast.Inspect(n, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || seen[id.Name] {
				return true
			}
			seen[id.Name] = true
			for _, hd := range byName[id.Name] {
				if use := deniedIn(hd.decl, hd.cell.file.Imports, module, deny); use != "" && found == "" {
					found = use
				}
				queue = append(queue, hd.decl)
			}
			return true
		})
		if found != "" {
			return found
		}
	}
	return ""
}

// declNames returns the names a top-level declaration declares.
func declNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			names = append(names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	return names
}

// maskHidden replaces the names of hidden cases, which describe their
// inputs, by numbers.
func maskHidden(report string) string {
	n := 0
	lines := strings.Split(report, "\n")
	for i, l := range lines {
		if j := strings.Index(l, "hidden: "); j >= 0 {
			n++
			rest := l[j+len("hidden: "):]
			_, after, found := strings.Cut(rest, ": ")
			l = l[:j] + fmt.Sprintf("hidden case %d", n)
			if found {
				l += ": " + after
			}
			lines[i] = l
		}
	}
	return strings.Join(lines, "\n")
}

func writeGradebook(path string, gs []Graded) error {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"learner", "exercise", "points", "max_points", "status"})
	sorted := append([]Graded(nil), gs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Learner < sorted[j].Learner })
	for _, g := range sorted {
		for _, s := range g.Scores {
			w.Write([]string{g.Learner, s.Exercise, fmtPoints(s.Points), fmt.Sprint(s.Max), s.Status})
		}
		t, m := g.total()
		w.Write([]string{g.Learner, "total", fmtPoints(t), fmt.Sprint(m), ""})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return writeFileAtomic(path, []byte(b.String()))
}

func feedback(g Graded, a *Assignment) string {
	var b strings.Builder
	t, m := g.total()
	fmt.Fprintf(&b, "# Feedback for %s — %s\n\nTotal: **%s / %d** points.\n\n", g.Learner, a.Slug, fmtPoints(t), m)
	b.WriteString("| exercise | points | status |\n|---|---|---|\n")
	for _, s := range g.Scores {
		fmt.Fprintf(&b, "| %s | %s / %d | %s |\n", s.Exercise, fmtPoints(s.Points), s.Max, s.Status)
	}
	for _, s := range g.Scores {
		fmt.Fprintf(&b, "\n## %s\n\n```text\n%s\n```\n", s.Exercise, strings.TrimRight(s.Details, "\n"))
	}
	return b.String()
}

func fmtPoints(p float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", p), "0"), ".")
}

var unsafeRE = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func safeName(s string) string {
	s = unsafeRE.ReplaceAllString(s, "_")
	if s == "" || s[0] == '.' {
		s = "_" + s
	}
	return s
}

// ErrNoAssignment is returned by InferAssignment when the submissions do
// not say which exercise source they come from.
var ErrNoAssignment = errors.New("cannot tell the assignment from the submissions")

// InferAssignment returns the exercise source named in the metadata of
// the submissions that have one (course.source), which must agree.
func InferAssignment(dir string) (string, error) {
	subs, err := Find(dir, "")
	if err != nil {
		return "", err
	}
	seen := map[string]int{}
	for _, s := range subs {
		if src, _, err := cells(s.Data); err == nil && src != "" {
			seen[src]++
		}
	}
	switch len(seen) {
	case 0:
		return "", ErrNoAssignment
	case 1:
		for src := range seen {
			return src, nil
		}
	}
	var names []string
	for src := range seen {
		names = append(names, src)
	}
	sort.Strings(names)
	return "", fmt.Errorf("submissions of several assignments (%s): grade them separately with -assignment", strings.Join(names, ", "))
}
