// Tests of the attention-in-go course's patch: the AVX-512 16 × 16 tile of
// transposeRows.

//go:build goexperiment.simd && amd64

package ops

import (
	"fmt"
	"simd/archsimd"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
)

func TestTransposeTile32(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512 on this CPU")
	}
	for _, strides := range [][2]int{{16, 16}, {17, 40}, {1024, 64}} {
		inStride, outStride := strides[0], strides[1]
		in := make([]uint32, 15*inStride+16)
		for i := range in {
			in[i] = uint32(i) * 2654435761 // distinct, no pattern along rows or columns
		}
		out := make([]uint32, 15*outStride+16)
		transposeTile32AVX512(in, inStride, out, outStride)
		for i := range 16 {
			for j := range 16 {
				if got, want := out[j*outStride+i], in[i*inStride+j]; got != want {
					t.Fatalf("strides %v: out[%d][%d] = %d, want in[%d][%d] = %d", strides, j, i, got, i, j, want)
				}
			}
		}
	}
}

// BenchmarkTransposeRows transposes float32 matrices, as the attention's
// heads do, with 16 × 16 tiles moved element by element (plain) and in
// AVX-512 registers (avx512).
func BenchmarkTransposeRows(b *testing.B) {
	tile := transposeTile32
	defer func() { transposeTile32 = tile }()
	for _, dims := range [][]int{{1024, 64}, {64, 1024}, {8, 64, 128}} {
		perm := []int{1, 0}
		if len(dims) == 3 {
			perm = []int{0, 2, 1}
		}
		shape := shapes.Make(dtypes.Float32, dims...)
		in := make([]float32, shape.Size())
		out := make([]float32, shape.Size())
		for _, impl := range []string{"plain", "avx512"} {
			if impl == "avx512" && !archsimd.X86.AVX512() {
				continue
			}
			b.Run(fmt.Sprintf("%v/%s", dims, impl), func(b *testing.B) {
				transposeTile32 = nil
				if impl == "avx512" {
					transposeTile32 = transposeTile32AVX512
				}
				for b.Loop() {
					transposeRows(in, out, NewTransposeIterator(shape, perm))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(in)), "ns/element")
			})
		}
	}
}
