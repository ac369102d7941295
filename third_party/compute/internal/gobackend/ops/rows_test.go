// Tests of the attention-in-go course's patch: the loops by rows visit
// exactly what the release's per-element iterators and loops visit.

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

// randomFloat32s returns n numbers, mostly ordinary, some of them zeros,
// infinities, NaNs and subnormals.
func randomFloat32s(r *rand.Rand, n int) []float32 {
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0x7fc12345), 1e-40, -3e-39, math.MaxFloat32, 1}
	x := make([]float32, n)
	for i := range x {
		if r.IntN(10) == 0 {
			x[i] = special[r.IntN(len(special))]
		} else {
			x[i] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4)))
		}
	}
	return x
}

// randomDims returns rank dimensions between 1 and 5.
func randomDims(r *rand.Rand, rank int) []int {
	dims := make([]int, rank)
	for i := range dims {
		dims[i] = 1 + r.IntN(5)
	}
	return dims
}

func TestTransposeRowsEqualsIterator(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		rank := r.IntN(6)
		dims := randomDims(r, rank)
		if trial%3 == 0 && rank > 0 && rank <= 3 {
			// Dimensions larger than transposeRows's tiles.
			for i := range dims {
				dims[i] = 1 + r.IntN(40)
			}
		}
		perm := r.Perm(rank)
		shape := shapes.Make(dtypes.Float32, dims...)
		in := make([]float32, shape.Size())
		for i := range in {
			in[i] = float32(i)
		}
		want := make([]float32, len(in))
		it := NewTransposeIterator(shape, perm)
		for _, v := range in {
			want[it.Next()] = v
		}
		got := make([]float32, len(in))
		transposeRows(in, got, NewTransposeIterator(shape, perm))
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: transpose of %v by %v: got %v, want %v", trial, dims, perm, got, want)
		}
	}
}

func TestIterRowsEqualsIterFlatIndices(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		rank := r.IntN(6)
		tgt := randomDims(r, rank)
		lhs, rhs := slices.Clone(tgt), slices.Clone(tgt)
		for i := range tgt {
			switch r.IntN(3) {
			case 0:
				lhs[i] = 1
			case 1:
				rhs[i] = 1
			}
		}
		zi := gobackend.NewZippedBroadcastIterator(shapes.Make(dtypes.Float32, lhs...),
			shapes.Make(dtypes.Float32, rhs...), shapes.Make(dtypes.Float32, tgt...))
		var want, got []gobackend.ZippedIndices
		for idx := range zi.IterFlatIndices() {
			want = append(want, idx)
		}
		for row := range zi.IterRows() {
			li, ri := row.LHS, row.RHS
			for ti := row.Tgt; ti < row.Tgt+row.N; ti++ {
				got = append(got, gobackend.ZippedIndices{LHSFlatIdx: li, RHSFlatIdx: ri, TgtFlatIdx: ti})
				li += row.LHSStep
				ri += row.RHSStep
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: lhs %v, rhs %v → %v: rows visit %v, want %v", trial, lhs, rhs, tgt, got, want)
		}
	}
}

func TestBroadcastRowsEqualsIterFlatIndices(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 2000 {
		rank := r.IntN(6)
		tgt := randomDims(r, rank)
		src := slices.Clone(tgt)
		for i := range src {
			if r.IntN(2) == 0 {
				src[i] = 1
			}
		}
		bi := gobackend.NewBroadcastIterator(shapes.Make(dtypes.Float32, src...), shapes.Make(dtypes.Float32, tgt...))
		var want, got [][2]int
		for si, ti := range bi.IterFlatIndices() {
			want = append(want, [2]int{si, ti})
		}
		for row := range bi.IterRows() {
			si := row.Src
			for ti := row.Tgt; ti < row.Tgt+row.N; ti++ {
				got = append(got, [2]int{si, ti})
				si += row.Step
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: %v → %v: rows visit %v, want %v", trial, src, tgt, got, want)
		}
	}
}

func TestReduceRowsEqualsIterator(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 2000 {
		rank := r.IntN(6)
		dims := randomDims(r, rank)
		var axes []int
		for axis := range rank {
			if r.IntN(2) == 0 {
				axes = append(axes, axis)
			}
		}
		size := 1
		for _, d := range dims {
			size *= d
		}
		// The output index of each operand element, by the iterator and by rows.
		want := make([]int, size)
		it := NewReduceOutputIterator(dims, axes)
		for i := range want {
			want[i] = it.Next()
		}
		got := make([]int, 0, size)
		NewReduceOutputIterator(dims, axes).rows(size, func(start, n, out, step int) {
			if start != len(got) {
				t.Fatalf("trial %d: a row starts at %d after %d elements", trial, start, len(got))
			}
			for i := range n {
				got = append(got, out+i*step)
			}
		})
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: reduce %v over %v: rows send elements to %v, want %v", trial, dims, axes, got, want)
		}
	}
}

func TestSliceRowsEqualsElements(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 3000 {
		rank := 1 + r.IntN(4)
		dims := randomDims(r, rank)
		dims[rank-1] = 1 + r.IntN(40)
		params := &sliceNode{starts: make([]int, rank), limits: make([]int, rank), strides: make([]int, rank)}
		outDims := make([]int, rank)
		for axis, d := range dims {
			start := r.IntN(d)
			limit := start + 1 + r.IntN(d-start)
			stride := 1
			if axis < rank-1 {
				stride = 1 + r.IntN(3)
			}
			params.starts[axis], params.limits[axis], params.strides[axis] = start, limit, stride
			outDims[axis] = (limit - start + stride - 1) / stride
		}
		shape := shapes.Make(dtypes.Float32, dims...)
		in := make([]float32, shape.Size())
		for i := range in {
			in[i] = float32(i)
		}
		size := 1
		for _, d := range outDims {
			size *= d
		}
		want := make([]float32, size)
		got := make([]float32, size)
		sliceElements(in, want, shape, outDims, params)
		sliceRows(in, got, shape, outDims, params)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: slice of %v from %v to %v by %v: rows give %v, want %v",
				trial, dims, params.starts, params.limits, params.strides, got, want)
		}
	}
}
