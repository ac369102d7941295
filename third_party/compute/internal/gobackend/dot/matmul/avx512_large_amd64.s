// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

#include "textflag.h"

// The micro-kernels of avx512LargeKernelFloat32Asm (avx512_large_asm.go).
// (Patched in by the attention-in-go course.)
//
// Both compute, for packed panels, what avx512LargeKernelFloat32 computes
// for one tile: for every output element a single chain of fused
// multiply-adds along the contracting axis, in its order, from +0:
//
//	out[r][c] = fma(lhs[k-1][r], rhs[k-1][c], … fma(lhs[0][r], rhs[0][c], +0))
//
// lhs holds 4 rows per contracting index ([k][4]); rhs holds 32 columns per
// contracting index ([k][32]), one such group after the other. out's rows
// are outStride elements apart. The accumulators stay in registers
// (VFMADD231PS); the Go compiler's VFMADD213PS moves them between
// registers at every step.

// func avx512Kernel4x32Float32(lhs, rhs, out *float32, k, outStride int)
//
// A tile of 4 rows × 32 columns: eight accumulators, Z0–Z7.
TEXT ·avx512Kernel4x32Float32(SB), NOSPLIT, $0-40
	MOVQ lhs+0(FP), SI
	MOVQ rhs+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ k+24(FP), CX
	MOVQ outStride+32(FP), BX
	SHLQ $2, BX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JLE   store4x32

loop4x32:
	VMOVUPS      (DI), Z8
	VMOVUPS      64(DI), Z9
	VBROADCASTSS (SI), Z10
	VBROADCASTSS 4(SI), Z11
	VBROADCASTSS 8(SI), Z12
	VBROADCASTSS 12(SI), Z13
	VFMADD231PS  Z10, Z8, Z0
	VFMADD231PS  Z10, Z9, Z1
	VFMADD231PS  Z11, Z8, Z2
	VFMADD231PS  Z11, Z9, Z3
	VFMADD231PS  Z12, Z8, Z4
	VFMADD231PS  Z12, Z9, Z5
	VFMADD231PS  Z13, Z8, Z6
	VFMADD231PS  Z13, Z9, Z7
	ADDQ         $128, DI
	ADDQ         $16, SI
	DECQ         CX
	JNZ          loop4x32

store4x32:
	VMOVUPS Z0, (DX)
	VMOVUPS Z1, 64(DX)
	ADDQ    BX, DX
	VMOVUPS Z2, (DX)
	VMOVUPS Z3, 64(DX)
	ADDQ    BX, DX
	VMOVUPS Z4, (DX)
	VMOVUPS Z5, 64(DX)
	ADDQ    BX, DX
	VMOVUPS Z6, (DX)
	VMOVUPS Z7, 64(DX)
	VZEROUPPER
	RET

// func avx512Kernel4x64Float32(lhs, rhs, out *float32, k, outStride int)
//
// A tile of 4 rows × 64 columns, two groups of 32 packed columns, the
// second k·32 elements after the first: sixteen accumulators, Z0–Z7 and
// Z16–Z23.
TEXT ·avx512Kernel4x64Float32(SB), NOSPLIT, $0-40
	MOVQ lhs+0(FP), SI
	MOVQ rhs+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ k+24(FP), CX
	MOVQ outStride+32(FP), BX
	SHLQ $2, BX
	MOVQ CX, R8
	SHLQ $7, R8 // the second group: k·32 float32 further
	ADDQ DI, R8
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	TESTQ CX, CX
	JLE   store4x64

loop4x64:
	VMOVUPS      (DI), Z8
	VMOVUPS      64(DI), Z9
	VMOVUPS      (R8), Z24
	VMOVUPS      64(R8), Z25
	VBROADCASTSS (SI), Z10
	VBROADCASTSS 4(SI), Z11
	VBROADCASTSS 8(SI), Z12
	VBROADCASTSS 12(SI), Z13
	VFMADD231PS  Z10, Z8, Z0
	VFMADD231PS  Z10, Z9, Z1
	VFMADD231PS  Z10, Z24, Z16
	VFMADD231PS  Z10, Z25, Z17
	VFMADD231PS  Z11, Z8, Z2
	VFMADD231PS  Z11, Z9, Z3
	VFMADD231PS  Z11, Z24, Z18
	VFMADD231PS  Z11, Z25, Z19
	VFMADD231PS  Z12, Z8, Z4
	VFMADD231PS  Z12, Z9, Z5
	VFMADD231PS  Z12, Z24, Z20
	VFMADD231PS  Z12, Z25, Z21
	VFMADD231PS  Z13, Z8, Z6
	VFMADD231PS  Z13, Z9, Z7
	VFMADD231PS  Z13, Z24, Z22
	VFMADD231PS  Z13, Z25, Z23
	ADDQ         $128, DI
	ADDQ         $128, R8
	ADDQ         $16, SI
	DECQ         CX
	JNZ          loop4x64

store4x64:
	VMOVUPS Z0, (DX)
	VMOVUPS Z1, 64(DX)
	VMOVUPS Z16, 128(DX)
	VMOVUPS Z17, 192(DX)
	ADDQ    BX, DX
	VMOVUPS Z2, (DX)
	VMOVUPS Z3, 64(DX)
	VMOVUPS Z18, 128(DX)
	VMOVUPS Z19, 192(DX)
	ADDQ    BX, DX
	VMOVUPS Z4, (DX)
	VMOVUPS Z5, 64(DX)
	VMOVUPS Z20, 128(DX)
	VMOVUPS Z21, 192(DX)
	ADDQ    BX, DX
	VMOVUPS Z6, (DX)
	VMOVUPS Z7, 64(DX)
	VMOVUPS Z22, 128(DX)
	VMOVUPS Z23, 192(DX)
	VZEROUPPER
	RET
