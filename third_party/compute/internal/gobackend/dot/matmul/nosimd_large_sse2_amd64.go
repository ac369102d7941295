// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

package matmul

import "fmt"

// noSIMDPanelFloat32 is the float32 panel kernel of the large product
// without AVX2: SSE2 lanes, which every amd64 CPU has.
var noSIMDPanelFloat32 = sse2LargeKernelFloat32

// sse2LargeKernelFloat32 computes what largeNoSIMDPanel computes for
// float32, the same rounded products added for each output element in the
// same order, four output columns at a time in SSE2 lanes
// (nosimd_large_sse2_amd64.s).
//
// (Patched in by the attention-in-go course: a CPU without AVX2, or one
// run with GOMLX_SIMD_AVX2=false, multiplied one element at a time, at
// about a third of the rate its SSE2 lanes reach with the same
// arithmetic.)
//
// The panels are as largeNoSIMDPanel reads them: packedLHS in groups of 2
// rows ([k][2] each, the last one padded), packedRHS in groups of 4
// columns ([k][4] each, the last one padded), and packedOutput
// rhsPanelCols elements a row, written for every row and column of the
// padded groups.
func sse2LargeKernelFloat32(packedLHS, packedRHS, packedOutput []float32,
	lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols int) {
	_ = lhsPanelRows // Not needed.
	if lhsActiveRows <= 0 || rhsActiveCols <= 0 {
		return
	}
	k := contractingLen
	rows := (lhsActiveRows + 1) / 2 * 2 // padded to the 2-row groups
	groups := (rhsActiveCols + 3) / 4   // 4-column groups
	cols := groups * 4
	if len(packedLHS) < rows*k || len(packedRHS) < cols*k ||
		cols > rhsPanelCols || len(packedOutput) < (rows-1)*rhsPanelCols+cols {
		panic(fmt.Sprintf("sse2LargeKernelFloat32: panels too small for %d×%d (padded) and %d contracting: lhs %d, rhs %d, output %d with %d columns",
			rows, cols, k, len(packedLHS), len(packedRHS), len(packedOutput), rhsPanelCols))
	}
	// The assembly reads lhs and rhs only when k > 0; an empty
	// contraction writes zeros.
	lhs0, rhs0 := &packedLHS[:1][0], &packedRHS[:1][0]
	for r := 0; r < rows; r += 2 {
		lhs := lhs0
		if k > 0 {
			lhs = &packedLHS[r*k]
		}
		out := packedOutput[r*rhsPanelCols:]
		g := 0
		for ; g+4 <= groups; g += 4 {
			rhs := rhs0
			if k > 0 {
				rhs = &packedRHS[g*4*k]
			}
			sse2Kernel2x16Float32(lhs, rhs, &out[g*4], k, 16*k, rhsPanelCols)
		}
		for ; g < groups; g++ {
			rhs := rhs0
			if k > 0 {
				rhs = &packedRHS[g*4*k]
			}
			sse2Kernel2x4Float32(lhs, rhs, &out[g*4], k, rhsPanelCols)
		}
	}
}

// sse2Kernel2x16Float32 writes the 2×16 tile at out (rows outStride
// elements apart) of the product of k contracting steps of a 2-row lhs
// group and four 4-column rhs groups, groupStride bytes apart. In
// nosimd_large_sse2_amd64.s.
//
//go:noescape
func sse2Kernel2x16Float32(lhs, rhs, out *float32, k, groupStride, outStride int)

// sse2Kernel2x4Float32 writes the 2×4 tile at out of the product of k
// contracting steps of a 2-row lhs group and one 4-column rhs group. In
// nosimd_large_sse2_amd64.s.
//
//go:noescape
func sse2Kernel2x4Float32(lhs, rhs, out *float32, k, outStride int)
