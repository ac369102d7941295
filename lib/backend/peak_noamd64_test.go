//go:build !amd64

package backend

// plainPeaks is empty off amd64: the plain kernels are scalar loops there,
// and so is their peak.
var plainPeaks []vectorPeak
