// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import "simd/archsimd"

// avx512SmallFloat32TransposedCols4 computes what avx512SmallFloat32Transposed
// computes, with the same operations for each output element in the same
// order (a chain of 16-lane fused multiply-adds along the contracting axis,
// avx512ReduceSumFloat32x16, then the scalar tail), but four output columns
// side by side. The release's loop finished one element's chain, latency
// bound (each fused multiply-add waits for the previous one), before it
// started the next; four independent chains keep the CPU's units busy.
//
// (Patched in by the attention-in-go course: these products of a GRU's
// states by its weights were a third of lesson 6's training step.)
func avx512SmallFloat32TransposedCols4(lhs, rhs []float32, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int, output []float32) {
	if batchCount == 0 || lhsCrossSize == 0 || rhsCrossSize == 0 || contractingSize == 0 {
		return
	}
	if avx512SmallFloat32TransposedKernel != nil {
		avx512SmallFloat32TransposedKernel(lhs, rhs, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
		return
	}
	k := contractingSize
	vecEnd := k &^ 15
	for b := batchStart; b < batchStart+batchCount; b++ {
		lb := lhs[b*lhsCrossSize*k : (b+1)*lhsCrossSize*k]
		rb := rhs[b*rhsCrossSize*k : (b+1)*rhsCrossSize*k]
		ob := output[b*lhsCrossSize*rhsCrossSize : (b+1)*lhsCrossSize*rhsCrossSize]
		for row := range lhsCrossSize {
			l := lb[row*k : (row+1)*k]
			o := ob[row*rhsCrossSize : (row+1)*rhsCrossSize]
			col := 0
			for ; col+4 <= rhsCrossSize; col += 4 {
				r0, r1 := rb[col*k:(col+1)*k], rb[(col+1)*k:(col+2)*k]
				r2, r3 := rb[(col+2)*k:(col+3)*k], rb[(col+3)*k:(col+4)*k]
				acc0 := archsimd.BroadcastFloat32x16(0)
				acc1, acc2, acc3 := acc0, acc0, acc0
				for i := 0; i < vecEnd; i += 16 {
					x := archsimd.LoadFloat32x16Slice(l[i : i+16])
					acc0 = x.MulAdd(archsimd.LoadFloat32x16Slice(r0[i:i+16]), acc0)
					acc1 = x.MulAdd(archsimd.LoadFloat32x16Slice(r1[i:i+16]), acc1)
					acc2 = x.MulAdd(archsimd.LoadFloat32x16Slice(r2[i:i+16]), acc2)
					acc3 = x.MulAdd(archsimd.LoadFloat32x16Slice(r3[i:i+16]), acc3)
				}
				res0, res1 := avx512ReduceSumFloat32x16(acc0), avx512ReduceSumFloat32x16(acc1)
				res2, res3 := avx512ReduceSumFloat32x16(acc2), avx512ReduceSumFloat32x16(acc3)
				for i := vecEnd; i < k; i++ {
					res0 += l[i] * r0[i]
					res1 += l[i] * r1[i]
					res2 += l[i] * r2[i]
					res3 += l[i] * r3[i]
				}
				o[col], o[col+1], o[col+2], o[col+3] = res0, res1, res2, res3
			}
			for ; col < rhsCrossSize; col++ {
				r := rb[col*k : (col+1)*k]
				acc := archsimd.BroadcastFloat32x16(0)
				for i := 0; i < vecEnd; i += 16 {
					acc = archsimd.LoadFloat32x16Slice(l[i:i+16]).MulAdd(archsimd.LoadFloat32x16Slice(r[i:i+16]), acc)
				}
				res := avx512ReduceSumFloat32x16(acc)
				for i := vecEnd; i < k; i++ {
					res += l[i] * r[i]
				}
				o[col] = res
			}
		}
	}
}
