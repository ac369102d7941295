package check_test

import "github.com/attention-in-go/course/lib/check"

// A look-ahead mask that also hides the diagonal: the check names the
// first wrong cell and recognises the usual mistake.
func ExampleCausalMask() {
	mask := func(n int) [][]float64 {
		m := make([][]float64, n)
		for i := range m {
			m[i] = make([]float64, n)
			for j := i; j < n; j++ {
				m[i][j] = 1
			}
		}
		return m
	}
	check.CausalMask(mask)
	// Output:
	// Exercise causal-mask — look-ahead (causal) mask
	//   ✗ n = 4: at row 0, column 0: expected 0, got 1 — masked, should be visible (0)
	//     hint: the diagonal is masked: a token may look at itself, so mask only j > i
	//   ✗ n = 1: at row 0, column 0: expected 0, got 1 — masked, should be visible (0)
	//     hint: the diagonal is masked: a token may look at itself, so mask only j > i
	//   ✗ n = 2: at row 0, column 0: expected 0, got 1 — masked, should be visible (0)
	//     hint: the diagonal is masked: a token may look at itself, so mask only j > i
	// points: 0/1
}

// The stub of an exercise notebook panics with "TODO": the check reports
// it as not done yet, with 0 points, and does not fail the cell.
func ExampleSoftmax() {
	check.Softmax(func(logits []float64, temperature float64) []float64 {
		panic("TODO: exercise softmax — write your code here")
	})
	// Output:
	// Exercise softmax — stable softmax with temperature
	//   ✗ 5 cases not run: the function still panics with "TODO"
	// points: 0/2  — not done yet: replace the panic("TODO…") with your code
}
