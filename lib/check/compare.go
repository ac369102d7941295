package check

import (
	"fmt"
	"math"

	"github.com/attention-in-go/course/lib/exercise"
)

// Close reports whether got is within tol of want, relatively for large
// values: |got − want| ≤ tol·max(1, |want|). A tolerance of 1e-5 accepts
// float32 arithmetic and any correct formulation (pow or exp-log, max
// subtracted or not).
func Close(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// Vector compares vectors value by value within tol (see [Close]); NaN,
// Inf and a wrong length are reported as such.
//
// Shape: [n].
func Vector(tol float64) func(got, want []float64) *Diff {
	return func(got, want []float64) *Diff {
		if len(got) != len(want) {
			return &Diff{Msg: fmt.Sprintf("wrong shape: expected %d values, got %d", len(want), len(got))}
		}
		return values("position", -1, got, want, tol)
	}
}

// values compares one row; row < 0 means a vector.
func values(unit string, row int, got, want []float64, tol float64) *Diff {
	where := func(j int) string {
		if row < 0 {
			return fmt.Sprintf("%s %d", unit, j)
		}
		return fmt.Sprintf("row %d, %s %d", row, unit, j)
	}
	for j := range got {
		if math.IsNaN(got[j]) || math.IsInf(got[j], 0) {
			return &Diff{Where: where(j), Want: fmtF(want[j]), Got: fmtF(got[j]) +
				" (NaN or Inf: an overflowing exp, a division by zero, or −Inf in every score of a row?)"}
		}
		if !Close(got[j], want[j], tol) {
			return &Diff{Where: where(j), Want: fmtF(want[j]), Got: fmtF(got[j])}
		}
	}
	return nil
}

// Matrix compares matrices [rows][cols] value by value within tol and
// names the first differing row and column.
//
// Shape: [rows][cols].
func Matrix(tol float64) func(got, want [][]float64) *Diff {
	return func(got, want [][]float64) *Diff {
		if d := shape(got, want); d != nil {
			return d
		}
		for i := range got {
			if d := values("column", i, got[i], want[i], tol); d != nil {
				return d
			}
		}
		return nil
	}
}

// Mask compares 0/1 masks (1 = masked) exactly and says whether the first
// difference masks a cell that must be visible or leaves open one that
// must be masked.
//
// Shape: [rows][cols].
func Mask() func(got, want [][]float64) *Diff {
	return func(got, want [][]float64) *Diff {
		if d := shape(got, want); d != nil {
			return d
		}
		for i := range got {
			for j := range got[i] {
				if got[i][j] != want[i][j] {
					what := "masked, should be visible (0)"
					if want[i][j] == 1 {
						what = "left open, should be masked (1)"
					}
					return &Diff{Where: fmt.Sprintf("row %d, column %d", i, j), Want: fmtF(want[i][j]),
						Got: fmt.Sprintf("%s — %s", fmtF(got[i][j]), what)}
				}
			}
		}
		return nil
	}
}

// shape compares the numbers of rows and of values per row.
func shape(got, want [][]float64) *Diff {
	if len(got) != len(want) {
		return &Diff{Msg: fmt.Sprintf("wrong shape: expected %d rows, got %d", len(want), len(got))}
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return &Diff{Msg: fmt.Sprintf("wrong shape: row %d has %d values, expected %d", i, len(got[i]), len(want[i]))}
		}
	}
	return nil
}

// Both compares the two results of a function returning (a, b), naming
// which one differs.
func Both[A, B any](nameA string, ca func(got, want A) *Diff, nameB string, cb func(got, want B) *Diff) func(got, want Pair[A, B]) *Diff {
	return func(got, want Pair[A, B]) *Diff {
		if d := ca(got.A, want.A); d != nil {
			return prefix(nameA, d)
		}
		if d := cb(got.B, want.B); d != nil {
			return prefix(nameB, d)
		}
		return nil
	}
}

// Pair holds the two results of a function returning two values.
type Pair[A, B any] = exercise.Pair[A, B]

func prefix(name string, d *Diff) *Diff {
	if d.Msg != "" {
		return &Diff{Msg: name + ": " + d.Msg}
	}
	return &Diff{Where: name + " " + d.Where, Want: d.Want, Got: d.Got}
}

func fmtF(x float64) string { return fmt.Sprintf("%.6g", x) }
