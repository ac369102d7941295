package random

import (
	"fmt"
	"math"
	"testing"
)

// The expected values were printed by numpy 1.24 (Debian's python3-numpy):
//
//	np.random.seed(42); np.random.randn(2, 3)
//	np.random.seed(7);  np.random.randn(700)[[0, 1, 2, 623, 624, 625, 698, 699]]
//	np.random.seed(123); np.random.random_sample(3)
func TestMatchesNumpyLegacyGenerator(t *testing.T) {
	t.Run("randn seed 42", func(t *testing.T) {
		want := [][]float64{
			{0.4967141530112327, -0.13826430117118466, 0.6476885381006925},
			{1.5230298564080254, -0.23415337472333597, -0.23413695694918055},
		}
		got := New(42).Normal(2, 3)
		for i := range want {
			for j := range want[i] {
				if got[i][j] != want[i][j] {
					t.Errorf("Normal(2,3)[%d][%d] = %.17g, want %.17g", i, j, got[i][j], want[i][j])
				}
			}
		}
	})
	t.Run("randn seed 7 across the state refill", func(t *testing.T) {
		idx := []int{0, 1, 2, 623, 624, 625, 698, 699}
		want := []float64{1.690525703800356, -0.4659373705408328, 0.0328201636785844, -1.3850070531299699,
			0.5589443657448973, 0.6710010554215151, 0.3761601984027995, -0.49664691317351306}
		all := New(7).Normal(1, 700)[0]
		for n, i := range idx {
			if all[i] != want[n] {
				t.Errorf("randn(700)[%d] = %.17g, want %.17g", i, all[i], want[n])
			}
		}
	})
	t.Run("random_sample seed 123", func(t *testing.T) {
		want := []float64{0.6964691855978616, 0.28613933495037946, 0.2268514535642031}
		s := New(123)
		for i, w := range want {
			if got := s.Float64(); got != w {
				t.Errorf("Float64() call %d = %.17g, want %.17g", i, got, w)
			}
		}
	})
}

func TestNormalShapeAndIndependence(t *testing.T) {
	m := New(1).Normal(3, 5)
	if len(m) != 3 || len(m[0]) != 5 {
		t.Fatalf("Normal(3, 5) has shape %d×%d, want 3×5", len(m), len(m[0]))
	}
	if a, b := New(1).Normal(1, 4)[0], New(2).Normal(1, 4)[0]; a[0] == b[0] {
		t.Errorf("seeds 1 and 2 gave the same first number %g", a[0])
	}
}

func ExampleSource_Normal() {
	// The same numbers as np.random.seed(42); np.random.randn(2, 3).
	for _, row := range New(42).Normal(2, 3) {
		fmt.Printf("%7.4f\n", row)
	}
	// Output:
	// [ 0.4967 -0.1383  0.6477]
	// [ 1.5230 -0.2342 -0.2341]
}

// TestGlorotMatchesNumpy: Glorot(2, 3) from seed 1 is numpy's
// np.random.seed(1); np.random.uniform(-a, a, (2, 3)) with a = √(6/5).
func TestGlorotMatchesNumpy(t *testing.T) {
	want := [][]float64{{-0.18179568, 0.48270678, -1.09519453}, {-0.43306764, -0.77391907, -0.89314139}}
	got := New(1).Glorot(2, 3)
	for i := range want {
		for j := range want[i] {
			if math.Abs(got[i][j]-want[i][j]) > 1e-8 {
				t.Errorf("Glorot(2, 3)[%d][%d] = %.8f, want %.8f", i, j, got[i][j], want[i][j])
			}
		}
	}
	a := math.Sqrt(6.0 / 300)
	for _, row := range New(7).Glorot(100, 200) {
		for _, x := range row {
			if math.Abs(x) >= a {
				t.Fatalf("Glorot(100, 200) drew %v, outside (−%v, %v)", x, a, a)
			}
		}
	}
}
