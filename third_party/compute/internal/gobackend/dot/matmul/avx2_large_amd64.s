// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

#include "textflag.h"

// The micro-kernel of avx2LargeKernelFloat32Asm (avx2_large_asm.go).
// (Patched in by the attention-in-go course.)
//
// It computes, for packed panels, what avx2LargeKernelFloat32 computes for
// one tile: for every output element a single chain of fused multiply-adds
// along the contracting axis, in its order, from +0:
//
//	out[r][c] = fma(lhs[k-1][r], rhs[k-1][c], … fma(lhs[0][r], rhs[0][c], +0))
//
// lhs holds 4 rows per contracting index ([k][4]); rhs holds 16 columns per
// contracting index ([k][16]). out's rows are outStride elements apart. The
// eight accumulators stay in Y0–Y7 (VFMADD231PS), the two rhs vectors in
// Y8–Y9, the four broadcast lhs values in Y10–Y13.

// func avx2Kernel4x16Float32(lhs, rhs, out *float32, k, outStride int)
TEXT ·avx2Kernel4x16Float32(SB), NOSPLIT, $0-40
	MOVQ lhs+0(FP), SI
	MOVQ rhs+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ k+24(FP), CX
	MOVQ outStride+32(FP), BX
	SHLQ $2, BX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JLE   store4x16

loop4x16:
	VMOVUPS      (DI), Y8
	VMOVUPS      32(DI), Y9
	VBROADCASTSS (SI), Y10
	VBROADCASTSS 4(SI), Y11
	VBROADCASTSS 8(SI), Y12
	VBROADCASTSS 12(SI), Y13
	VFMADD231PS  Y10, Y8, Y0
	VFMADD231PS  Y10, Y9, Y1
	VFMADD231PS  Y11, Y8, Y2
	VFMADD231PS  Y11, Y9, Y3
	VFMADD231PS  Y12, Y8, Y4
	VFMADD231PS  Y12, Y9, Y5
	VFMADD231PS  Y13, Y8, Y6
	VFMADD231PS  Y13, Y9, Y7
	ADDQ         $64, DI
	ADDQ         $16, SI
	DECQ         CX
	JNZ          loop4x16

store4x16:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	ADDQ    BX, DX
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, 32(DX)
	ADDQ    BX, DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, 32(DX)
	ADDQ    BX, DX
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	VZEROUPPER
	RET
