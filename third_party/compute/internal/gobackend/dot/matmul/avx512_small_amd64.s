// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

#include "textflag.h"

// The micro-kernels of avx512SmallFloat32Asm (avx512_small_asm.go).
// (Patched in by the attention-in-go course.)
//
// They compute, for row-major operands, what avx512SmallFloat32 computes for
// its 16-column groups: for every output element a single chain of fused
// multiply-adds along the contracting axis, in its order, from +0:
//
//	out[r][c] = fma(lhs[r][k-1], rhs[k-1][c], … fma(lhs[r][0], rhs[0][c], +0))
//
// lhs rows are lhsStride bytes apart (element kk at +4·kk); rhs row kk is
// at rhs + kk·rhsStride; out rows are outStride bytes apart. The release
// keeps each element in memory between steps; here it stays in a register.

// func avx512SmallKernel4x32Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)
//
// 4 rows × 32 columns: eight accumulators in Z0–Z7, the two rhs vectors in
// Z8–Z9, the four broadcast lhs values in Z10–Z13.
TEXT ·avx512SmallKernel4x32Float32(SB), NOSPLIT, $0-56
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k+24(FP), CX
	MOVQ   lhsStride+32(FP), R8
	MOVQ   rhsStride+40(FP), R9
	MOVQ   outStride+48(FP), R10
	LEAQ   (SI)(R8*2), R11 // row 2
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ  CX, CX
	JLE    store4x32

loop4x32:
	VMOVUPS      (DI), Z8
	VMOVUPS      64(DI), Z9
	VBROADCASTSS (SI), Z10
	VBROADCASTSS (SI)(R8*1), Z11
	VBROADCASTSS (R11), Z12
	VBROADCASTSS (R11)(R8*1), Z13
	VFMADD231PS  Z10, Z8, Z0
	VFMADD231PS  Z10, Z9, Z1
	VFMADD231PS  Z11, Z8, Z2
	VFMADD231PS  Z11, Z9, Z3
	VFMADD231PS  Z12, Z8, Z4
	VFMADD231PS  Z12, Z9, Z5
	VFMADD231PS  Z13, Z8, Z6
	VFMADD231PS  Z13, Z9, Z7
	ADDQ         $4, SI
	ADDQ         $4, R11
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop4x32

store4x32:
	VMOVUPS Z0, (DX)
	VMOVUPS Z1, 64(DX)
	ADDQ    R10, DX
	VMOVUPS Z2, (DX)
	VMOVUPS Z3, 64(DX)
	ADDQ    R10, DX
	VMOVUPS Z4, (DX)
	VMOVUPS Z5, 64(DX)
	ADDQ    R10, DX
	VMOVUPS Z6, (DX)
	VMOVUPS Z7, 64(DX)
	VZEROUPPER
	RET

// func avx512SmallKernel4x16Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)
//
// 4 rows × 16 columns: accumulators in Z0–Z3.
TEXT ·avx512SmallKernel4x16Float32(SB), NOSPLIT, $0-56
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k+24(FP), CX
	MOVQ   lhsStride+32(FP), R8
	MOVQ   rhsStride+40(FP), R9
	MOVQ   outStride+48(FP), R10
	LEAQ   (SI)(R8*2), R11 // row 2
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	TESTQ  CX, CX
	JLE    store4x16

loop4x16:
	VMOVUPS      (DI), Z8
	VBROADCASTSS (SI), Z10
	VBROADCASTSS (SI)(R8*1), Z11
	VBROADCASTSS (R11), Z12
	VBROADCASTSS (R11)(R8*1), Z13
	VFMADD231PS  Z10, Z8, Z0
	VFMADD231PS  Z11, Z8, Z1
	VFMADD231PS  Z12, Z8, Z2
	VFMADD231PS  Z13, Z8, Z3
	ADDQ         $4, SI
	ADDQ         $4, R11
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop4x16

store4x16:
	VMOVUPS Z0, (DX)
	ADDQ    R10, DX
	VMOVUPS Z1, (DX)
	ADDQ    R10, DX
	VMOVUPS Z2, (DX)
	ADDQ    R10, DX
	VMOVUPS Z3, (DX)
	VZEROUPPER
	RET

// func avx512SmallKernel1x16Float32(lhs, rhs, out *float32, k, rhsStride int)
//
// 1 row × 16 columns: the accumulator in Z0.
TEXT ·avx512SmallKernel1x16Float32(SB), NOSPLIT, $0-40
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k+24(FP), CX
	MOVQ   rhsStride+32(FP), R9
	VPXORD Z0, Z0, Z0
	TESTQ  CX, CX
	JLE    store1x16

loop1x16:
	VMOVUPS      (DI), Z8
	VBROADCASTSS (SI), Z10
	VFMADD231PS  Z10, Z8, Z0
	ADDQ         $4, SI
	ADDQ         R9, DI
	DECQ         CX
	JNZ          loop1x16

store1x16:
	VMOVUPS Z0, (DX)
	VZEROUPPER
	RET
