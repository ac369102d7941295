package grade

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Grading a class of 100 full-marks notebooks of exercises 01 with -j 2,
// in the sandbox: identical copies (one program built, as when learners
// hand in the same code) and distinct ones (every notebook a program of
// its own, the worst case). Run with
//
//	go test ./internal/grade -run '^$' -bench GradeClass -benchtime 1x
func BenchmarkGradeClass(b *testing.B) {
	for _, distinct := range []bool{false, true} {
		name := "copies"
		if distinct {
			name = "distinct"
		}
		b.Run(name, func(b *testing.B) {
			root := courseRoot(&testing.T{})
			dir := b.TempDir()
			for i := range 100 {
				data, err := os.ReadFile(filepath.Join(root, solutions))
				if err != nil {
					b.Fatal(err)
				}
				if distinct {
					var t testing.T
					// A helper every exercise uses makes every program distinct.
					data = edit(&t, root, solutions, then(withCells(fmt.Sprintf("func tag() int { return %d }", i)),
						replaceExercise("causal-mask", "func CausalMask(n int) [][]float64 {\n\t_ = tag()\n\tm := make([][]float64, n)\n\tfor i := range m {\n\t\tm[i] = make([]float64, n)\n\t\tfor j := i + 1; j < n; j++ {\n\t\t\tm[i][j] = 1\n\t\t}\n\t}\n\treturn m\n}")))
				}
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("learner%03d.ipynb", i)), data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			a, err := LoadAssignment(root, "lessons/exercises/01-scaled-dot-product-attention.md")
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				out := filepath.Join(b.TempDir(), fmt.Sprint(i))
				gs, err := Grade(context.Background(), dir, a, Options{Root: root, Module: module, Out: out, Jobs: 2,
					Timeout: 60 * time.Second, Memory: 2 << 30, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				for _, g := range gs {
					if t, m := g.total(); t != float64(m) {
						b.Fatalf("%s: %v/%d", g.Learner, t, m)
					}
				}
			}
		})
	}
}

// BenchmarkGradeLargeNotebook grades three learners whose notebooks carry
// 50 MB of output (an executed notebook's images) with -j 2, and reports
// the grader's peak resident memory beyond what it held before, per
// notebook size: the class is read a notebook at a time, and only its
// sources are kept. Run with
//
//	go test ./internal/grade -run '^$' -bench GradeLargeNotebook -benchtime 1x
func BenchmarkGradeLargeNotebook(b *testing.B) {
	root := courseRoot(&testing.T{})
	data, err := os.ReadFile(filepath.Join(root, solutions))
	if err != nil {
		b.Fatal(err)
	}
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		b.Fatal(err)
	}
	blob := make([]byte, 50<<20)
	for i := range blob {
		blob[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i*7919+i/64)%64]
	}
	for _, c := range nb["cells"].([]any) {
		if cm := c.(map[string]any); cm["cell_type"] == "code" {
			cm["outputs"] = []any{map[string]any{"output_type": "display_data", "metadata": map[string]any{},
				"data": map[string]any{"image/png": string(blob)}}}
			break
		}
	}
	big, err := json.Marshal(nb)
	if err != nil {
		b.Fatal(err)
	}
	blob = nil
	dir := b.TempDir()
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("learner%d.ipynb", i)), big, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	size := len(big)
	big, nb = nil, nil
	a, err := LoadAssignment(root, "lessons/exercises/01-scaled-dot-product-attention.md")
	if err != nil {
		b.Fatal(err)
	}
	// The notebook built above goes back to the system, and the peak is
	// reset to what the process holds now (Linux: clear_refs 5).
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("cannot reset the peak memory: %v", err)
	}
	before := vmHWM()
	b.ResetTimer()
	for i := range b.N {
		if _, err := Grade(context.Background(), dir, a, Options{Root: root, Module: module, Out: filepath.Join(b.TempDir(), fmt.Sprint(i)),
			Jobs: 2, Timeout: 60 * time.Second, Memory: 2 << 30, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(vmHWM()-before)/float64(size), "peak/notebook")
	b.ReportMetric(float64(size)/1e6, "notebook-MB")
}

// vmHWM is the process's peak resident memory in bytes.
func vmHWM() int64 {
	status, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
