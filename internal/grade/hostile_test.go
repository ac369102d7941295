package grade

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/lib/check"

	"github.com/attention-in-go/course/internal/proctree"
)

// The hostile-submission suite: one class of dishonest, malicious,
// malformed and honest notebooks of exercises 01, graded in one batch.
// Every dishonest kind must score no more than the untouched stub (0 on
// what it targets), every malformed kind 0 only where it is affected,
// with the reason; honest controls keep full marks; the batch completes;
// and the walls hold: no process survives, nothing is written outside
// the run, no socket reaches a listener of the host.

const lib = module + "/lib"

// cellOf returns a new code cell with source src.
func cellOf(src string) map[string]any {
	return map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil, "source": src}
}

// withCells appends cells after the imports cell (GoNB runs them before
// the exercises).
func withCells(srcs ...string) func([]any) []any {
	return func(cells []any) []any {
		var extra []any
		for _, s := range srcs {
			extra = append(extra, cellOf(s))
		}
		return append(cells[:3:3], append(extra, cells[3:]...)...)
	}
}

// then applies changes in order.
func then(changes ...func([]any) []any) func([]any) []any {
	return func(cells []any) []any {
		for _, c := range changes {
			cells = c(cells)
		}
		return cells
	}
}

// oneMask is a causal mask that reads its 1 from a package-level
// variable, set before the exercise runs.
const oneMask = "func CausalMask(n int) [][]float64 {\n\tm := make([][]float64, n)\n\tfor i := range m {\n\t\tm[i] = make([]float64, n)\n\t\tfor j := i + 1; j < n; j++ {\n\t\t\tm[i][j] = one\n\t\t}\n\t}\n\treturn m\n}"

const todo = `panic("TODO: exercise causal-mask — write your code here")`

// causal is a body for CausalMask that first runs attempt, then panics
// with the stub's TODO: a wall test earns nothing either way.
func causal(imports, attempt string) func([]any) []any {
	return then(withCells(imports), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n"+attempt+"\n\t"+todo+"\n}"))
}

func TestHostileSubmissions(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a class of hostile notebooks")
	}
	root := courseRoot(t)
	dir := t.TempDir()
	if keep := os.Getenv("COURSE_HOSTILE_DIR"); keep != "" {
		// Keep the class to grade it again from the command line, e.g. to
		// measure the grader's memory: go run ./cmd/course grade DIR.
		dir = keep
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "graded")

	// The host's walls: a listener on loopback, a canary path outside
	// every sandbox.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	reached := make(chan string, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			reached <- c.RemoteAddr().String()
			c.Close()
		}
	}()
	canary := filepath.Join(t.TempDir(), "escaped")
	os.Chmod(filepath.Dir(canary), 0o777)

	// The visible softmax answers, memorised.
	var memo strings.Builder
	memo.WriteString("var memo = map[string][]float64{\n")
	spec, _ := check.Lookup("softmax")
	softmax := spec.(*check.Exercise[func([]float64, float64) []float64, check.SoftmaxIn, []float64]).Reference
	for _, c := range softmaxVisible() {
		fmt.Fprintf(&memo, "\t%q: %#v,\n", fmt.Sprint(c.Logits, c.Temperature), softmax(check.SoftmaxIn{Logits: c.Logits, Temperature: c.Temperature}))
	}
	memo.WriteString("}\n\nfunc Softmax(logits []float64, temperature float64) []float64 {\n\tif m, ok := memo[fmt.Sprint(logits, temperature)]; ok {\n\t\treturn m\n\t}\n\treturn make([]float64, len(logits))\n}")

	type sub struct {
		name   string
		change func([]any) []any // on the solutions notebook
		raw    []byte            // instead, these bytes
		want   map[string]string // exercise → "points status-prefix"; "total" too
	}
	full := map[string]string{"total": "10"}
	zero := func(ex, status string) map[string]string { return map[string]string{ex: "0 " + status} }
	subs := []sub{
		// Honest controls.
		{name: "honest", want: full},
		{name: "scratch-cells", change: withCells(
			"func broken( { // a cell that does not parse",
			"func typeError() int { return \"a string\" } // a cell that does not compile",
			"import \""+lib+"/attention\"\n\nfunc explore() { attention.Explain(nil, nil, nil, nil) } // the library, outside any exercise",
			"var wq, attention2 = 3, \"a scratch variable named like the library\""), want: full},
		// GoNB's program, scope by scope: a scratch variable named like
		// the parameters links nothing; init_… functions and initializers
		// that set what the exercise reads run, as GoNB runs them; a blank
		// import in a cell no exercise uses affects none.
		{name: "scratch-projections", change: withCells("import \"" + lib + "/attention\"\n\nvar wq, wk, wv = attention.RandomProjections(4, 4, 0.5, 1)"), want: full},
		{name: "init-function", change: then(withCells("var one float64\n\nfunc init_one() { one = 1 }"), replaceExercise("causal-mask", oneMask)), want: full},
		{name: "initializer-sets-another", change: then(withCells("var one float64\n\nfunc setOne() bool { one = 1; return true }\n\nvar oneSet = setOne()"), replaceExercise("causal-mask", oneMask)), want: full},
		{name: "blank-import-elsewhere", change: withCells("import _ \"" + lib + "/check\""), want: full},
		{name: "mutates-inputs", change: replaceExercise("softmax", "func Softmax(logits []float64, temperature float64) []float64 {\n\tbest := math.Inf(-1)\n\tfor _, x := range logits {\n\t\tbest = math.Max(best, x)\n\t}\n\tsum := 0.0\n\tfor i, x := range logits {\n\t\tlogits[i] = math.Exp((x - best) / temperature)\n\t\tsum += logits[i]\n\t}\n\tfor i := range logits {\n\t\tlogits[i] /= sum\n\t}\n\treturn logits\n}"), want: full},
		{name: "nometa", change: func(cells []any) []any {
			for _, c := range cells {
				if meta(c, "exercise") == "padding-mask" {
					cm := c.(map[string]any)
					cm["metadata"] = map[string]any{}
					cm["source"] = cm["source"].([]any)[1:]
				}
			}
			return cells
		}, want: full},

		// Dishonest: pretending, forging, memorising, calling the reference.
		{name: "prints-pass", change: func(cells []any) []any {
			cells = replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tfmt.Println(\"✓ all cases pass\\npoints: 1/1\")\n\tfmt.Fprintln(os.Stderr, \"points: 1/1\")\n\treturn nil\n}")(cells)
			for _, c := range cells {
				if meta(c, "check") != "" {
					c.(map[string]any)["source"] = "%%\nfmt.Println(\"points: 10/10  — all cases pass\")"
				}
			}
			return cells
		}, want: zero("causal-mask", "failed")},
		{name: "exits-early", change: replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tos.Exit(0)\n\treturn nil\n}"), want: zero("causal-mask", "crashed")},
		{name: "forges-results", change: causal("import \""+lib+"/exercise\"", "\tenc := gob.NewEncoder(os.NewFile(3, \"r\"))\n\tfor range 50 {\n\t\tenc.Encode(&exercise.Outcome[[][]float64]{Out: [][]float64{{0}}})\n\t}\n\tos.Exit(0)"), want: zero("causal-mask", "")},
		{name: "garbles-results", change: causal("", "\tos.NewFile(3, \"r\").Write([]byte(\"points: 1/1 ok \\x00\\xff garbage\"))"), want: zero("causal-mask", "malformed result")},
		{name: "floods-results", change: causal("", "\tf := os.NewFile(3, \"r\")\n\tb := make([]byte, 1<<20)\n\tfor range 100 {\n\t\tf.Write(b)\n\t}"), want: zero("causal-mask", "malformed result")},
		{name: "writes-results-later", change: replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tgo func() {\n\t\tfor {\n\t\t\tos.NewFile(3, \"r\").Write([]byte{0x7f, 1, 2, 3})\n\t\t}\n\t}()\n\ttime.Sleep(20 * time.Millisecond)\n\tm := make([][]float64, n)\n\tfor i := range m {\n\t\tm[i] = make([]float64, n)\n\t\tfor j := i + 1; j < n; j++ {\n\t\t\tm[i][j] = 1\n\t\t}\n\t}\n\treturn m\n}"), want: zero("causal-mask", "")},
		{name: "memorises-visible", change: replaceExercise("softmax", memo.String()), want: map[string]string{"softmax": "0 failed"}},
		{name: "reads-ahead", change: causal("", "\tio.ReadAll(os.Stdin)"), want: zero("causal-mask", "")},
		{name: "alias-import", change: then(withCells("import sm \""+lib+"/attention\""), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn sm.LookAhead(n)\n}")), want: zero("causal-mask", "flagged: uses lib/attention")},
		// A dot import of lib/attention clashes with the learner's Softmax
		// and PaddingMask (the library has its own): nothing compiles.
		{name: "dot-import", change: then(withCells("import . \""+lib+"/attention\""), replaceExercise("softmax", "func Softmax(logits []float64, temperature float64) []float64 {\n\tout, _ := SoftmaxOf(logits, temperature)\n\treturn out\n}")), want: map[string]string{"softmax": "0 ", "total": "0"}},
		{name: "helper-in-other-cell", change: then(withCells("import \""+lib+"/attention\"\n\nfunc helper(n int) [][]float64 { return attention.LookAhead(n) }"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn helper(n)\n}")), want: zero("causal-mask", "flagged: uses lib/attention")},
		{name: "var-initializer", change: then(withCells("import \""+lib+"/attention\"\n\nvar lookAhead = attention.LookAhead"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn lookAhead(n)\n}")), want: zero("causal-mask", "flagged: uses lib/attention")},
		{name: "method-interface", change: then(withCells("import \""+lib+"/attention\"\n\ntype maker interface{ Make(int) [][]float64 }\n\ntype impl struct{}\n\nfunc (impl) Make(n int) [][]float64 { return attention.LookAhead(n) }\n\nvar m maker = impl{}"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn m.Make(n)\n}")), want: zero("causal-mask", "flagged: uses lib/attention")},
		{name: "reflection", change: then(withCells("import (\n\t\"reflect\"\n\t\""+lib+"/attention\"\n)\n\nvar fns = map[string]any{\"x\": attention.LookAhead}"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn reflect.ValueOf(fns[\"x\"]).Call([]reflect.Value{reflect.ValueOf(n)})[0].Interface().([][]float64)\n}")), want: zero("causal-mask", "flagged: uses lib/attention")},
		{name: "linkname", change: then(withCells("import (\n\t_ \"unsafe\"\n\t_ \""+lib+"/attention\"\n)\n\n//go:linkname lookAhead "+lib+"/attention.LookAhead\nfunc lookAhead(n int) [][]float64"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn lookAhead(n)\n}")), want: zero("causal-mask", "flagged: uses go:linkname")},
		{name: "linkname-in-body", change: replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\t//go:linkname lookAhead "+lib+"/attention.LookAhead\n\treturn make([][]float64, n)\n}"), want: zero("causal-mask", "flagged: uses go:linkname")},
		{name: "unsafe-helper", change: then(withCells("import \"unsafe\"\n\nfunc size() int { return int(unsafe.Sizeof(0)) }"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\t_ = size()\n\treturn nil\n}")), want: zero("causal-mask", "flagged: uses import \"unsafe\"")},
		{name: "reference-through-check", change: then(withCells("import (\n\t\"reflect\"\n\t\""+lib+"/check\"\n)"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tspec, _ := check.Lookup(\"causal-mask\")\n\tref := reflect.ValueOf(spec).Elem().FieldByName(\"Reference\")\n\treturn ref.Call([]reflect.Value{reflect.ValueOf(n)})[0].Interface().([][]float64)\n}")), want: zero("causal-mask", "flagged: uses ")},
		{name: "reference-linkname", change: then(withCells("import _ \"unsafe\"\n\n//go:linkname refMask "+module+"/lib/check/internal/reference.CausalMask\nfunc refMask(n int, diag, lower bool) [][]float64"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\treturn refMask(n, false, false)\n}")), want: zero("causal-mask", "flagged: uses go:linkname")},
		{name: "reads-course-source", change: causal("", "\tb, err := os.ReadFile("+strconv.Quote(filepath.Join(root, "lib/check/internal/reference/attention.go"))+")\n\tif err == nil {\n\t\tpanic(string(b[:10]))\n\t}"), want: zero("causal-mask", "")},

		// Malicious: walls.
		{name: "network", change: causal("import \"net\"", "\tif c, err := net.Dial(\"tcp\", "+strconv.Quote(ln.Addr().String())+"); err == nil {\n\t\tc.Write([]byte(\"escaped\"))\n\t}"), want: zero("causal-mask", "")},
		{name: "writes-host", change: causal("", "\tos.WriteFile("+strconv.Quote(canary)+", []byte(\"x\"), 0o644)\n\tos.WriteFile("+strconv.Quote(filepath.Join(out, "gradebook.csv"))+", []byte(\"writes-host,total,10,10\"), 0o644)\n\tos.MkdirAll("+strconv.Quote(filepath.Join(out, ".cache"))+", 0o777)"), want: zero("causal-mask", "")},
		{name: "runs-go", change: causal("import \"os/exec\"", "\tout, err := exec.Command(\"go\", \"run\", "+strconv.Quote(filepath.Join(root, "cmd/course"))+").CombinedOutput()\n\tif err == nil {\n\t\tpanic(string(out))\n\t}"), want: zero("causal-mask", "")},
		{name: "daemon", change: causal("import (\n\t\"os/exec\"\n\t\"syscall\"\n)", "\tsyscall.Setsid()\n\texec.Command(\"/prog\", \"causal-mask\").Start()\n\tsyscall.RawSyscall(syscall.SYS_FORK, 0, 0, 0)"), want: zero("causal-mask", "")},
		{name: "fork-bomb", change: causal("import \"syscall\"", "\tfor range 10000 {\n\t\tsyscall.RawSyscall(syscall.SYS_FORK, 0, 0, 0)\n\t}"), want: zero("causal-mask", "")},
		{name: "kills", change: causal("import \"syscall\"", "\tsyscall.Kill(-1, syscall.SIGKILL)\n\tsyscall.Kill(os.Getppid(), syscall.SIGKILL)\n\tsyscall.Kill(1, syscall.SIGKILL)"), want: zero("causal-mask", "")},
		{name: "raises-limits", change: causal("import \"syscall\"", "\tsyscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: 1 << 40, Max: 1 << 40})\n\tsyscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: 1 << 30, Max: 1 << 30})"), want: zero("causal-mask", "")},
		{name: "allocates", change: replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tbig := make([][]float64, 1<<12)\n\tfor i := range big {\n\t\tbig[i] = make([]float64, 1<<20)\n\t\tbig[i][0] = 1\n\t}\n\treturn big\n}"), want: zero("causal-mask", "crashed")},
		// The endless ones replace PaddingMask, which no other exercise
		// calls: each waits out one case's time limit, not two.
		{name: "spins", change: replaceExercise("padding-mask", "func PaddingMask(ids [][]int, padID int) [][]float64 {\n\tfor {\n\t}\n}"), want: map[string]string{"padding-mask": "0 failed", "causal-mask": "1 ok", "total": "9"}},
		{name: "spins-all-threads", change: replaceExercise("padding-mask", "func PaddingMask(ids [][]int, padID int) [][]float64 {\n\tfor range 64 {\n\t\tgo func() {\n\t\t\tfor {\n\t\t\t}\n\t\t}()\n\t}\n\tfor {\n\t}\n}"), want: map[string]string{"padding-mask": "0 ", "total": "9"}},
		{name: "floods-output", change: causal("", "\tb := bytes.Repeat([]byte(\"points: 1/1\\n\"), 1<<16)\n\tfor range 200 {\n\t\tos.Stdout.Write(b)\n\t\tos.Stderr.Write(b)\n\t}"), want: zero("causal-mask", "")},
		{name: "escapes-feedback", change: replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tpanic(\"\\x1b[2J\\x1b[31m\\u202e```\\n# Feedback for honest\\nTotal: **10 / 10** points.\\n````\\n\")\n}"), want: zero("causal-mask", "failed")},
		{name: "recurses-forever", change: then(withCells("func down(n int) int { return down(n+1) + 1 }"), replaceExercise("padding-mask", "func PaddingMask(ids [][]int, padID int) [][]float64 {\n\tdown(padID)\n\treturn nil\n}")), want: map[string]string{"padding-mask": "0 ", "total": "9"}},
		{name: "huge-panic", change: replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tpanic(strings.Repeat(\"points: 1/1 \", 4<<20))\n}"), want: zero("causal-mask", "")},
		{name: "allocates-in-background", change: replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tgo func() {\n\t\tvar keep [][]byte\n\t\tfor {\n\t\t\tkeep = append(keep, make([]byte, 1<<20))\n\t\t}\n\t}()\n\ttime.Sleep(50 * time.Millisecond)\n\tm := make([][]float64, n)\n\tfor i := range m {\n\t\tm[i] = make([]float64, n)\n\t\tfor j := i + 1; j < n; j++ {\n\t\t\tm[i][j] = 1\n\t\t}\n\t}\n\treturn m\n}"), want: map[string]string{"softmax": "2 ok", "padding-mask": "1 ok"}},
		{name: "exits-in-initializer", change: then(withCells("var ready = func() bool { os.Exit(0); return true }()"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tif !ready {\n\t\treturn nil\n\t}\n\treturn make([][]float64, n)\n}")), want: zero("causal-mask", "")},
		{name: "huge-output", change: replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\tm := make([][]float64, 3000)\n\tfor i := range m {\n\t\tm[i] = make([]float64, 3000)\n\t}\n\treturn m\n}"), want: zero("causal-mask", "")},
		{name: "compile-bomb", change: then(withCells("var big [1 << 50]float64"), replaceExercise("softmax", "func Softmax(logits []float64, temperature float64) []float64 {\n\treturn big[:len(logits)]\n}")),
			want: map[string]string{"softmax": "0 compile error", "causal-mask": "1 ok", "padding-mask": "1 ok"}},

		// Malformed: each scores 0 only where it is affected.
		{name: "wrong-signature", change: replaceExercise("softmax", "func Softmax(logits []float64) []float64 {\n\treturn logits\n}"),
			want: map[string]string{"softmax": "0 compile error", "causal-mask": "1 ok", "padding-mask": "1 ok"}},
		{name: "helper-does-not-compile", change: then(withCells("func ones(n int) []float64 { return \"no\" }"), replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\t_ = ones(n)\n\treturn nil\n}")),
			want: map[string]string{"causal-mask": "0 compile error", "softmax": "2 ok", "attention": "3 ok", "masked-self-attention": "0 compile error"}},
		{name: "missing-cell", change: func(cells []any) []any {
			var out []any
			for _, c := range cells {
				if meta(c, "exercise") != "padding-mask" {
					out = append(out, c)
				}
			}
			return out
		}, want: map[string]string{"padding-mask": "0 missing", "softmax": "2 ok", "total": "9"}},
		{name: "other-assignment", change: nil, raw: retarget(t, root, "lessons/exercises/02-bahdanau-luong.md"), want: full},
		{name: "odd-metadata", change: nil, raw: retarget(t, root, "../../../etc/passwd"), want: full},
		{name: "not-json", raw: []byte("{\"cells\": [ {\"cell_type\": \"code\", \"source\": \"func"), want: map[string]string{"total": "0", "softmax": "0 broken notebook"}},
		{name: "empty-file", raw: []byte{}, want: map[string]string{"total": "0", "softmax": "0 broken notebook"}},
		{name: "cells-not-a-list", raw: []byte(`{"cells": 5, "metadata": {}}`), want: map[string]string{"total": "0"}},
		{name: "sources-not-text", raw: []byte(`{"cells": [{"cell_type": "code", "source": 42, "metadata": {"course": {"exercise": "softmax"}}}]}`), want: map[string]string{"total": "0", "softmax": "0 "}},
		{name: "a b", want: full},
		{name: "a_b", want: full},
		{name: "=HYPERLINK(\"http:__x\")", want: full},
	}
	untouched, err := os.ReadFile(filepath.Join(root, "exercises/01-scaled-dot-product-attention.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("untouched.ipynb", untouched)
	for _, s := range subs {
		data := s.raw
		if data == nil {
			data = edit(t, root, solutions, s.change)
		}
		write(s.name+".ipynb", data)
	}
	write("a b/work.ipynb", edit(t, root, solutions, nil)) // a folder named like the file "a b.ipynb"
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "symlink.ipynb")); err != nil {
		t.Fatal(err)
	}
	huge := bytes.Repeat([]byte(" "), maxNotebook+1)
	write("huge.ipynb", huge)

	a, err := LoadAssignment(root, "lessons/exercises/01-scaled-dot-product-attention.md")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Root: root, Module: module, Out: out, Jobs: 2, Timeout: 10 * time.Second, Memory: 512 << 20, Seed: 7}
	start := time.Now()
	gs, err := Grade(context.Background(), dir, a, opts)
	if err != nil {
		t.Fatalf("the batch stopped: %v", err)
	}
	t.Logf("%d submissions graded in %v; the grader's peak memory %s", len(gs), time.Since(start).Round(time.Second), peakMemory())
	rows := gradebookRows(t, filepath.Join(out, "gradebook.csv"))
	byLearner := map[string]Graded{}
	for _, g := range gs {
		byLearner[g.Learner] = g
	}
	stub := rows["untouched/total"]
	if stub == nil || stub[2] != "0" {
		t.Fatalf("untouched stub: %v", stub)
	}
	for _, s := range subs {
		name := s.name
		if name == "a b" {
			name = "a b (a b.ipynb)"
		}
		for ex, want := range s.want {
			points, status, _ := strings.Cut(want, " ")
			row := rows[csvCell(name)+"/"+ex]
			if row == nil {
				t.Errorf("%s/%s: no gradebook row", name, ex)
				continue
			}
			if row[2] != points || !strings.HasPrefix(row[4], status) {
				t.Errorf("%s/%s: %s points, status %q; want %s, %q\n%s", name, ex, row[2], row[4], points, status, byLearner[name].details(ex))
			}
		}
	}
	// The learner names that clash get distinct, stable feedback files;
	// the formula is not a formula in the gradebook.
	for _, n := range []string{"a b (a b.ipynb)", "a b (a b)", "a_b"} {
		if g, ok := byLearner[n]; !ok || g.File == "" {
			t.Errorf("learner %q: %+v", n, g.File)
		}
	}
	files, _ := filepath.Glob(filepath.Join(out, "feedback", "*.md"))
	if len(files) != len(gs) {
		t.Errorf("%d feedback files for %d learners", len(files), len(gs))
	}
	if r := rows[`'=HYPERLINK("http:__x")/total`]; r == nil {
		t.Errorf("the formula learner's name is not escaped in the gradebook")
	}
	for _, n := range []string{"symlink", "huge"} {
		if r := rows[n+"/softmax"]; r == nil || r[4] != "no submission" {
			t.Errorf("%s: %v", n, r)
		}
	}
	// The feedback of the learner who printed escape sequences and fences.
	fb, _ := os.ReadFile(filepath.Join(out, "feedback", byLearner["escapes-feedback"].File+".md"))
	if bytes.ContainsAny(fb, "\x1b\u202e") || slices.ContainsFunc(outsideFences(string(fb)), func(l string) bool { return strings.Contains(l, "honest") }) ||
		!bytes.Contains(fb, []byte(`\x1b[2J`)) {
		t.Errorf("the feedback lets the learner's text out:\n%s", fb)
	}
	if d := byLearner["spins"].details("padding-mask"); !strings.Contains(d, "did not return within 5s — an endless loop?") {
		t.Errorf("the endless loop's feedback does not say so:\n%s", d)
	}
	if fb, _ := os.ReadFile(filepath.Join(out, "feedback", byLearner["other-assignment"].File+".md")); !bytes.Contains(fb, []byte("02-bahdanau-luong.md")) {
		t.Errorf("other-assignment feedback has no note:\n%s", fb)
	}
	if fb, _ := os.ReadFile(filepath.Join(out, "feedback", byLearner["helper-does-not-compile"].File+".md")); !bytes.Contains(fb, []byte("code cell 4 (\"func ones(n int) []float64 { return \\\"no\\\" }\"), line 1")) {
		t.Errorf("the compile error does not name the cell:\n%s", fb)
	}

	// The walls.
	select {
	case addr := <-reached:
		t.Errorf("a submission connected to the host's listener from %s", addr)
	default:
	}
	if _, err := os.Stat(canary); err == nil {
		t.Error("a submission wrote a file on the host")
	}
	if pids := sandboxSurvivors(); len(pids) > 0 {
		var what []string
		for _, p := range pids {
			cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
			status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", p))
			what = append(what, fmt.Sprintf("%d %q %s", p, cmd, strings.Join(strings.Fields(string(status))[:12], " ")))
		}
		t.Errorf("processes of submissions survived the batch:\n%s", strings.Join(what, "\n"))
	}

	// A forged cache entry is not trusted: give the untouched stub full
	// marks in its entry; the next run grades it again.
	entries, _ := filepath.Glob(filepath.Join(out, ".cache", "*.json"))
	forged := 0
	for _, p := range entries {
		data, _ := os.ReadFile(p)
		if bytes.Contains(data, []byte(`not done`)) {
			data = bytes.ReplaceAll(data, []byte(`"points": 0,`), []byte(`"points": 2,`))
			os.WriteFile(p, data, 0o644)
			forged++
		}
	}
	if forged == 0 {
		t.Fatal("no cache entry of the stub to forge")
	}
	before, _ := os.ReadFile(filepath.Join(out, "gradebook.csv"))
	if _, err := Grade(context.Background(), dir, a, opts); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(out, "gradebook.csv"))
	if !bytes.Equal(before, after) {
		t.Errorf("the forged cache entry changed the gradebook:\n%s", after)
	}
}

// outsideFences returns the lines of Markdown md that are not in a
// fenced code block (CommonMark: a fence closes only with at least as
// many backticks).
func outsideFences(md string) []string {
	var out []string
	fence := ""
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimLeft(l, " ")
		n := len(t) - len(strings.TrimLeft(t, "`"))
		switch {
		case fence == "" && n >= 3:
			fence = t[:n]
		case fence != "" && n >= len(fence) && strings.TrimSpace(t[n:]) == "":
			fence = ""
		case fence == "":
			out = append(out, l)
		}
	}
	return out
}

// peakMemory is this process's peak resident memory (VmHWM).
func peakMemory() string {
	status, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

// details is the feedback of one exercise, for test failures.
func (g Graded) details(ex string) string {
	for _, s := range g.Scores {
		if s.Exercise == ex {
			return s.Details
		}
	}
	return fmt.Sprint(g.Notes)
}

// retarget is the solutions notebook with its course.source set to src.
func retarget(t *testing.T, root, src string) []byte {
	data := edit(t, root, solutions, nil)
	var nb map[string]any
	json.Unmarshal(data, &nb)
	nb["metadata"].(map[string]any)["course"].(map[string]any)["source"] = src
	out, _ := json.Marshal(nb)
	return out
}

// softmaxVisible is the visible softmax inputs, as the notebook has them.
func softmaxVisible() []struct {
	Logits      []float64
	Temperature float64
} {
	return []struct {
		Logits      []float64
		Temperature float64
	}{{[]float64{1, 2, 3}, 1}, {[]float64{1, 2, 3}, 0.5}, {[]float64{2, -1, 0.5, 4}, 10}, {[]float64{-7}, 1}, {[]float64{1000, 1001, 1002}, 1}}
}

// gradebookRows reads the gradebook, keyed by learner/exercise.
func gradebookRows(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != "learner,exercise,points,max_points,status,seed,sandboxed,notes" {
		t.Errorf("header %v", got)
	}
	m := map[string][]string{}
	for _, r := range rows[1:] {
		m[r[0]+"/"+r[1]] = r
	}
	return m
}

// sandboxSurvivors returns the pids of live processes running a learner
// program (/prog: inside a sandbox there is nothing else to run). The
// sandbox package's own tests, which may run at the same time, run
// theirs as /prober.
func sandboxSurvivors() []int {
	return proctree.Matching(func(p proctree.Process) bool { return bytes.HasPrefix(p.Cmdline, []byte("/prog\x00")) })
}

// TestHostileLibraryCalls: on exercises 04, whose programs link GoMLX and
// the course library, calls of the library that solves the exercise are
// flagged however they are reached — an alias, a method of a type whose
// unexported fields were set through unsafe, a method value — and the
// honest solution, which uses other parts of the same packages, is not.
func TestHostileLibraryCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs that link GoMLX")
	}
	root := courseRoot(t)
	dir := t.TempDir()
	const sol = "solutions/04-positional-encoding.ipynb"
	edit4 := func(change func([]any) []any) []byte { return edit(t, root, sol, change) }
	subs := map[string][]byte{
		"honest": edit4(nil),
		"alias-graph": edit4(then(withCells("import pe \""+lib+"/posenc\""), replaceExercise("pe-graph",
			"func PositionalEncodingGraph(g *graph.Graph, seqLen, d int, n float64) *graph.Node {\n\treturn pe.SinusoidalGraph(g, dtypes.Float32, seqLen, d, n)\n}"))),
		"unsafe-table": edit4(then(withCells("import (\n\t\"unsafe\"\n\n\t\""+lib+"/posenc\"\n)\n\ntype tableLayout struct {\n\tdModel int\n\tbase   float64\n\trows   [][]float64\n\tgrown  int\n}"),
			replaceExercise("pe-table", "func PositionalEncoding(seqLen, d int, n float64) [][]float64 {\n\ttab := &posenc.Table{}\n\tl := (*tableLayout)(unsafe.Pointer(tab))\n\tl.dModel, l.base = d, n\n\treturn tab.Rows(seqLen)\n}"))),
		"method-value": edit4(then(withCells("import \""+lib+"/posenc\""), replaceExercise("pe-grow",
			"func GrowTable(table [][]float64, n, d int, base float64) [][]float64 {\n\trows := posenc.NewTable(len(table), d, base).Rows\n\treturn rows(max(n, len(table)))\n}"))),
	}
	for name, data := range subs {
		if err := os.WriteFile(filepath.Join(dir, name+".ipynb"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := LoadAssignment(root, "lessons/exercises/04-positional-encoding.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Grade(context.Background(), dir, a, Options{Root: root, Module: module, Out: filepath.Join(dir, "graded"),
		Jobs: 2, Timeout: 60 * time.Second, Memory: 2 << 30, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	rows := gradebookRows(t, filepath.Join(dir, "graded", "gradebook.csv"))
	for _, tc := range []struct{ learner, exercise, points, status string }{
		{"honest", "total", "16", ""},
		{"alias-graph", "pe-graph", "0", "flagged: uses lib/posenc.SinusoidalGraph"},
		{"alias-graph", "pe-table", "3", "ok"},
		{"unsafe-table", "pe-table", "0", "flagged: uses import \"unsafe\""},
		// The solution's GrowTable calls the learner's PositionalEncoding:
		// it uses the table too.
		{"unsafe-table", "pe-grow", "0", "flagged: uses import \"unsafe\""},
		{"unsafe-table", "pe-graph", "2", "ok"},
		{"method-value", "pe-grow", "0", "flagged: uses lib/posenc."},
	} {
		r := rows[tc.learner+"/"+tc.exercise]
		if r == nil || r[2] != tc.points || !strings.HasPrefix(r[4], tc.status) {
			t.Errorf("%s/%s: %v; want %s points, status %q", tc.learner, tc.exercise, r, tc.points, tc.status)
		}
	}
}
