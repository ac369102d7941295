// Tests of the attention-in-go course's patch: the AVX-512 float32 executors
// of ReduceMax and ReduceSum give, bit for bit, the generic executors'
// results.

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

func TestReduceFloat32AVX512(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512 on this CPU")
	}
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := b.(*gobackend.Backend)
	defer backend.Finalize()
	buffer := func(dims []int, flat []float32) *gobackend.Buffer {
		buf, err := backend.BufferFromFlatData(0, flat, shapes.Make(dtypes.Float32, dims...))
		if err != nil {
			t.Fatal(err)
		}
		return buf.(*gobackend.Buffer)
	}
	negZero := float32(math.Copysign(0, -1))
	ops := []struct {
		name          string
		generic, arch GenericReduceFn
	}{
		{"ReduceMax", execReduceMaxGeneric[float32], execReduceMaxFloat32AVX512},
		{"ReduceSum", execReduceSumGeneric[float32], execReduceSumFloat32AVX512},
	}
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 3000 {
		rank := r.IntN(5)
		dims := randomDims(r, rank)
		if rank > 0 && r.IntN(2) == 0 {
			dims[rank-1] = 1 + r.IntN(100) // rows of several vectors, with and without a tail
		}
		var axes, outDims []int
		for axis := range rank {
			if (axis == rank-1 && r.IntN(4) != 0) || r.IntN(3) == 0 {
				axes = append(axes, axis)
			} else {
				outDims = append(outDims, dims[axis])
			}
		}
		size := shapes.Make(dtypes.Float32, dims...).Size()
		// Values whose answers the lanes find (ordinary numbers), and values
		// whose answers they hand back to the element loop: NaNs of several
		// payloads, infinities, and maxima that are zeros of either sign.
		var x []float32
		mode := trial % 4
		switch mode {
		case 0:
			x = randomFloat32s(r, size)
			for i := range x {
				if r.IntN(4) != 0 && x[i] != x[i] {
					x[i] = float32(r.NormFloat64())
				}
			}
		case 1:
			x = randomFloat32s(r, size)
		case 2:
			x = make([]float32, size)
			for i := range x {
				switch r.IntN(4) {
				case 0:
					x[i] = 0
				case 1:
					x[i] = negZero
				default:
					x[i] = -float32(r.ExpFloat64())
				}
			}
		case 3:
			// Negative zeros and one positive zero: lanes that see +0 before
			// -0 hold -0 (VMAXPS returns its second operand for two zeros),
			// where Go's max holds +0.
			x = make([]float32, size)
			for i := range x {
				x[i] = negZero
			}
			if size > 0 {
				x[r.IntN(size)] = 0
			}
		}
		for _, op := range ops {
			outSize := shapes.Make(dtypes.Float32, outDims...).Size()
			got, want := buffer(outDims, make([]float32, outSize)), buffer(outDims, make([]float32, outSize))
			operand := buffer(dims, slices.Clone(x))
			if err := op.generic(operand, want, NewReduceOutputIterator(dims, axes), dtypes.Float32); err != nil {
				t.Fatal(err)
			}
			if err := op.arch(operand, got, NewReduceOutputIterator(dims, axes), dtypes.Float32); err != nil {
				t.Fatal(err)
			}
			g, w := got.Flat.([]float32), want.Flat.([]float32)
			for i := range w {
				if math.Float32bits(g[i]) != math.Float32bits(w[i]) {
					t.Fatalf("trial %d (mode %d), %s of %v over axes %v: output %d is %v (%#x), want %v (%#x)",
						trial, mode, op.name, dims, axes, i, g[i], math.Float32bits(g[i]), w[i], math.Float32bits(w[i]))
				}
			}
		}
	}
}
