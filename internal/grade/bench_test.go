package grade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
