package backend

// multiplyAdd4 is BenchmarkPeak's [multiplyAdd] on SSE2 vectors, which
// every amd64 CPU has: 12 independent chains a ← a·m + c of 4 float32
// lanes each, a multiply and an add per chain and round (2 operations per
// lane), the instructions of the plain class's matrix kernels on amd64
// (third_party/compute's patches 0016 and 0017). It returns the sum of
// every lane of every chain. In peak_sse2_amd64.s; only the benchmark
// calls it.
func multiplyAdd4(n int, m, c float32) float32
