// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

package matmul

import (
	"github.com/gomlx/compute/dtypes/gotype"
)

// noSIMDSmall runs the architecture's float32 kernel for the small
// products (noSIMDSmallFloat32) where it has one and the product is
// float32, and reports whether it did: the same arithmetic in the same
// order as smallNoSIMDGeneric (transposed false) or
// smallNoSIMDGenericTransposed, bit for bit.
//
// (Patched in by the attention-in-go course.)
func noSIMDSmall[I, O gotype.NumericNotComplex](
	lhs, rhs []I,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []O, transposed bool) bool {
	if noSIMDSmallFloat32 == nil {
		return false
	}
	l, ok := any(lhs).([]float32)
	if !ok {
		return false
	}
	o, ok := any(output).([]float32)
	if !ok {
		return false
	}
	return noSIMDSmallFloat32(l, any(rhs).([]float32),
		batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize, o, transposed)
}
