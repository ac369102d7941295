// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/support/envutil"
)

// Add, Sub, Mul and Div of float32 in AVX2 lanes, eight at a time, for CPUs
// with AVX2 but not AVX-512 (or with AVX-512 turned off): vecbinary_avx512.go's
// kernels at half the width, the same IEEE operation on each element, so the
// same bits as the generated executors (vecbinary_avx512_test.go tests both
// widths). (Patched in by the attention-in-go course: an AVX2 laptop ran a
// masked attention's element-wise operations one element at a time.)
func init() {
	if envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) && archsimd.X86.AVX512() {
		return // vecbinary_avx512.go's init chooses the sixteen-lane kernels
	}
	if !envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) || !archsimd.X86.AVX2() {
		return
	}
	for _, op := range binaryOpsFloat32 {
		gobackend.SetNodeExecutor(op.opType, gobackend.PriorityArch, binaryFloat32x8{op.kernel}.executor(op.generic))
	}
}

// binaryFloat32x8 is binaryFloat32's op on eight lanes.
type binaryFloat32x8 struct {
	binaryFloat32
}

// lanes is k's op on eight lanes (a switch the compiler inlines).
func (k binaryFloat32x8) lanes(x, y archsimd.Float32x8) archsimd.Float32x8 {
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
func (k binaryFloat32x8) executor(generic gobackend.NodeExecutor) gobackend.NodeExecutor {
	return binaryRowsExecutor(generic, k.commutative, k.row)
}

// row is binaryFloat32.row on eight lanes.
func (k binaryFloat32x8) row(out, a, b []float32, aStep, bStep int) {
	n := len(out)
	v := n &^ 7
	switch {
	case aStep == 1 && bStep == 1:
		a, b = a[:n], b[:n]
		for i := 0; i < v; i += 8 {
			x := archsimd.LoadFloat32x8Slice(a[i : i+8])
			y := archsimd.LoadFloat32x8Slice(b[i : i+8])
			k.lanes(x, y).StoreSlice(out[i : i+8])
		}
		archsimd.ClearAVXUpperBits() // the tail is SSE code
		for i := v; i < n; i++ {
			out[i] = k.one(a[i], b[i])
		}
	case aStep == 1:
		a, c := a[:n], b[0]
		y := archsimd.BroadcastFloat32x8(c)
		for i := 0; i < v; i += 8 {
			k.lanes(archsimd.LoadFloat32x8Slice(a[i:i+8]), y).StoreSlice(out[i : i+8])
		}
		archsimd.ClearAVXUpperBits() // the tail is SSE code
		for i := v; i < n; i++ {
			out[i] = k.one(a[i], c)
		}
	case bStep == 1:
		c, b := a[0], b[:n]
		x := archsimd.BroadcastFloat32x8(c)
		for i := 0; i < v; i += 8 {
			k.lanes(x, archsimd.LoadFloat32x8Slice(b[i:i+8])).StoreSlice(out[i : i+8])
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
