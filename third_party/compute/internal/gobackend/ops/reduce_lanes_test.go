// Tests of the attention-in-go course's patch: the float32 row kernels of
// ReduceMax and ReduceSum in AVX-512 and AVX2 lanes give the scalar loops'
// results bit for bit, whichever kernel class the backend chose.

//go:build goexperiment.simd && amd64

package ops

import (
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"slices"
	"testing"
)

func TestReduceRowLanes(t *testing.T) {
	type kernels struct {
		name   string
		maxRow func(acc float32, row []float32) float32
		addRow func(dst, row []float32)
	}
	var widths []kernels
	if archsimd.X86.AVX512() {
		widths = append(widths, kernels{"AVX-512", maxRowFloat32AVX512, addRowFloat32AVX512})
	}
	if archsimd.X86.AVX2() {
		widths = append(widths, kernels{"AVX2", maxRowFloat32AVX2, addRowFloat32AVX2})
	}
	if len(widths) == 0 {
		t.Skip("neither AVX-512 nor AVX2 on this CPU")
	}
	for _, k := range widths {
		t.Run(k.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(21, 22))
			for trial := range 5000 {
				n := r.IntN(90)
				var row []float32
				switch trial % 4 {
				case 0: // NaNs, zeros of both signs, infinities
					row = randomFloat32s(r, n)
				case 1: // only zeros of both signs: which sign is the maximum
					row = make([]float32, n)
					for i := range row {
						if r.IntN(2) == 0 {
							row[i] = float32(math.Copysign(0, -1))
						}
					}
				default:
					row = make([]float32, n)
					for i := range row {
						row[i] = float32(r.NormFloat64())
					}
				}
				acc := float32(math.Inf(-1))
				if r.IntN(3) == 0 {
					acc = randomFloat32s(r, 1)[0]
				}
				want, got := maxRowScalar(acc, row), k.maxRow(acc, row)
				if math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("trial %d: max of %v from %g = %g (%#08x), want %g (%#08x)", trial, row, acc, got, math.Float32bits(got), want, math.Float32bits(want))
				}
				dst := randomFloat32s(r, n)
				wantSum, gotSum := slices.Clone(dst), slices.Clone(dst)
				addRowScalar(wantSum, row)
				k.addRow(gotSum, row)
				for i := range wantSum {
					if math.Float32bits(gotSum[i]) != math.Float32bits(wantSum[i]) && !(gotSum[i] != gotSum[i] && wantSum[i] != wantSum[i]) {
						t.Fatalf("trial %d: sum element %d = %g, want %g", trial, i, gotSum[i], wantSum[i])
					}
				}
			}
		})
	}
}
