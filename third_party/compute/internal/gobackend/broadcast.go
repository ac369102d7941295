package gobackend

import (
	"iter"
	"slices"

	"github.com/gomlx/compute/internal/exceptions"
	"github.com/gomlx/compute/shapes"
)

// BroadcastIterator allows iteration over the flat indices of the target shape of a broadcast (where some axis
// dimensions grow)
//
// It is used by implicit broadcasting in binary ops and by the BroadcastInDim.
type BroadcastIterator struct {
	tgtSize     int
	srcStrides  []int
	isBroadcast []bool
	tgtDims     []int
}

// NewBroadcastIterator returns an iterator contructor over the flat indices of the target shape of a broadcast (where
// some axis dimensions grow).
//
// Pre-requisite: srcShape.Rank() == tgtShape.Rank().
//
// It is used by implicit broadcasting in binary ops and by the BroadcastInDim.
func NewBroadcastIterator(srcShape, tgtShape shapes.Shape) *BroadcastIterator {
	rank := srcShape.Rank()
	if rank != tgtShape.Rank() {
		exceptions.Panicf("broadcastIterator: rank mismatch srcShape=%s, tgtShape=%s", srcShape, tgtShape)
	}
	bi := &BroadcastIterator{
		tgtSize:     tgtShape.Size(),
		tgtDims:     slices.Clone(tgtShape.Dimensions),
		isBroadcast: make([]bool, rank),
		srcStrides:  srcShape.Strides(),
	}
	for axis := range rank {
		bi.isBroadcast[axis] = srcShape.Dimensions[axis] != tgtShape.Dimensions[axis]
	}
	return bi
}

// IterFlatIndices iterate over the source and target flat indices for broadcast.
// Notice since we are broadcasting, the target index will always be incremented by 1,
// while the source index may repeat (when it is being broadcast).
func (bi *BroadcastIterator) IterFlatIndices() iter.Seq2[int, int] {
	return func(yield func(srcIdx, tgtIdx int) bool) {
		rank := len(bi.tgtDims)
		perAxesIdx := make([]int, rank)
		srcFlatIdx := 0
		for dstFlatIdx := range bi.tgtSize {
			// Yield first.
			if !yield(srcFlatIdx, dstFlatIdx) {
				return
			}

			// Bump to next srcFlatIdx.
			srcFlatIdx++
			for axis := rank - 1; axis >= 0; axis-- {
				perAxesIdx[axis]++
				if perAxesIdx[axis] < bi.tgtDims[axis] {
					if bi.isBroadcast[axis] {
						// If we are broadcasting on this axis, we need to go back and repeat the same slice of the tensor.
						srcFlatIdx -= bi.srcStrides[axis]
					}
					break
				}
				perAxesIdx[axis] = 0
			}
		}
	}
}

// BroadcastRow is a run of a broadcast's target: the N elements from Tgt on
// (contiguous) are read from the source at Src, Src+Step, … (Step is 1, or 0
// where the source is broadcast along the row).
type BroadcastRow struct {
	Src, Tgt, N, Step int
}

// IterRows iterates over the same indices as [BroadcastIterator.IterFlatIndices],
// in the same order, a row at a time (rows as in [ZipIterator.IterRows]), so
// that a broadcast is a copy or a fill per row, not a call per element.
//
// (Patched in by the attention-in-go course: broadcasting an attention mask
// element by element took a fifth of a masked attention.)
func (bi *BroadcastIterator) IterRows() iter.Seq[BroadcastRow] {
	zi := &ZipIterator{
		tgtSize: bi.tgtSize, tgtDims: bi.tgtDims,
		lhsStrides: bi.srcStrides, rhsStrides: bi.srcStrides,
		lhsIsBroadcast: bi.isBroadcast, rhsIsBroadcast: bi.isBroadcast,
	}
	return func(yield func(BroadcastRow) bool) {
		for row := range zi.IterRows() {
			if !yield(BroadcastRow{Src: row.LHS, Tgt: row.Tgt, N: row.N, Step: row.LHSStep}) {
				return
			}
		}
	}
}

// ZippedIndices of two BroadcastIterators.
type ZippedIndices struct {
	LHSFlatIdx, RHSFlatIdx int
	TgtFlatIdx             int
}

// ZipIterator allows iteration over the flat indices of the target shape of a broadcast (where some axis
// dimensions grow) for two input shapes (LHS and RHS).
//
// It implements the implicit broadcasting for binary ops like Add, Sub, Mul, Div, etc.
type ZipIterator struct {
	tgtSize        int
	tgtDims        []int
	lhsStrides     []int
	rhsStrides     []int
	lhsIsBroadcast []bool
	rhsIsBroadcast []bool
}

// NewZippedBroadcastIterator returns an iterator constructor over the flat indices of the target shape of a broadcast (where
// some axis dimensions grow) for two input shapes (LHS and RHS).
//
// Pre-requisite: lhsShape.Rank() == tgtShape.Rank() && rhsShape.Rank() == tgtShape.Rank().
//
// It implements the implicit broadcasting for binary ops like Add, Sub, Mul, Div, etc.
func NewZippedBroadcastIterator(lhsShape, rhsShape, tgtShape shapes.Shape) *ZipIterator {
	rank := tgtShape.Rank()
	if lhsShape.Rank() != rank || rhsShape.Rank() != rank {
		exceptions.Panicf("zippedBroadcastIterator: rank mismatch lhsShape=%s, rhsShape=%s, tgtShape=%s", lhsShape, rhsShape, tgtShape)
	}

	zi := &ZipIterator{
		tgtSize:        tgtShape.Size(),
		tgtDims:        slices.Clone(tgtShape.Dimensions),
		lhsStrides:     lhsShape.Strides(),
		rhsStrides:     rhsShape.Strides(),
		lhsIsBroadcast: make([]bool, rank),
		rhsIsBroadcast: make([]bool, rank),
	}
	for axis := range rank {
		zi.lhsIsBroadcast[axis] = lhsShape.Dimensions[axis] != tgtShape.Dimensions[axis]
		zi.rhsIsBroadcast[axis] = rhsShape.Dimensions[axis] != tgtShape.Dimensions[axis]
	}
	return zi
}

// EqualNodeData implements NodeDataComparable, so this can be used as NodeData -- the comparison
// is used for deduping repeated nodes during model building.
func (z *ZipIterator) EqualNodeData(other NodeDataComparable) bool {
	if z == nil && other == nil {
		return true
	}
	if z == nil || other == nil {
		return false
	}
	otherZ, ok := other.(*ZipIterator)
	if !ok {
		return false
	}
	return z.tgtSize == otherZ.tgtSize &&
		slices.Equal(z.tgtDims, otherZ.tgtDims) &&
		slices.Equal(z.lhsStrides, otherZ.lhsStrides) &&
		slices.Equal(z.rhsStrides, otherZ.rhsStrides) &&
		slices.Equal(z.lhsIsBroadcast, otherZ.lhsIsBroadcast) &&
		slices.Equal(z.rhsIsBroadcast, otherZ.rhsIsBroadcast)
}

// IterFlatIndices iterate over the lhs, rhs and target flat indices for broadcast.
// Notice since we are broadcasting, the target index will always be incremented by 1,
// while the source indices may repeat (when it is being broadcast).
func (zi *ZipIterator) IterFlatIndices() iter.Seq[ZippedIndices] {
	return func(yield func(ZippedIndices) bool) {
		rank := len(zi.tgtDims)
		perAxesIdx := make([]int, rank)
		lhsFlatIdx := 0
		rhsFlatIdx := 0

		for dstFlatIdx := range zi.tgtSize {
			// Yield first.
			if !yield(ZippedIndices{LHSFlatIdx: lhsFlatIdx, RHSFlatIdx: rhsFlatIdx, TgtFlatIdx: dstFlatIdx}) {
				return
			}

			// Bump to next
			lhsFlatIdx++
			rhsFlatIdx++
			for axis := rank - 1; axis >= 0; axis-- {
				perAxesIdx[axis]++
				if perAxesIdx[axis] < zi.tgtDims[axis] {
					if zi.lhsIsBroadcast[axis] {
						lhsFlatIdx -= zi.lhsStrides[axis]
					}
					if zi.rhsIsBroadcast[axis] {
						rhsFlatIdx -= zi.rhsStrides[axis]
					}
					break
				}
				perAxesIdx[axis] = 0
			}
		}
	}
}

// ZippedRow is a run of a broadcast binary op's output: the N target
// elements from Tgt on (contiguous), read from lhs at LHS, LHS+LHSStep, …
// and from rhs at RHS, RHS+RHSStep, … (a step is 1, or 0 where that
// operand is broadcast along the row).
type ZippedRow struct {
	LHS, RHS, Tgt    int
	N                int
	LHSStep, RHSStep int
}

// IterRows iterates over the same indices as [ZipIterator.IterFlatIndices],
// in the same order, a row at a time: a row is the target's last axis,
// joined with the axes before it as long as neither operand is broadcast
// along them, so that a loop over a row's elements can do the op without
// a call per element.
//
// (Patched in by the attention-in-go course: IterFlatIndices's call per
// element made broadcast binary ops several times slower than the same
// op on equal shapes.)
func (zi *ZipIterator) IterRows() iter.Seq[ZippedRow] {
	return func(yield func(ZippedRow) bool) {
		rank := len(zi.tgtDims)
		if zi.tgtSize == 0 {
			return
		}
		if rank == 0 {
			yield(ZippedRow{N: 1, LHSStep: 1, RHSStep: 1})
			return
		}
		// The row: the last axis, and the axes before it joined while both
		// operands keep the same broadcast pattern as the last axis and
		// neither is broadcast (so the flat indices stay contiguous).
		last := rank - 1
		n := zi.tgtDims[last]
		lhsStep, rhsStep := 1, 1
		if zi.lhsIsBroadcast[last] {
			lhsStep = 0
		}
		if zi.rhsIsBroadcast[last] {
			rhsStep = 0
		}
		first := last // first axis of the row
		if lhsStep == 1 && rhsStep == 1 {
			for first > 0 && !zi.lhsIsBroadcast[first-1] && !zi.rhsIsBroadcast[first-1] {
				first--
				n *= zi.tgtDims[first]
			}
		}
		outer := zi.tgtSize / n
		perAxesIdx := make([]int, first)
		lhsFlatIdx, rhsFlatIdx := 0, 0
		for row := range outer {
			if !yield(ZippedRow{LHS: lhsFlatIdx, RHS: rhsFlatIdx, Tgt: row * n, N: n, LHSStep: lhsStep, RHSStep: rhsStep}) {
				return
			}
			// Bump to the next row as IterFlatIndices would after n elements.
			lhsFlatIdx += n * lhsStep
			rhsFlatIdx += n * rhsStep
			if lhsStep == 0 {
				lhsFlatIdx += zi.lhsStrides[last]
			}
			if rhsStep == 0 {
				rhsFlatIdx += zi.rhsStrides[last]
			}
			for axis := first - 1; axis >= 0; axis-- {
				perAxesIdx[axis]++
				if perAxesIdx[axis] < zi.tgtDims[axis] {
					if zi.lhsIsBroadcast[axis] {
						lhsFlatIdx -= zi.lhsStrides[axis]
					}
					if zi.rhsIsBroadcast[axis] {
						rhsFlatIdx -= zi.rhsStrides[axis]
					}
					break
				}
				perAxesIdx[axis] = 0
			}
		}
	}
}
