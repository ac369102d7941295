// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

// Package transpose moves 32-bit elements between rows and columns in
// AVX-512 registers, for the Go backend's transposes and the packing of its
// matrix products.
//
// (Added by the attention-in-go course: the same transpose written with
// simd/archsimd kept its sixteen registers in an array on the stack.)
package transpose

//go:generate go run gen_tile.go

// Tile16 transposes the 16×16 tile of 32-bit elements at in (rows
// inStride elements apart) into the tile at out (rows outStride elements
// apart): out[c·outStride + r] = in[r·inStride + c] for r, c in [0, 16).
// The caller checks that both tiles lie inside their slices and that the
// CPU has AVX-512. In tile_amd64.s.
//
//go:noescape
func Tile16(in *uint32, inStride int, out *uint32, outStride int)
