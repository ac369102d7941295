// Tests of the attention-in-go course's patch: ReduceMax and ReduceSum give
// the release's per-element loops' results bit for bit, whichever loops and
// kernels compute them.

package ops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// reduceRelease is the release's loop: each operand element, in order,
// into the output element the iterator names.
func reduceRelease[T float32 | float64](operand []T, dims, axes []int, outSize int, isMax bool) []T {
	out := make([]T, outSize)
	if isMax {
		for i := range out {
			out[i] = T(math.Inf(-1))
		}
	}
	it := NewReduceOutputIterator(dims, axes)
	for _, value := range operand {
		i := it.Next()
		if isMax {
			out[i] = max(out[i], value)
		} else {
			out[i] += value
		}
	}
	return out
}

func TestReduceEqualsRelease(t *testing.T) {
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := b.(*gobackend.Backend)
	defer backend.Finalize()
	buffer := func(dtype dtypes.DType, dims []int, flat any) *gobackend.Buffer {
		buf, err := backend.BufferFromFlatData(0, flat, shapes.Make(dtype, dims...))
		if err != nil {
			t.Fatal(err)
		}
		return buf.(*gobackend.Buffer)
	}
	negZero := float32(math.Copysign(0, -1))
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
		outSize := shapes.Make(dtypes.Float32, outDims...).Size()
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
		x64 := make([]float64, size)
		for i, v := range x {
			x64[i] = float64(v)
		}
		for _, op := range []struct {
			name  string
			isMax bool
			f32   GenericReduceFn
			f64   GenericReduceFn
		}{
			{"ReduceMax", true, execReduceMaxGeneric[float32], execReduceMaxGeneric[float64]},
			{"ReduceSum", false, execReduceSumGeneric[float32], execReduceSumGeneric[float64]},
		} {
			got := buffer(dtypes.Float32, outDims, make([]float32, outSize))
			if err := op.f32(buffer(dtypes.Float32, dims, slices.Clone(x)), got, NewReduceOutputIterator(dims, axes), dtypes.Float32); err != nil {
				t.Fatal(err)
			}
			// Where two NaNs meet in a sum, which one comes out follows the
			// operand order the compiler gives that loop's add (this loop's
			// and the release's may differ): a sum of NaNs must be a NaN.
			// Go's max picks its NaN by its own rule, so maxima are compared
			// bit for bit.
			want := reduceRelease(x, dims, axes, outSize, op.isMax)
			for i, w := range want {
				g := got.Flat.([]float32)[i]
				if bothNaN := g != g && w != w; bothNaN && !op.isMax {
					continue
				}
				if math.Float32bits(g) != math.Float32bits(w) {
					t.Fatalf("trial %d (mode %d), %s of %v over axes %v: output %d is %v (%#x), want %v (%#x)",
						trial, mode, op.name, dims, axes, i, g, math.Float32bits(g), w, math.Float32bits(w))
				}
			}
			got64 := buffer(dtypes.Float64, outDims, make([]float64, outSize))
			if err := op.f64(buffer(dtypes.Float64, dims, slices.Clone(x64)), got64, NewReduceOutputIterator(dims, axes), dtypes.Float64); err != nil {
				t.Fatal(err)
			}
			want64 := reduceRelease(x64, dims, axes, outSize, op.isMax)
			for i, w := range want64 {
				g := got64.Flat.([]float64)[i]
				if bothNaN := g != g && w != w; bothNaN && !op.isMax {
					continue
				}
				if math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("trial %d (mode %d), float64 %s of %v over axes %v: output %d is %v, want %v", trial, mode, op.name, dims, axes, i, g, w)
				}
			}
		}
	}
}
