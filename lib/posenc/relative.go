package posenc

import (
	"fmt"
	"math"
)

// RelativeMap returns the d_model×d_model matrix M_k that moves every
// sinusoidal encoding k positions forward:
//
//	PE(pos+k) = M_k · PE(pos)        for every pos
//
// Vaswani et al. (2017), §3.5, chose sinusoids because "for any fixed
// offset k, PE(pos+k) can be represented as a linear function of PE(pos)";
// this is that linear function. By the angle-addition formulas, with
// θ_i = k·ω_i = k / n^(2i/d),
//
//	sin(pos·ω + θ) =  cos θ · sin(pos·ω) + sin θ · cos(pos·ω)
//	cos(pos·ω + θ) = -sin θ · sin(pos·ω) + cos θ · cos(pos·ω)
//
// so M_k is block-diagonal, one 2×2 rotation per sine/cosine pair:
//
//	block i = [  cos θ_i   sin θ_i ]     rows and columns 2i, 2i+1
//	          [ -sin θ_i   cos θ_i ]
//
// M_k depends on k but not on pos, so attention can learn "look k tokens
// back" once, for every position. k may be negative (M_{-k} = M_kᵀ).
//
// dModel must be even: with an odd d_model the last sine has no cosine
// partner and is no rotation of itself.
//
// Typical shapes: → [d_model][d_model].
//
// Introduced in lesson 04.
func RelativeMap(k, dModel int, base float64) ([][]float64, error) {
	if dModel < 2 || dModel%2 != 0 {
		return nil, fmt.Errorf("posenc.RelativeMap: d_model must be even and ≥ 2 so that every sine has its cosine, got %d", dModel)
	}
	if !(base > 0) || math.IsInf(base, 0) {
		return nil, fmt.Errorf("posenc.RelativeMap: the base n must be a positive number (10000 in the paper), got %g", base)
	}
	m := make([][]float64, dModel)
	for r := range m {
		m[r] = make([]float64, dModel)
	}
	for i := 0; i < dModel/2; i++ {
		theta := float64(k) * frequency(i, dModel, base)
		c, s := math.Cos(theta), math.Sin(theta)
		m[2*i][2*i], m[2*i][2*i+1] = c, s
		m[2*i+1][2*i], m[2*i+1][2*i+1] = -s, c
	}
	return m, nil
}

// MatVec returns m·v, the matrix m applied to the column vector v.
//
// Part of the library behind lesson 04; the lesson does not name it.
func MatVec(m [][]float64, v []float64) []float64 {
	out := make([]float64, len(m))
	for r, row := range m {
		if len(row) != len(v) {
			panic(fmt.Sprintf("posenc.MatVec: row %d has %d columns for a vector of %d", r, len(row), len(v)))
		}
		for c, x := range row {
			out[r] += x * v[c]
		}
	}
	return out
}

// CheckRelative verifies PE(pos+k) = M_k·PE(pos) ([RelativeMap]) on the
// sinusoidal encoding of seqLen positions: it returns the largest
// |PE(pos+k) − M_k·PE(pos)| over every pos with pos+k in [0, seqLen) and
// every dimension. In float64 it is a few times 1e-16 — rounding, not an
// approximation.
//
// Introduced in lesson 04.
func CheckRelative(seqLen, dModel, k int, base float64) (float64, error) {
	m, err := RelativeMap(k, dModel, base)
	if err != nil {
		return 0, err
	}
	if seqLen <= abs(k) {
		return 0, fmt.Errorf("posenc.CheckRelative: no position pos with pos and pos+%d both in [0, %d): use a longer sequence", k, seqLen)
	}
	pe := Sinusoidal(seqLen, dModel, base)
	worst := 0.0
	for pos := max(0, -k); pos+k < seqLen && pos < seqLen; pos++ {
		moved := MatVec(m, pe[pos])
		for j, want := range pe[pos+k] {
			worst = max(worst, math.Abs(moved[j]-want))
		}
	}
	return worst, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
