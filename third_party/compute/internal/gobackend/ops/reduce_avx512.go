// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/support/envutil"
)

// ReduceMax and ReduceSum of float32, with the same results as the generic
// executors bit for bit (reduce_avx512_test.go compares them):
//
//   - A row's maximum is taken in AVX-512 lanes. Unless a NaN or a zero is
//     the answer, the maximum of a row is one value whatever the order, so
//     the lanes find the same bits as Go's max element by element. For a NaN
//     or a zero (which NaN, which sign) the row is done again element by
//     element.
//   - Sums along the last axis keep one chain of additions per row, in the
//     generic order, but run eight rows' chains side by side: one chain waits
//     on each addition's latency; eight fill the adder.
//   - Sums along other axes add a row into the output's row: element-wise,
//     so in lanes.
//
// (Patched in by the attention-in-go course: softmax's maximum and sum were a
// quarter of a masked attention, one element at a time.)
func init() {
	if !envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) || !archsimd.X86.AVX512() {
		return
	}
	reduceMaxDTypeMap.Register(dtypes.Float32, gobackend.PriorityArch, GenericReduceFn(execReduceMaxFloat32AVX512))
	reduceSumDTypeMap.Register(dtypes.Float32, gobackend.PriorityArch, GenericReduceFn(execReduceSumFloat32AVX512))
}

func execReduceMaxFloat32AVX512(operand, output *gobackend.Buffer, it *ReduceOutputIterator, dtype dtypes.DType) error {
	initialValue := dtype.LowestValue().(float32)
	outputFlat := output.Flat.([]float32)
	for outputIdx := range outputFlat {
		outputFlat[outputIdx] = initialValue
	}
	operandFlat := operand.Flat.([]float32)
	it.rows(len(operandFlat), func(start, n, out, step int) {
		row := operandFlat[start : start+n]
		if step == 0 {
			outputFlat[out] = maxRowFloat32(outputFlat[out], row)
			return
		}
		dst := outputFlat[out : out+n]
		for i, value := range row {
			dst[i] = max(dst[i], value)
		}
	})
	return nil
}

// maxRowFloat32 returns max(…max(max(acc, row[0]), row[1])…, row[len-1]).
func maxRowFloat32(acc float32, row []float32) float32 {
	const lanes = 16
	if len(row) < 2*lanes {
		return maxRowFloat32Scalar(acc, row)
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
	if nan.ToBits() != 0 {
		return maxRowFloat32Scalar(acc, row)
	}
	var lane [lanes]float32
	m0.Max(m1).Store(&lane)
	m := maxRowFloat32Scalar(lane[0], lane[1:])
	m = maxRowFloat32Scalar(m, row[i:])
	if m != m || m == 0 {
		return maxRowFloat32Scalar(acc, row)
	}
	return m
}

// maxRowFloat32Scalar is maxRowFloat32 element by element, as the generic
// executor does it.
func maxRowFloat32Scalar(acc float32, row []float32) float32 {
	for _, value := range row {
		acc = max(acc, value)
	}
	return acc
}

func execReduceSumFloat32AVX512(operand, output *gobackend.Buffer, it *ReduceOutputIterator, _ dtypes.DType) error {
	outputFlat := output.Flat.([]float32)
	clear(outputFlat)
	operandFlat := operand.Flat.([]float32)
	if n := it.lastAxisOnly(); n > 0 {
		sumRowsFloat32(outputFlat, operandFlat, n)
		return nil
	}
	it.rows(len(operandFlat), func(start, n, out, step int) {
		row := operandFlat[start : start+n]
		if step == 0 {
			acc := outputFlat[out]
			for _, value := range row {
				acc += value
			}
			outputFlat[out] = acc
			return
		}
		addRowFloat32(outputFlat[out:out+n], row)
	})
	return nil
}

// sumRowsFloat32 sets out[r] to the sum of rows[r*n : (r+1)*n], added from
// 0 left to right, eight rows at a time.
func sumRowsFloat32(out, rows []float32, n int) {
	r := 0
	for ; r+8 <= len(out); r += 8 {
		x0, x1, x2, x3 := rows[r*n:(r+1)*n], rows[(r+1)*n:(r+2)*n], rows[(r+2)*n:(r+3)*n], rows[(r+3)*n:(r+4)*n]
		x4, x5, x6, x7 := rows[(r+4)*n:(r+5)*n], rows[(r+5)*n:(r+6)*n], rows[(r+6)*n:(r+7)*n], rows[(r+7)*n:(r+8)*n]
		var a0, a1, a2, a3, a4, a5, a6, a7 float32
		for j := range n {
			a0 += x0[j]
			a1 += x1[j]
			a2 += x2[j]
			a3 += x3[j]
			a4 += x4[j]
			a5 += x5[j]
			a6 += x6[j]
			a7 += x7[j]
		}
		out[r], out[r+1], out[r+2], out[r+3] = a0, a1, a2, a3
		out[r+4], out[r+5], out[r+6], out[r+7] = a4, a5, a6, a7
	}
	for ; r < len(out); r++ {
		var acc float32
		for _, value := range rows[r*n : (r+1)*n] {
			acc += value
		}
		out[r] = acc
	}
}

// addRowFloat32 does dst[i] += row[i].
func addRowFloat32(dst, row []float32) {
	const lanes = 16
	i := 0
	for ; i+lanes <= len(row); i += lanes {
		archsimd.LoadFloat32x16Slice(dst[i : i+lanes]).Add(archsimd.LoadFloat32x16Slice(row[i : i+lanes])).StoreSlice(dst[i : i+lanes])
	}
	for ; i < len(row); i++ {
		dst[i] += row[i]
	}
}
