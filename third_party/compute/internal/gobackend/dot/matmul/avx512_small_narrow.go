// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"simd/archsimd"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

// avx512SmallNarrowFloat32Parallel is, for float32, what noSIMDRouter does
// for a small non-transposed product with at most 16 output columns: the
// same split of the batch over the workers, each matrix computed by
// avx512SmallNarrowFloat32 instead of smallNoSIMDGeneric.
//
// (Patched in by the attention-in-go course: a product by the values of
// attention heads 16 wide, [T, T] × [T, 16], went element by element.)
// layout is dot.LayoutNonTransposed (the router's arguments, for the
// release's call it replaces).
func avx512SmallNarrowFloat32Parallel(backend *gobackend.Backend, _ dot.Layout, lhs, rhs []float32,
	batchSize, lhsCrossSize, rhsCrossSize, contractingSize int, output []float32) {
	flopsPerMatrix := lhsCrossSize * rhsCrossSize * contractingSize
	if flopsPerMatrix == 0 {
		return
	}
	matricesPerTask := min((noSIMDMinMatMulFlopsPerWorker+flopsPerMatrix-1)/flopsPerMatrix, batchSize)
	maxWorkers := 1
	if backend.Workers != nil {
		maxWorkers = backend.Workers.AdjustedMaxParallelism()
	}
	if maxWorkers == 1 || matricesPerTask > batchSize/2 {
		avx512SmallNarrowFloat32(lhs, rhs, 0, batchSize, lhsCrossSize, rhsCrossSize, contractingSize, output)
		return
	}
	type chunkData struct {
		batchIdx, batchCount int
	}
	work := make(chan chunkData, (batchSize+matricesPerTask-1)/matricesPerTask)
	for batchIdx := 0; batchIdx < batchSize; batchIdx += matricesPerTask {
		work <- chunkData{batchIdx, min(matricesPerTask, batchSize-batchIdx)}
	}
	close(work)
	backend.Workers.Saturate(func() {
		for chunk := range work {
			avx512SmallNarrowFloat32(lhs, rhs, chunk.batchIdx, chunk.batchCount, lhsCrossSize, rhsCrossSize, contractingSize, output)
		}
	})
}

// avx512SmallNarrowFloat32 computes what smallNoSIMDGeneric computes for
// float32 operands of at most 16 output columns (rhsCrossSize ≤ 16), with
// the same operations for each output element in the same order, the
// columns of a row in the lanes of one vector:
//
//   - rows in threes: c += l·r along the contracting axis, a rounded
//     product and then a sum (never fused), from +0;
//   - the last rows (fewer than three): four products at a time summed
//     left to right, ((p₀ + p₁) + p₂) + p₃, then added to the sum, and the
//     last products one at a time.
//
// So the results are the same bit for bit, but for one thing no source
// order fixes: where two NaNs of different payloads meet in a sum, which
// one comes out depends on the operand order the compiler gives the add,
// in either loop.
//
// lhs: [batch, lhsCrossSize, contractingSize]; rhs: [batch, contractingSize,
// rhsCrossSize]; output: [batch, lhsCrossSize, rhsCrossSize].
func avx512SmallNarrowFloat32(lhs, rhs []float32, batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int, output []float32) {
	m, n, k := lhsCrossSize, rhsCrossSize, contractingSize
	if batchCount == 0 || m == 0 || n == 0 || k == 0 {
		return
	}
	if n > 16 {
		panic("avx512SmallNarrowFloat32: more than 16 output columns")
	}
	// archsimd is called directly, so that the compiler inlines it: called
	// through function values, the broadcast alone took a quarter of the
	// masked attention [2, 8, 16, 64]'s time.
	for b := batchStart; b < batchStart+batchCount; b++ {
		lb := lhs[b*m*k : (b+1)*m*k]
		rb := rhs[b*k*n : (b+1)*k*n]
		ob := output[b*m*n : (b+1)*m*n]
		row := 0
		for ; row+2 < m; row += 3 {
			l0, l1, l2 := lb[row*k:(row+1)*k], lb[(row+1)*k:(row+2)*k], lb[(row+2)*k:(row+3)*k]
			c0 := archsimd.BroadcastFloat32x16(0)
			c1, c2 := c0, c0
			for i := range k {
				r := loadNarrowFloat32x16(rb[i*n : (i+1)*n])
				c0 = c0.Add(archsimd.BroadcastFloat32x16(l0[i]).Mul(r))
				c1 = c1.Add(archsimd.BroadcastFloat32x16(l1[i]).Mul(r))
				c2 = c2.Add(archsimd.BroadcastFloat32x16(l2[i]).Mul(r))
			}
			c0.StoreSlicePart(ob[row*n : (row+1)*n])
			c1.StoreSlicePart(ob[(row+1)*n : (row+2)*n])
			c2.StoreSlicePart(ob[(row+2)*n : (row+3)*n])
		}
		for ; row < m; row++ {
			l := lb[row*k : (row+1)*k]
			acc := archsimd.BroadcastFloat32x16(0)
			i := 0
			for ; i+3 < k; i += 4 {
				p0 := archsimd.BroadcastFloat32x16(l[i]).Mul(loadNarrowFloat32x16(rb[i*n : (i+1)*n]))
				p1 := archsimd.BroadcastFloat32x16(l[i+1]).Mul(loadNarrowFloat32x16(rb[(i+1)*n : (i+2)*n]))
				p2 := archsimd.BroadcastFloat32x16(l[i+2]).Mul(loadNarrowFloat32x16(rb[(i+2)*n : (i+3)*n]))
				p3 := archsimd.BroadcastFloat32x16(l[i+3]).Mul(loadNarrowFloat32x16(rb[(i+3)*n : (i+4)*n]))
				acc = acc.Add(p0.Add(p1).Add(p2).Add(p3))
			}
			for ; i < k; i++ {
				acc = acc.Add(archsimd.BroadcastFloat32x16(l[i]).Mul(loadNarrowFloat32x16(rb[i*n : (i+1)*n])))
			}
			acc.StoreSlicePart(ob[row*n : (row+1)*n])
		}
	}
}

// loadNarrowFloat32x16 loads the n ≤ 16 elements of s into 16 lanes,
// zeros beyond n.
func loadNarrowFloat32x16(s []float32) archsimd.Float32x16 {
	if len(s) == 16 {
		return archsimd.LoadFloat32x16Slice(s)
	}
	return archsimd.LoadFloat32x16SlicePart(s)
}
