// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"sync/atomic"

	"github.com/gomlx/compute/internal/gobackend"
)

// Large element-wise operations split across the backend's workers.
// (Patched in by the attention-in-go course: a masked attention's softmax
// ran on one core while its products used all of them.)

// splitMinElements is the size from which an element-wise operation is
// split: below it, waking a worker costs about what the half of the work it
// would take saves.
const splitMinElements = 1 << 15

// splitAlign keeps every part but the last a multiple of the widest vector
// kernel's lanes, so that a split changes no kernel's tail and no value.
const splitAlign = 512

// splitWorkers is how many workers an operation of n elements is split
// across: 1 below splitMinElements or when the backend runs one worker.
func splitWorkers(backend *gobackend.Backend, n int) int {
	if n < splitMinElements || backend == nil || backend.Workers == nil || !backend.Workers.IsEnabled() {
		return 1
	}
	return backend.Workers.AdjustedMaxParallelism()
}

// splitAcross calls f on consecutive parts [lo, hi) that cover [0, n)
// items, in multiples of align: on the caller's goroutine alone when
// workers is 1, otherwise on as many of the backend's workers as are free,
// each taking the next part until none is left. The parts are disjoint, so
// f may write its part of an output while another worker writes another.
func splitAcross(backend *gobackend.Backend, workers, n, align int, f func(lo, hi int)) {
	if workers <= 1 || n <= align {
		f(0, n)
		return
	}
	// Twice as many parts as workers, so that a worker that starts late
	// takes fewer.
	part := (n + 2*workers - 1) / (2 * workers)
	part = (part + align - 1) / align * align
	var next atomic.Int64
	backend.Workers.Saturate(func() {
		for {
			lo := int(next.Add(int64(part))) - part
			if lo >= n {
				return
			}
			f(lo, min(lo+part, n))
		}
	})
}

// splitUnary runs an element-wise float32 kernel, split across the
// workers when large.
func splitUnary(backend *gobackend.Backend, kernel func(inputs, outputs []float32), inputs, outputs []float32) {
	splitAcross(backend, splitWorkers(backend, len(inputs)), len(inputs), splitAlign, func(lo, hi int) {
		kernel(inputs[lo:hi], outputs[lo:hi])
	})
}
