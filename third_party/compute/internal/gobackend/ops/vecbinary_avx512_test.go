// Tests of the attention-in-go course's patch: the AVX-512 and AVX2 float32
// executors of Add, Sub, Mul and Div give, bit for bit, the generated executors'
// results (of Add and Mul, up to which of two NaNs comes out).

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

// binaryWidth is one width of the float32 binary ops' kernels.
type binaryWidth struct {
	name     string
	executor func(binaryFloat32, gobackend.NodeExecutor) gobackend.NodeExecutor
}

// binaryWidths are the widths this CPU has: the sixteen lanes of AVX-512
// and the eight of AVX2 (the kernels an AVX2 laptop runs, tested here on
// any CPU with AVX2).
func binaryWidths() []binaryWidth {
	var widths []binaryWidth
	if archsimd.X86.AVX512() {
		widths = append(widths, binaryWidth{"AVX-512", binaryFloat32.executor})
	}
	if archsimd.X86.AVX2() {
		widths = append(widths, binaryWidth{"AVX2", func(k binaryFloat32, generic gobackend.NodeExecutor) gobackend.NodeExecutor {
			return binaryFloat32x8{k}.executor(generic)
		}})
	}
	return widths
}

func TestVecBinaryFloat32(t *testing.T) {
	widths := binaryWidths()
	if len(widths) == 0 {
		t.Skip("neither AVX-512 nor AVX2 on this CPU")
	}
	for _, w := range widths {
		t.Run(w.name, func(t *testing.T) { testVecBinaryFloat32(t, w.executor) })
	}
}

func testVecBinaryFloat32(t *testing.T, executor func(binaryFloat32, gobackend.NodeExecutor) gobackend.NodeExecutor) {
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := b.(*gobackend.Backend)
	defer backend.Finalize()
	buffer := func(shape shapes.Shape, flat []float32) *gobackend.Buffer {
		buf, err := backend.BufferFromFlatData(0, slices.Clone(flat), shape)
		if err != nil {
			t.Fatal(err)
		}
		return buf.(*gobackend.Buffer)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 1500 {
		rank := r.IntN(5)
		tgt := randomDims(r, rank)
		if rank > 0 && r.IntN(2) == 0 {
			tgt[rank-1] = 1 + r.IntN(70) // rows of several vectors, with and without a tail
		}
		lhs, rhs := slices.Clone(tgt), slices.Clone(tgt)
		for i := range tgt {
			switch r.IntN(4) {
			case 0:
				lhs[i] = 1
			case 1:
				rhs[i] = 1
			}
		}
		switch r.IntN(8) {
		case 0:
			lhs = nil // a scalar
		case 1:
			rhs = nil
		}
		lShape, rShape := shapes.Make(dtypes.Float32, lhs...), shapes.Make(dtypes.Float32, rhs...)
		a, c := randomFloat32s(r, lShape.Size()), randomFloat32s(r, rShape.Size())
		node := &gobackend.Node{Shape: shapes.Make(dtypes.Float32, tgt...)}
		for _, op := range binaryOpsFloat32 {
			// Donated operands too: the output may then be an operand's buffer.
			owned := []bool{r.IntN(2) == 0, r.IntN(2) == 0}
			want, err := op.generic(backend, node, []*gobackend.Buffer{buffer(lShape, a), buffer(rShape, c)}, slices.Clone(owned))
			if err != nil {
				t.Fatal(err)
			}
			got, err := executor(op.kernel, op.generic)(backend, node, []*gobackend.Buffer{buffer(lShape, a), buffer(rShape, c)}, slices.Clone(owned))
			if err != nil {
				t.Fatal(err)
			}
			g, w := got.Flat.([]float32), want.Flat.([]float32)
			if !slices.Equal(got.RawShape.Dimensions, want.RawShape.Dimensions) || len(g) != len(w) {
				t.Fatalf("trial %d: %s of %v and %v: shape %v, want %v", trial, op.opType, lhs, rhs, got.RawShape, want.RawShape)
			}
			for i := range w {
				// Where two NaNs meet in a sum or a product, which comes out
				// follows the operand order the compiler gives the commutative
				// instruction, in the generated loop as in the lanes.
				bothNaN := op.kernel.commutative && g[i] != g[i] && w[i] != w[i]
				if math.Float32bits(g[i]) != math.Float32bits(w[i]) && !bothNaN {
					t.Fatalf("trial %d: %s of %v and %v (owned %v): element %d is %g, want %g", trial, op.opType, lhs, rhs, owned, i, g[i], w[i])
				}
			}
		}
	}
}

// TestVecBinaryFloat32OtherDTypes checks that other dtypes reach the generated
// executors.
func TestVecBinaryFloat32OtherDTypes(t *testing.T) {
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := b.(*gobackend.Backend)
	defer backend.Finalize()
	shape := shapes.Make(dtypes.Int32, 3)
	x, _ := backend.BufferFromFlatData(0, []int32{7, -9, 100}, shape)
	y, _ := backend.BufferFromFlatData(0, []int32{2, 4, -7}, shape)
	div := binaryOpsFloat32[3]
	got, err := div.kernel.executor(div.generic)(backend, &gobackend.Node{Shape: shape},
		[]*gobackend.Buffer{x.(*gobackend.Buffer), y.(*gobackend.Buffer)}, []bool{false, false})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{3, -2, -14}; !slices.Equal(got.Flat.([]int32), want) {
		t.Fatalf("int32 Div = %v, want %v", got.Flat, want)
	}
}

// BenchmarkBinaryFloat32Rows times the rows of a float32 Add as lesson 10's
// GPT has them: one row of a whole [1024, 64] activation, and 1024 rows of
// 64 against a per-row scalar (x − mean) or a broadcast row (x·γ).
func BenchmarkBinaryFloat32Rows(b *testing.B) {
	if !archsimd.X86.AVX512() {
		b.Skip("no AVX-512 on this CPU")
	}
	add := binaryOpsFloat32[0].kernel
	const rows, n = 1024, 64
	x, y, out := make([]float32, rows*n), make([]float32, rows*n), make([]float32, rows*n)
	for i := range x {
		x[i], y[i] = float32(i%7), float32(i%5)
	}
	b.Run("equal-shapes", func(b *testing.B) {
		for b.Loop() {
			add.row(out, x, y, 1, 1)
		}
	})
	b.Run("per-row-scalar", func(b *testing.B) {
		for b.Loop() {
			for r := range rows {
				add.row(out[r*n:(r+1)*n], x[r*n:], y[r:], 1, 0)
			}
		}
	})
	b.Run("broadcast-row", func(b *testing.B) {
		for b.Loop() {
			for r := range rows {
				add.row(out[r*n:(r+1)*n], x[r*n:], y, 1, 1)
			}
		}
	})
}
