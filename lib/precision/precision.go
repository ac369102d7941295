// Package precision rounds numbers to the 16-bit floating-point formats of
// mixed-precision training and computes a softmax in them, to measure
// where low precision hurts attention (lesson 11).
//
// Go has no 16-bit float type: [Format.Round] rounds a float64 to the
// nearest number of the format (ties to even, subnormals kept, overflow to
// ±Inf), as IEEE 754 prescribes. Its tests compare with the formats' bit
// patterns and with the converters of github.com/gomlx/compute/dtypes,
// which GoMLX uses for its Float16 and BFloat16 tensors (its float16
// converter flushes the subnormals below 2⁻¹⁴ wrongly, which is why this
// package rounds on its own).
//
//	format    bits: sign exponent fraction   largest     spacing at 1 (ε)
//	float32         1    8        23         3.4·10³⁸    2⁻²³ ≈ 1.2·10⁻⁷
//	float16         1    5        10         65 504      2⁻¹⁰ ≈ 9.8·10⁻⁴
//	bfloat16        1    8         7         3.4·10³⁸    2⁻⁷  ≈ 7.8·10⁻³
//
// Introduced in lesson 11 (attention in practice).
package precision

import (
	"fmt"
	"math"
)

// Format is a floating-point format.
//
// Introduced in lesson 11.
type Format string

// The formats of the lesson.
const (
	Float32  Format = "float32"
	Float16  Format = "float16"  // IEEE 754 half precision
	BFloat16 Format = "bfloat16" // "brain float": float32's exponent, 7 fraction bits
	Float64  Format = "float64"  // no rounding: the reference
)

// Round returns the number of format f nearest to x, ties to even; a
// value whose rounding passes f's largest number becomes ±Inf:
//
//	E   = max(⌊log₂|x|⌋, E_min)        E_min = −14 (float16), −126 (bfloat16)
//	ulp = 2^(E − fraction bits)        the spacing of f's numbers around x
//	x̂   = ulp · roundToEven(x / ulp)
func (f Format) Round(x float64) float64 {
	switch f {
	case Float64:
		return x
	case Float32:
		return float64(float32(x))
	case Float16:
		return round(x, 10, -14, 65504)
	case BFloat16:
		return round(x, 7, -126, 0x1.fep127)
	}
	panic(fmt.Sprintf("precision: unknown format %q (use Float64, Float32, Float16 or BFloat16)", string(f)))
}

// round rounds x to a binary format with frac fraction bits, smallest
// normal exponent emin and largest finite number largest.
func round(x float64, frac, emin int, largest float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	_, exp := math.Frexp(x) // |x| = m·2^exp, m in [0.5, 1)
	e := max(exp-1, emin)
	ulp := math.Ldexp(1, e-frac)
	r := math.RoundToEven(x/ulp) * ulp
	if math.Abs(r) > largest {
		return math.Copysign(math.Inf(1), x)
	}
	return r
}

// Epsilon is the spacing of f's numbers just above 1, 2^−(fraction bits):
// rounding changes a number x by at most |x|·ε/2 (away from the
// subnormals).
func (f Format) Epsilon() float64 {
	switch f {
	case Float64:
		return 0x1p-52
	case Float32:
		return 0x1p-23
	case Float16:
		return 0x1p-10
	case BFloat16:
		return 0x1p-7
	}
	panic(fmt.Sprintf("precision: unknown format %q", string(f)))
}

// Options says how [Softmax] computes.
//
// Introduced in lesson 11.
type Options struct {
	// Naive computes exp(x_i) without subtracting the row's maximum first:
	// in float16, exp(x) overflows to +Inf for x > ln 65 504 ≈ 11.09.
	Naive bool
	// Scores is the format the scores are stored in before the softmax;
	// "" means the softmax's own format. Float32 scores with a 16-bit
	// softmax is what mixed-precision training does when it keeps the
	// scores in float32 (PyTorch's autocast runs softmax in float32);
	// 16-bit scores with a Float32 softmax isolate the error of storing
	// the scores.
	Scores Format
}

// Softmax returns softmax(x) computed in format f, every intermediate
// rounded to f as 16-bit hardware stores it:
//
//	s_i = round(x_i)                  the scores, stored in f (or opts.Scores)
//	m   = max_i s_i                   (0 with Naive)
//	e_i = round(exp(round(s_i − m)))
//	Σ   = round(… round(round(e_1 + e_2) + e_3) …)   summed in f
//	w_i = round(e_i / Σ)
//
// The exponential itself is computed exactly and then rounded (hardware
// does no better). With f = Float64 it is the exact stable softmax.
//
// Typical shapes: x [seq_k], one row of attention scores → [seq_k].
//
// Introduced in lesson 11.
func Softmax(f Format, x []float64, opts Options) []float64 {
	store := f
	if opts.Scores != "" {
		store = opts.Scores
	}
	s := make([]float64, len(x))
	m := math.Inf(-1)
	for i, a := range x {
		s[i] = store.Round(a)
		m = max(m, s[i])
	}
	if opts.Naive {
		m = 0
	}
	sum := 0.0
	for i := range s {
		s[i] = f.Round(math.Exp(f.Round(s[i] - m)))
		sum = f.Round(sum + s[i])
	}
	for i := range s {
		s[i] = f.Round(s[i] / sum)
	}
	return s
}
