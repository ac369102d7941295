// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"
	"unsafe"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/support/envutil"
)

// Where of float32 in AVX2 lanes, for CPUs with AVX2 but not AVX-512 (or
// with AVX-512 turned off): where_avx512.go's kernel at half the width,
// sixteen conditions loaded at a time and widened to two eight-lane masks.
// It only selects, so its results are the generic executor's bit for bit
// (where_avx512_test.go compares both widths). (Patched in by the
// attention-in-go course.)
func init() {
	if envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) && archsimd.X86.AVX512() {
		return // where_avx512.go's init chooses the sixteen-lane kernel
	}
	if !envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) || !archsimd.X86.AVX2() {
		return
	}
	whereDTypeMap.Register(dtypes.Float32, gobackend.PriorityArch, execWhereFloat32AVX2)
}

func execWhereFloat32AVX2(conditionBuf, onTrueBuf, onFalseBuf, outputBuf *gobackend.Buffer) {
	if conditionBuf.RawShape.Size() == 0 {
		return // nothing to select (the release's loop would read a first element)
	}
	if conditionBuf.RawShape.IsScalar() {
		execWhereGeneric[float32](conditionBuf, onTrueBuf, onFalseBuf, outputBuf)
		return
	}
	const lanes = 8
	condition := conditionBuf.Flat.([]bool)
	// A Go bool is one byte, 0 or 1.
	conditionBytes := unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(condition))), len(condition))
	onTrue, onFalse := onTrueBuf.Flat.([]float32), onFalseBuf.Flat.([]float32)
	output := outputBuf.Flat.([]float32)
	onTrueIsScalar, onFalseIsScalar := onTrueBuf.RawShape.IsScalar(), onFalseBuf.RawShape.IsScalar()
	trueLanes, falseLanes := archsimd.BroadcastFloat32x8(onTrue[0]), archsimd.BroadcastFloat32x8(onFalse[0])
	zero := archsimd.BroadcastUint32x8(0)
	blend := func(i int, mask archsimd.Mask32x8) {
		t, f := trueLanes, falseLanes
		if !onTrueIsScalar {
			t = archsimd.LoadFloat32x8Slice(onTrue[i : i+lanes])
		}
		if !onFalseIsScalar {
			f = archsimd.LoadFloat32x8Slice(onFalse[i : i+lanes])
		}
		t.Merge(f, mask).StoreSlice(output[i : i+lanes])
	}
	i := 0
	for ; i+2*lanes <= len(condition); i += 2 * lanes {
		c := archsimd.LoadUint8x16Slice(conditionBytes[i : i+2*lanes])
		hi := c.AsUint64x2().InterleaveHi(c.AsUint64x2()).AsUint8x16() // bytes 8–15 moved down
		blend(i, c.ExtendLo8ToUint32().NotEqual(zero))
		blend(i+lanes, hi.ExtendLo8ToUint32().NotEqual(zero))
	}
	archsimd.ClearAVXUpperBits() // the tail is SSE code
	for ; i < len(condition); i++ {
		t, f := onTrue[0], onFalse[0]
		if !onTrueIsScalar {
			t = onTrue[i]
		}
		if !onFalseIsScalar {
			f = onFalse[i]
		}
		if condition[i] {
			output[i] = t
		} else {
			output[i] = f
		}
	}
}
