// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import "fmt"

// avx2SmallFloat32TransposedKernel is the assembly replacement of
// avx2SmallFloat32Transposed (nil runs the release's loop: the tests'
// reference).
var avx2SmallFloat32TransposedKernel = avx2SmallFloat32TransposedAsm

// avx2SmallFloat32TransposedAsm computes what avx2SmallFloat32Transposed
// computes, bit for bit but for which NaN comes out where two meet, for
// lhs [n, k] and rhs [m, k] (both rows along
// the contracting axis). The release computes each output element alone:
// eight lanes of fused multiply-adds from +0 over the first k/8·8
// contracting steps, lane j taking steps j, j+8, …; the lanes summed as
// avx2ReduceSumFloat32x8 sums them, ((h0+l0)+(h1+l1)) + ((h2+l2)+(h3+l3))
// where h is the upper half of the vector and l the lower; then the last
// k mod 8 products added one by one. Each element is one chain, and each
// of its steps waits for the one before. Here eight elements' chains run side by
// side (avx2_small_transposed_amd64.s: 2 rows × 4 columns, with 1 × 4
// and 1 × 1 tiles for the fringes), summed in the same order, and the
// last k mod 8 products are added in Go by the release's expression.
//
// (Patched in by the attention-in-go course: the release's loop ran the
// [64, 64] × [64, 64]ᵀ product at 14 GFLOP/s on one core of the course's
// machine, a sixth of its AVX2 peak.)
func avx2SmallFloat32TransposedAsm(lhs, rhs []float32,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) {
	n, m, k := lhsCrossSize, rhsCrossSize, contractingSize
	if batchCount <= 0 || n <= 0 || m <= 0 || k <= 0 {
		return
	}
	lhsStride, rhsStride, outStride := n*k, m*k, n*m
	end := batchStart + batchCount
	if batchStart < 0 || len(lhs) < lhsStride*end || len(rhs) < rhsStride*end || len(output) < outStride*end {
		panic(fmt.Sprintf("avx2SmallFloat32TransposedAsm: matrices %d to %d of [%d, %d] × [%d, %d]ᵀ out of bounds: lhs %d, rhs %d, output %d",
			batchStart, end, n, k, m, k, len(lhs), len(rhs), len(output)))
	}
	k8 := k / 8
	m4 := m / 4 * 4
	rows2 := n / 2 * 2
	for b := batchStart; b < end; b++ {
		l := lhs[b*lhsStride : (b+1)*lhsStride]
		r := rhs[b*rhsStride : (b+1)*rhsStride]
		o := output[b*outStride : (b+1)*outStride]
		for row := 0; row < rows2; row += 2 {
			for c := 0; c < m4; c += 4 {
				avx2SmallTransposedKernel2x4Float32(&l[row*k], &r[c*k], &o[row*m+c], k8, 4*k, 4*k, 4*m)
			}
		}
		for row := rows2; row < n; row++ {
			for c := 0; c < m4; c += 4 {
				avx2SmallTransposedKernel1x4Float32(&l[row*k], &r[c*k], &o[row*m+c], k8, 4*k)
			}
		}
		for row := range n {
			for c := m4; c < m; c++ {
				avx2SmallTransposedKernel1x1Float32(&l[row*k], &r[c*k], &o[row*m+c], k8)
			}
		}
		if k8*8 == k {
			continue
		}
		for row := range n {
			lRow := l[row*k : (row+1)*k]
			for c := range m {
				rRow := r[c*k : (c+1)*k]
				res := o[row*m+c]
				for kk := k8 * 8; kk < k; kk++ {
					res += lRow[kk] * rRow[kk]
				}
				o[row*m+c] = res
			}
		}
	}
}

// avx2SmallTransposedKernel2x4Float32 writes the vector sums of 2 rows × 4
// columns: lhs rows lhsStride bytes apart, rhs rows (the output's
// columns) rhsStride bytes apart, output rows outStride bytes apart; k8
// steps of 8 contracting elements. In avx2_small_transposed_amd64.s.
//
//go:noescape
func avx2SmallTransposedKernel2x4Float32(lhs, rhs, out *float32, k8, lhsStride, rhsStride, outStride int)

// avx2SmallTransposedKernel1x4Float32 writes the vector sums of 1 row × 4
// columns. In avx2_small_transposed_amd64.s.
//
//go:noescape
func avx2SmallTransposedKernel1x4Float32(lhs, rhs, out *float32, k8, rhsStride int)

// avx2SmallTransposedKernel1x1Float32 writes the vector sum of one
// element. In avx2_small_transposed_amd64.s.
//
//go:noescape
func avx2SmallTransposedKernel1x1Float32(lhs, rhs, out *float32, k8 int)
