// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import "fmt"

// avx512SmallFloat32TransposedKernel is the assembly replacement of
// avx512SmallFloat32TransposedCols4 (nil runs that Go loop: the tests'
// reference).
var avx512SmallFloat32TransposedKernel = avx512SmallFloat32TransposedAsm

// avx512SmallFloat32TransposedAsm computes what
// avx512SmallFloat32TransposedCols4 (and so the release's
// avx512SmallFloat32Transposed) computes, bit for bit but for which NaN
// comes out where two meet, for lhs [n, k] and rhs [m, k]: each element
// sixteen lanes of fused multiply-adds from +0 over the first k/16·16
// contracting steps, lane j taking steps j, j+16, …; the lanes summed as
// avx512ReduceSumFloat32x16 sums them (the upper half added to the lower,
// twice, then two horizontal adds); then the last k mod 16 products added
// one by one. Cols4 runs four elements' chains side by side in Go's
// vector types, and reduces each alone; here eight run side by side in
// registers (avx512_small_transposed_amd64.s: 2 rows × 4 columns, with
// 1 × 4 and 1 × 1 tiles for the fringes), four reduced at once, and the
// last k mod 16 products are added in Go by the same expression.
//
// (Patched in by the attention-in-go course: after patch 19 the AVX2
// kernels computed the masked attention [2, 8, 16, 64], whose scores
// take this layout, faster than the AVX-512 ones on the same CPU.)
func avx512SmallFloat32TransposedAsm(lhs, rhs []float32,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) {
	n, m, k := lhsCrossSize, rhsCrossSize, contractingSize
	if batchCount <= 0 || n <= 0 || m <= 0 || k <= 0 {
		return
	}
	lhsStride, rhsStride, outStride := n*k, m*k, n*m
	end := batchStart + batchCount
	if batchStart < 0 || len(lhs) < lhsStride*end || len(rhs) < rhsStride*end || len(output) < outStride*end {
		panic(fmt.Sprintf("avx512SmallFloat32TransposedAsm: matrices %d to %d of [%d, %d] × [%d, %d]ᵀ out of bounds: lhs %d, rhs %d, output %d",
			batchStart, end, n, k, m, k, len(lhs), len(rhs), len(output)))
	}
	k16 := k / 16
	m4 := m / 4 * 4
	rows2 := n / 2 * 2
	for b := batchStart; b < end; b++ {
		l := lhs[b*lhsStride : (b+1)*lhsStride]
		r := rhs[b*rhsStride : (b+1)*rhsStride]
		o := output[b*outStride : (b+1)*outStride]
		for row := 0; row < rows2; row += 2 {
			for c := 0; c < m4; c += 4 {
				avx512SmallTransposedKernel2x4Float32(&l[row*k], &r[c*k], &o[row*m+c], k16, 4*k, 4*k, 4*m)
			}
		}
		for row := rows2; row < n; row++ {
			for c := 0; c < m4; c += 4 {
				avx512SmallTransposedKernel1x4Float32(&l[row*k], &r[c*k], &o[row*m+c], k16, 4*k)
			}
		}
		for row := range n {
			for c := m4; c < m; c++ {
				avx512SmallTransposedKernel1x1Float32(&l[row*k], &r[c*k], &o[row*m+c], k16)
			}
		}
		if k16*16 == k {
			continue
		}
		for row := range n {
			lRow := l[row*k : (row+1)*k]
			for c := range m {
				rRow := r[c*k : (c+1)*k]
				res := o[row*m+c]
				for kk := k16 * 16; kk < k; kk++ {
					res += lRow[kk] * rRow[kk]
				}
				o[row*m+c] = res
			}
		}
	}
}

// avx512SmallTransposedKernel2x4Float32 writes the vector sums of 2 rows × 4
// columns: lhs rows lhsStride bytes apart, rhs rows (the output's
// columns) rhsStride bytes apart, output rows outStride bytes apart; k16
// steps of 16 contracting elements. In avx512_small_transposed_amd64.s.
//
//go:noescape
func avx512SmallTransposedKernel2x4Float32(lhs, rhs, out *float32, k16, lhsStride, rhsStride, outStride int)

// avx512SmallTransposedKernel1x4Float32 writes the vector sums of 1 row × 4
// columns. In avx512_small_transposed_amd64.s.
//
//go:noescape
func avx512SmallTransposedKernel1x4Float32(lhs, rhs, out *float32, k16, rhsStride int)

// avx512SmallTransposedKernel1x1Float32 writes the vector sum of one
// element. In avx512_small_transposed_amd64.s.
//
//go:noescape
func avx512SmallTransposedKernel1x1Float32(lhs, rhs, out *float32, k16 int)
