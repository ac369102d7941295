// Tests of the attention-in-go course's patch: the AVX2 large product's
// tiles in assembly give the release's Go kernel bit for bit.

//go:build amd64 && goexperiment.simd

package matmul

import (
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

func TestAVX2LargeKernelFloat32Asm(t *testing.T) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		t.Skip("no AVX2 on this CPU")
	}
	r := rand.New(rand.NewPCG(15, 16))
	// Mostly ordinary numbers; in some trials zeros of both signs,
	// infinities and NaNs with payloads too. Where two NaNs meet in a
	// multiply-add, which one comes out depends on the operands' order in
	// the instruction: a NaN must give a NaN, of any payload.
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		math.Float32frombits(0x7fc12345), math.Float32frombits(0xffc54321), 1e-40}
	value := func(specials bool) float32 {
		if specials && r.IntN(8) == 0 {
			return special[r.IntN(len(special))]
		}
		return float32(r.NormFloat64())
	}
	const sentinel = 12345.5 // in the output wherever neither kernel should write
	const guard = 64         // elements after each panel, which no kernel may touch
	params := AVX2ParamsFloat32
	for trial := range 2000 {
		rows := 1 + r.IntN(params.LHSPanelCrossSize)
		cols := 1 + r.IntN(params.RHSPanelCrossSize)
		if trial%2 == 0 {
			cols = 1 + r.IntN(160) // mostly a few 16-column groups, as in the course's models
		}
		k := r.IntN(params.PanelContractingSize + 1)
		specials := trial%3 == 0
		paddedRows, paddedCols := (rows+3)/4*4, (cols+15)/16*16
		lhs := make([]float32, paddedRows*k+guard)[:paddedRows*k]
		rhs := make([]float32, paddedCols*k+guard)[:paddedCols*k]
		for i := range lhs {
			lhs[i] = value(specials)
		}
		for i := range rhs {
			rhs[i] = value(specials)
		}
		// The panels the release allocates: rows × the panel's width.
		outLen := params.LHSPanelCrossSize * params.RHSPanelCrossSize
		want := make([]float32, outLen+guard)
		got := make([]float32, outLen+guard)
		for i := range want {
			want[i], got[i] = sentinel, sentinel
		}
		if k > 0 { // the release's kernel reads lhs[k·rows-1] and rhs[k·cols-1]
			avx2LargeKernelFloat32(lhs, rhs, want[:outLen], params.LHSPanelCrossSize, params.RHSPanelCrossSize, k, rows, cols)
		} else {
			for i := range paddedRows {
				for j := range paddedCols {
					want[i*params.RHSPanelCrossSize+j] = 0
				}
			}
		}
		avx2LargeKernelFloat32Asm(lhs, rhs, got[:outLen], params.LHSPanelCrossSize, params.RHSPanelCrossSize, k, rows, cols)
		for i := range want {
			bothNaN := got[i] != got[i] && want[i] != want[i]
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !bothNaN {
				t.Fatalf("trial %d: %d rows × %d columns, %d contracting: output element %d (row %d, column %d) = %g (%#08x), want %g (%#08x)",
					trial, rows, cols, k, i, i/params.RHSPanelCrossSize, i%params.RHSPanelCrossSize,
					got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
}

func TestAVX2LargeKernelFloat32AsmRefusesSmallPanels(t *testing.T) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		t.Skip("no AVX2 on this CPU")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a packed lhs one element short of 2 padded rows × 8 contracting did not panic")
		}
	}()
	// 2 active rows read a whole group of 4.
	avx2LargeKernelFloat32Asm(make([]float32, 4*8-1), make([]float32, 16*8), make([]float32, 4*16), 4, 16, 8, 2, 16)
}

func BenchmarkAVX2LargeKernelFloat32(b *testing.B) {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		b.Skip("no AVX2 on this CPU")
	}
	params := AVX2ParamsFloat32
	for _, size := range []struct {
		name          string
		rows, cols, k int
	}{
		{"panel-24x512x128", 24, 512, 128}, // a whole panel
		{"gpt-24x64x64", 24, 64, 64},       // lesson 10's d_model = 64
	} {
		lhs := make([]float32, size.rows*size.k)
		rhs := make([]float32, size.cols*size.k)
		for i := range lhs {
			lhs[i] = float32(i%7) - 3
		}
		for i := range rhs {
			rhs[i] = float32(i%5) - 2
		}
		out := make([]float32, params.LHSPanelCrossSize*params.RHSPanelCrossSize)
		for _, kernel := range []struct {
			name string
			f    func(packedLHS, packedRHS, packedOutput []float32, lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols int)
		}{{"release", avx2LargeKernelFloat32}, {"asm", avx2LargeKernelFloat32Asm}} {
			b.Run(size.name+"/"+kernel.name, func(b *testing.B) {
				for b.Loop() {
					kernel.f(lhs, rhs, out, params.LHSPanelCrossSize, params.RHSPanelCrossSize, size.k, size.rows, size.cols)
				}
				b.ReportMetric(float64(2*size.rows*size.cols*size.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
