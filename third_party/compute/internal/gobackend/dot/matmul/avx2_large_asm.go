// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package matmul

import "fmt"

// avx2LargeKernelFloat32Asm computes what avx2LargeKernelFloat32 computes,
// the same fused multiply-adds for each output element in the same order,
// with its 4 × 16 tiles in assembly (avx2_large_amd64.s).
//
// (Patched in by the attention-in-go course: the Go compiler keeps the
// release's eight accumulators moving between registers at every step of
// the contracting loop, sixteen register copies and two reloads from the
// stack for eight multiply-adds; the AVX2 product ran at a quarter of the
// CPU's peak, against three quarters for the AVX-512 one in assembly.)
//
// The panels are as avx2LargeKernelFloat32 reads them: packedLHS in groups
// of 4 rows ([k][4] each, the last one padded), packedRHS in groups of 16
// columns ([k][16] each, the last one padded), and packedOutput
// rhsPanelCols elements a row, written for every row and column of the
// padded groups.
func avx2LargeKernelFloat32Asm(packedLHS, packedRHS, packedOutput []float32,
	lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols int) {
	_ = lhsPanelRows // Not needed.
	if lhsActiveRows <= 0 || rhsActiveCols <= 0 {
		return
	}
	rows := (lhsActiveRows + 3) / 4 * 4    // padded to the 4-row groups
	cols := (rhsActiveCols + 15) / 16 * 16 // padded to the 16-column groups
	if len(packedLHS) < rows*contractingLen || len(packedRHS) < cols*contractingLen ||
		cols > rhsPanelCols || len(packedOutput) < (rows-1)*rhsPanelCols+cols {
		panic(fmt.Sprintf("avx2LargeKernelFloat32Asm: panels too small for %d×%d (padded) and %d contracting: lhs %d, rhs %d, output %d with %d columns",
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
		for c := 0; c < cols; c += 16 {
			rhs := rhs0
			if contractingLen > 0 {
				rhs = &packedRHS[c*contractingLen]
			}
			avx2Kernel4x16Float32(lhs, rhs, &packedOutput[r*rhsPanelCols+c], contractingLen, rhsPanelCols)
		}
	}
}

// avx2Kernel4x16Float32 writes the 4×16 tile at out (rows outStride
// elements apart) of the product of k contracting steps of a 4-row lhs
// group and a 16-column rhs group. In avx2_large_amd64.s.
//
//go:noescape
func avx2Kernel4x16Float32(lhs, rhs, out *float32, k, outStride int)
