package check

import "github.com/attention-in-go/course/lib/random"

// Helpers that draw hidden cases: sizes and values from the grading
// seed's random source.

// intIn draws an integer in [lo, hi].
func intIn(r *random.Source, lo, hi int) int {
	return lo + int(r.Uint32()%uint32(hi-lo+1))
}

// floatIn draws a float in [lo, hi).
func floatIn(r *random.Source, lo, hi float64) float64 {
	return lo + (hi-lo)*r.Float64()
}

// ids draws n token ids in [0, vocab).
func ids(r *random.Source, n, vocab int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = intIn(r, 0, vocab-1)
	}
	return out
}
