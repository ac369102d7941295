// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

package matmul

import (
	"github.com/gomlx/compute/dtypes/gotype"
)

// noSIMDPanel runs largeNoSIMDPanel, or for float32 the architecture's
// vector kernel (noSIMDPanelFloat32) where it has one: the same
// arithmetic in the same order, bit for bit.
//
// (Patched in by the attention-in-go course.)
func noSIMDPanel[I, O gotype.NumericNotComplex](
	packedLHS, packedRHS []I,
	packedOutput []O,
	lhsPanelRows, rhsPanelCols int,
	contractingLen int,
	lhsActiveRows, rhsActiveCols int,
) {
	if noSIMDPanelFloat32 != nil {
		if lhs, ok := any(packedLHS).([]float32); ok {
			if out, ok := any(packedOutput).([]float32); ok {
				noSIMDPanelFloat32(lhs, any(packedRHS).([]float32), out,
					lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols)
				return
			}
		}
	}
	largeNoSIMDPanel(packedLHS, packedRHS, packedOutput,
		lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols)
}
