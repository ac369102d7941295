#include "textflag.h"

// func multiplyAdd4(n int, m, c float32) float32
//
// BenchmarkPeak's chains on SSE2 vectors (peak_sse2_amd64.go): 12 chains
// a ← a·m + c of 4 float32 lanes each in X0–X11, a multiply and an add per
// chain and round (MULPS, ADDPS), as in the plain class's matrix kernels.
TEXT ·multiplyAdd4(SB), NOSPLIT, $0-20
	MOVQ   n+0(FP), CX
	MOVSS  m+8(FP), X12
	SHUFPS $0x00, X12, X12
	MOVSS  c+12(FP), X13
	SHUFPS $0x00, X13, X13

	// a0 … a11 start at 1 … 12 in every lane.
	MOVL   $0x3f800000, AX // 1.0
	MOVL   AX, X14
	SHUFPS $0x00, X14, X14
	MOVAPS X14, X0
	MOVAPS X0, X1
	ADDPS  X14, X1
	MOVAPS X1, X2
	ADDPS  X14, X2
	MOVAPS X2, X3
	ADDPS  X14, X3
	MOVAPS X3, X4
	ADDPS  X14, X4
	MOVAPS X4, X5
	ADDPS  X14, X5
	MOVAPS X5, X6
	ADDPS  X14, X6
	MOVAPS X6, X7
	ADDPS  X14, X7
	MOVAPS X7, X8
	ADDPS  X14, X8
	MOVAPS X8, X9
	ADDPS  X14, X9
	MOVAPS X9, X10
	ADDPS  X14, X10
	MOVAPS X10, X11
	ADDPS  X14, X11

	TESTQ CX, CX
	JLE   sum

loop:
	MULPS X12, X0
	ADDPS X13, X0
	MULPS X12, X1
	ADDPS X13, X1
	MULPS X12, X2
	ADDPS X13, X2
	MULPS X12, X3
	ADDPS X13, X3
	MULPS X12, X4
	ADDPS X13, X4
	MULPS X12, X5
	ADDPS X13, X5
	MULPS X12, X6
	ADDPS X13, X6
	MULPS X12, X7
	ADDPS X13, X7
	MULPS X12, X8
	ADDPS X13, X8
	MULPS X12, X9
	ADDPS X13, X9
	MULPS X12, X10
	ADDPS X13, X10
	MULPS X12, X11
	ADDPS X13, X11
	DECQ  CX
	JNZ   loop

sum:
	// a0 + a1 + … + a11, then the four lanes, in order.
	ADDPS  X1, X0
	ADDPS  X2, X0
	ADDPS  X3, X0
	ADDPS  X4, X0
	ADDPS  X5, X0
	ADDPS  X6, X0
	ADDPS  X7, X0
	ADDPS  X8, X0
	ADDPS  X9, X0
	ADDPS  X10, X0
	ADDPS  X11, X0
	MOVAPS X0, X1
	SHUFPS $0x55, X1, X1
	MOVAPS X0, X2
	SHUFPS $0xaa, X2, X2
	MOVAPS X0, X3
	SHUFPS $0xff, X3, X3
	ADDSS  X1, X0
	ADDSS  X2, X0
	ADDSS  X3, X0
	MOVSS  X0, ret+16(FP)
	RET
