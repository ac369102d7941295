// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

package matmul

import (
	"fmt"
	"sync"
)

// noSIMDSmallFloat32 is the float32 kernel of the small products without
// AVX2: SSE2 lanes, which every amd64 CPU has.
var noSIMDSmallFloat32 = sse2SmallFloat32

// sse2SmallMinRows and sse2SmallMinCols: below these, sse2SmallFloat32
// leaves a product to the release's loops (a transposed rhs is copied
// once per matrix, which a product of few rows does not repay).
const (
	sse2SmallMinRows = 4
	sse2SmallMinCols = 8
)

// sse2SmallFloat32 computes what smallNoSIMDGeneric (transposed false:
// rhs [batch, k, m]) or smallNoSIMDGenericTransposed (transposed true:
// rhs [batch, m, k]) computes for float32, bit for bit: each output
// element the same rounded products, added in the same order, eight
// output columns at a time in SSE2 lanes (nosimd_small_sse2_amd64.s).
// The release's order depends on the rows: smallNoSIMDGeneric adds each
// product to its element's sum in the rows of its 3-row tiles, and in
// the last n mod 3 rows (as smallNoSIMDGenericTransposed in every row)
// sums the products four at a time first. The columns past the last
// multiple of 8 are computed in Go, in the same orders.
//
// It reports false, computing nothing, for products of fewer than
// sse2SmallMinRows rows or sse2SmallMinCols columns: the caller runs the
// release's loops.
//
// (Patched in by the attention-in-go course: the small products, most of
// a small model's training on a CPU without AVX2, were multiplied one
// element at a time.)
func sse2SmallFloat32(lhs, rhs []float32,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32, transposed bool) bool {
	n, m, k := lhsCrossSize, rhsCrossSize, contractingSize
	if n < sse2SmallMinRows || m < sse2SmallMinCols || k <= 0 || batchCount <= 0 {
		return false
	}
	lhsStride, rhsStride, outStride := n*k, k*m, n*m
	end := batchStart + batchCount
	if batchStart < 0 || len(lhs) < lhsStride*end || len(rhs) < rhsStride*end || len(output) < outStride*end {
		panic(fmt.Sprintf("sse2SmallFloat32: matrices %d to %d of [%d, %d] × [%d, %d] out of bounds: lhs %d, rhs %d, output %d",
			batchStart, end, n, k, k, m, len(lhs), len(rhs), len(output)))
	}
	m8 := m / 8 * 8
	var scratch *[]float32
	if transposed {
		scratch = sse2SmallScratch.Get().(*[]float32)
		if cap(*scratch) < k*m8 {
			*scratch = make([]float32, k*m8)
		}
		defer sse2SmallScratch.Put(scratch)
	}
	for b := batchStart; b < end; b++ {
		l := lhs[b*lhsStride : (b+1)*lhsStride]
		r := rhs[b*rhsStride : (b+1)*rhsStride]
		o := output[b*outStride : (b+1)*outStride]
		if transposed {
			// The first m8 columns as rows of the rhs ([k, m8]).
			rt := (*scratch)[:k*m8]
			for kk := range k {
				row := rt[kk*m8 : (kk+1)*m8]
				for c := range row {
					row[c] = r[c*k+kk]
				}
			}
			for row := range n {
				lRow := l[row*k : (row+1)*k]
				for c := 0; c < m8; c += 8 {
					sse2SmallSum4x1x8Float32(&lRow[0], &rt[c], &o[row*m+c], k, 4*m8)
				}
				for c := m8; c < m; c++ {
					o[row*m+c] = sum4DotFloat32(lRow, r[c*k:], 1)
				}
			}
			continue
		}
		rows3 := n / 3 * 3
		for row := 0; row < rows3; row += 3 {
			for c := 0; c < m8; c += 8 {
				sse2SmallChain3x8Float32(&l[row*k], &r[c], &o[row*m+c], k, 4*k, 4*m, 4*m)
			}
			for i := row; i < row+3; i++ {
				for c := m8; c < m; c++ {
					o[i*m+c] = chainDotFloat32(l[i*k:(i+1)*k], r[c:], m)
				}
			}
		}
		for row := rows3; row < n; row++ {
			lRow := l[row*k : (row+1)*k]
			for c := 0; c < m8; c += 8 {
				sse2SmallSum4x1x8Float32(&lRow[0], &r[c], &o[row*m+c], k, 4*m)
			}
			for c := m8; c < m; c++ {
				o[row*m+c] = sum4DotFloat32(lRow, r[c:], m)
			}
		}
	}
	return true
}

// sse2SmallScratch holds the transposed rhs of sse2SmallFloat32.
var sse2SmallScratch = sync.Pool{New: func() any { return new([]float32) }}

// chainDotFloat32 is Σ l[i]·r[i·rStride] as one chain from +0, each
// product rounded (smallNoSIMDGeneric's 3-row tiles).
func chainDotFloat32(l, r []float32, rStride int) float32 {
	var acc float32
	for i, x := range l {
		acc += float32(x * r[i*rStride])
	}
	return acc
}

// sum4DotFloat32 is Σ l[i]·r[i·rStride] with the products summed four
// at a time before they join the chain, then the last len(l) mod 4 one by
// one (smallNoSIMDGenericTransposed).
func sum4DotFloat32(l, r []float32, rStride int) float32 {
	var acc float32
	i := 0
	for ; i+3 < len(l); i += 4 {
		v0 := float32(l[i] * r[i*rStride])
		v1 := float32(l[i+1] * r[(i+1)*rStride])
		v2 := float32(l[i+2] * r[(i+2)*rStride])
		v3 := float32(l[i+3] * r[(i+3)*rStride])
		acc += v0 + v1 + v2 + v3
	}
	for ; i < len(l); i++ {
		acc += float32(l[i] * r[i*rStride])
	}
	return acc
}

// sse2SmallChain3x8Float32 writes 3 rows × 8 columns, one chain of
// products each; rows lhsStride and outStride bytes apart, rhs rows
// rhsStride bytes apart. In nosimd_small_sse2_amd64.s.
//
//go:noescape
func sse2SmallChain3x8Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)

// sse2SmallSum4x1x8Float32 writes 1 row × 8 columns, the products summed
// four at a time; rhs rows rhsStride bytes apart. In
// nosimd_small_sse2_amd64.s.
//
//go:noescape
func sse2SmallSum4x1x8Float32(lhs, rhs, out *float32, k, rhsStride int)
