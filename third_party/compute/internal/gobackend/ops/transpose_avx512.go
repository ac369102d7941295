// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/internal/gobackend/transpose"
	"github.com/gomlx/compute/support/envutil"
)

func init() {
	if envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) && archsimd.X86.AVX512() {
		transposeTile32 = transposeTile32AVX512
	}
}

// transposeTile32AVX512 is transposeTile32 in sixteen AVX-512 registers
// (transpose.Tile16, in assembly), after checking that both tiles lie
// inside their slices.
func transposeTile32AVX512(in []uint32, inStride int, out []uint32, outStride int) {
	_ = in[15*inStride+15]
	_ = out[15*outStride+15]
	transpose.Tile16(&in[0], inStride, &out[0], outStride)
}
