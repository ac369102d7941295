// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0
// The float64 operations and constants of Exp and Tanh are those of Go's math
// package (Copyright The Go Authors; BSD-style license, https://go.dev/LICENSE).

package ops

// Float32 kernels of Exp, Logistic, Tanh and Sign.
//
// By default they are the generic loops, which compute Exp, Logistic and
// Tanh in float64 with the math package and round once to float32. On amd64
// built with GOEXPERIMENT=simd, vecmath_avx512.go (a CPU with AVX-512, and
// GOMLX_SIMD_AVX512 not set to false) replaces them with loops that do the
// same float64 arithmetic eight lanes at a time, and vecmath_avx2.go (a CPU
// with AVX2 and FMA but no AVX-512, or with it turned off) four lanes at a
// time: the operations of math.Exp's amd64 assembly (its FMA path, the one
// such CPUs take) and of math.Tanh's Go code, in the same order. Every
// float32 result is bit for bit the generic loop's; vecmath_avx512_test.go
// checks both widths on every float32 bit pattern of a stride and on the
// edges (zeros, the branch points, overflow, NaNs). Sign of float32 is in
// sixteen AVX-512 lanes (vecmath_avx512.go), with the generic loop's results.
//
// That holds for the default GOAMD64=v1. With GOAMD64=v3 the compiler fuses
// one multiply-add of math.Tanh (x·x + Q0, in its denominator); the tests still
// found no difference then, the term being far below the last bit of a
// float32 result, but a float64 lane could differ in its last bit.
var (
	expFloat32      = execExpGeneric[float32]
	logisticFloat32 = execLogisticGeneric[float32]
	tanhFloat32     = execTanhGeneric[float32]
	signFloat32     = execSignGeneric[float32]
)
