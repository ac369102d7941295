// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/support/envutil"
)

func init() {
	if envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) && archsimd.X86.AVX512() {
		transposeTile32 = transposeTile32AVX512
	}
}

// transposeSwap[k] holds the two permutations of stage k of a 16 × 16
// transpose: stage k swaps bit k of the row index with bit k of the column
// index, between rows r (bit k clear) and r | 1<<k. Of the pair's 32
// elements (row r's first, then the other's), row r takes [0] and row
// r | 1<<k takes [1].
var transposeSwap = func() (p [4][2][16]uint32) {
	for k := range 4 {
		bit := uint32(1) << k
		for c := range uint32(16) {
			if c&bit == 0 {
				p[k][0][c] = c       // (r, c) stays
				p[k][1][c] = c | bit // (r|bit, c) ← (r, c|bit)
			} else {
				p[k][0][c] = 16 + c ^ bit // (r, c) ← (r|bit, c^bit)
				p[k][1][c] = 16 + c       // (r|bit, c) stays
			}
		}
	}
	return
}()

// transposeTile32AVX512 is transposeTile32 in sixteen AVX-512 registers:
// load the tile's rows, four stages of two-source permutes (VPERMI2D),
// store its columns. Elements are moved, never computed.
func transposeTile32AVX512(in []uint32, inStride int, out []uint32, outStride int) {
	var v [16]archsimd.Uint32x16
	for i := range v {
		v[i] = archsimd.LoadUint32x16Slice(in[i*inStride : i*inStride+16])
	}
	for k := range 4 {
		keep, swap := archsimd.LoadUint32x16(&transposeSwap[k][0]), archsimd.LoadUint32x16(&transposeSwap[k][1])
		bit := 1 << k
		for r := range 16 {
			if r&bit == 0 {
				x, y := v[r], v[r|bit]
				v[r], v[r|bit] = x.ConcatPermute(y, keep), x.ConcatPermute(y, swap)
			}
		}
	}
	for j := range v {
		v[j].StoreSlice(out[j*outStride : j*outStride+16])
	}
}
