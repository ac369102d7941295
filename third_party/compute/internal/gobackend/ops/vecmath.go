// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0
// The float64 operations and constants of Exp and Tanh are those of Go's math
// package (Copyright The Go Authors; BSD-style license, https://go.dev/LICENSE).

package ops

// Float32 kernels of Exp, Logistic and Tanh.
//
// By default they are the generic loops, which compute in float64 with the
// math package and round once to float32. On amd64 built with
// GOEXPERIMENT=simd, on a CPU with AVX-512 (and GOMLX_SIMD_AVX512 not set to
// false), vecmath_avx512.go replaces them with loops that do the same float64
// arithmetic eight lanes at a time: the operations of math.Exp's amd64
// assembly (its FMA path, which every AVX-512 CPU takes) and of math.Tanh's
// Go code, in the same order. Every float32 result is bit for bit the generic
// loop's; vecmath_avx512_test.go checks it on every float32 bit pattern of a
// stride and on the edges (zeros, the branch points, overflow, NaNs).
//
// That holds for the default GOAMD64=v1. With GOAMD64=v3 the compiler fuses
// one multiply-add of math.Tanh (x·x + Q0, in its denominator); the tests still
// found no difference then, the term being far below the last bit of a
// float32 result, but a float64 lane could differ in its last bit.
var (
	expFloat32      = cleanChunks(execExpGeneric[float32])
	logisticFloat32 = cleanChunks(execLogisticGeneric[float32])
	tanhFloat32     = cleanChunks(execTanhGeneric[float32])
	signFloat32     = execSignGeneric[float32]
)
