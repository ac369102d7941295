// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

#include "textflag.h"

// The micro-kernels of sse2LargeKernelFloat32 (nosimd_large_sse2_amd64.go).
// (Patched in by the attention-in-go course.)
//
// They compute, for packed panels, what largeNoSIMDPanel computes for
// float32: for every output element a chain of multiplications, each
// rounded, and additions along the contracting axis, in its order, from +0:
//
//	out[r][c] = (… ((+0 + lhs[0][r]·rhs[0][c]) + lhs[1][r]·rhs[1][c]) …) + lhs[k-1][r]·rhs[k-1][c]
//
// Four output columns share an XMM register (MULPS, ADDPS: SSE2, which
// every amd64 CPU has; no fused multiply-add, as in the Go kernel).
//
// lhs holds 2 rows per contracting index ([k][2]); rhs holds groups of 4
// columns per contracting index ([k][4] each), groupStride bytes apart.
// out's rows are outStride elements apart.

// func sse2Kernel2x16Float32(lhs, rhs, out *float32, k, groupStride, outStride int)
//
// A 2 × 16 tile (four column groups): the eight accumulators stay in X0–X7
// (row 0 in X0–X3, row 1 in X4–X7), the broadcast lhs values in X8–X9.
TEXT ·sse2Kernel2x16Float32(SB), NOSPLIT, $0-48
	MOVQ  lhs+0(FP), SI
	MOVQ  rhs+8(FP), DI
	MOVQ  out+16(FP), DX
	MOVQ  k+24(FP), CX
	MOVQ  groupStride+32(FP), BX
	MOVQ  outStride+40(FP), R8
	SHLQ  $2, R8
	LEAQ  (DI)(BX*2), R9 // the third column group
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	XORPS X4, X4
	XORPS X5, X5
	XORPS X6, X6
	XORPS X7, X7
	TESTQ CX, CX
	JLE   store2x16

loop2x16:
	MOVSS  (SI), X8
	SHUFPS $0x00, X8, X8
	MOVSS  4(SI), X9
	SHUFPS $0x00, X9, X9

	MOVUPS (DI), X10
	MOVAPS X10, X11
	MULPS  X8, X10
	MULPS  X9, X11
	ADDPS  X10, X0
	ADDPS  X11, X4

	MOVUPS (DI)(BX*1), X12
	MOVAPS X12, X13
	MULPS  X8, X12
	MULPS  X9, X13
	ADDPS  X12, X1
	ADDPS  X13, X5

	MOVUPS (R9), X14
	MOVAPS X14, X15
	MULPS  X8, X14
	MULPS  X9, X15
	ADDPS  X14, X2
	ADDPS  X15, X6

	MOVUPS (R9)(BX*1), X10
	MOVAPS X10, X11
	MULPS  X8, X10
	MULPS  X9, X11
	ADDPS  X10, X3
	ADDPS  X11, X7

	ADDQ $16, DI
	ADDQ $16, R9
	ADDQ $8, SI
	DECQ CX
	JNZ  loop2x16

store2x16:
	MOVUPS X0, (DX)
	MOVUPS X1, 16(DX)
	MOVUPS X2, 32(DX)
	MOVUPS X3, 48(DX)
	ADDQ   R8, DX
	MOVUPS X4, (DX)
	MOVUPS X5, 16(DX)
	MOVUPS X6, 32(DX)
	MOVUPS X7, 48(DX)
	RET

// func sse2Kernel2x4Float32(lhs, rhs, out *float32, k, outStride int)
//
// A 2 × 4 tile (one column group), for the groups left over after the
// 2 × 16 tiles: accumulators in X0 and X4.
TEXT ·sse2Kernel2x4Float32(SB), NOSPLIT, $0-40
	MOVQ  lhs+0(FP), SI
	MOVQ  rhs+8(FP), DI
	MOVQ  out+16(FP), DX
	MOVQ  k+24(FP), CX
	MOVQ  outStride+32(FP), R8
	SHLQ  $2, R8
	XORPS X0, X0
	XORPS X4, X4
	TESTQ CX, CX
	JLE   store2x4

loop2x4:
	MOVSS  (SI), X8
	SHUFPS $0x00, X8, X8
	MOVSS  4(SI), X9
	SHUFPS $0x00, X9, X9
	MOVUPS (DI), X10
	MOVAPS X10, X11
	MULPS  X8, X10
	MULPS  X9, X11
	ADDPS  X10, X0
	ADDPS  X11, X4
	ADDQ   $16, DI
	ADDQ   $8, SI
	DECQ   CX
	JNZ    loop2x4

store2x4:
	MOVUPS X0, (DX)
	ADDQ   R8, DX
	MOVUPS X4, (DX)
	RET
