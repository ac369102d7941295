// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
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

var binaryOpsFloat32 = []struct {
	opType  compute.OpType
	generic gobackend.NodeExecutor
	kernel  binaryFloat32
}{
	{compute.OpTypeAdd, execAdd, binaryFloat32{opAdd, true}},
	{compute.OpTypeSub, execSub, binaryFloat32{opSub, false}},
	{compute.OpTypeMul, execMul, binaryFloat32{opMul, true}},
	{compute.OpTypeDiv, execDiv, binaryFloat32{opDiv, false}},
}

// binaryFloat32 is one binary op of float32: on sixteen lanes, and on one
// element for the ends of rows.
type binaryFloat32 struct {
	op binaryOp

	// commutative ops take a scalar operand as their right one, as the
	// generated executors do (which NaN an op returns depends on the order).
	commutative bool
}

type binaryOp int

const (
	opAdd binaryOp = iota
	opSub
	opMul
	opDiv
)

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

// one is k's op on one element.
func (k binaryFloat32) one(x, y float32) float32 {
	switch k.op {
	case opAdd:
		return x + y
	case opSub:
		return x - y
	case opMul:
		return x * y
	default:
		return x / y
	}
}

// executor returns the node executor that runs float32 operands through k
// and any other dtype through generic.
func (k binaryFloat32) executor(generic gobackend.NodeExecutor) gobackend.NodeExecutor {
	return binaryRowsExecutor(generic, k.commutative, k.row)
}

// binaryRowsExecutor returns the node executor that runs float32 operands
// through row, a row at a time, and any other dtype through generic. The
// vector kernels of each width (binaryFloat32, binaryFloat32x8) share it.
func binaryRowsExecutor(generic gobackend.NodeExecutor, commutative bool, row func(out, a, b []float32, aStep, bStep int)) gobackend.NodeExecutor {
	return func(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
		if inputs[0].RawShape.DType != dtypes.Float32 {
			return generic(backend, node, inputs, inputsOwned)
		}
		lhs, rhs, output, lhsIsScalarOr1, rhsIsScalarOr1 := binaryOperandsAndOutputForExecution(backend, node, inputs, inputsOwned, node.Shape)
		if commutative && lhsIsScalarOr1 && !rhsIsScalarOr1 {
			lhs, rhs = rhs, lhs
		}
		a, b, out := lhs.Flat.([]float32), rhs.Flat.([]float32), output.Flat.([]float32)
		// The generated loops' four cases, in their order, each split across
		// the workers when large (split.go).
		workers := splitWorkers(backend, len(out))
		switch {
		case len(b) == 1:
			splitAcross(backend, workers, len(a), splitAlign, func(lo, hi int) { row(out[lo:hi], a[lo:hi], b, 1, 0) })
		case len(a) == 1:
			splitAcross(backend, workers, len(b), splitAlign, func(lo, hi int) { row(out[lo:hi], a, b[lo:hi], 0, 1) })
		case lhs.RawShape.Equal(rhs.RawShape):
			splitAcross(backend, workers, len(a), splitAlign, func(lo, hi int) { row(out[lo:hi], a[lo:hi], b[lo:hi], 1, 1) })
		default:
			zipIter := gobackend.NewZippedBroadcastIterator(lhs.RawShape, rhs.RawShape, output.RawShape)
			if workers <= 1 {
				for r := range zipIter.IterRows() {
					row(out[r.Tgt:r.Tgt+r.N], a[r.LHS:], b[r.RHS:], r.LHSStep, r.RHSStep)
				}
				break
			}
			// The rows first, then the rows split: each row is written by one
			// worker.
			var rows []gobackend.ZippedRow
			for r := range zipIter.IterRows() {
				rows = append(rows, r)
			}
			splitAcross(backend, workers, len(rows), 1, func(lo, hi int) {
				for _, r := range rows[lo:hi] {
					row(out[r.Tgt:r.Tgt+r.N], a[r.LHS:], b[r.RHS:], r.LHSStep, r.RHSStep)
				}
			})
		}
		return output, nil
	}
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
