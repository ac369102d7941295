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

// Where of float32 in AVX-512 lanes: sixteen conditions at a time widened to
// a lane mask, and a blend. It only selects, so its results are the generic
// executor's bit for bit (where_avx512_test.go compares them).
//
// (Patched in by the attention-in-go course: masking attention's scores one
// element at a time took a tenth of a masked attention.)
func init() {
	if !envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) || !archsimd.X86.AVX512() {
		return
	}
	whereDTypeMap.Register(dtypes.Float32, gobackend.PriorityArch, execWhereFloat32AVX512)
}

func execWhereFloat32AVX512(conditionBuf, onTrueBuf, onFalseBuf, outputBuf *gobackend.Buffer) {
	if conditionBuf.RawShape.Size() == 0 {
		return // nothing to select (the release's loop would read a first element)
	}
	if conditionBuf.RawShape.IsScalar() {
		execWhereGeneric[float32](conditionBuf, onTrueBuf, onFalseBuf, outputBuf)
		return
	}
	const lanes = 16
	condition := conditionBuf.Flat.([]bool)
	// A Go bool is one byte, 0 or 1.
	conditionBytes := unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(condition))), len(condition))
	onTrue, onFalse := onTrueBuf.Flat.([]float32), onFalseBuf.Flat.([]float32)
	output := outputBuf.Flat.([]float32)
	onTrueIsScalar, onFalseIsScalar := onTrueBuf.RawShape.IsScalar(), onFalseBuf.RawShape.IsScalar()
	trueLanes, falseLanes := archsimd.BroadcastFloat32x16(onTrue[0]), archsimd.BroadcastFloat32x16(onFalse[0])
	zero := archsimd.BroadcastUint32x16(0)
	i := 0
	for ; i+lanes <= len(condition); i += lanes {
		mask := archsimd.LoadUint8x16Slice(conditionBytes[i : i+lanes]).ExtendToUint32().NotEqual(zero)
		t, f := trueLanes, falseLanes
		if !onTrueIsScalar {
			t = archsimd.LoadFloat32x16Slice(onTrue[i : i+lanes])
		}
		if !onFalseIsScalar {
			f = archsimd.LoadFloat32x16Slice(onFalse[i : i+lanes])
		}
		t.Merge(f, mask).StoreSlice(output[i : i+lanes])
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
