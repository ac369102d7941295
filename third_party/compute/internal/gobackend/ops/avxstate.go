// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

package ops

import "github.com/gomlx/compute/internal/avxstate"

// Scalar math loops in clean AVX state (see package avxstate).
//
// cleanChunks runs a scalar loop a chunk at a time with the state cleaned
// before each chunk: a preemption in the middle of the loop dirties it for
// one chunk at most. Cleaning changes no value, so the results are bit for
// bit those of the loop run at once.
const cleanChunk = 512

func cleanChunks[T any](f func(inputs, outputs []T)) func(inputs, outputs []T) {
	return func(inputs, outputs []T) {
		for lo := 0; lo < len(inputs); lo += cleanChunk {
			hi := min(lo+cleanChunk, len(inputs))
			avxstate.Clear()
			f(inputs[lo:hi], outputs[lo:hi])
		}
	}
}
