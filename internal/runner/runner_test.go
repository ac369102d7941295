package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/internal/claim"
	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/notebook"
	"github.com/attention-in-go/course/internal/runner/runnertest"
	"github.com/attention-in-go/course/lib/backend"
)

func TestReport(t *testing.T) {
	probe, err := notebook.ReadFile(filepath.Join("..", "notebook", "testdata", "probe.executed.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	fine := &notebook.Notebook{Cells: []notebook.Cell{
		{Type: notebook.Markdown, Source: "# T"},
		{Type: notebook.Code, Source: "%%\nplot()", Outputs: []notebook.Output{
			{Type: notebook.DisplayData, Data: map[string]string{"image/png": "iVBOR"}},
		}},
	}}
	drifted := &notebook.Notebook{Cells: []notebook.Cell{
		{Type: notebook.Markdown, Source: "# T\n\nIt reaches 50.7%.", Metadata: map[string]any{coursemeta.Key: map[string]any{"claims": []any{`"50.7%" ~ /accuracy ([\d.]+)%/`}}}},
		{Type: notebook.Code, Source: "%%\nrun()", Outputs: []notebook.Output{{Type: notebook.Stream, Name: "stdout", Text: "accuracy 48.2%\n"}}},
	}}
	tests := []struct {
		name   string
		res    Result
		wantOK bool
		want   []string // lines, in order, each a regexp matching a whole line
	}{
		{
			name:   "ok",
			res:    Result{Elapsed: 23400 * time.Millisecond, Notebook: fine},
			wantOK: true,
			want:   []string{`ok   notebooks/x\.ipynb  23\.4s  1 cells  1 images`},
		},
		{
			name: "failed cells",
			res:  Result{Elapsed: 4 * time.Second, Notebook: probe},
			want: []string{
				`FAIL notebooks/x\.ipynb  4\.0s  6 of 14 cells failed`,
				`  cell In\[2\]: panic\("boom"\)`,
				`      panic: boom`,
				`  cell In\[3\]: fmt\.Println\(undefinedVar\)`,
				`      Cell\[3\]: Line 2 \./main\.go:11:13: undefined: undefinedVar`,
				`  cell In\[4\]: import "os"`,
				`      exit status 3`,
				`  cell In\[11\]: import "log"`,
				`  cell In\[12\]: var m map\[string\]int`,
				`  cell In\[13\]: func f\(\) int \{ return "x" \}`,
			},
		},
		{
			name: "a claim of the text drifted",
			res:  Result{Elapsed: 2 * time.Second, Notebook: drifted},
			want: []string{
				`FAIL notebooks/x\.ipynb  2\.0s  1 claim of the text does not hold`,
				`  text before In\[1\]: # T`,
				`      claim "50\.7%" ~ /accuracy \(\[\\d\.\]\+\)%/: the text says 50\.7, the notebook computed 48\.2 \(tolerance as rounded\)`,
			},
		},
		{
			name: "timeout",
			res:  Result{Elapsed: time.Minute, Err: errors.New("timed out after 1m0s"), Stderr: []string{"last words"}},
			want: []string{`FAIL notebooks/x\.ipynb  60\.0s`, `  timed out after 1m0s`, `  nbconvert's stderr ends with:`, `    last words`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if ok := tt.res.Report(&out, "notebooks/x.ipynb"); ok != tt.wantOK {
				t.Errorf("report = %v, want %v", ok, tt.wantOK)
			}
			runnertest.CheckLines(t, out.String(), tt.want)
		})
	}
}

func TestLimitLines(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want []string
	}{
		{"a\nb\n", 3, []string{"a", "b"}},
		{"a\nb\nc", 3, []string{"a", "b", "c"}},
		{"a\nb\nc\nd\ne", 3, []string{"a", "b", "… (3 more lines)"}},
	}
	for _, tt := range tests {
		got := limitLines(tt.in, tt.max)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("limitLines(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestStderrLines(t *testing.T) {
	stderr := "[NbConvertApp] Converting notebook x.ipynb to notebook\n" +
		"I1122 21:23:21.889721   10142 dispatcher.go:237] \x1b[7;39;32m[ae55557e]\x1b[0m Shutting down\n\n" +
		"Traceback (most recent call last):\n" +
		"W1122 21:23:21.892924   10142 exec.go:124] gopls failed\n" +
		"goroutine 1 [running]:\ngithub.com/janpfeifer/gonb/internal/util.GetStackTrace(...)\n\t/root/go/pkg/mod/x.go:16\n" +
		"github.com/x/y.(*Client).stopLocked(0x1cd98ebd4008)\n\t/root/y.go:179 +0x85\nmain.main()\n" +
		"nbclient.exceptions.CellTimeoutError: A cell timed out\n"
	got := stderrLines(stderr, 2)
	want := []string{"Traceback (most recent call last):", "nbclient.exceptions.CellTimeoutError: A cell timed out"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stderrLines(…, 2) = %q, want %q", got, want)
	}
}

// runAll runs b with a runner of a minute per notebook, notebooks named by
// their file name, and returns the report and how many failed.
func runAll(t *testing.T, b Batch) (report string, failed int) {
	t.Helper()
	r, err := New(context.Background(), Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	b.Name = filepath.Base
	var out bytes.Buffer
	failed, err = r.RunAll(context.Background(), &out, b)
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), failed
}

func TestRunNotebooks(t *testing.T) {
	runnertest.RequireJupyter(t)
	dir := t.TempDir()
	runnertest.WriteNotebook(t, dir, "good", "# Good\n```go\n%%\nfmt.Println(\"hi\")\n```\n```go\nfunc two() int { return 2 }\n```\n")
	runnertest.WriteNotebook(t, dir, "bad", "# Bad\n```go\n%%\nfmt.Println(\"fine\")\n```\n"+
		"```go\n%%\npanic(\"boom\")\n```\n```go\n%%\nfmt.Println(nope)\n```\n")
	// With 2 jobs both notebooks run at once, and the report keeps the order
	// given: bad, whose three cells take longer, before good.
	for _, tt := range []struct {
		jobs  string
		order []string
	}{
		{"1", []string{"good.ipynb", "bad.ipynb"}},
		{"2", []string{"bad.ipynb", "good.ipynb"}},
	} {
		t.Run("j="+tt.jobs, func(t *testing.T) {
			keep := filepath.Join(dir, "out"+tt.jobs)
			jobs, _ := strconv.Atoi(tt.jobs)
			var paths []string
			for _, name := range tt.order {
				paths = append(paths, filepath.Join(dir, name))
			}
			stdout, failed := runAll(t, Batch{Paths: paths, Jobs: jobs, OutDir: keep})
			if failed != 1 {
				t.Errorf("RunAll: %d failed, want 1", failed)
			}
			good := []string{`ok   good\.ipynb  \d+\.\ds  2 cells  0 images`}
			bad := []string{
				`FAIL bad\.ipynb  \d+\.\ds  2 of 3 cells failed`,
				`  cell In\[2\]: panic\("boom"\)`,
				`      panic: boom`,
				`  cell In\[3\]: fmt\.Println\(nope\)`,
				`      Cell\[3\]: Line 2 \./main\.go:\d+:\d+: undefined: nope`,
			}
			want := append(good, bad...)
			if tt.order[0] == "bad.ipynb" {
				want = append(bad, good...)
			}
			runnertest.CheckLines(t, stdout, append(want, `1 of 2 notebooks failed`))
			for _, name := range tt.order {
				if _, err := notebook.ReadFile(filepath.Join(keep, name)); err != nil {
					t.Errorf("executed notebook not kept: %v", err)
				}
			}
		})
	}
}

// TestChildEnvIsHeadless checks that headless runs tell the cells so, once,
// whatever the parent's environment says.
func TestChildEnvIsHeadless(t *testing.T) {
	t.Setenv(headlessEnv, "0")
	n := 0
	for _, kv := range childEnv() {
		if strings.HasPrefix(kv, headlessEnv+"=") {
			n++
			if kv != headlessEnv+"=1" {
				t.Errorf("childEnv has %s, want %s=1", kv, headlessEnv)
			}
		}
	}
	if n != 1 {
		t.Errorf("childEnv sets %s %d times, want once", headlessEnv, n)
	}
}

// TestRunJobsSharedThenAlone: with 2 jobs, notebooks run side by side,
// those whose text times this machine too; a run whose timing comes too
// close to the text's for a shared machine (here Slowdown is so large
// that any does) runs again alone, and that run is judged and reported:
// c passes alone; d, far enough from its text's figure, is not run
// again, nor is e, whose text is stale even for a run alone. Each
// notebook sleeps 3 s in a cell and appends when it slept to a log: every
// run's sleep, the first runs' too, shows what ran together.
func TestRunJobsSharedThenAlone(t *testing.T) {
	runnertest.RequireJupyter(t)
	dir := t.TempDir()
	logFile := filepath.Join(dir, "sleeps.log")
	sleep := func(name string) string {
		return fmt.Sprintf("```go\n%%%%\nstart := time.Now()\ntime.Sleep(3 * time.Second)\n"+
			"f, err := os.OpenFile(%q, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)\nif err != nil {\n\tpanic(err)\n}\n"+
			"fmt.Fprintf(f, \"%s %%d %%d\\n\", start.UnixNano(), time.Now().UnixNano())\nf.Close()\nfmt.Println(\"slept\")\n```\n", logFile, name)
	}
	runnertest.WriteNotebook(t, dir, "a", "# a\n"+sleep("a"))
	here := runMachine(backend.KernelsWith(childEnv()))
	other := here
	other.Cores++
	timing := func(figure string, factor int, m claim.Machine) string {
		return fmt.Sprintf("This notebook takes about %s s on %d cores with %s.\n\n<!-- claims\n\"%s s\" ~ notebook ×%d on %s\n-->\n\n", figure, m.Cores, m.Kernels, figure, factor, m.Label())
	}
	// b states a timing only for another machine; c one for this machine
	// (and another), held alone to ≥ 0.3 s and shared to ≥ 300 s; d to
	// ≥ 3 s shared; e, stale, to ≥ 300 s alone.
	runnertest.WriteNotebook(t, dir, "b", "# b\n\n"+timing("3", 10, other)+sleep("b"))
	runnertest.WriteNotebook(t, dir, "c", "# c\n\n"+timing("3", 10, here)+timing("3", 10, other)+sleep("c"))
	runnertest.WriteNotebook(t, dir, "d", "# d\n\n"+timing("3", 1000, here)+sleep("d"))
	runnertest.WriteNotebook(t, dir, "e", "# e\n\n"+timing("3000", 10, here)+sleep("e"))
	names := []string{"a", "b", "c", "d", "e"}
	var paths []string
	for _, name := range names {
		paths = append(paths, filepath.Join(dir, name+".ipynb"))
	}
	stdout, failed := runAll(t, Batch{Paths: paths, Jobs: 2, Slowdown: 1000, OutDir: filepath.Join(dir, "out")})
	if failed != 1 {
		t.Fatalf("RunAll: %d failed, want 1 (e)\n%s", failed, stdout)
	}
	runnertest.CheckLines(t, stdout, []string{`ok   a\.ipynb .*`, `ok   b\.ipynb .*`,
		regexp.QuoteMeta(fmt.Sprintf("     (timings not checked: the text's are for %s, this run is on %s)", other, here)),
		`ok   c\.ipynb .*`, `     \(ran again alone: beside other notebooks it took [\d.]+s, and 1 claim of its text did not hold\)`,
		`       claim "3 s" ~ notebook ×10 on .*: the text says 3 \(on .*\), this run took [\d.]+ beside other work, which may have slowed it up to 1000 times: it may be stale — run it alone`,
		regexp.QuoteMeta(fmt.Sprintf("     (checked the text's timings for %s, this run's machine; not those for %s)", here, other)),
		`ok   d\.ipynb .*`,
		`FAIL e\.ipynb .*  1 claim of the text does not hold`, `.*this run took .*: more than 10 times less — measure it again and update the text`})
	if n := strings.Count(stdout, "(ran again alone"); n != 1 {
		t.Errorf("%d runs again alone, want 1 (c, not d or e):\n%s", n, stdout)
	}
	type span struct {
		name       string
		start, end int64
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	var spans []span
	runs := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		var s span
		if _, err := fmt.Sscanf(line, "%s %d %d", &s.name, &s.start, &s.end); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		spans = append(spans, s)
		runs[s.name]++
	}
	if want := map[string]int{"a": 1, "b": 1, "c": 2, "d": 1, "e": 1}; fmt.Sprint(runs) != fmt.Sprint(want) {
		t.Errorf("runs %v, want %v", runs, want)
	}
	overlap := func(x, y span) bool { return x.start < y.end && y.start < x.end }
	find := func(name string, n int) span {
		seen := 0
		for _, s := range spans {
			if s.name == name {
				if seen++; seen == n {
					return s
				}
			}
		}
		t.Fatalf("no run %d of %s in the log", n, name)
		return span{}
	}
	if a, b := find("a", 1), find("b", 1); !overlap(a, b) {
		t.Errorf("a and b did not run side by side: %+v, %+v", a, b)
	}
	for _, name := range []string{"c"} {
		second := find(name, 2)
		for _, s := range spans {
			if s != second && overlap(s, second) {
				t.Errorf("%s's second run %+v, which should be alone, overlapped %+v", name, second, s)
			}
		}
	}
}

// TestRunKernels: given every class of the CPU, RunAll runs each notebook
// under each, in order, each with exactly the class's switches (whatever
// the parent's environment says) and a checkpoint folder of its own; the
// report names the class of each run.
func TestRunKernels(t *testing.T) {
	runnertest.RequireJupyter(t)
	dir := t.TempDir()
	runnertest.WriteNotebook(t, dir, "env", "# env\n```go\n%%\nfmt.Printf(\"avx512=%q avx2=%q cache=%q\\n\", os.Getenv(\"GOMLX_SIMD_AVX512\"), os.Getenv(\"GOMLX_SIMD_AVX2\"), os.Getenv(\"COURSE_CACHE\"))\n```\n")
	t.Setenv("GOMLX_SIMD_AVX2", "false") // must not leak into the runs of named classes
	classes := backend.CPUClasses()
	stdout, failed := runAll(t, Batch{Paths: []string{filepath.Join(dir, "env.ipynb")}, Classes: classes, Jobs: 2, OutDir: filepath.Join(dir, "out")})
	if failed != 0 {
		t.Fatalf("RunAll: %d failed\n%s", failed, stdout)
	}
	var want []string
	caches := map[string]bool{}
	for _, c := range classes {
		want = append(want, `ok   env\.ipynb  \[`+regexp.QuoteMeta(c.Name)+`\] .*`)
		slug := strings.ToLower(strings.ReplaceAll(c.Name, " ", "-"))
		nb, err := notebook.ReadFile(filepath.Join(dir, "out", "env."+slug+".ipynb"))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		out := nb.Cells[len(nb.Cells)-1].Outputs
		if len(out) == 0 {
			t.Fatalf("%s: the cell printed nothing", c.Name)
		}
		var avx512, avx2, cache string
		if _, err := fmt.Sscanf(strings.TrimSpace(out[0].Text), "avx512=%q avx2=%q cache=%q", &avx512, &avx2, &cache); err != nil {
			t.Fatalf("%s: %q: %v", c.Name, out[0].Text, err)
		}
		env := []string{"GOMLX_SIMD_AVX512=" + avx512, "GOMLX_SIMD_AVX2=" + avx2}
		if got := backend.KernelsWith(env); got != c.Name {
			t.Errorf("the %s run had %q, which selects %s", c.Name, env, got)
		}
		want := map[string]string{}
		for _, kv := range c.Env {
			k, v, _ := strings.Cut(kv, "=")
			want[k] = v
		}
		if avx512 != want["GOMLX_SIMD_AVX512"] || avx2 != want["GOMLX_SIMD_AVX2"] {
			t.Errorf("the %s run had %q, want exactly its class's switches %q", c.Name, env, c.Env)
		}
		if cache == "" || caches[cache] || !strings.HasSuffix(cache, slug) {
			t.Errorf("the %s run's COURSE_CACHE is %q: want a folder of its own", c.Name, cache)
		}
		caches[cache] = true
		if _, err := os.Stat(cache); err == nil {
			t.Errorf("the %s run's checkpoint folder %s is left behind", c.Name, cache)
		}
	}
	runnertest.CheckLines(t, stdout, want)

}
