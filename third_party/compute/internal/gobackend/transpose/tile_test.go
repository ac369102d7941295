// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package transpose

import (
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

func TestTile16(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512 on this CPU")
	}
	r := rand.New(rand.NewPCG(17, 18))
	const sentinel = 0xdeadbeef
	for trial := range 200 {
		inStride, outStride := 16+r.IntN(40), 16+r.IntN(40)
		in := make([]uint32, 16*inStride)
		for i := range in {
			in[i] = r.Uint32()
		}
		out := make([]uint32, 16*outStride+16) // 16 more: nothing may land after the tile
		for i := range out {
			out[i] = sentinel
		}
		Tile16(&in[0], inStride, &out[0], outStride)
		for i := range out {
			row, col := i/outStride, i%outStride
			want := uint32(sentinel)
			if row < 16 && col < 16 {
				want = in[col*inStride+row]
			}
			if out[i] != want {
				t.Fatalf("trial %d (strides %d in, %d out): out[%d] (row %d, column %d) = %#x, want %#x",
					trial, inStride, outStride, i, row, col, out[i], want)
			}
		}
	}
}

func BenchmarkTile16(b *testing.B) {
	if !archsimd.X86.AVX512() {
		b.Skip("no AVX-512 on this CPU")
	}
	in, out := make([]uint32, 16*64), make([]uint32, 16*64)
	for b.Loop() {
		Tile16(&in[0], 64, &out[0], 64)
	}
}
