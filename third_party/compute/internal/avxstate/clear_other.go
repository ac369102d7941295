// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

//go:build !(goexperiment.simd && amd64)

package avxstate

// Clear does nothing: without GOEXPERIMENT=simd, or off amd64, Go code
// leaves no vector state dirty.
func Clear() {}
