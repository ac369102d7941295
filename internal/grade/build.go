package grade

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/attention-in-go/course/internal/excerpt"
	"github.com/attention-in-go/course/internal/grade/sandbox"
	"github.com/attention-in-go/course/internal/lesson"
)

// child is a child program to build: the learner's file and the
// exercises it serves.
type child struct {
	learner   []byte
	exercises []Exercise
}

// mainFile is the grader's own file of the child program: it binds each
// exercise's task (lib/exercise) to the learner's function of that name,
// one per line, so that a compile error about a line names the exercise.
func (t *toolchain) mainFile(exs []Exercise) (src []byte, lineOf map[int]string) {
	imports := map[string]bool{t.module + "/lib/exercise": true}
	for _, e := range exs {
		imports[e.TaskPackage] = true
	}
	var paths []string
	for p := range imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b bytes.Buffer
	b.WriteString("package main\n\nimport (\n")
	alias := map[string]string{}
	for i, p := range paths {
		alias[p] = "grader_" + strconv.Itoa(i)
		fmt.Fprintf(&b, "\t%s %q\n", alias[p], p)
	}
	b.WriteString(")\n\nfunc main() {\n")
	fmt.Fprintf(&b, "\t%s.Serve(\n", alias[t.module+"/lib/exercise"])
	lineOf = map[int]string{}
	line := strings.Count(b.String(), "\n") + 1
	for _, e := range exs {
		fmt.Fprintf(&b, "\t\t%s.Bind(%s.%s, %s),\n", alias[t.module+"/lib/exercise"], alias[e.TaskPackage], e.Func, e.Func)
		lineOf[line] = e.Signature
		line++
	}
	b.WriteString("\t)\n}\n")
	return b.Bytes(), lineOf
}

// toolchain is how the grader builds child programs: the Go command in a
// sandbox that sees the Go installation, the module and build caches,
// the course (read-only but for the build cache) and the build folder.
// Within a grading run, a program whose source was built before (two
// learners who handed in the same code) is not built again.
type toolchain struct {
	root, module, goVersion string
	goroot, modcache, cache string
	goimports               string
	buildTimeout            time.Duration

	mu    sync.Mutex
	built map[[32]byte]builtProgram

	baselines baselines // the harness's own programs, per exercise
}

// tooLong is the message of a build stopped by the submission's budget.
const tooLong = "building your code took longer than the %v a submission's builds get, and was stopped"

// builtProgram is the outcome of one build: the program's path, or the
// compiler's message.
type builtProgram struct{ prog, msg string }

// buildCached is build, reusing the outcome of an earlier build of the
// same source in this run.
func (t *toolchain) buildCached(ctx context.Context, dir string, c child, cells map[int]*parsedCell) (prog, msg string, err error) {
	h := sha256.New()
	h.Write(c.learner)
	for _, e := range c.exercises {
		fmt.Fprintf(h, "\x00%s %s %s", e.ID, e.TaskPackage, e.Func)
	}
	var key [32]byte
	h.Sum(key[:0])
	t.mu.Lock()
	b, ok := t.built[key]
	t.mu.Unlock()
	if ok {
		return b.prog, b.msg, nil
	}
	msg, err = t.build(ctx, dir, c, cells)
	if err != nil {
		return "", "", err
	}
	b = builtProgram{msg: msg}
	if msg == "" {
		b.prog = filepath.Join(dir, "prog")
	}
	if msg == fmt.Sprintf(tooLong, t.buildTimeout) {
		// The budget may have gone to this submission's other builds:
		// another learner's identical source gets its own try.
		return b.prog, b.msg, nil
	}
	t.mu.Lock()
	if t.built == nil {
		t.built = map[[32]byte]builtProgram{}
	}
	t.built[key] = b
	t.mu.Unlock()
	return b.prog, b.msg, nil
}

func newToolchain(o Options) (*toolchain, error) {
	gomod, err := os.ReadFile(filepath.Join(o.Root, "go.mod"))
	if err != nil {
		return nil, err
	}
	tc := &toolchain{root: o.Root, module: o.Module, goVersion: "1.26", buildTimeout: 5 * time.Minute}
	mf, err := modfile.ParseLax(filepath.Join(o.Root, "go.mod"), gomod, nil)
	if err != nil {
		return nil, err
	}
	if mf.Go != nil {
		tc.goVersion = mf.Go.Version
	}
	out, err := exec.Command("go", "env", "GOROOT", "GOMODCACHE", "GOCACHE", "GOPATH").Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	env := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(env) != 4 {
		return nil, fmt.Errorf("go env printed %q", out)
	}
	tc.goroot, tc.modcache, tc.cache = env[0], env[1], env[2]
	if p, err := exec.LookPath("goimports"); err == nil {
		tc.goimports = p
	} else if p := filepath.Join(strings.Split(env[3], string(filepath.ListSeparator))[0], "bin", "goimports"); fileExists(p) {
		tc.goimports = p
	} else {
		// Notebook cells rely on GoNB's goimports for their imports; so
		// does the grader.
		return nil, fmt.Errorf("goimports is not installed: run make setup (it installs GoNB's tools)")
	}
	return tc, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// build writes the child c into a fresh module in dir and builds it to
// dir/prog in the sandbox. It returns the compiler's message (in the
// learner's terms) when the code does not compile.
func (t *toolchain) build(ctx context.Context, dir string, c child, cells map[int]*parsedCell) (msg string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	mainSrc, lineOf := t.mainFile(c.exercises)
	files := map[string][]byte{
		"go.mod":         fmt.Appendf(nil, "module learner\n\ngo %s\n", t.goVersion),
		"go.work":        fmt.Appendf(nil, "go %s\n\nuse (\n\t.\n\t%s\n)\n", t.goVersion, strconv.Quote(t.root)),
		"learner.go":     c.learner,
		"grader_main.go": mainSrc,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			return "", err
		}
	}
	// No inlining in the learner's package or the course's: a call into
	// the course library then stays a call to a symbol of its own name,
	// which the deny check finds in the program.
	script := fmt.Sprintf("/opt/goimports -w learner.go >/dev/null 2>&1; go build -p 1 -gcflags=-l -gcflags=%s/...=-l -ldflags=-w -o prog . 2>&1", t.module)
	binds := []sandbox.Bind{
		{Host: "/usr", Sandbox: "/usr"}, {Host: "/bin", Sandbox: "/bin"},
		{Host: "/lib", Sandbox: "/lib"},
		{Host: t.goroot, Sandbox: t.goroot}, {Host: t.modcache, Sandbox: t.modcache},
		{Host: t.root, Sandbox: t.root},
		{Host: t.cache, Sandbox: t.cache, Writable: true},
		{Host: dir, Sandbox: "/build", Writable: true},
	}
	if fileExists("/lib64") {
		binds = append(binds, sandbox.Bind{Host: "/lib64", Sandbox: "/lib64"})
	}
	binds = append(binds, sandbox.Bind{Host: t.goimports, Sandbox: "/opt/goimports"})
	// All the builds of a submission share one budget (buildPrograms'
	// deadline), so that a compile-time bomb retried exercise by exercise
	// costs buildTimeout once, not once per exercise.
	wall := t.buildTimeout
	if d, ok := ctx.Deadline(); ok {
		wall = min(wall, time.Until(d))
	}
	if wall <= 0 {
		return fmt.Sprintf(tooLong, t.buildTimeout), nil
	}
	out := excerpt.NewHead(16 << 10) // the compiler's first messages
	r := sandbox.Run(ctx, sandbox.Command{
		Args: []string{"/bin/sh", "-c", script},
		Dir:  "/build", Binds: binds,
		Env: []string{"PATH=" + filepath.Join(t.goroot, "bin") + ":/usr/bin:/bin", "HOME=/tmp", "GOPATH=/tmp/gopath",
			"GOROOT=" + t.goroot, "GOMODCACHE=" + t.modcache, "GOCACHE=" + t.cache, "GOWORK=/build/go.work",
			"GOPROXY=off", "GOFLAGS=-buildvcs=false", "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOTMPDIR=/tmp",
			"GOEXPERIMENT=" + lesson.GoExperiment}, // as the notebooks build (lesson.SetupCell)
		Limits: sandbox.Limits{Wall: wall, Memory: 4 << 30, FileSize: 1 << 30, TmpSize: 1 << 30},
		Stdout: out, Stderr: out,
	})
	if r.TimedOut || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf(tooLong, t.buildTimeout), nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if r.Err != nil || !fileExists(filepath.Join(dir, "prog")) {
		m := compilerMessage(out.String(), cells, lineOf)
		if m == "" {
			m = fmt.Sprintf("the build failed (%v)", r.Err)
		}
		return m, nil
	}
	return "", nil
}

// symbols returns the names of the functions linked into the program at
// path (its ELF symbol table).
func symbols(path string) (map[string]bool, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil, fmt.Errorf("reading the symbols of the learner's program: %v", err)
	}
	out := map[string]bool{}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			out[s.Name] = true
		}
	}
	return out, nil
}

// deniedUse returns the first symbol of syms that deny forbids (entries
// relative to module: "lib/attention" for any function of the package,
// "lib/posenc.NewTable" for one function, or the methods of one type), as
// the entry that forbids it ("lib/posenc.NewTable"), or "". The packages
// lib/check and lib/check/internal/reference are forbidden whole, package
// initialisation included: a child program never links them unless the
// learner's code does. (The library's other internal packages, such as
// lib/internal/eager, are its plumbing.)
func deniedUse(syms map[string]bool, module string, deny []string) string {
	return deniedUseNaming(syms, module, deny, nil)
}

// deniedUseNaming is deniedUse preferring a symbol the learner's code
// names itself (direct holds "lib/check.Lookup", module-relative): a call
// into lib/check links lib/attention too, and the feedback names the call.
func deniedUseNaming(syms map[string]bool, module string, deny []string, direct map[string]bool) string {
	var names []string
	for s := range syms {
		names = append(names, s)
	}
	sort.Strings(names)
	first := ""
	for _, s := range names {
		rel, ok := strings.CutPrefix(s, module+"/")
		if !ok {
			continue
		}
		hit := ""
		if strings.HasPrefix(rel, "lib/check.") || strings.HasPrefix(rel, "lib/check/internal/reference.") {
			hit = pkgOf(rel)
		} else {
			for _, d := range deny {
				if matchDeny(rel, d) {
					hit = d
					break
				}
			}
		}
		if hit == "" {
			continue
		}
		if first == "" {
			first = hit
		}
		pkg := pkgOf(rel)
		member, _, _ := strings.Cut(strings.TrimPrefix(rel, pkg+"."), ".")
		member, _, _ = strings.Cut(member, "[")
		if direct[pkg+"."+member] {
			return hit
		}
	}
	return first
}

// pkgOf is the package part of a module-relative symbol name.
func pkgOf(rel string) string {
	slash := strings.LastIndex(rel, "/")
	if dot := strings.Index(rel[slash+1:], "."); dot >= 0 {
		return rel[:slash+1+dot]
	}
	return rel
}

// matchDeny reports whether the module-relative symbol rel is what the
// deny entry d names.
func matchDeny(rel, d string) bool {
	slash := strings.LastIndex(d, "/")
	pkg, name, one := d, "", false
	if dot := strings.Index(d[slash+1:], "."); dot >= 0 {
		pkg, name, one = d[:slash+1+dot], d[slash+2+dot:], true
	}
	rest, ok := strings.CutPrefix(rel, pkg+".")
	if !ok {
		return false
	}
	if !one {
		// Any function of the package, but not its initialisation (which
		// any importer of an importer links).
		return !(rest == "init" || strings.HasPrefix(rest, "init.") || strings.HasPrefix(rest, "glob."))
	}
	for _, p := range []string{name, "(*" + name + ")"} {
		if rest == p || strings.HasPrefix(rest, p+".") || strings.HasPrefix(rest, p+"[") {
			return true
		}
	}
	return false
}
