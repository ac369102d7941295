// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build !amd64

package matmul

// noSIMDPanelFloat32 is nil where the course has no vector kernel for the
// large product without AVX2: noSIMDPanel runs largeNoSIMDPanel.
var noSIMDPanelFloat32 func(packedLHS, packedRHS, packedOutput []float32,
	lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols int)
