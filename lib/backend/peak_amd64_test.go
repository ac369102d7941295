package backend

// plainPeaks are the vector kernels of BenchmarkPeak for the plain
// kernels: on amd64 their float32 products run in SSE2 lanes.
var plainPeaks = []vectorPeak{{Plain, "SSE2", 4, multiplyAdd4}}
