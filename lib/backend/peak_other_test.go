//go:build !(goexperiment.simd && amd64)

package backend

// Without GOEXPERIMENT=simd, or off amd64, there is no vector peak: the
// backend's kernels are scalar loops, and so is BenchmarkPeak.
var vectorPeaks []vectorPeak
