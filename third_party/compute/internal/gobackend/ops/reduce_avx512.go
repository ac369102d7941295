// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/support/envutil"
)

// The float32 row kernels of ReduceMax and ReduceSum in AVX-512 lanes, with
// the results of the loops they replace (maxRowScalar, addRowScalar) bit for
// bit; reduce_test.go compares the executors with the release's loops.
//
// (Patched in by the attention-in-go course: softmax's maxima were a fifth
// of a masked attention, one element at a time.)
func init() {
	if !envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) || !archsimd.X86.AVX512() {
		return
	}
	maxRowFloat32 = maxRowFloat32AVX512
	addRowFloat32 = addRowFloat32AVX512
}

// maxRowFloat32AVX512 is maxRowScalar in lanes. Unless a NaN or a zero is
// the answer, the maximum of a row is one value whatever the order, so the
// lanes find the same bits as Go's max element by element; for a NaN or a
// zero (which NaN, which sign) the row is done again by maxRowScalar.
func maxRowFloat32AVX512(acc float32, row []float32) float32 {
	const lanes = 16
	if len(row) < 2*lanes {
		return maxRowScalar(acc, row)
	}
	m0 := archsimd.BroadcastFloat32x16(acc)
	m1 := m0
	nan := m0.IsNaN()
	i := 0
	for ; i+2*lanes <= len(row); i += 2 * lanes {
		x0 := archsimd.LoadFloat32x16Slice(row[i : i+lanes])
		x1 := archsimd.LoadFloat32x16Slice(row[i+lanes : i+2*lanes])
		m0, m1 = m0.Max(x0), m1.Max(x1)
		nan = nan.Or(x0.IsNaN()).Or(x1.IsNaN())
	}
	nanBits := nan.ToBits()
	var lane [lanes]float32
	m0.Max(m1).Store(&lane)
	archsimd.ClearAVXUpperBits() // what follows is SSE code
	if nanBits != 0 {
		return maxRowScalar(acc, row)
	}
	m := maxRowScalar(lane[0], lane[1:])
	m = maxRowScalar(m, row[i:])
	if m != m || m == 0 {
		return maxRowScalar(acc, row)
	}
	return m
}

// addRowFloat32AVX512 is addRowScalar, dst[i] += row[i], in lanes.
func addRowFloat32AVX512(dst, row []float32) {
	const lanes = 16
	i := 0
	for ; i+lanes <= len(row); i += lanes {
		archsimd.LoadFloat32x16Slice(dst[i : i+lanes]).Add(archsimd.LoadFloat32x16Slice(row[i : i+lanes])).StoreSlice(dst[i : i+lanes])
	}
	archsimd.ClearAVXUpperBits() // the tail is SSE code
	addRowScalar(dst[i:], row[i:])
}
