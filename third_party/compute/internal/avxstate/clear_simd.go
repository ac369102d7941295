// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package avxstate

import "simd/archsimd"

var hasAVX = archsimd.X86.AVX()

// Clear marks the upper halves of the vector registers clean (VZEROUPPER)
// on a CPU with AVX.
func Clear() {
	if hasAVX {
		archsimd.ClearAVXUpperBits()
	}
}
