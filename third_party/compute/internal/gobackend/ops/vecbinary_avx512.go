// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/support/envutil"
)

// Add, Sub, Mul and Div of float32 in AVX-512 lanes, sixteen at a time.
//
// They are registered with PriorityArch over the generated executors, and
// hand every other dtype back to them. Each lane does the one IEEE operation
// the generated loop does on that element, so the results are the same bit for
// bit; vecbinary_avx512_test.go compares them on random shapes and
// broadcasts. The one exception: where both operands of Add or Mul are NaNs
// of different payloads, which one comes out follows the operand order the
// compiler gives the commutative instruction, in either loop.
func init() {
	if !envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) || !archsimd.X86.AVX512() {
		return
	}
	for _, op := range binaryOpsFloat32 {
		gobackend.SetNodeExecutor(op.opType, gobackend.PriorityArch, op.kernel.executor(op.generic))
	}
}

// lanes is k's op on sixteen lanes. It is a switch, which the compiler
// inlines into the loops below, not a function value: a call per vector
// cost several times the op.
func (k binaryFloat32) lanes(x, y archsimd.Float32x16) archsimd.Float32x16 {
	switch k.op {
	case opAdd:
		return x.Add(y)
	case opSub:
		return x.Sub(y)
	case opMul:
		return x.Mul(y)
	default:
		return x.Div(y)
	}
}

// executor returns the node executor that runs float32 operands through k
// and any other dtype through generic.
func (k binaryFloat32) executor(generic gobackend.NodeExecutor) gobackend.NodeExecutor {
	return binaryRowsExecutor(generic, k.commutative, k.row)
}

// row sets out[i] = a[i·aStep] op b[i·bStep] for i < len(out); a step is 1, or 0
// for an operand broadcast along the row. out may be a or b itself (an
// operand donated to the output): each element is read before it is written.
func (k binaryFloat32) row(out, a, b []float32, aStep, bStep int) {
	n := len(out)
	v := n &^ 15
	switch {
	case aStep == 1 && bStep == 1:
		a, b = a[:n], b[:n]
		for i := 0; i < v; i += 16 {
			x := archsimd.LoadFloat32x16Slice(a[i : i+16])
			y := archsimd.LoadFloat32x16Slice(b[i : i+16])
			k.lanes(x, y).StoreSlice(out[i : i+16])
		}
		archsimd.ClearAVXUpperBits() // the tail is SSE code
		for i := v; i < n; i++ {
			out[i] = k.one(a[i], b[i])
		}
	case aStep == 1:
		a, c := a[:n], b[0]
		y := archsimd.BroadcastFloat32x16(c)
		for i := 0; i < v; i += 16 {
			k.lanes(archsimd.LoadFloat32x16Slice(a[i:i+16]), y).StoreSlice(out[i : i+16])
		}
		archsimd.ClearAVXUpperBits() // the tail is SSE code
		for i := v; i < n; i++ {
			out[i] = k.one(a[i], c)
		}
	case bStep == 1:
		c, b := a[0], b[:n]
		x := archsimd.BroadcastFloat32x16(c)
		for i := 0; i < v; i += 16 {
			k.lanes(x, archsimd.LoadFloat32x16Slice(b[i:i+16])).StoreSlice(out[i : i+16])
		}
		archsimd.ClearAVXUpperBits() // the tail is SSE code
		for i := v; i < n; i++ {
			out[i] = k.one(c, b[i])
		}
	default:
		y := k.one(a[0], b[0])
		for i := range out {
			out[i] = y
		}
	}
}
