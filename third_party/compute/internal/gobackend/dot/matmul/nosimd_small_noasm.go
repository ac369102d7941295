// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build !amd64

package matmul

// noSIMDSmallFloat32 is nil where the course has no vector kernel for the
// small products without AVX2: noSIMDSmall reports false.
var noSIMDSmallFloat32 func(lhs, rhs []float32,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32, transposed bool) bool
