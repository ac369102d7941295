// Tests of the attention-in-go course's patch: the float32 binary ops in
// lanes, split across the workers, give the generated executors' results.

//go:build goexperiment.simd && amd64

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

func TestSplitBinaryEqualsGenerated(t *testing.T) {
	backend := splitBackend(t)
	widths := binaryWidths()
	if len(widths) == 0 {
		t.Skip("neither AVX-512 nor AVX2 on this CPU")
	}
	r := rand.New(rand.NewPCG(25, 26))
	buffer := func(dims []int, flat []float32) *gobackend.Buffer {
		buf, err := backend.BufferFromFlatData(0, slices.Clone(flat), shapes.Make(dtypes.Float32, dims...))
		if err != nil {
			t.Fatal(err)
		}
		return buf.(*gobackend.Buffer)
	}
	// Shapes above the split size: equal shapes, a scalar, and broadcast
	// rows (an attention's scores against a per-row maximum, a [seq, seq]
	// mask).
	for _, tc := range [][2][]int{
		{{2, 8, 64, 64}, {2, 8, 64, 64}},
		{{2, 8, 64, 64}, nil},
		{nil, {2, 8, 64, 64}},
		{{2, 8, 64, 64}, {2, 8, 64, 1}},
		{{1, 1, 64, 64}, {2, 8, 64, 64}},
		{{3, 5, 77, 41}, {3, 1, 77, 1}},
	} {
		lhs, rhs := tc[0], tc[1]
		tgt := make([]int, max(len(lhs), len(rhs)))
		for i := range tgt {
			d := 1
			if len(lhs) > 0 {
				d = max(d, lhs[i])
			}
			if len(rhs) > 0 {
				d = max(d, rhs[i])
			}
			tgt[i] = d
		}
		lShape, rShape := shapes.Make(dtypes.Float32, lhs...), shapes.Make(dtypes.Float32, rhs...)
		if splitWorkers(backend, shapes.Make(dtypes.Float32, tgt...).Size()) < 2 {
			t.Fatalf("%v: not split", tgt)
		}
		a, c := randomFloat32s(r, lShape.Size()), randomFloat32s(r, rShape.Size())
		node := &gobackend.Node{Shape: shapes.Make(dtypes.Float32, tgt...)}
		for _, w := range widths {
			for _, op := range binaryOpsFloat32 {
				want, err := op.generic(backend, node, []*gobackend.Buffer{buffer(lhs, a), buffer(rhs, c)}, []bool{false, false})
				if err != nil {
					t.Fatal(err)
				}
				got, err := w.executor(op.kernel, op.generic)(backend, node, []*gobackend.Buffer{buffer(lhs, a), buffer(rhs, c)}, []bool{false, false})
				if err != nil {
					t.Fatal(err)
				}
				g, x := got.Flat.([]float32), want.Flat.([]float32)
				if len(g) != len(x) {
					t.Fatalf("%s %s of %v and %v: %d elements, want %d", w.name, op.opType, lhs, rhs, len(g), len(x))
				}
				for i := range x {
					bothNaN := op.kernel.commutative && g[i] != g[i] && x[i] != x[i]
					if math.Float32bits(g[i]) != math.Float32bits(x[i]) && !bothNaN {
						t.Fatalf("%s %s of %v and %v: element %d = %g, want %g", w.name, op.opType, lhs, rhs, i, g[i], x[i])
					}
				}
			}
		}
	}
}
