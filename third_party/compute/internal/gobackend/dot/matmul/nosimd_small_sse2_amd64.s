// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

#include "textflag.h"

// The micro-kernels of sse2SmallFloat32 (nosimd_small_sse2_amd64.go).
// (Patched in by the attention-in-go course.)
//
// Each computes 8 output columns of a row-major product, the rhs row k at
// rhs + k·rhsStride bytes, four columns to an XMM register (MULPS, ADDPS:
// SSE2, which every amd64 CPU has; no fused multiply-add). They keep the
// order of the release's two small Go kernels for each output element:
//
// one chain of rounded products, from +0 (smallNoSIMDGeneric's 3-row
// tiles):
//
//	out[r][c] = (… ((+0 + l[r][0]·rhs[0][c]) + l[r][1]·rhs[1][c]) …) + l[r][k-1]·rhs[k-1][c]
//
// or the products four at a time, each four summed before they join the
// chain, then the last k mod 4 one by one (smallNoSIMDGenericTransposed,
// and smallNoSIMDGeneric's last rows):
//
//	acc += ((l[r][i]·rhs[i][c] + l[r][i+1]·rhs[i+1][c]) + l[r][i+2]·rhs[i+2][c]) + l[r][i+3]·rhs[i+3][c]

// BCAST loads the float32 at addr into all four lanes of reg.
#define BCAST(addr, reg) \
	MOVSS  addr, reg; \
	SHUFPS $0x00, reg, reg

// func sse2SmallChain3x8Float32(lhs, rhs, out *float32, k, lhsStride, rhsStride, outStride int)
//
// Three rows (lhsStride, outStride: bytes between rows) × 8 columns, one
// chain each: the six accumulators stay in X0–X5.
TEXT ·sse2SmallChain3x8Float32(SB), NOSPLIT, $0-56
	MOVQ  lhs+0(FP), SI
	MOVQ  rhs+8(FP), DI
	MOVQ  out+16(FP), DX
	MOVQ  k+24(FP), CX
	MOVQ  lhsStride+32(FP), R8
	MOVQ  rhsStride+40(FP), R9
	MOVQ  outStride+48(FP), R10
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	XORPS X4, X4
	XORPS X5, X5
	TESTQ CX, CX
	JLE   storeChain

loopChain:
	MOVUPS (DI), X6
	MOVUPS 16(DI), X7

	BCAST((SI), X8)
	MOVAPS X6, X9
	MULPS  X8, X9
	ADDPS  X9, X0
	MOVAPS X7, X10
	MULPS  X8, X10
	ADDPS  X10, X1

	BCAST((SI)(R8*1), X11)
	MOVAPS X6, X12
	MULPS  X11, X12
	ADDPS  X12, X2
	MOVAPS X7, X13
	MULPS  X11, X13
	ADDPS  X13, X3

	BCAST((SI)(R8*2), X14)
	MULPS X14, X6
	ADDPS X6, X4
	MULPS X14, X7
	ADDPS X7, X5

	ADDQ $4, SI
	ADDQ R9, DI
	DECQ CX
	JNZ  loopChain

storeChain:
	MOVUPS X0, (DX)
	MOVUPS X1, 16(DX)
	ADDQ   R10, DX
	MOVUPS X2, (DX)
	MOVUPS X3, 16(DX)
	ADDQ   R10, DX
	MOVUPS X4, (DX)
	MOVUPS X5, 16(DX)
	RET

// SUM4STEP multiplies the broadcast lhs element at lhsAddr by the 8 rhs
// columns at DI and adds the products to X2 and X3; then DI moves to the
// next rhs row.
#define SUM4STEP(lhsAddr) \
	BCAST(lhsAddr, X8); \
	MOVUPS (DI), X4; \
	MULPS  X8, X4; \
	ADDPS  X4, X2; \
	MOVUPS 16(DI), X5; \
	MULPS  X8, X5; \
	ADDPS  X5, X3; \
	ADDQ   R9, DI

// func sse2SmallSum4x1x8Float32(lhs, rhs, out *float32, k, rhsStride int)
//
// One row × 8 columns, the products summed four at a time: the
// accumulators in X0–X1, each four's sums in X2–X3.
TEXT ·sse2SmallSum4x1x8Float32(SB), NOSPLIT, $0-40
	MOVQ  lhs+0(FP), SI
	MOVQ  rhs+8(FP), DI
	MOVQ  out+16(FP), DX
	MOVQ  k+24(FP), CX
	MOVQ  rhsStride+32(FP), R9
	XORPS X0, X0
	XORPS X1, X1
	MOVQ  CX, R11
	SHRQ  $2, R11 // groups of four
	ANDQ  $3, CX  // the last k mod 4
	TESTQ R11, R11
	JZ    tailSum4

loopSum4:
	BCAST((SI), X8)
	MOVUPS (DI), X2
	MULPS  X8, X2
	MOVUPS 16(DI), X3
	MULPS  X8, X3
	ADDQ   R9, DI
	SUM4STEP(4(SI))
	SUM4STEP(8(SI))
	SUM4STEP(12(SI))
	ADDPS X2, X0
	ADDPS X3, X1
	ADDQ  $16, SI
	DECQ  R11
	JNZ   loopSum4

tailSum4:
	TESTQ CX, CX
	JZ    storeSum4

loopTail:
	BCAST((SI), X8)
	MOVUPS (DI), X4
	MULPS  X8, X4
	ADDPS  X4, X0
	MOVUPS 16(DI), X5
	MULPS  X8, X5
	ADDPS  X5, X1
	ADDQ   $4, SI
	ADDQ   R9, DI
	DECQ   CX
	JNZ    loopTail

storeSum4:
	MOVUPS X0, (DX)
	MOVUPS X1, 16(DX)
	RET
