// Tests of the attention-in-go course's patch: the AVX-512 and AVX2 float32
// executors of Where give, bit for bit, the generic executor's results.

//go:build goexperiment.simd && amd64

package ops

import (
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

func TestWhereFloat32AVX512(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512 on this CPU")
	}
	testWhereFloat32(t, execWhereFloat32AVX512)
}

func TestWhereFloat32AVX2(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("no AVX2 on this CPU")
	}
	testWhereFloat32(t, execWhereFloat32AVX2)
}

func testWhereFloat32(t *testing.T, kernel func(c, t, f, out *gobackend.Buffer)) {
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := b.(*gobackend.Backend)
	defer backend.Finalize()
	buffer := func(flat any, dims ...int) *gobackend.Buffer {
		dtype := dtypes.Float32
		if _, ok := flat.([]bool); ok {
			dtype = dtypes.Bool
		}
		buf, err := backend.BufferFromFlatData(0, flat, shapes.Make(dtype, dims...))
		if err != nil {
			t.Fatal(err)
		}
		return buf.(*gobackend.Buffer)
	}
	r := rand.New(rand.NewPCG(11, 12))
	for trial := range 2000 {
		n := 1 + r.IntN(100)
		if trial%4 == 0 {
			n = 1 // a scalar condition
		}
		condition := make([]bool, n)
		for i := range condition {
			condition[i] = r.IntN(2) == 0
		}
		onTrue, onFalse := randomFloat32s(r, n), randomFloat32s(r, n)
		dims := func(scalar bool) []int {
			if scalar {
				return nil
			}
			return []int{n}
		}
		condScalar := trial%4 == 0
		trueScalar, falseScalar := r.IntN(3) == 0, r.IntN(3) == 0
		if trueScalar {
			onTrue = onTrue[:1]
		}
		if falseScalar {
			onFalse = onFalse[:1]
		}
		inPlace := r.IntN(3) // 0: a new output; 1: onTrue's buffer; 2: onFalse's
		run := func(where func(c, t, f, out *gobackend.Buffer)) []float32 {
			c, tb, fb := buffer(slices.Clone(condition), dims(condScalar)...),
				buffer(slices.Clone(onTrue), dims(trueScalar)...), buffer(slices.Clone(onFalse), dims(falseScalar)...)
			out := buffer(make([]float32, n), n)
			switch {
			case inPlace == 1 && !trueScalar:
				out = tb
			case inPlace == 2 && !falseScalar:
				out = fb
			}
			where(c, tb, fb, out)
			return out.Flat.([]float32)
		}
		want, got := run(execWhereGeneric[float32]), run(kernel)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("trial %d: n=%d, scalar onTrue %v, onFalse %v, in place %d: output %d is %v, want %v",
					trial, n, trueScalar, falseScalar, inPlace, i, got[i], want[i])
			}
		}
	}
}

// TestWhereFloat32Empty: operands of no elements give an empty output, as
// the generic executor does, instead of reading a first element.
func TestWhereFloat32Empty(t *testing.T) {
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := b.(*gobackend.Backend)
	defer backend.Finalize()
	buffer := func(flat any, dtype dtypes.DType) *gobackend.Buffer {
		buf, err := backend.BufferFromFlatData(0, flat, shapes.Make(dtype, 0))
		if err != nil {
			t.Fatal(err)
		}
		return buf.(*gobackend.Buffer)
	}
	kernels := map[string]func(c, t, f, out *gobackend.Buffer){}
	if archsimd.X86.AVX512() {
		kernels["AVX-512"] = execWhereFloat32AVX512
	}
	if archsimd.X86.AVX2() {
		kernels["AVX2"] = execWhereFloat32AVX2
	}
	for name, where := range kernels {
		out := buffer([]float32{}, dtypes.Float32)
		where(buffer([]bool{}, dtypes.Bool), buffer([]float32{}, dtypes.Float32), buffer([]float32{}, dtypes.Float32), out)
		if n := len(out.Flat.([]float32)); n != 0 {
			t.Errorf("%s: %d elements, want 0", name, n)
		}
	}
}
