// Tests of the attention-in-go course's patch: the AVX-512 float32 kernels of
// Exp, Logistic, Tanh and Sign, and the AVX2 ones of Exp, Logistic and Tanh
// (vecmath_avx2.go), give, bit for bit, the generic loops' results.

//go:build goexperiment.simd && amd64

package ops

import (
	"flag"
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

var vecmathAll = flag.Bool("vecmath.all", false,
	"compare the AVX-512 float32 kernels on all 2³² float32 bit patterns (about a minute per kernel)")

func hasAVX2FMA() bool { return archsimd.X86.AVX2() && archsimd.X86.FMA() }

var vecmathKernels = []struct {
	name          string
	runs          func() bool // whether this CPU runs the vector kernel
	vector, plain func(inputs, outputs []float32)
}{
	{"Exp", archsimd.X86.AVX512, expFloat32AVX512, execExpGeneric[float32]},
	{"Logistic", archsimd.X86.AVX512, logisticFloat32AVX512, execLogisticGeneric[float32]},
	{"Tanh", archsimd.X86.AVX512, tanhFloat32AVX512, execTanhGeneric[float32]},
	{"Sign", archsimd.X86.AVX512, signFloat32AVX512, execSignGeneric[float32]},
	{"Exp/AVX2", hasAVX2FMA, expFloat32AVX2, execExpGeneric[float32]},
	{"Logistic/AVX2", hasAVX2FMA, logisticFloat32AVX2, execLogisticGeneric[float32]},
	{"Tanh/AVX2", hasAVX2FMA, tanhFloat32AVX2, execTanhGeneric[float32]},
}

// vecmathEdges are inputs at and around each branch point of the scalar code.
func vecmathEdges() []float32 {
	edges := []float32{0, 1, 2, 0.5, 0.625, float32(tanhBig), float32(expMin), float32(expMax),
		88.72283, 88.72284, 89, 709, 710, 745, 746, -87.33655, -103.27893, -103.97208, -104,
		1e-45, 1e-38, 1e-10, math.MaxFloat32, float32(math.Inf(1)), float32(math.NaN()),
		math.Float32frombits(0x7fa00001), // a signaling NaN with a payload
		math.Float32frombits(0x7fc12345), // a quiet NaN with a payload
	}
	var all []float32
	for _, e := range edges {
		for _, x := range []float32{e, -e} {
			all = append(all, x, math.Nextafter32(x, float32(math.Inf(1))), math.Nextafter32(x, float32(math.Inf(-1))))
		}
	}
	return all
}

// compareBits runs both kernels on inputs and returns how many results differ
// in any bit, reporting the first ten.
func compareBits(t *testing.T, name string, vector, plain func(inputs, outputs []float32), inputs []float32) int {
	t.Helper()
	got := make([]float32, len(inputs))
	want := make([]float32, len(inputs))
	vector(inputs, got)
	plain(inputs, want)
	bad := 0
	for i := range inputs {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			if bad < 10 {
				t.Errorf("%s(%g = %#08x) = %g (%#08x), the generic loop gives %g (%#08x)", name, inputs[i],
					math.Float32bits(inputs[i]), got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
			bad++
		}
	}
	return bad
}

func TestVecMathFloat32(t *testing.T) {
	stride := uint64(251)
	if *vecmathAll {
		stride = 1
	}
	const block = 1 << 20
	for _, k := range vecmathKernels {
		t.Run(k.name, func(t *testing.T) {
			if !k.runs() {
				t.Skip("this CPU does not run these kernels")
			}
			bad := compareBits(t, k.name, k.vector, k.plain, vecmathEdges())
			// Every length from 0 to 40 and every offset, for the tail.
			for n := range 41 {
				in := vecmathEdges()[:n]
				bad += compareBits(t, k.name, k.vector, k.plain, in)
			}
			in := make([]float32, 0, block)
			var checked int
			for bits := uint64(0); bits < 1<<32; bits += stride {
				in = append(in, math.Float32frombits(uint32(bits)))
				if len(in) == block || bits+stride >= 1<<32 {
					bad += compareBits(t, k.name, k.vector, k.plain, in)
					checked += len(in)
					in = in[:0]
				}
			}
			if bad > 0 {
				t.Fatalf("%s: %d of %d inputs differ", k.name, bad, checked)
			}
			t.Logf("%s: %d float32 bit patterns, every %dth, all equal", k.name, checked, stride)
		})
	}
}

// TestVecMathFloat64Lanes compares the float64 lanes themselves, before the
// rounding to float32 that hides most differences in the last bits of a
// float64: exp8 against math.Exp, tanh8 against math.Tanh and logistic8
// against the generic loop's formula, on random float64s over each kernel's
// range.
func TestVecMathFloat64Lanes(t *testing.T) {
	logistic := func(x float64) float64 {
		out := []float64{0}
		execLogisticGeneric([]float64{x}, out)
		return out[0]
	}
	// lanes8 and lanes4 run an eight- or four-lane kernel on x's lanes.
	lanes8 := func(f func(archsimd.Float64x8) archsimd.Float64x8) func(x, got *[8]float64) {
		return func(x, got *[8]float64) { f(archsimd.LoadFloat64x8(x)).Store(got) }
	}
	lanes4 := func(f func(archsimd.Float64x4) archsimd.Float64x4) func(x, got *[8]float64) {
		return func(x, got *[8]float64) {
			f(archsimd.LoadFloat64x4((*[4]float64)(x[:4]))).Store((*[4]float64)(got[:4]))
			f(archsimd.LoadFloat64x4((*[4]float64)(x[4:]))).Store((*[4]float64)(got[4:]))
		}
	}
	kernels := []struct {
		name     string
		runs     func() bool
		vector   func(x, got *[8]float64)
		scalar   func(float64) float64
		from, to float64
	}{
		{"exp8", archsimd.X86.AVX512, lanes8(exp8), math.Exp, expMin, expMax},
		{"logistic8", archsimd.X86.AVX512, lanes8(logistic8), logistic, expMin, -expMin},
		{"tanh8", archsimd.X86.AVX512, lanes8(tanh8), math.Tanh, -2 * tanhBig, 2 * tanhBig},
		{"exp4", hasAVX2FMA, lanes4(exp4), math.Exp, expMin, expMax},
		{"logistic4", hasAVX2FMA, lanes4(logistic4), logistic, expMin, -expMin},
		{"tanh4", hasAVX2FMA, lanes4(tanh4), math.Tanh, -2 * tanhBig, 2 * tanhBig},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range kernels {
		if !k.runs() {
			t.Logf("%s: not run, this CPU does not run it", k.name)
			continue
		}
		bad := 0
		for range 1 << 17 {
			var x [8]float64
			for i := range x {
				switch r.IntN(3) {
				case 0: // anywhere in the range
					x[i] = k.from + (k.to-k.from)*r.Float64()
				case 1: // near zero and the branch points
					x[i] = []float64{0, tanhMid, tanhBig, 1}[r.IntN(4)] * (1 + (r.Float64()-0.5)*1e-3)
					if r.IntN(2) == 0 {
						x[i] = -x[i]
					}
				default: // small numbers
					x[i] = (r.Float64() - 0.5) * math.Pow(2, -float64(r.IntN(60)))
				}
			}
			var got [8]float64
			k.vector(&x, &got)
			for i, xi := range x {
				if want := k.scalar(xi); math.Float64bits(got[i]) != math.Float64bits(want) {
					if bad < 10 {
						t.Errorf("%s(%v) = %v, want %v", k.name, xi, got[i], want)
					}
					bad++
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d lanes differ", k.name, bad, 8<<17)
		}
	}
}

func BenchmarkVecMathFloat32(b *testing.B) {
	in := make([]float32, 1<<16)
	for i := range in {
		in[i] = float32(i)/float32(len(in))*16 - 8
	}
	out := make([]float32, len(in))
	for _, k := range vecmathKernels {
		for _, impl := range []struct {
			name string
			f    func(inputs, outputs []float32)
		}{{"generic", k.plain}, {"vector", k.vector}} {
			if impl.name == "vector" && !k.runs() {
				continue
			}
			b.Run(k.name+"/"+impl.name, func(b *testing.B) {
				b.SetBytes(int64(4 * len(in)))
				for b.Loop() {
					impl.f(in, out)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(in)), "ns/element")
			})
		}
	}
}
