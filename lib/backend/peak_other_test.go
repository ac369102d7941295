//go:build !(goexperiment.simd && amd64)

package backend

// Without GOEXPERIMENT=simd, or off amd64, the backend runs the plain
// kernels alone: their vector peak, if any, is the only one.
var vectorPeaks = plainPeaks
