//go:build goexperiment.simd && amd64

package backend

import "simd/archsimd"

// vectorPeaks are the vector kernels of BenchmarkPeak this CPU can run,
// widest first: the instructions of the SIMD build's matrix kernels, then
// the plain kernels' (SSE2).
var vectorPeaks = func() []vectorPeak {
	var ps []vectorPeak
	if archsimd.X86.AVX512() {
		ps = append(ps, vectorPeak{AVX512, AVX512, 16, multiplyAdd16})
	}
	if archsimd.X86.AVX2() {
		ps = append(ps, vectorPeak{AVX2, AVX2, 8, multiplyAdd8})
	}
	return append(ps, plainPeaks...)
}()

// multiplyAdd16 is [multiplyAdd] on AVX-512 vectors: 12 independent
// chains a ← a·m + c of 16 float32 lanes each, one fused multiply-add
// instruction per chain and round (2 operations per lane). It is what the
// machine's vector units can do, and so the peak of the SIMD build, whose
// matrix kernels use the same instructions.
//
//go:noinline
func multiplyAdd16(n int, m, c float32) float32 {
	vm, vc := archsimd.BroadcastFloat32x16(m), archsimd.BroadcastFloat32x16(c)
	a0, a1, a2, a3 := archsimd.BroadcastFloat32x16(1), archsimd.BroadcastFloat32x16(2), archsimd.BroadcastFloat32x16(3), archsimd.BroadcastFloat32x16(4)
	a4, a5, a6, a7 := archsimd.BroadcastFloat32x16(5), archsimd.BroadcastFloat32x16(6), archsimd.BroadcastFloat32x16(7), archsimd.BroadcastFloat32x16(8)
	a8, a9, a10, a11 := archsimd.BroadcastFloat32x16(9), archsimd.BroadcastFloat32x16(10), archsimd.BroadcastFloat32x16(11), archsimd.BroadcastFloat32x16(12)
	for range n {
		a0 = a0.MulAdd(vm, vc)
		a1 = a1.MulAdd(vm, vc)
		a2 = a2.MulAdd(vm, vc)
		a3 = a3.MulAdd(vm, vc)
		a4 = a4.MulAdd(vm, vc)
		a5 = a5.MulAdd(vm, vc)
		a6 = a6.MulAdd(vm, vc)
		a7 = a7.MulAdd(vm, vc)
		a8 = a8.MulAdd(vm, vc)
		a9 = a9.MulAdd(vm, vc)
		a10 = a10.MulAdd(vm, vc)
		a11 = a11.MulAdd(vm, vc)
	}
	s := a0.Add(a1).Add(a2).Add(a3).Add(a4).Add(a5).Add(a6).Add(a7).Add(a8).Add(a9).Add(a10).Add(a11)
	var lanes [16]float32
	s.Store(&lanes)
	var sum float32
	for _, x := range lanes {
		sum += x
	}
	return sum
}

// multiplyAdd8 is [multiplyAdd] on AVX2 vectors: 12 independent
// chains a ← a·m + c of 8 float32 lanes each, one fused multiply-add
// instruction per chain and round (2 operations per lane). It is what the
// machine's vector units can do, and so the peak of the SIMD build, whose
// matrix kernels use the same instructions.
//
//go:noinline
func multiplyAdd8(n int, m, c float32) float32 {
	vm, vc := archsimd.BroadcastFloat32x8(m), archsimd.BroadcastFloat32x8(c)
	a0, a1, a2, a3 := archsimd.BroadcastFloat32x8(1), archsimd.BroadcastFloat32x8(2), archsimd.BroadcastFloat32x8(3), archsimd.BroadcastFloat32x8(4)
	a4, a5, a6, a7 := archsimd.BroadcastFloat32x8(5), archsimd.BroadcastFloat32x8(6), archsimd.BroadcastFloat32x8(7), archsimd.BroadcastFloat32x8(8)
	a8, a9, a10, a11 := archsimd.BroadcastFloat32x8(9), archsimd.BroadcastFloat32x8(10), archsimd.BroadcastFloat32x8(11), archsimd.BroadcastFloat32x8(12)
	for range n {
		a0 = a0.MulAdd(vm, vc)
		a1 = a1.MulAdd(vm, vc)
		a2 = a2.MulAdd(vm, vc)
		a3 = a3.MulAdd(vm, vc)
		a4 = a4.MulAdd(vm, vc)
		a5 = a5.MulAdd(vm, vc)
		a6 = a6.MulAdd(vm, vc)
		a7 = a7.MulAdd(vm, vc)
		a8 = a8.MulAdd(vm, vc)
		a9 = a9.MulAdd(vm, vc)
		a10 = a10.MulAdd(vm, vc)
		a11 = a11.MulAdd(vm, vc)
	}
	s := a0.Add(a1).Add(a2).Add(a3).Add(a4).Add(a5).Add(a6).Add(a7).Add(a8).Add(a9).Add(a10).Add(a11)
	var lanes [8]float32
	s.Store(&lanes)
	var sum float32
	for _, x := range lanes {
		sum += x
	}
	return sum
}
