// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import "fmt"

// avx2SmallFloat32Kernel is the assembly replacement of avx2SmallFloat32
// (nil runs the release's loops: the tests' reference).
var avx2SmallFloat32Kernel = avx2SmallFloat32Asm

// avx2SmallFloat32Asm computes what avx2SmallFloat32 computes, bit for
// bit: each element of its 8-column groups one chain of fused
// multiply-adds from +0 in the contracting order, with the chain in a
// register (avx2_small_amd64.s: 4 × 16, 4 × 8 and, for the last n mod 4
// rows, 1 × 8 tiles), and the columns past the last multiple of 8 as the
// release's scalar loop computes them: the first product, then each next
// one added.
//
// (Patched in by the attention-in-go course: the release loads and stores
// every output vector at every step of the contracting loop, which made
// the AVX2 small products slower than the plain kernels' SSE2 ones on the
// same CPU — BenchmarkMatMul/n=64 on the course's 2-core machine, a
// [64, 64] × [64, 64] product through a graph, 70–99 µs against 42–56.)
func avx2SmallFloat32Asm(lhs, rhs []float32,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) {
	n, m, k := lhsCrossSize, rhsCrossSize, contractingSize
	if batchCount <= 0 || n <= 0 || m <= 0 || k <= 0 {
		return
	}
	lhsStride, rhsStride, outStride := n*k, k*m, n*m
	end := batchStart + batchCount
	if batchStart < 0 || len(lhs) < lhsStride*end || len(rhs) < rhsStride*end || len(output) < outStride*end {
		panic(fmt.Sprintf("avx2SmallFloat32Asm: matrices %d to %d of [%d, %d] × [%d, %d] out of bounds: lhs %d, rhs %d, output %d",
			batchStart, end, n, k, k, m, len(lhs), len(rhs), len(output)))
	}
	m8 := m / 8 * 8
	rows4 := n / 4 * 4
	for b := batchStart; b < end; b++ {
		l := lhs[b*lhsStride : (b+1)*lhsStride]
		r := rhs[b*rhsStride : (b+1)*rhsStride]
		o := output[b*outStride : (b+1)*outStride]
		for row := 0; row < rows4; row += 4 {
			c := 0
			for ; c+16 <= m; c += 16 {
				avx2SmallKernel4x16Float32(&l[row*k], &r[c], &o[row*m+c], k, 4*k, 4*m, 4*m)
			}
			for ; c+8 <= m; c += 8 {
				avx2SmallKernel4x8Float32(&l[row*k], &r[c], &o[row*m+c], k, 4*k, 4*m, 4*m)
			}
		}
		for row := rows4; row < n; row++ {
			for c := 0; c+8 <= m; c += 8 {
				avx2SmallKernel1x8Float32(&l[row*k], &r[c], &o[row*m+c], k, 4*m)
			}
		}
		for row := range n {
			lRow := l[row*k : (row+1)*k]
			for c := m8; c < m; c++ {
				acc := lRow[0] * r[c]
				for kk := 1; kk < k; kk++ {
					acc += lRow[kk] * r[kk*m+c]
				}
				o[row*m+c] = acc
			}
		}
	}
}

// avx2SmallKernel4x16Float32 writes 4 rows × 16 columns (lhs rows
// lhsStride bytes apart, rhs rows rhsStride, output rows outStride). In
// avx2_small_amd64.s.
//
//go:noescape
func avx2SmallKernel4x16Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)

// avx2SmallKernel4x8Float32 writes 4 rows × 8 columns. In
// avx2_small_amd64.s.
//
//go:noescape
func avx2SmallKernel4x8Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)

// avx2SmallKernel1x8Float32 writes 1 row × 8 columns. In
// avx2_small_amd64.s.
//
//go:noescape
func avx2SmallKernel1x8Float32(lhs, rhs, out *float32, k, rhsStride int)
