// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"slices"
	"unsafe"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/dtypes/bfloat16"
	"github.com/gomlx/compute/dtypes/float16"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapeinference"
	"github.com/gomlx/compute/shapes"
)

func init() {
	gobackend.RegisterTranspose.Register(Transpose, gobackend.PriorityGeneric)
	gobackend.SetNodeExecutor(compute.OpTypeTranspose, gobackend.PriorityGeneric, execTranspose)
}

// Transpose axes of x.
// There must be one value in permutations for each axis in the operand.
// The output will have: output.Shape.Dimension[ii] = operand.Shape.Dimension[permutations[i]].
func Transpose(f *gobackend.Function, operandValue compute.Value, permutations ...int) (compute.Value, error) {
	opType := compute.OpTypeTranspose
	inputs, err := f.VerifyAndCastValues(opType.String(), operandValue)
	if err != nil {
		return nil, err
	}
	operand := inputs[0]

	outputShape, err := shapeinference.Transpose(operand.Shape, permutations)
	if err != nil {
		// This should have been validated during graph build, but we check again just in case.
		return nil, err
	}
	if isIdentityPermutation(permutations) {
		// No-op (as ConvertDType to the same dtype): GoMLX's graphs have
		// eighteen such transposes in a training step of lesson 10's GPT,
		// each a copy. (Patched in by the attention-in-go course.)
		return operand, nil
	}
	node, _ := f.GetOrCreateNode(opType, outputShape, inputs, permutations)
	return node, nil
}

// isIdentityPermutation reports whether permutations leaves every axis in
// its place.
func isIdentityPermutation(permutations []int) bool {
	for axis, from := range permutations {
		if axis != from {
			return false
		}
	}
	return true
}

// TransposeDTypeMap is used to dispatch Transpose to type-specific implementations.
// gobackend:dtypemap execTransposeGeneric ints,uints,floats,half,bool
var TransposeDTypeMap = gobackend.NewDTypeMap("Transpose")

func init() {
	TransposeDTypeMap.Register(dtypes.Float16, gobackend.PriorityTyped, execTransposeFloat16)
	TransposeDTypeMap.Register(dtypes.BFloat16, gobackend.PriorityTyped, execTransposeBFloat16)
}

// execTranspose implements Transpose.
// The output will have: output.Shape.Dimension[ii] = operand.Shape.Dimension[permutations[i]].
func execTranspose(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	operand := inputs[0]
	permutations := node.Data.([]int)
	_ = inputsOwned // We don't reuse the inputs.

	// We can't write to the same buffer we read from because it's not done with swaps.
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	it := NewTransposeIterator(operand.RawShape, permutations)
	dtype := node.Shape.DType
	tmpAny, tmpErr := TransposeDTypeMap.Get(dtype)
	if tmpErr != nil {
		panic(tmpErr)
	}
	transposeFn := tmpAny.(func(operand, output *gobackend.Buffer, it *TransposeIterator))
	transposeFn(operand, output, it)
	return output, nil
}

// TransposeIterator creates a dynamic iterator that yields output flat indices
// for the corresponding flat index on the input operand, assuming the operand flat index is moving
// incrementally.
type TransposeIterator struct {
	flatIdx                                int
	perAxisIdx, perAxisStrides, dimensions []int
}

// NewTransposeIterator creates a dynamic iterator that yields output flat indices
// for the corresponding flat index on the input operand, assuming the operand flat index is moving
// incrementally.
func NewTransposeIterator(operand shapes.Shape, permutations []int) *TransposeIterator {
	rank := operand.Rank()

	it := &TransposeIterator{
		perAxisIdx:     make([]int, rank),
		perAxisStrides: make([]int, rank),
		dimensions:     slices.Clone(operand.Dimensions),
	}

	// First, calculate strides on the output.
	stridesOnOutput := make([]int, rank)
	stride := 1
	reversePermutations := make([]int, rank)
	for outputAxis := rank - 1; outputAxis >= 0; outputAxis-- {
		stridesOnOutput[outputAxis] = stride
		operandAxis := permutations[outputAxis]
		stride *= operand.Dimensions[operandAxis]
		reversePermutations[operandAxis] = outputAxis
	}

	// Calculate per operand axis, what is the stride on the output.
	for operandAxis := range rank {
		outputAxis := reversePermutations[operandAxis]
		it.perAxisStrides[operandAxis] = stridesOnOutput[outputAxis]
	}
	return it
}

// Next returns the next flat index in the output.
func (it *TransposeIterator) Next() int {
	// Store current flatIdx first
	nextFlatIdx := it.flatIdx

	// Cache rank to avoid repeated len() calls
	rank := len(it.perAxisIdx)

	// Use local variables for array access to avoid repeated indirection
	perAxisIdx := it.perAxisIdx
	perAxisStrides := it.perAxisStrides
	dimensions := it.dimensions

	// Handle remaining axes only when needed
	for axis := rank - 1; axis >= 0; axis-- {
		perAxisIdx[axis]++
		it.flatIdx += perAxisStrides[axis]
		if perAxisIdx[axis] < dimensions[axis] {
			// We are done.
			return nextFlatIdx
		}
		perAxisIdx[axis] = 0
		it.flatIdx -= perAxisStrides[axis] * dimensions[axis]
	}

	return nextFlatIdx
}

func execTransposeGeneric[T gobackend.SupportedTypesConstraints](operand, output *gobackend.Buffer, it *TransposeIterator) {
	transposeRows(operand.Flat.([]T), output.Flat.([]T), it)
}

func execTransposeFloat16(operand, output *gobackend.Buffer, it *TransposeIterator) {
	transposeRows(operand.Flat.([]float16.Float16), output.Flat.([]float16.Float16), it)
}

func execTransposeBFloat16(operand, output *gobackend.Buffer, it *TransposeIterator) {
	transposeRows(operand.Flat.([]bfloat16.BFloat16), output.Flat.([]bfloat16.BFloat16), it)
}

// transposeRows writes operandFlat into outputFlat where it, a fresh
// iterator, would put each element, without a call per element. It first
// merges the operand's axes that stay next to each other in the output
// (and drops axes of size 1): what is left of a permutation that keeps the
// last axis last is copied a row at a time; otherwise the two axes that
// are innermost in the operand and in the output are transposed in tiles
// that fit in the cache, for each index of the other axes.
//
// (Patched in by the attention-in-go course: the call per element made
// Transpose a quarter of a small Transformer's training step.)
func transposeRows[T any](operandFlat, outputFlat []T, it *TransposeIterator) {
	if len(operandFlat) == 0 {
		return
	}
	// Operand dimensions and, per operand axis, the stride in the output.
	var dims, outStrides []int
	for axis, d := range it.dimensions {
		if d == 1 {
			continue
		}
		s := it.perAxisStrides[axis]
		if n := len(dims); n > 0 && outStrides[n-1] == s*d {
			dims[n-1] *= d
			outStrides[n-1] = s
			continue
		}
		dims = append(dims, d)
		outStrides = append(outStrides, s)
	}
	rank := len(dims)
	if rank <= 1 {
		copy(outputFlat, operandFlat)
		return
	}
	last := rank - 1
	inStrides := make([]int, rank)
	inStrides[last] = 1
	for axis := last - 1; axis >= 0; axis-- {
		inStrides[axis] = inStrides[axis+1] * dims[axis+1]
	}
	// inner is the operand axis innermost in the output (stride 1).
	inner := slices.Index(outStrides, 1)
	// Odometer over the axes other than last and inner.
	idx := make([]int, rank)
	inBase, outBase := 0, 0
	next := func() bool {
		for axis := last - 1; axis >= 0; axis-- {
			if axis == inner {
				continue
			}
			idx[axis]++
			inBase += inStrides[axis]
			outBase += outStrides[axis]
			if idx[axis] < dims[axis] {
				return true
			}
			idx[axis] = 0
			inBase -= inStrides[axis] * dims[axis]
			outBase -= outStrides[axis] * dims[axis]
		}
		return false
	}
	n, stride := dims[last], outStrides[last]
	if inner == last {
		// The last axis stays innermost: copy rows.
		for {
			copy(outputFlat[outBase:outBase+n], operandFlat[inBase:inBase+n])
			if !next() {
				return
			}
		}
	}
	// Transpose [dims[inner], n] blocks: rows of the operand are read
	// along last, columns written along inner, tile by tile.
	const tile = 16
	m, inStride := dims[inner], inStrides[inner]
	var in32, out32 []uint32 // 4-byte elements as such, for transposeTile32
	if transposeTile32 != nil && unsafe.Sizeof(operandFlat[0]) == 4 {
		in32 = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(operandFlat))), len(operandFlat))
		out32 = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(outputFlat))), len(outputFlat))
	}
	for {
		for i0 := 0; i0 < m; i0 += tile {
			i1 := min(i0+tile, m)
			for j0 := 0; j0 < n; j0 += tile {
				j1 := min(j0+tile, n)
				if in32 != nil && i1-i0 == tile && j1-j0 == tile {
					transposeTile32(in32[inBase+i0*inStride+j0:], inStride, out32[outBase+j0*stride+i0:], stride)
					continue
				}
				for j := j0; j < j1; j++ {
					in := inBase + j
					out := outBase + j*stride
					for i := i0; i < i1; i++ {
						outputFlat[out+i] = operandFlat[in+i*inStride]
					}
				}
			}
		}
		if !next() {
			return
		}
	}
}

// transposeTile32, when set (transpose_avx512.go), transposes one 16 × 16
// tile of 4-byte elements: out[j·outStride+i] = in[i·inStride+j] for i, j <
// 16.
var transposeTile32 func(in []uint32, inStride int, out []uint32, outStride int)
