// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import (
	"fmt"
	"unsafe"

	"github.com/gomlx/compute/internal/gobackend/transpose"
)

// avx512LargeKernelFloat32Asm computes what avx512LargeKernelFloat32
// computes, the same fused multiply-adds for each output element in the
// same order, with its tiles in assembly (avx512_large_amd64.s): four rows
// by 64 columns while two groups of 32 packed columns remain, four rows by
// 32 for the last group.
//
// (Patched in by the attention-in-go course: the Go compiler keeps the
// release's eight accumulators moving between registers at every step of
// the contracting loop, about 45 instructions for 8 multiply-adds; the
// assembly loop takes 16 for 8, or 28 for 16.)
//
// The panels are as avx512LargeKernelFloat32 reads them: packedLHS in
// groups of 4 rows ([k][4] each, the last one padded), packedRHS in
// groups of 32 columns ([k][32] each, the last one padded), and
// packedOutput rhsPanelCols elements a row, written for every row and
// column of the padded groups.
func avx512LargeKernelFloat32Asm(packedLHS, packedRHS, packedOutput []float32,
	lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols int) {
	_ = lhsPanelRows // Not needed.
	if lhsActiveRows <= 0 || rhsActiveCols <= 0 {
		return
	}
	rows := (lhsActiveRows + 3) / 4 * 4    // padded to the 4-row groups
	cols := (rhsActiveCols + 31) / 32 * 32 // padded to the 32-column groups
	if len(packedLHS) < rows*contractingLen || len(packedRHS) < cols*contractingLen ||
		cols > rhsPanelCols || len(packedOutput) < (rows-1)*rhsPanelCols+cols {
		panic(fmt.Sprintf("avx512LargeKernelFloat32Asm: panels too small for %d×%d (padded) and %d contracting: lhs %d, rhs %d, output %d with %d columns",
			rows, cols, contractingLen, len(packedLHS), len(packedRHS), len(packedOutput), rhsPanelCols))
	}
	// The assembly reads lhs[0] and rhs[0] only when contractingLen > 0;
	// an empty contraction writes zeros.
	lhs0, rhs0 := &packedLHS[:1][0], &packedRHS[:1][0]
	for r := 0; r < rows; r += 4 {
		lhs := lhs0
		if contractingLen > 0 {
			lhs = &packedLHS[r*contractingLen]
		}
		for c := 0; c < cols; {
			rhs := rhs0
			if contractingLen > 0 {
				rhs = &packedRHS[c*contractingLen]
			}
			out := &packedOutput[r*rhsPanelCols+c]
			if c+64 <= cols {
				avx512Kernel4x64Float32(lhs, rhs, out, contractingLen, rhsPanelCols)
				c += 64
			} else {
				avx512Kernel4x32Float32(lhs, rhs, out, contractingLen, rhsPanelCols)
				c += 32
			}
		}
	}
}

// avx512Kernel4x32Float32 writes the 4×32 tile at out (rows outStride
// elements apart) of the product of k contracting steps of a 4-row lhs
// group and a 32-column rhs group. In avx512_large_amd64.s.
//
//go:noescape
func avx512Kernel4x32Float32(lhs, rhs, out *float32, k, outStride int)

// avx512Kernel4x64Float32 is avx512Kernel4x32Float32 for two 32-column rhs
// groups, the second k·32 elements after the first, into a 4×64 tile.
//
//go:noescape
func avx512Kernel4x64Float32(lhs, rhs, out *float32, k, outStride int)

// avx512PackRHSTransposedFloat32 packs what unsafePackLHS packs, the same
// elements to the same places, for a float32 rhs in LayoutTransposed
// ([rhsCross, contracting], rows rowLen elements long) and strips of 32
// columns (kernelCols): rows rowStart… of the rhs, contracting indices
// colStart…, become panel strips of [contractingCols][32], the last strip
// padded with zeros. Whole 16 × 16 blocks go as transposes in AVX-512
// registers (transpose.Tile16); the rest element by element.
//
// (Patched in by the attention-in-go course: the release's loop moves one
// element at a time, with strided stores.)
func avx512PackRHSTransposedFloat32(rhs, panel []float32, rowStart, colStart, rowLen, copyRows, contractingCols, kernelCols int) {
	if kernelCols != 32 {
		unsafePackLHS(rhs, panel, rowStart, colStart, rowLen, copyRows, contractingCols, kernelCols)
		return
	}
	const tile = 16
	if copyRows == 0 || contractingCols == 0 {
		return
	}
	_ = rhs[(rowStart+copyRows-1)*rowLen+colStart+contractingCols-1]
	_ = panel[(copyRows+31)/32*32*contractingCols-1]
	rhs32 := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(rhs))), len(rhs))
	panel32 := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(panel))), len(panel))
	kTiled := contractingCols / tile * tile // contracting indices the tiles cover
	for s := 0; s*32 < copyRows; s++ {
		strip := panel[s*32*contractingCols : (s+1)*32*contractingCols] // Shape: [contractingCols, 32]
		first := rowStart + s*32                                        // the strip's first rhs row
		rows := min(32, copyRows-s*32)
		tiled := rows / tile * tile // the strip's columns the tiles cover: 0, 16 or 32
		for k := 0; k < kTiled; k += tile {
			for h := 0; h < tiled; h += tile {
				transpose.Tile16(&rhs32[(first+h)*rowLen+colStart+k], rowLen, &panel32[s*32*contractingCols+k*32+h], 32)
			}
		}
		for k := range contractingCols {
			r0 := 0
			if k < kTiled {
				r0 = tiled
			}
			for r := r0; r < 32; r++ {
				var v float32
				if r < rows {
					v = rhs[(first+r)*rowLen+colStart+k]
				}
				strip[k*32+r] = v
			}
		}
	}
}
