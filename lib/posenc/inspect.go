package posenc

import (
	"fmt"
	"math"
)

// CosineSimilarity returns the cosine of the angle between every pair of
// rows of m:
//
//	sim[a][b] = m[a]·m[b] / (‖m[a]‖ ‖m[b]‖)
//
// 1 on the diagonal, in [-1, 1] elsewhere. For a sinusoidal encoding it is
// highest near the diagonal and falls off with |a−b|, the same for every a:
// nearby positions look alike. A zero row has similarity 0 with everything
// (NaN would be the honest answer, but it would break a heat map).
//
// Typical shapes: [seq][d_model] → [seq][seq].
//
// Introduced in lesson 04.
func CosineSimilarity(m [][]float64) [][]float64 {
	norms := make([]float64, len(m))
	for i, row := range m {
		for _, x := range row {
			norms[i] += x * x
		}
		norms[i] = math.Sqrt(norms[i])
	}
	sim := make([][]float64, len(m))
	for a := range m {
		sim[a] = make([]float64, len(m))
		for b := range m {
			if len(m[a]) != len(m[b]) {
				panic(fmt.Sprintf("posenc.CosineSimilarity: rows %d and %d have lengths %d and %d", a, b, len(m[a]), len(m[b])))
			}
			if norms[a] == 0 || norms[b] == 0 {
				continue
			}
			dot := 0.0
			for j := range m[a] {
				dot += m[a][j] * m[b][j]
			}
			sim[a][b] = dot / (norms[a] * norms[b])
		}
	}
	return sim
}

// Column returns column j of m: for an encoding, dimension j over all the
// positions.
//
// Part of the library behind lesson 04; the lesson does not name it.
func Column(m [][]float64, j int) []float64 {
	col := make([]float64, len(m))
	for i, row := range m {
		col[i] = row[j]
	}
	return col
}

// Permute returns the rows of m in the order perm: row i of the result is
// m[perm[i]]. perm must be a permutation of 0..len(m)-1.
//
// Introduced in lesson 04.
func Permute(m [][]float64, perm []int) ([][]float64, error) {
	if err := checkPermutation(perm, len(m)); err != nil {
		return nil, err
	}
	out := make([][]float64, len(m))
	for i, p := range perm {
		out[i] = append([]float64(nil), m[p]...)
	}
	return out, nil
}

// PermuteBoth reorders the rows and the columns of a square matrix such as
// attention weights: out[i][j] = m[perm[i]][perm[j]]. If the tokens of a
// sequence are permuted by perm, the self-attention weights without
// positions are permuted exactly so.
//
// Part of the library behind lesson 04; the lesson does not name it.
func PermuteBoth(m [][]float64, perm []int) ([][]float64, error) {
	if err := checkPermutation(perm, len(m)); err != nil {
		return nil, err
	}
	out := make([][]float64, len(m))
	for i, p := range perm {
		if len(m[p]) != len(m) {
			return nil, fmt.Errorf("posenc.PermuteBoth: the matrix must be square, row %d has %d columns for %d rows", p, len(m[p]), len(m))
		}
		out[i] = make([]float64, len(m))
		for j, q := range perm {
			out[i][j] = m[p][q]
		}
	}
	return out, nil
}

func checkPermutation(perm []int, n int) error {
	if len(perm) != n {
		return fmt.Errorf("posenc: a permutation of %d rows needs %d indices, got %d", n, n, len(perm))
	}
	seen := make([]bool, n)
	for _, p := range perm {
		if p < 0 || p >= n || seen[p] {
			return fmt.Errorf("posenc: %v is not a permutation of 0..%d: every index must appear once", perm, n-1)
		}
		seen[p] = true
	}
	return nil
}

// MaxAbsDiff returns the largest |a[i][j] − b[i][j]|, or +Inf when the
// matrices do not have the same shape.
//
// Introduced in lesson 04.
func MaxAbsDiff(a, b [][]float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	worst := 0.0
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return math.Inf(1)
		}
		for j := range a[i] {
			worst = max(worst, math.Abs(a[i][j]-b[i][j]))
		}
	}
	return worst
}

// RowPermutation looks for the rows of b among the rows of a: it returns
// perm with b[i] = a[perm[i]] (within tol in every entry) and ok = true
// when b is a reordering of a's rows — the same multiset of rows. A row
// of a is used at most once. ok is false, and perm nil, when some row of b
// has no match.
//
// Introduced in lesson 04.
func RowPermutation(a, b [][]float64, tol float64) (perm []int, ok bool) {
	if len(a) != len(b) {
		return nil, false
	}
	used := make([]bool, len(a))
	for _, rb := range b {
		found := -1
		for i, ra := range a {
			if !used[i] && MaxAbsDiff([][]float64{ra}, [][]float64{rb}) <= tol {
				found = i
				break
			}
		}
		if found < 0 {
			return nil, false
		}
		used[found] = true
		perm = append(perm, found)
	}
	return perm, true
}
