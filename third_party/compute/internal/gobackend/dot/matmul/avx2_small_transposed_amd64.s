// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

#include "textflag.h"

// The micro-kernels of avx2SmallFloat32TransposedAsm
// (avx2_small_transposed_asm.go). (Patched in by the attention-in-go
// course.)
//
// For lhs [n, k] and rhs [m, k], both rows along the contracting axis,
// each output element is, as avx2SmallFloat32Transposed computes it over
// the first 8·k8 contracting steps:
//
//	acc  = fma(lhs[r][8i:8i+8], rhs[c][8i:8i+8], acc), i = 0 … k8-1, from +0
//	x4   = hi(acc) + lo(acc)
//	out  = (x4[0]+x4[1]) + (x4[2]+x4[3])
//
// The sums are those of avx2ReduceSumFloat32x8: VADDPS of the halves with
// the upper one first, then VHADDPS twice. VHADDPS of four different
// vectors gives the same lanes as VHADDPS of one with itself, so four
// elements are summed at once and stored together.

// REDUCE4 sums the eight lanes of each of a, b, c, d (Y registers, given
// as their X halves xa…xd and Y names ya…yd) into xa = [Σa, Σb, Σc, Σd];
// xb, xc, xd and xtmp are clobbered.
#define REDUCE4(ya, yb, yc, yd, xa, xb, xc, xd, xtmp) \
	VEXTRACTF128 $1, ya, xtmp; \
	VADDPS       xa, xtmp, xa; \
	VEXTRACTF128 $1, yb, xtmp; \
	VADDPS       xb, xtmp, xb; \
	VEXTRACTF128 $1, yc, xtmp; \
	VADDPS       xc, xtmp, xc; \
	VEXTRACTF128 $1, yd, xtmp; \
	VADDPS       xd, xtmp, xd; \
	VHADDPS      xb, xa, xa; \
	VHADDPS      xd, xc, xc; \
	VHADDPS      xc, xa, xa

// func avx2SmallTransposedKernel2x4Float32(lhs, rhs, out *float32, k8, lhsStride, rhsStride, outStride int)
//
// 2 rows × 4 columns: row 0's accumulators in Y0–Y3, row 1's in Y4–Y7,
// the lhs vectors in Y8–Y9, the rhs ones in Y10–Y13.
TEXT ·avx2SmallTransposedKernel2x4Float32(SB), NOSPLIT, $0-56
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k8+24(FP), CX
	MOVQ   lhsStride+32(FP), R8
	MOVQ   rhsStride+40(FP), R9
	MOVQ   outStride+48(FP), R10
	LEAQ   (DI)(R9*2), R11 // column 2
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ  CX, CX
	JLE    reduce2x4

loop2x4:
	VMOVUPS     (SI), Y8
	VMOVUPS     (SI)(R8*1), Y9
	VMOVUPS     (DI), Y10
	VMOVUPS     (DI)(R9*1), Y11
	VMOVUPS     (R11), Y12
	VMOVUPS     (R11)(R9*1), Y13
	VFMADD231PS Y10, Y8, Y0
	VFMADD231PS Y11, Y8, Y1
	VFMADD231PS Y12, Y8, Y2
	VFMADD231PS Y13, Y8, Y3
	VFMADD231PS Y10, Y9, Y4
	VFMADD231PS Y11, Y9, Y5
	VFMADD231PS Y12, Y9, Y6
	VFMADD231PS Y13, Y9, Y7
	ADDQ        $32, SI
	ADDQ        $32, DI
	ADDQ        $32, R11
	DECQ        CX
	JNZ         loop2x4

reduce2x4:
	REDUCE4(Y0, Y1, Y2, Y3, X0, X1, X2, X3, X8)
	REDUCE4(Y4, Y5, Y6, Y7, X4, X5, X6, X7, X8)
	VMOVUPS X0, (DX)
	VMOVUPS X4, (DX)(R10*1)
	VZEROUPPER
	RET

// func avx2SmallTransposedKernel1x4Float32(lhs, rhs, out *float32, k8, rhsStride int)
//
// 1 row × 4 columns: accumulators in Y0–Y3.
TEXT ·avx2SmallTransposedKernel1x4Float32(SB), NOSPLIT, $0-40
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k8+24(FP), CX
	MOVQ   rhsStride+32(FP), R9
	LEAQ   (DI)(R9*2), R11 // column 2
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	TESTQ  CX, CX
	JLE    reduce1x4

loop1x4:
	VMOVUPS     (SI), Y8
	VMOVUPS     (DI), Y10
	VMOVUPS     (DI)(R9*1), Y11
	VMOVUPS     (R11), Y12
	VMOVUPS     (R11)(R9*1), Y13
	VFMADD231PS Y10, Y8, Y0
	VFMADD231PS Y11, Y8, Y1
	VFMADD231PS Y12, Y8, Y2
	VFMADD231PS Y13, Y8, Y3
	ADDQ        $32, SI
	ADDQ        $32, DI
	ADDQ        $32, R11
	DECQ        CX
	JNZ         loop1x4

reduce1x4:
	REDUCE4(Y0, Y1, Y2, Y3, X0, X1, X2, X3, X8)
	VMOVUPS X0, (DX)
	VZEROUPPER
	RET

// func avx2SmallTransposedKernel1x1Float32(lhs, rhs, out *float32, k8 int)
//
// One element: the accumulator in Y0.
TEXT ·avx2SmallTransposedKernel1x1Float32(SB), NOSPLIT, $0-32
	MOVQ   lhs+0(FP), SI
	MOVQ   rhs+8(FP), DI
	MOVQ   out+16(FP), DX
	MOVQ   k8+24(FP), CX
	VXORPS Y0, Y0, Y0
	TESTQ  CX, CX
	JLE    reduce1x1

loop1x1:
	VMOVUPS     (SI), Y8
	VMOVUPS     (DI), Y10
	VFMADD231PS Y10, Y8, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	DECQ        CX
	JNZ         loop1x1

reduce1x1:
	VEXTRACTF128 $1, Y0, X8
	VADDPS       X0, X8, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VMOVSS       X0, (DX)
	VZEROUPPER
	RET
