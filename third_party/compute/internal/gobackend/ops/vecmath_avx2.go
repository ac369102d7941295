// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0
// The float64 operations and constants of Exp and Tanh are those of Go's math
// package (Copyright The Go Authors; BSD-style license, https://go.dev/LICENSE).

//go:build goexperiment.simd && amd64

package ops

import (
	"simd/archsimd"

	"github.com/gomlx/compute/internal/avxstate"
	"github.com/gomlx/compute/support/envutil"
)

// The float32 Exp, Logistic and Tanh of vecmath_avx512.go on four float64
// lanes, for CPUs with AVX2 and FMA but not AVX-512 (or with AVX-512 turned
// off): the same operations in the same order, so the same bits as the
// generic loops (vecmath_avx512_test.go checks both). AVX2 has no VSCALEFPD:
// 2^k is built in the exponent bits, as math.Exp's assembly builds it.
// (Patched in by the attention-in-go course.)
func init() {
	if envutil.MustReadBool(envutil.SIMD_AVX512_Env, true) && archsimd.X86.AVX512() {
		return // vecmath_avx512.go's init chooses the sixteen-lane kernels
	}
	if envutil.MustReadBool(envutil.SIMD_AVX2_Env, true) && archsimd.X86.AVX2() && archsimd.X86.FMA() {
		expFloat32 = expFloat32AVX2
		logisticFloat32 = logisticFloat32AVX2
		tanhFloat32 = tanhFloat32AVX2
	}
}

// k4 holds, four times each, the constants of the four-lane kernels. They
// are loaded from memory (VMOVUPD) rather than broadcast from a scalar: the
// compiler moves a float64 constant into a register with an SSE
// instruction, and inside VEX code each such switch pays Intel's AVX–SSE
// penalty (broadcasts were a sixth of lesson 6's training step, the
// kernels slower than the scalar loops).
var k4 = struct {
	log2e     [4]float64
	negLn2U   [4]float64
	negLn2L   [4]float64
	sixteenth [4]float64
	c8        [4]float64
	c7        [4]float64
	c6        [4]float64
	c5        [4]float64
	c4        [4]float64
	c3        [4]float64
	half      [4]float64
	one       [4]float64
	two       [4]float64
	minusOne  [4]float64
	zero      [4]float64
	min       [4]float64
	max       [4]float64
	p0        [4]float64
	p1        [4]float64
	p2        [4]float64
	q0        [4]float64
	q1        [4]float64
	q2        [4]float64
	mid       [4]float64
	big       [4]float64
}{
	log2e:     [4]float64{expLog2e, expLog2e, expLog2e, expLog2e},
	negLn2U:   [4]float64{-expLn2U, -expLn2U, -expLn2U, -expLn2U},
	negLn2L:   [4]float64{-expLn2L, -expLn2L, -expLn2L, -expLn2L},
	sixteenth: [4]float64{0.0625, 0.0625, 0.0625, 0.0625},
	c8:        [4]float64{expC8, expC8, expC8, expC8},
	c7:        [4]float64{expC7, expC7, expC7, expC7},
	c6:        [4]float64{expC6, expC6, expC6, expC6},
	c5:        [4]float64{expC5, expC5, expC5, expC5},
	c4:        [4]float64{expC4, expC4, expC4, expC4},
	c3:        [4]float64{expC3, expC3, expC3, expC3},
	half:      [4]float64{0.5, 0.5, 0.5, 0.5},
	one:       [4]float64{1, 1, 1, 1},
	two:       [4]float64{2, 2, 2, 2},
	minusOne:  [4]float64{-1, -1, -1, -1},
	zero:      [4]float64{0, 0, 0, 0},
	min:       [4]float64{expMin, expMin, expMin, expMin},
	max:       [4]float64{expMax, expMax, expMax, expMax},
	p0:        [4]float64{tanhP0, tanhP0, tanhP0, tanhP0},
	p1:        [4]float64{tanhP1, tanhP1, tanhP1, tanhP1},
	p2:        [4]float64{tanhP2, tanhP2, tanhP2, tanhP2},
	q0:        [4]float64{tanhQ0, tanhQ0, tanhQ0, tanhQ0},
	q1:        [4]float64{tanhQ1, tanhQ1, tanhQ1, tanhQ1},
	q2:        [4]float64{tanhQ2, tanhQ2, tanhQ2, tanhQ2},
	mid:       [4]float64{tanhMid, tanhMid, tanhMid, tanhMid},
	big:       [4]float64{tanhBig, tanhBig, tanhBig, tanhBig},
}

func load4(c *[4]float64) archsimd.Float64x4 { return archsimd.LoadFloat64x4(c) }

// The integer constants, loaded for the same reason.
var (
	bias4     = [4]int64{1023, 1023, 1023, 1023}
	absMask4  = [4]uint64{signBit - 1, signBit - 1, signBit - 1, signBit - 1}
	signMask4 = [4]uint64{signBit, signBit, signBit, signBit}
)

// exp4 is exp8 on four lanes.
func exp4(x archsimd.Float64x4) archsimd.Float64x4 {
	k := x.Mul(load4(&k4.log2e)).RoundToEven()
	r := k.MulAdd(load4(&k4.negLn2U), x)
	r = k.MulAdd(load4(&k4.negLn2L), r)
	r = r.Mul(load4(&k4.sixteenth))
	p := load4(&k4.c8).MulAdd(r, load4(&k4.c7))
	p = p.MulAdd(r, load4(&k4.c6))
	p = p.MulAdd(r, load4(&k4.c5))
	p = p.MulAdd(r, load4(&k4.c4))
	p = p.MulAdd(r, load4(&k4.c3))
	p = p.MulAdd(r, load4(&k4.half))
	p = p.MulAdd(r, load4(&k4.one))
	two := load4(&k4.two)
	y := r.Mul(p)
	y = y.Mul(y.Add(two))
	y = y.Mul(y.Add(two))
	y = y.Mul(y.Add(two))
	y = y.Add(two).MulAdd(y, load4(&k4.one))
	// 2^k: k + 1023 in the exponent bits (k is in [-174, 145], so 2^k and
	// the product are normal and the product is exact, as with VSCALEFPD).
	pow2 := k.ConvertToInt32().ExtendToInt64().Add(archsimd.LoadInt64x4(&bias4)).ShiftAllLeft(52).AsFloat64x4()
	return y.Mul(pow2)
}

func expClamped4(x archsimd.Float64x4) archsimd.Float64x4 {
	nan := x.IsNaN()
	c := x.Max(load4(&k4.min)).Min(load4(&k4.max))
	return x.Merge(exp4(c), nan)
}

func abs4(x archsimd.Float64x4) archsimd.Float64x4 {
	return x.AsUint64x4().And(archsimd.LoadUint64x4(&absMask4)).AsFloat64x4()
}

func neg4(x archsimd.Float64x4) archsimd.Float64x4 {
	return x.AsUint64x4().Xor(archsimd.LoadUint64x4(&signMask4)).AsFloat64x4()
}

// viaFloat64x4 is viaFloat64x8 four lanes at a time.
func viaFloat64x4(inputs, outputs []float32, f func(archsimd.Float64x4) archsimd.Float64x4, tail func(inputs, outputs []float32)) {
	n := len(inputs) &^ 3
	for i := 0; i < n; i += 4 {
		x := archsimd.LoadFloat32x4Slice(inputs[i : i+4]).ConvertToFloat64()
		f(x).ConvertToFloat32().StoreSlice(outputs[i : i+4])
	}
	avxstate.Clear() // the tail is math.Exp's SSE and VEX code
	tail(inputs[n:], outputs[n:len(inputs)])
}

func expFloat32AVX2(inputs, outputs []float32) {
	viaFloat64x4(inputs, outputs, expClamped4, execExpGeneric[float32])
}

// logistic4 is logistic8 on four lanes.
func logistic4(x archsimd.Float64x4) archsimd.Float64x4 {
	one := load4(&k4.one)
	nonNeg := x.GreaterEqual(load4(&k4.zero))
	e := expClamped4(neg4(x).Merge(x, nonNeg))
	d := one.Add(e)
	return one.Div(d).Merge(e.Div(d), nonNeg)
}

func logisticFloat32AVX2(inputs, outputs []float32) {
	viaFloat64x4(inputs, outputs, logistic4, execLogisticGeneric[float32])
}

// tanh4 is tanh8 on four lanes.
func tanh4(x archsimd.Float64x4) archsimd.Float64x4 {
	one := load4(&k4.one)
	z := abs4(x)
	negative := x.Less(load4(&k4.zero))

	s := x.Mul(x)
	num := load4(&k4.p0).Mul(s).Add(load4(&k4.p1)).Mul(s).Add(load4(&k4.p2))
	den := s.Add(load4(&k4.q0)).Mul(s).Add(load4(&k4.q1)).Mul(s).Add(load4(&k4.q2))
	small := x.Add(x.Mul(s).Mul(num).Div(den))

	e := expClamped4(z.Add(z))
	mid := one.Sub(load4(&k4.two).Div(e.Add(one)))
	mid = neg4(mid).Merge(mid, negative)

	big := load4(&k4.minusOne).Merge(one, negative)

	t := mid.Merge(small, z.GreaterEqual(load4(&k4.mid)))
	t = big.Merge(t, z.Greater(load4(&k4.big)))
	return x.Merge(t, x.Equal(load4(&k4.zero)))
}

func tanhFloat32AVX2(inputs, outputs []float32) {
	viaFloat64x4(inputs, outputs, tanh4, execTanhGeneric[float32])
}
