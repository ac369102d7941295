package attention

import (
	"fmt"
	"math"
	"strings"
)

// Sweep holds one statistic of attention measured for several key
// dimensions d_k, without and with the 1/√d_k scale: the data of lesson
// 01's "why scale" figures.
//
// Introduced in lesson 01.
type Sweep struct {
	Statistic string    // what was measured, for the table header
	DK        []float64 // the dimensions d_k (float64, ready to plot)
	Unscaled  []float64 // the statistic for softmax(q·k)
	Scaled    []float64 // the statistic for softmax(q·k / √d_k)
}

// String formats the sweep as a table, one row per d_k.
func (s *Sweep) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%6s  %14s  %14s   (%s)\n", "d_k", "without scale", "with 1/√d_k", s.Statistic)
	for i, dk := range s.DK {
		fmt.Fprintf(&b, "%6.0f  %14.4f  %14.4f\n", dk, s.Unscaled[i], s.Scaled[i])
	}
	return b.String()
}

// VarianceSweep runs [DotProductVariance] for every d_k in dks with n sample
// pairs: Unscaled is Var(q·k) ≈ d_k, Scaled is Var(q·k/√d_k) ≈ 1.
//
// Introduced in lesson 01.
func VarianceSweep(dks []int, n int, seed uint32) (*Sweep, error) {
	return sweep("variance of the score", dks, func(dk int) (float64, float64, error) {
		return DotProductVariance(dk, n, seed)
	})
}

// SaturationSweep runs [Saturation] for every d_k in dks: the mean largest
// weight of n queries over `keys` keys, without and with the scale.
//
// Introduced in lesson 01.
func SaturationSweep(dks []int, keys, n int, seed uint32) (*Sweep, error) {
	return sweep(fmt.Sprintf("mean largest weight over %d keys", keys), dks, func(dk int) (float64, float64, error) {
		return Saturation(dk, keys, n, seed)
	})
}

func sweep(name string, dks []int, measure func(dk int) (float64, float64, error)) (*Sweep, error) {
	if len(dks) == 0 {
		return nil, fmt.Errorf("attention: a sweep needs at least one d_k")
	}
	s := &Sweep{Statistic: name}
	for _, dk := range dks {
		u, sc, err := measure(dk)
		if err != nil {
			return nil, err
		}
		s.DK, s.Unscaled, s.Scaled = append(s.DK, float64(dk)), append(s.Unscaled, u), append(s.Scaled, sc)
	}
	return s, nil
}

// SoftmaxAt returns softmax(logits / T) for every temperature T, one row per
// temperature (see [Softmax]).
//
// Introduced in lesson 01.
func SoftmaxAt(logits []float64, temperatures []float64) ([][]float64, error) {
	rows := make([][]float64, 0, len(temperatures))
	for _, t := range temperatures {
		w, err := SoftmaxOf(logits, t)
		if err != nil {
			return nil, err
		}
		rows = append(rows, w)
	}
	return rows, nil
}

// NaiveSoftmax is the textbook softmax exp(x_i) / Σ_j exp(x_j) computed in
// float32 without subtracting the maximum. Do not use it: it exists so that
// lesson 01 can show it overflowing (exp(89) is already +Inf in float32, and
// Inf/Inf is NaN). [Softmax] is the stable version.
//
// Introduced in lesson 01.
func NaiveSoftmax(logits []float64) []float32 {
	out := make([]float32, len(logits))
	var sum float32
	for i, x := range logits {
		out[i] = float32(math.Exp(x))
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// RowSums returns the sum of each row of m: for attention weights, every
// sum is 1.
//
// Introduced in lesson 01.
func RowSums(m [][]float64) []float64 {
	sums := make([]float64, len(m))
	for i, row := range m {
		for _, x := range row {
			sums[i] += x
		}
	}
	return sums
}
