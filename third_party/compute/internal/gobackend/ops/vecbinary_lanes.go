// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

// What the float32 binary ops' lane kernels of both widths share: the ops
// (vecbinary_avx512.go's sixteen lanes, vecbinary_avx2.go's eight), the op
// on one element for the ends of rows, and the executor that runs rows
// through a kernel. (Patched in by the attention-in-go course.)

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
