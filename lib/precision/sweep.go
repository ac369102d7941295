package precision

import (
	"fmt"
	"math"
	"strings"

	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/viz"
)

// Case is one way of computing the softmax: a format and [Options].
//
// Introduced in lesson 11.
type Case struct {
	Name   string
	Format Format
	Opts   Options
}

// Cases are the lesson's ways of computing a row of attention weights.
var Cases = []Case{
	{"float32", Float32, Options{}},
	{"float16", Float16, Options{}},
	{"bfloat16", BFloat16, Options{}},
	{"bfloat16 scores only", Float32, Options{Scores: BFloat16}},
	{"bfloat16, float32 scores", BFloat16, Options{Scores: Float32}},
	{"float16, naive (no max)", Float16, Options{Naive: true}},
}

// Point is the error of one [Case] on score rows of one spread.
//
// Introduced in lesson 11.
type Point struct {
	Sigma float64 // the scores' standard deviation
	// MaxError is the largest |w − w_exact| over all weights of all rows
	// (NaN and ±Inf weights excluded, counted in Broken).
	MaxError float64
	// Broken is the fraction of rows with a weight that is NaN or ±Inf.
	Broken float64
}

// Sweep measures the error of each case's [Softmax] against the exact
// float64 softmax on rows of n scores σ·z, z ~ N(0, 1) (seed), for each σ:
// attention scores of growing size, as a model whose queries and keys
// grow produces them.
//
// Introduced in lesson 11.
func Sweep(cases []Case, sigmas []float64, n, rows int, seed uint32) (map[string][]Point, error) {
	if n < 1 || rows < 1 {
		return nil, fmt.Errorf("precision.Sweep: n and rows must be ≥ 1, got %d and %d", n, rows)
	}
	z := random.New(seed).Normal(rows, n)
	out := map[string][]Point{}
	for _, c := range cases {
		for _, s := range sigmas {
			p := Point{Sigma: s}
			broken := 0
			for _, row := range z {
				x := make([]float64, n)
				for i := range x {
					x[i] = s * row[i]
				}
				want := Softmax(Float64, x, Options{})
				got := Softmax(c.Format, x, c.Opts)
				bad := false
				for i := range got {
					if math.IsNaN(got[i]) || math.IsInf(got[i], 0) {
						bad = true
						continue
					}
					p.MaxError = max(p.MaxError, math.Abs(got[i]-want[i]))
				}
				if bad {
					broken++
				}
			}
			p.Broken = float64(broken) / float64(rows)
			out[c.Name] = append(out[c.Name], p)
		}
	}
	return out, nil
}

// Table formats a sweep: one line per σ, the largest error of each case
// ("NaN" where some row broke).
//
// Introduced in lesson 11.
func Table(cases []Case, sweep map[string][]Point) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%6s", "σ")
	for _, c := range cases {
		fmt.Fprintf(&b, " %26s", c.Name)
	}
	b.WriteString("\n")
	for i, p := range sweep[cases[0].Name] {
		fmt.Fprintf(&b, "%6g", p.Sigma)
		for _, c := range cases {
			q := sweep[c.Name][i]
			if q.Broken > 0 {
				fmt.Fprintf(&b, " %19.0f%% NaN", 100*q.Broken)
				continue
			}
			fmt.Fprintf(&b, " %26s", twoDigits(q.MaxError))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Figure plots the largest error against σ, log–log, for the cases that
// never break.
//
// Introduced in lesson 11.
func Figure(cases []Case, sweep map[string][]Point) *viz.Lines {
	f := &viz.Lines{Title: "Softmax of attention scores in low precision", XLabel: "standard deviation σ of the scores",
		YLabel: "largest |w − w_exact| (log scale)", LogX: true, LogY: true, Points: true}
	for _, c := range cases {
		var x, y []float64
		for _, p := range sweep[c.Name] {
			if p.Broken > 0 || p.MaxError == 0 {
				continue
			}
			x = append(x, p.Sigma)
			y = append(y, p.MaxError)
		}
		if len(x) > 0 {
			f.Series = append(f.Series, viz.Series{Name: c.Name, X: x, Y: y})
		}
	}
	return f
}

// twoDigits writes x > 0 with two significant digits and no exponent:
// 0.0061, 0.19, 0.00000010.
func twoDigits(x float64) string {
	if x == 0 {
		return "0"
	}
	d := max(0, 1-int(math.Floor(math.Log10(x))))
	return fmt.Sprintf("%.*f", d, x)
}
