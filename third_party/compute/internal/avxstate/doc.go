// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

// Package avxstate keeps Go's scalar code out of Intel's AVX–SSE
// transition penalty.
//
// On Intel CPUs, an SSE instruction — the Go compiler's scalar float code —
// that runs while the upper halves of the vector registers hold data
// ("dirty" state) pays a penalty at every switch between SSE and VEX
// instructions. math.Exp's amd64 assembly switches a dozen times per call
// (its FMA path mixes VFMADD231SD with MULSD and ADDSD). In a program built
// with GOEXPERIMENT=simd the state is dirty after any vector kernel (the
// compiler emits no VZEROUPPER) and after every asynchronous preemption (the
// runtime restores a preempted goroutine's Y or Z registers). Measured on a
// 2-core Intel Xeon (Sapphire Rapids): math.Exp 6 ns in clean state,
// 600–1,300 ns in dirty state; a [2,8,256,256] float32 softmax's Exp 6 ms
// against 60 ms.
//
// The backend cleans the state (VZEROUPPER, which changes no value) after
// every operation it executes, before the scalar parts of its vector
// kernels, and every few hundred elements of its scalar math loops, so
// that a preemption in the middle dirties one chunk at most. Asynchronous
// preemption itself is the program's to turn off (GODEBUG=asyncpreemptoff=1).
package avxstate
