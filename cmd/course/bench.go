package main

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/lib/backend"
)

var benchCommand = &command{
	name:    "bench",
	args:    "[-bench REGEXP] [-benchtime D] [-kernels CLASSES] [PACKAGES]",
	summary: "run the library's benchmarks; print one table with GFLOP/s and the share of the machine's peak",
	help: `
Bench runs the course library's Go benchmarks (go test -bench) and prints
one Markdown table, ready for docs/PERFORMANCE.md: each workload, its
time, its rate in GFLOP/s where the benchmark counts its operations, that
rate as a share of the machine's peak, and the other figures it reports
(training time, accuracy, …). The raw go test output goes to standard
error as it runs.

The peak is measured, not looked up: lib/backend's BenchmarkPeak runs a
float32 multiply-add loop with 12 independent chains on every core
(GOMAXPROCS goroutines), on scalars — the most a plain Go loop does — and
on the vectors of the kernels the backend runs: in a build with
GOEXPERIMENT=simd on a CPU with AVX-512, 16-lane vectors with fused
multiply-adds (8 lanes for the AVX2 kernels); for the plain kernels on
amd64, whose float32 products run in SSE2 lanes, 4-lane multiplies and
adds. The share is of the highest of them (the table's first line names
it): of the vector peak on amd64, of the scalar one elsewhere.

With -kernels (all, others, or a list such as AVX2,plain) the benchmarks
run once per kernel class this machine can run or emulate (course
kernels lists them), one after the other, and the table puts the classes
side by side: each class's time and GFLOP/s, and its share of that
class's own peak (the AVX-512 vector peak, the AVX2 one, or for the
plain kernels the SSE2 one on amd64, the scalar loop's elsewhere).

The training benchmarks (lessons 6 to 9) take a few minutes together
on 2 cores. Keep the machine otherwise idle: the figures are only as quiet
as the machine.

Examples:

  make bench
  go run ./cmd/course bench -bench 'Peak|MatMul|ScaledDot' ./lib/backend ./lib/attention
  go run ./cmd/course bench -kernels all -bench 'Peak|MatMul|ScaledDot|TrainStep' ./lib/backend ./lib/attention ./lib/seq2seq
`,
	run: runBench,
}

func runBench(e *env, fs *flag.FlagSet, args []string) error {
	pattern := fs.String("bench", ".", "run the benchmarks matching `regexp` (go test -bench)")
	benchtime := fs.String("benchtime", "", "go test -benchtime: a `duration` such as 2s, or Nx for N iterations (default: go test's 1s)")
	kernels := fs.String("kernels", "", "run the benchmarks once under each kernel `class` (all, others, or a list: AVX-512, AVX2, plain) and print the classes side by side")
	if err := e.parseFlags(fs, args); err != nil {
		return err
	}
	classes, err := kernelClasses(*kernels)
	if err != nil {
		return err
	}
	if _, err := regexp.Compile(*pattern); err != nil {
		return usageErrorf("-bench %q is not a regular expression: %v", *pattern, err)
	}
	root, err := courseroot.Find(e.dir)
	if err != nil {
		return err
	}
	pkgs := fs.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"./lib/..."}
	}
	goArgs := []string{"test", "-run", "^$", "-bench", *pattern, "-benchmem"}
	if *benchtime != "" {
		goArgs = append(goArgs, "-benchtime", *benchtime)
	}
	goArgs = append(goArgs, pkgs...)

	start := time.Now()
	bench := func(env []string) ([]benchResult, error) {
		cmd := exec.CommandContext(e.ctx, "go", goArgs...)
		cmd.Dir = root
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout = io.MultiWriter(&out, e.stderr)
		cmd.Stderr = e.stderr
		fmt.Fprintf(e.stderr, "==> %sgo %s\n", strings.Join(append(classEnv(env), ""), " "), strings.Join(goArgs, " "))
		runErr := cmd.Run()
		results := parseBench(&out)
		if runErr != nil {
			return nil, fmt.Errorf("go test -bench failed (its output is above): %w", runErr)
		}
		if len(results) == 0 {
			return nil, fmt.Errorf("no benchmark matched -bench %q in %s", *pattern, strings.Join(pkgs, " "))
		}
		return results, nil
	}
	if len(classes) == 0 {
		results, err := bench(os.Environ())
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "\n%s\nKernels: %s.\n\n", machine(time.Since(start)), backend.MatMulKernels())
		writeBenchTable(e.stdout, results)
		return nil
	}
	var runs []classResults
	for _, c := range classes {
		env := append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOMLX_SIMD_") }), c.Env...)
		results, err := bench(env)
		if err != nil {
			return fmt.Errorf("%s kernels: %w", c.Name, err)
		}
		runs = append(runs, classResults{c.Name, results})
	}
	fmt.Fprintf(e.stdout, "\n%s\n\n", machine(time.Since(start)))
	writeClassesTable(e.stdout, runs)
	return nil
}

// classEnv returns the kernel switches among env's NAME=value pairs.
func classEnv(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return !strings.HasPrefix(kv, "GOMLX_SIMD_") })
}

// classResults are the benchmarks of one kernel class's run.
type classResults struct {
	class   string
	results []benchResult
}

// writeClassesTable writes one Markdown table with the kernel classes side
// by side: a row per workload, and per class its time, GFLOP/s and share
// of that class's own peak.
func writeClassesTable(w io.Writer, runs []classResults) {
	header, rule := "| workload |", "|---|"
	peaks := make([]float64, len(runs))
	for i, r := range runs {
		peak, cores, unit := peakGFLOPs(r.results)
		peaks[i] = peak
		if peak > 0 {
			fmt.Fprintf(w, "%s: peak %.1f GFLOP/s on %d cores (%s float32 multiply-add).\n", r.class, peak, cores, unit)
		}
		header += fmt.Sprintf(" %s time | GFLOP/s (share) |", r.class)
		rule += "---:|---:|"
	}
	fmt.Fprintf(w, "\n%s\n%s\n", header, rule)
	var names []string
	for _, r := range runs {
		for _, b := range r.results {
			if n := b.Pkg + "." + b.Name; !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	for _, n := range names {
		line := "| " + n + " |"
		for k, r := range runs {
			i := slices.IndexFunc(r.results, func(b benchResult) bool { return b.Pkg+"."+b.Name == n })
			if i < 0 {
				line += " | |"
				continue
			}
			b := r.results[i]
			rate := ""
			if g, ok := b.Metrics["GFLOP/s"]; ok {
				rate = fmt.Sprintf("%.2f", g)
				if peaks[k] > 0 && !strings.HasPrefix(b.Name, "Peak/") {
					rate += fmt.Sprintf(" (%.0f %%)", 100*g/peaks[k])
				}
			}
			t := duration(b.Metrics["ns/op"])
			if ms, ok := b.Metrics["ms/step"]; ok {
				t = strconv.FormatFloat(ms, 'g', 3, 64) + " ms/step"
			}
			line += fmt.Sprintf(" %s | %s |", t, rate)
		}
		fmt.Fprintln(w, line)
	}
}

// benchResult is one line of go test -bench output.
type benchResult struct {
	Pkg     string             // the package's last path element
	Name    string             // without "Benchmark" and the -GOMAXPROCS suffix
	N       int                // iterations
	Metrics map[string]float64 // unit → value: ns/op, B/op, GFLOP/s, …
	Units   []string           // the units in the order printed
}

var benchLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+(\d+)\s+(.*)$`)

// parseBench reads go test -bench output: "pkg: PATH" lines set the
// package of the result lines that follow.
func parseBench(r io.Reader) []benchResult {
	var out []benchResult
	pkg := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = p[strings.LastIndex(p, "/")+1:]
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		res := benchResult{Pkg: pkg, Name: m[1], N: n, Metrics: map[string]float64{}}
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			res.Metrics[f[i+1]] = v
			res.Units = append(res.Units, f[i+1])
		}
		out = append(out, res)
	}
	return out
}

// peakGFLOPs returns the highest all-cores rate of lib/backend's
// BenchmarkPeak (among its sub-benchmarks with the most cores: the scalar
// loop, "Peak/cores=N", and the vector one, "Peak/AVX-512,cores=N"), with
// its core count and what ran it ("scalar", or the vector unit's name),
// or 0.
func peakGFLOPs(results []benchResult) (gflops float64, cores int, unit string) {
	for _, r := range results {
		rest, ok := strings.CutPrefix(r.Name, "Peak/")
		if !ok {
			continue
		}
		kind, c, ok := strings.Cut(rest, "cores=")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(c)
		g := r.Metrics["GFLOP/s"]
		if err != nil || n < cores || (n == cores && g <= gflops) {
			continue
		}
		gflops, cores, unit = g, n, cmp.Or(strings.TrimSuffix(kind, ","), "scalar")
	}
	return gflops, cores, unit
}

// writeBenchTable writes results as a Markdown table.
func writeBenchTable(w io.Writer, results []benchResult) {
	peak, cores, unit := peakGFLOPs(results)
	if peak > 0 {
		fmt.Fprintf(w, "Peak: %.1f GFLOP/s on %d cores (%s float32 multiply-add, lib/backend BenchmarkPeak).\n\n", peak, cores, unit)
	} else {
		fmt.Fprintf(w, "No peak measured (lib/backend BenchmarkPeak did not run): no shares.\n\n")
	}
	fmt.Fprintln(w, "| workload | time/op | GFLOP/s | share of peak | other figures |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|")
	for _, r := range results {
		rate, share := "", ""
		if g, ok := r.Metrics["GFLOP/s"]; ok {
			rate = fmt.Sprintf("%.2f", g)
			if peak > 0 {
				share = fmt.Sprintf("%.0f %%", 100*g/peak)
			}
		}
		var other []string
		for _, u := range r.Units {
			if !slices.Contains([]string{"ns/op", "GFLOP/s", "B/op", "allocs/op"}, u) {
				other = append(other, fmt.Sprintf("%s %s", strconv.FormatFloat(r.Metrics[u], 'g', 4, 64), u))
			}
		}
		fmt.Fprintf(w, "| %s.%s | %s | %s | %s | %s |\n", r.Pkg, r.Name, duration(r.Metrics["ns/op"]), rate, share, strings.Join(other, ", "))
	}
}

// duration formats nanoseconds with three significant digits.
func duration(ns float64) string {
	d := time.Duration(ns)
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3g s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.3g µs", float64(d)/float64(time.Microsecond))
	}
}

// machine describes where the benchmarks ran, for the record.
func machine(took time.Duration) string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	goVersion := runtime.Version()
	if out, err := exec.Command("go", "env", "GOVERSION", "GOEXPERIMENT").Output(); err == nil {
		f := strings.Fields(string(out))
		goVersion = strings.Join(f, ", GOEXPERIMENT=")
		if len(f) == 1 {
			goVersion += " (no GOEXPERIMENT)"
		}
	}
	return fmt.Sprintf("Machine: %s, %d cores (GOMAXPROCS %d); %s; %s; benchmarks took %s.",
		cpu, runtime.NumCPU(), runtime.GOMAXPROCS(0), goVersion, time.Now().UTC().Format("2006-01-02"), took.Round(time.Second))
}
