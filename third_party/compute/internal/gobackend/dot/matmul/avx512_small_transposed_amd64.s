// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

#include "textflag.h"

// The micro-kernels of avx512SmallFloat32TransposedAsm
// (avx512_small_transposed_asm.go). (Patched in by the attention-in-go
// course.)
//
// For lhs [n, k] and rhs [m, k], both rows along the contracting axis,
// each output element is, as avx512SmallFloat32TransposedCols4 (and the
// release's avx512SmallFloat32Transposed) computes it over the first 16·k16
// contracting steps:
//
//	acc  = fma(lhs[r][16i:16i+16], rhs[c][16i:16i+16], acc), i = 0 … k16-1, from +0
//	x8   = hi(acc) + lo(acc)
//	x4   = hi(x8) + lo(x8)
//	out  = (x4[0]+x4[1]) + (x4[2]+x4[3])
//
// The sums are those of avx512ReduceSumFloat32x16: VADDPS of the halves
// with the upper one first, twice, then VHADDPS twice. VHADDPS of four different
// vectors gives the same lanes as VHADDPS of one with itself, so four
// elements are summed at once and stored together.

// REDUCE4 sums the sixteen lanes of each of a, b, c, d (Z registers, given
// with their Y and X halves) into xa = [Σa, Σb, Σc, Σd]; the others and
// tmp are clobbered. (VEXTRACTF64X4 moves the upper 256 bits whatever
// their lanes hold, and needs only AVX-512F.)
#define REDUCE4(za, zb, zc, zd, ya, yb, yc, yd, xa, xb, xc, xd, ytmp, xtmp) \
	VEXTRACTF64X4 $1, za, ytmp; \
	VADDPS        ya, ytmp, ya; \
	VEXTRACTF64X4 $1, zb, ytmp; \
	VADDPS        yb, ytmp, yb; \
	VEXTRACTF64X4 $1, zc, ytmp; \
	VADDPS        yc, ytmp, yc; \
	VEXTRACTF64X4 $1, zd, ytmp; \
	VADDPS        yd, ytmp, yd; \
	VEXTRACTF128  $1, ya, xtmp; \
	VADDPS        xa, xtmp, xa; \
	VEXTRACTF128  $1, yb, xtmp; \
	VADDPS        xb, xtmp, xb; \
	VEXTRACTF128  $1, yc, xtmp; \
	VADDPS        xc, xtmp, xc; \
	VEXTRACTF128  $1, yd, xtmp; \
	VADDPS        xd, xtmp, xd; \
	VHADDPS       xb, xa, xa; \
	VHADDPS       xd, xc, xc; \
	VHADDPS       xc, xa, xa

// func avx512SmallTransposedKernel2x4Float32(lhs, rhs, out *float32, k16, lhsStride, rhsStride, outStride int)
//
// 2 rows × 4 columns: row 0's accumulators in Z0–Z3, row 1's in Z4–Z7,
// the lhs vectors in Z8–Z9, the rhs ones in Z10–Z13.
TEXT ·avx512SmallTransposedKernel2x4Float32(SB), NOSPLIT, $0-56
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k16+24(FP), CX
	MOVQ   lhsStride+32(FP), R8
	MOVQ   rhsStride+40(FP), R9
	MOVQ   outStride+48(FP), R10
	LEAQ   (DI)(R9*2), R11 // column 2
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ  CX, CX
	JLE    reduce2x4

loop2x4:
	VMOVUPS     (SI), Z8
	VMOVUPS     (SI)(R8*1), Z9
	VMOVUPS     (DI), Z10
	VMOVUPS     (DI)(R9*1), Z11
	VMOVUPS     (R11), Z12
	VMOVUPS     (R11)(R9*1), Z13
	VFMADD231PS Z10, Z8, Z0
	VFMADD231PS Z11, Z8, Z1
	VFMADD231PS Z12, Z8, Z2
	VFMADD231PS Z13, Z8, Z3
	VFMADD231PS Z10, Z9, Z4
	VFMADD231PS Z11, Z9, Z5
	VFMADD231PS Z12, Z9, Z6
	VFMADD231PS Z13, Z9, Z7
	ADDQ        $64, SI
	ADDQ        $64, DI
	ADDQ        $64, R11
	DECQ        CX
	JNZ         loop2x4

reduce2x4:
	REDUCE4(Z0, Z1, Z2, Z3, Y0, Y1, Y2, Y3, X0, X1, X2, X3, Y8, X8)
	REDUCE4(Z4, Z5, Z6, Z7, Y4, Y5, Y6, Y7, X4, X5, X6, X7, Y8, X8)
	VMOVUPS X0, (DX)
	VMOVUPS X4, (DX)(R10*1)
	VZEROUPPER
	RET

// func avx512SmallTransposedKernel1x4Float32(lhs, rhs, out *float32, k16, rhsStride int)
//
// 1 row × 4 columns: accumulators in Z0–Z3.
TEXT ·avx512SmallTransposedKernel1x4Float32(SB), NOSPLIT, $0-40
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k16+24(FP), CX
	MOVQ   rhsStride+32(FP), R9
	LEAQ   (DI)(R9*2), R11 // column 2
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	TESTQ  CX, CX
	JLE    reduce1x4

loop1x4:
	VMOVUPS     (SI), Z8
	VMOVUPS     (DI), Z10
	VMOVUPS     (DI)(R9*1), Z11
	VMOVUPS     (R11), Z12
	VMOVUPS     (R11)(R9*1), Z13
	VFMADD231PS Z10, Z8, Z0
	VFMADD231PS Z11, Z8, Z1
	VFMADD231PS Z12, Z8, Z2
	VFMADD231PS Z13, Z8, Z3
	ADDQ        $64, SI
	ADDQ        $64, DI
	ADDQ        $64, R11
	DECQ        CX
	JNZ         loop1x4

reduce1x4:
	REDUCE4(Z0, Z1, Z2, Z3, Y0, Y1, Y2, Y3, X0, X1, X2, X3, Y8, X8)
	VMOVUPS X0, (DX)
	VZEROUPPER
	RET

// func avx512SmallTransposedKernel1x1Float32(lhs, rhs, out *float32, k16 int)
//
// One element: the accumulator in Z0.
TEXT ·avx512SmallTransposedKernel1x1Float32(SB), NOSPLIT, $0-32
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k16+24(FP), CX
	VPXORD Z0, Z0, Z0
	TESTQ  CX, CX
	JLE    reduce1x1

loop1x1:
	VMOVUPS     (SI), Z8
	VMOVUPS     (DI), Z10
	VFMADD231PS Z10, Z8, Z0
	ADDQ        $64, SI
	ADDQ        $64, DI
	DECQ        CX
	JNZ         loop1x1

reduce1x1:
	VEXTRACTF64X4 $1, Z0, Y8
	VADDPS       Y0, Y8, Y0
	VEXTRACTF128 $1, Y0, X8
	VADDPS       X0, X8, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VMOVSS       X0, (DX)
	VZEROUPPER
	RET
