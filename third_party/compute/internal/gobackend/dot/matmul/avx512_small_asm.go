// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import "fmt"

// avx512SmallFloat32Kernel is the assembly replacement of avx512SmallFloat32
// (nil runs the release's loops: the tests' reference).
var avx512SmallFloat32Kernel = avx512SmallFloat32Asm

// avx512SmallFloat32Asm computes what avx512SmallFloat32 computes, bit for
// bit but for which NaN comes out where two meet: each element of its
// 16-column groups one chain of fused multiply-adds from +0 in the
// contracting order, with the chain in a register
// (avx512_small_amd64.s: 4 × 32, 4 × 16 and, for the last n mod 4 rows,
// 1 × 16 tiles), and the columns past the last multiple of 16 as the
// release's scalar loop computes them: the first product, then each next
// one added.
//
// (Patched in by the attention-in-go course: the release loads and stores
// every output vector at every step of the contracting loop, which made
// the AVX-512 small products slower than the AVX2 ones in assembly
// (patch 18) on the same CPU — BenchmarkMatMul/n=64 on the course's
// 2-core machine, a [64, 64] × [64, 64] product through a graph, 56–69 µs
// against 28–29.)
func avx512SmallFloat32Asm(lhs, rhs []float32,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) {
	n, m, k := lhsCrossSize, rhsCrossSize, contractingSize
	if batchCount <= 0 || n <= 0 || m <= 0 || k <= 0 {
		return
	}
	lhsStride, rhsStride, outStride := n*k, k*m, n*m
	end := batchStart + batchCount
	if batchStart < 0 || len(lhs) < lhsStride*end || len(rhs) < rhsStride*end || len(output) < outStride*end {
		panic(fmt.Sprintf("avx512SmallFloat32Asm: matrices %d to %d of [%d, %d] × [%d, %d] out of bounds: lhs %d, rhs %d, output %d",
			batchStart, end, n, k, k, m, len(lhs), len(rhs), len(output)))
	}
	m16 := m / 16 * 16
	rows4 := n / 4 * 4
	for b := batchStart; b < end; b++ {
		l := lhs[b*lhsStride : (b+1)*lhsStride]
		r := rhs[b*rhsStride : (b+1)*rhsStride]
		o := output[b*outStride : (b+1)*outStride]
		for row := 0; row < rows4; row += 4 {
			c := 0
			for ; c+32 <= m; c += 32 {
				avx512SmallKernel4x32Float32(&l[row*k], &r[c], &o[row*m+c], k, 4*k, 4*m, 4*m)
			}
			for ; c+16 <= m; c += 16 {
				avx512SmallKernel4x16Float32(&l[row*k], &r[c], &o[row*m+c], k, 4*k, 4*m, 4*m)
			}
		}
		for row := rows4; row < n; row++ {
			for c := 0; c+16 <= m; c += 16 {
				avx512SmallKernel1x16Float32(&l[row*k], &r[c], &o[row*m+c], k, 4*m)
			}
		}
		for row := range n {
			lRow := l[row*k : (row+1)*k]
			for c := m16; c < m; c++ {
				acc := lRow[0] * r[c]
				for kk := 1; kk < k; kk++ {
					acc += lRow[kk] * r[kk*m+c]
				}
				o[row*m+c] = acc
			}
		}
	}
}

// avx512SmallKernel4x32Float32 writes 4 rows × 32 columns (lhs rows
// lhsStride bytes apart, rhs rows rhsStride, output rows outStride). In
// avx512_small_amd64.s.
//
//go:noescape
func avx512SmallKernel4x32Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)

// avx512SmallKernel4x16Float32 writes 4 rows × 16 columns. In
// avx512_small_amd64.s.
//
//go:noescape
func avx512SmallKernel4x16Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)

// avx512SmallKernel1x16Float32 writes 1 row × 16 columns. In
// avx512_small_amd64.s.
//
//go:noescape
func avx512SmallKernel1x16Float32(lhs, rhs, out *float32, k, rhsStride int)
