// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0
// The float64 operations and constants of Exp and Tanh are those of Go's math
// package (Copyright The Go Authors; BSD-style license, https://go.dev/LICENSE).

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/support/envutil"
)

func init() {
	if envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) && archsimd.X86.AVX512() {
		expFloat32 = expFloat32AVX512
		logisticFloat32 = logisticFloat32AVX512
		tanhFloat32 = tanhFloat32AVX512
		signFloat32 = signFloat32AVX512
	}
}

// The constants of math.Exp's amd64 assembly ($GOROOT/src/math/exp_amd64.s).
const (
	expLog2e = 1.4426950408889634073599246810018920                  // 1/ln 2
	expLn2U  = 0.69314718055966295651160180568695068359375           // upper half of ln 2
	expLn2L  = 0.28235290563031577122588448175013436025525412068e-12 // lower half of ln 2
	expC3    = 1.6666666666666666667e-1
	expC4    = 4.1666666666666666667e-2
	expC5    = 8.3333333333333333333e-3
	expC6    = 1.3888888888888888889e-3
	expC7    = 1.9841269841269841270e-4
	expC8    = 2.4801587301587301587e-5

	// Every float32 whose exp is below the smallest float32 (1.4e-45) is
	// below expMin, and every one whose exp overflows float32 (3.4e38) is
	// above expMax: clamping to them keeps the float32 results and keeps the
	// lanes on the assembly's path for finite, normal float64 results.
	expMin = -120.0
	expMax = 100.0

	// math.Tanh's constants ($GOROOT/src/math/tanh.go).
	tanhBig = 0.5 * 8.8029691931113054295988e+01 // 0.5·MAXLOG: |x| beyond it gives ±1
	tanhMid = 0.625                              // |x| from here on goes through Exp
	tanhP0  = -9.64399179425052238628e-1
	tanhP1  = -9.92877231001918586564e1
	tanhP2  = -1.61468768441708447952e3
	tanhQ0  = 1.12811678491632931402e2
	tanhQ1  = 2.23548839060100448583e3
	tanhQ2  = 4.84406305325125486048e3

	signBit = 1 << 63
)

// k8 holds, eight times each, the constants of the kernels below. They are
// loaded from memory rather than broadcast from a scalar: the compiler
// moves a float64 constant into a register with an SSE instruction, and
// inside vector code each such switch pays Intel's AVX–SSE penalty (a
// tenth of lesson 6's training step).
var k8 = struct {
	log2e     [8]float64
	negLn2U   [8]float64
	negLn2L   [8]float64
	sixteenth [8]float64
	c8        [8]float64
	c7        [8]float64
	c6        [8]float64
	c5        [8]float64
	c4        [8]float64
	c3        [8]float64
	half      [8]float64
	one       [8]float64
	two       [8]float64
	minusOne  [8]float64
	zero      [8]float64
	min       [8]float64
	max       [8]float64
	p0        [8]float64
	p1        [8]float64
	p2        [8]float64
	q0        [8]float64
	q1        [8]float64
	q2        [8]float64
	mid       [8]float64
	big       [8]float64
}{
	log2e:     [8]float64{expLog2e, expLog2e, expLog2e, expLog2e, expLog2e, expLog2e, expLog2e, expLog2e},
	negLn2U:   [8]float64{-expLn2U, -expLn2U, -expLn2U, -expLn2U, -expLn2U, -expLn2U, -expLn2U, -expLn2U},
	negLn2L:   [8]float64{-expLn2L, -expLn2L, -expLn2L, -expLn2L, -expLn2L, -expLn2L, -expLn2L, -expLn2L},
	sixteenth: [8]float64{0.0625, 0.0625, 0.0625, 0.0625, 0.0625, 0.0625, 0.0625, 0.0625},
	c8:        [8]float64{expC8, expC8, expC8, expC8, expC8, expC8, expC8, expC8},
	c7:        [8]float64{expC7, expC7, expC7, expC7, expC7, expC7, expC7, expC7},
	c6:        [8]float64{expC6, expC6, expC6, expC6, expC6, expC6, expC6, expC6},
	c5:        [8]float64{expC5, expC5, expC5, expC5, expC5, expC5, expC5, expC5},
	c4:        [8]float64{expC4, expC4, expC4, expC4, expC4, expC4, expC4, expC4},
	c3:        [8]float64{expC3, expC3, expC3, expC3, expC3, expC3, expC3, expC3},
	half:      [8]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5},
	one:       [8]float64{1, 1, 1, 1, 1, 1, 1, 1},
	two:       [8]float64{2, 2, 2, 2, 2, 2, 2, 2},
	minusOne:  [8]float64{-1, -1, -1, -1, -1, -1, -1, -1},
	zero:      [8]float64{0, 0, 0, 0, 0, 0, 0, 0},
	min:       [8]float64{expMin, expMin, expMin, expMin, expMin, expMin, expMin, expMin},
	max:       [8]float64{expMax, expMax, expMax, expMax, expMax, expMax, expMax, expMax},
	p0:        [8]float64{tanhP0, tanhP0, tanhP0, tanhP0, tanhP0, tanhP0, tanhP0, tanhP0},
	p1:        [8]float64{tanhP1, tanhP1, tanhP1, tanhP1, tanhP1, tanhP1, tanhP1, tanhP1},
	p2:        [8]float64{tanhP2, tanhP2, tanhP2, tanhP2, tanhP2, tanhP2, tanhP2, tanhP2},
	q0:        [8]float64{tanhQ0, tanhQ0, tanhQ0, tanhQ0, tanhQ0, tanhQ0, tanhQ0, tanhQ0},
	q1:        [8]float64{tanhQ1, tanhQ1, tanhQ1, tanhQ1, tanhQ1, tanhQ1, tanhQ1, tanhQ1},
	q2:        [8]float64{tanhQ2, tanhQ2, tanhQ2, tanhQ2, tanhQ2, tanhQ2, tanhQ2, tanhQ2},
	mid:       [8]float64{tanhMid, tanhMid, tanhMid, tanhMid, tanhMid, tanhMid, tanhMid, tanhMid},
	big:       [8]float64{tanhBig, tanhBig, tanhBig, tanhBig, tanhBig, tanhBig, tanhBig, tanhBig},
}

func load8(c *[8]float64) archsimd.Float64x8 { return archsimd.LoadFloat64x8(c) }

// The sign masks, loaded for the same reason.
var (
	absMask8  = [8]uint64{signBit - 1, signBit - 1, signBit - 1, signBit - 1, signBit - 1, signBit - 1, signBit - 1, signBit - 1}
	signMask8 = [8]uint64{signBit, signBit, signBit, signBit, signBit, signBit, signBit, signBit}
)

// exp8 is math.Exp of eight lanes, operation for operation the FMA path of
// math.Exp's amd64 assembly: k = round(x·log2e); r = (x − k·ln2)/16 with ln 2
// in two parts; e^r − 1 by a Taylor polynomial; squared four times
// (y ← y·(y+2)) to e^16r − 1; plus one; times 2^k.
//
// Lanes must hold numbers in [expMin, expMax] (no NaN): the assembly's
// overflow and denormal branches are not needed for float32 results.
func exp8(x archsimd.Float64x8) archsimd.Float64x8 {
	k := x.Mul(load8(&k8.log2e)).RoundToEvenScaled(0) // CVTSD2SL rounds to nearest even
	r := k.MulAdd(load8(&k8.negLn2U), x)              // VFNMADD231SD: x − k·ln2U, rounded once
	r = k.MulAdd(load8(&k8.negLn2L), r)
	r = r.Mul(load8(&k8.sixteenth))
	p := load8(&k8.c8).MulAdd(r, load8(&k8.c7)) // VFMADD213SD, as the assembly's chain
	p = p.MulAdd(r, load8(&k8.c6))
	p = p.MulAdd(r, load8(&k8.c5))
	p = p.MulAdd(r, load8(&k8.c4))
	p = p.MulAdd(r, load8(&k8.c3))
	p = p.MulAdd(r, load8(&k8.half))
	p = p.MulAdd(r, load8(&k8.one))
	two := load8(&k8.two)
	y := r.Mul(p) // e^r − 1
	y = y.Mul(y.Add(two))
	y = y.Mul(y.Add(two))
	y = y.Mul(y.Add(two))
	y = y.Add(two).MulAdd(y, load8(&k8.one)) // e^16r, the last step fused with the +1
	return y.Scale(k)                        // exact: the result is a normal float64
}

// expClamped is exp8 of x clamped to [expMin, expMax], with NaN lanes
// returned as they are (math.Exp returns a NaN argument).
func expClamped(x archsimd.Float64x8) archsimd.Float64x8 {
	nan := x.IsNaN()
	c := x.Max(load8(&k8.min)).Min(load8(&k8.max))
	return x.Merge(exp8(c), nan)
}

func abs8(x archsimd.Float64x8) archsimd.Float64x8 {
	return x.AsUint64x8().And(archsimd.LoadUint64x8(&absMask8)).AsFloat64x8()
}

func neg8(x archsimd.Float64x8) archsimd.Float64x8 {
	return x.AsUint64x8().Xor(archsimd.LoadUint64x8(&signMask8)).AsFloat64x8()
}

// viaFloat64x8 calls f on inputs eight at a time, widened to float64, and rounds
// its results to float32; the last len%8 elements go through tail.
func viaFloat64x8(inputs, outputs []float32, f func(archsimd.Float64x8) archsimd.Float64x8, tail func(inputs, outputs []float32)) {
	n := len(inputs) &^ 7
	for i := 0; i < n; i += 8 {
		x := archsimd.LoadFloat32x8Slice(inputs[i : i+8]).ConvertToFloat64()
		f(x).ConvertToFloat32().StoreSlice(outputs[i : i+8])
	}
	tail(inputs[n:], outputs[n:len(inputs)])
}

func expFloat32AVX512(inputs, outputs []float32) {
	viaFloat64x8(inputs, outputs, expClamped, execExpGeneric[float32])
}

// logistic8 is execLogisticGeneric's arithmetic: 1/(1+e^−x) for x ≥ 0 and
// e^x/(1+e^x) otherwise. Both take e^−|x|, except a NaN, which passes as it is.
func logistic8(x archsimd.Float64x8) archsimd.Float64x8 {
	one := load8(&k8.one)
	nonNeg := x.GreaterEqual(load8(&k8.zero))
	e := expClamped(neg8(x).Merge(x, nonNeg)) // −x where x ≥ 0, else x (NaN included)
	d := one.Add(e)
	return one.Div(d).Merge(e.Div(d), nonNeg)
}

func logisticFloat32AVX512(inputs, outputs []float32) {
	viaFloat64x8(inputs, outputs, logistic8, execLogisticGeneric[float32])
}

// tanh8 is math.Tanh's arithmetic with its three branches computed for every
// lane and chosen per lane: ±1 beyond tanhBig; 1 − 2/(e^2|x|+1), signed, from
// tanhMid; a rational polynomial below it (and x itself at ±0).
func tanh8(x archsimd.Float64x8) archsimd.Float64x8 {
	one := load8(&k8.one)
	z := abs8(x)
	negative := x.Less(load8(&k8.zero))

	// |x| < 0.625: x + x·s·P(s)/Q(s), s = x².
	s := x.Mul(x)
	num := load8(&k8.p0).Mul(s).Add(load8(&k8.p1)).Mul(s).Add(load8(&k8.p2))
	den := s.Add(load8(&k8.q0)).Mul(s).Add(load8(&k8.q1)).Mul(s).Add(load8(&k8.q2))
	small := x.Add(x.Mul(s).Mul(num).Div(den))

	// 0.625 ≤ |x| ≤ tanhBig: 1 − 2/(e^2|x| + 1), with x's sign.
	e := expClamped(z.Add(z))
	mid := one.Sub(load8(&k8.two).Div(e.Add(one)))
	mid = neg8(mid).Merge(mid, negative)

	big := load8(&k8.minusOne).Merge(one, negative)

	t := mid.Merge(small, z.GreaterEqual(load8(&k8.mid)))
	t = big.Merge(t, z.Greater(load8(&k8.big)))
	return x.Merge(t, x.Equal(load8(&k8.zero))) // ±0 as it came
}

func tanhFloat32AVX512(inputs, outputs []float32) {
	viaFloat64x8(inputs, outputs, tanh8, execTanhGeneric[float32])
}

// signFloat32AVX512 is execSignGeneric's: −1 below zero, 1 above it, +0
// otherwise (±0 and NaN), sixteen lanes at a time.
func signFloat32AVX512(inputs, outputs []float32) {
	zero, one, minusOne := archsimd.BroadcastFloat32x16(0), archsimd.BroadcastFloat32x16(1), archsimd.BroadcastFloat32x16(-1)
	n := len(inputs) &^ 15
	for i := 0; i < n; i += 16 {
		x := archsimd.LoadFloat32x16Slice(inputs[i : i+16])
		negative := minusOne.Merge(zero, x.Less(zero)) // −1 where x < 0, else +0
		one.Merge(negative, x.Greater(zero)).StoreSlice(outputs[i : i+16])
	}
	archsimd.ClearAVXUpperBits() // the tail is SSE code
	execSignGeneric(inputs[n:], outputs[n:len(inputs)])
}
