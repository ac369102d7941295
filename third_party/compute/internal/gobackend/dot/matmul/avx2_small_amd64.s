// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

#include "textflag.h"

// The micro-kernels of avx2SmallFloat32Asm (avx2_small_asm.go).
// (Patched in by the attention-in-go course.)
//
// They compute, for row-major operands, what avx2SmallFloat32 computes for
// its 8-column groups: for every output element a single chain of fused
// multiply-adds along the contracting axis, in its order, from +0:
//
//	out[r][c] = fma(lhs[r][k-1], rhs[k-1][c], … fma(lhs[r][0], rhs[0][c], +0))
//
// lhs rows are lhsStride bytes apart (element kk at +4·kk); rhs row kk is
// at rhs + kk·rhsStride; out rows are outStride bytes apart. The release
// keeps each element in memory between steps; here it stays in a register.

// func avx2SmallKernel4x16Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)
//
// 4 rows × 16 columns: eight accumulators in Y0–Y7, the two rhs vectors in
// Y8–Y9, the four broadcast lhs values in Y10–Y13.
TEXT ·avx2SmallKernel4x16Float32(SB), NOSPLIT, $0-56
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k+24(FP), CX
	MOVQ   lhsStride+32(FP), R8
	MOVQ   rhsStride+40(FP), R9
	MOVQ   outStride+48(FP), R10
	LEAQ   (SI)(R8*2), R11 // row 2
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ  CX, CX
	JLE    store4x16

loop4x16:
	VMOVUPS      (DI), Y8
	VMOVUPS      32(DI), Y9
	VBROADCASTSS (SI), Y10
	VBROADCASTSS (SI)(R8*1), Y11
	VBROADCASTSS (R11), Y12
	VBROADCASTSS (R11)(R8*1), Y13
	VFMADD231PS  Y10, Y8, Y0
	VFMADD231PS  Y10, Y9, Y1
	VFMADD231PS  Y11, Y8, Y2
	VFMADD231PS  Y11, Y9, Y3
	VFMADD231PS  Y12, Y8, Y4
	VFMADD231PS  Y12, Y9, Y5
	VFMADD231PS  Y13, Y8, Y6
	VFMADD231PS  Y13, Y9, Y7
	ADDQ         $4, SI
	ADDQ         $4, R11
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop4x16

store4x16:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	ADDQ    R10, DX
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, 32(DX)
	ADDQ    R10, DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, 32(DX)
	ADDQ    R10, DX
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	VZEROUPPER
	RET

// func avx2SmallKernel4x8Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)
//
// 4 rows × 8 columns: accumulators in Y0–Y3.
TEXT ·avx2SmallKernel4x8Float32(SB), NOSPLIT, $0-56
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k+24(FP), CX
	MOVQ   lhsStride+32(FP), R8
	MOVQ   rhsStride+40(FP), R9
	MOVQ   outStride+48(FP), R10
	LEAQ   (SI)(R8*2), R11 // row 2
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	TESTQ  CX, CX
	JLE    store4x8

loop4x8:
	VMOVUPS      (DI), Y8
	VBROADCASTSS (SI), Y10
	VBROADCASTSS (SI)(R8*1), Y11
	VBROADCASTSS (R11), Y12
	VBROADCASTSS (R11)(R8*1), Y13
	VFMADD231PS  Y10, Y8, Y0
	VFMADD231PS  Y11, Y8, Y1
	VFMADD231PS  Y12, Y8, Y2
	VFMADD231PS  Y13, Y8, Y3
	ADDQ         $4, SI
	ADDQ         $4, R11
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop4x8

store4x8:
	VMOVUPS Y0, (DX)
	ADDQ    R10, DX
	VMOVUPS Y1, (DX)
	ADDQ    R10, DX
	VMOVUPS Y2, (DX)
	ADDQ    R10, DX
	VMOVUPS Y3, (DX)
	VZEROUPPER
	RET

// func avx2SmallKernel1x8Float32(lhs, rhs, out *float32, k, rhsStride int)
//
// 1 row × 8 columns: the accumulator in Y0.
TEXT ·avx2SmallKernel1x8Float32(SB), NOSPLIT, $0-40
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k+24(FP), CX
	MOVQ   rhsStride+32(FP), R9
	VXORPS Y0, Y0, Y0
	TESTQ  CX, CX
	JLE    store1x8

loop1x8:
	VMOVUPS      (DI), Y8
	VBROADCASTSS (SI), Y10
	VFMADD231PS  Y10, Y8, Y0
	ADDQ         $4, SI
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop1x8

store1x8:
	VMOVUPS Y0, (DX)
	VZEROUPPER
	RET
