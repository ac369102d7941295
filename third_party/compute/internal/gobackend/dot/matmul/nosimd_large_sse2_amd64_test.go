// Tests of the attention-in-go course's patch: the large product's float32
// panels in SSE2 lanes give the release's Go kernel bit for bit.

package matmul

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes/gotype"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

func TestSSE2LargeKernelFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 17))
	// Mostly ordinary numbers, special values in a third of the trials.
	const sentinel = 12345.5 // in the output wherever neither kernel should write
	const guard = 64         // elements after each panel, which no kernel may touch
	params := NoSIMDParams
	for trial := range 2000 {
		// The course's panels are 2 rows high; a taller one checks the
		// wrapper's loop over row groups.
		panelRows := params.LHSPanelCrossSize
		if trial%4 == 0 {
			panelRows = 6
		}
		rows := 1 + r.IntN(panelRows)
		cols := 1 + r.IntN(params.RHSPanelCrossSize)
		if trial%2 == 0 {
			cols = 1 + r.IntN(72) // mostly a few column groups, as in the course's models
		}
		k := 1 + r.IntN(params.PanelContractingSize)
		if trial%5 == 0 {
			k = 1 + r.IntN(8)
		}
		specials := trial%3 == 0
		paddedCols := (cols + 3) / 4 * 4
		lhs := make([]float32, panelRows*k+guard)[:panelRows*k]
		// The release's kernel reads the rhs panel's last element (a
		// bounds-check hint): the panel is the release's whole width, its
		// columns past the padded groups never read.
		rhs := make([]float32, params.RHSPanelCrossSize*k+guard)[:params.RHSPanelCrossSize*k]
		for i := range lhs {
			lhs[i] = randomFloat32(r, specials)
		}
		for i := range rhs[:paddedCols*k] {
			rhs[i] = randomFloat32(r, specials)
		}
		for i := paddedCols * k; i < len(rhs); i++ {
			rhs[i] = float32(math.NaN()) // a kernel that reads too far fills its output with NaN
		}
		// The panels the release allocates: rows × the panel's width.
		outLen := panelRows * params.RHSPanelCrossSize
		want := make([]float32, outLen+guard)
		got := make([]float32, outLen+guard)
		for i := range want {
			want[i], got[i] = sentinel, sentinel
		}
		largeNoSIMDPanel(lhs, rhs, want[:outLen], panelRows, params.RHSPanelCrossSize, k, rows, cols)
		sse2LargeKernelFloat32(lhs, rhs, got[:outLen], panelRows, params.RHSPanelCrossSize, k, rows, cols)
		if i := firstBitsDifference(got, want); i >= 0 {
			t.Fatalf("trial %d: %d rows × %d columns, %d contracting: output element %d (row %d, column %d) = %g (%#08x), want %g (%#08x)",
				trial, rows, cols, k, i, i/params.RHSPanelCrossSize, i%params.RHSPanelCrossSize,
				got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// largeProductForTest multiplies [n, k] by [k, m] small integers with
// largeNoSIMDMatrixSlice, the release's loop over panels.
func largeProductForTest[T gotype.NumericNotComplex](n, m, k int) (lhs, rhs, out []T) {
	params := NoSIMDParams
	lhs, rhs, out = make([]T, n*k), make([]T, k*m), make([]T, n*m)
	for i := range lhs {
		lhs[i] = T(i%3 + 1)
	}
	for i := range rhs {
		rhs[i] = T(i%5 + 1)
	}
	largeNoSIMDMatrixSlice(dot.LayoutNonTransposed, lhs, rhs, out, n, m, k, 0, n, 0, m, params,
		make([]T, params.LHSPanelCrossSize*params.PanelContractingSize),
		make([]T, params.PanelContractingSize*params.RHSPanelCrossSize),
		make([]T, params.LHSPanelCrossSize*params.RHSPanelCrossSize))
	return lhs, rhs, out
}

// TestSSE2LargeKernelFloat32Dispatch checks that the large product's
// float32 panels go to noSIMDPanelFloat32 (and a float64 product's do
// not), and that the product is right.
func TestSSE2LargeKernelFloat32Dispatch(t *testing.T) {
	saved := noSIMDPanelFloat32
	defer func() { noSIMDPanelFloat32 = saved }()
	calls := 0
	noSIMDPanelFloat32 = func(packedLHS, packedRHS, packedOutput []float32, lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols int) {
		calls++
		saved(packedLHS, packedRHS, packedOutput, lhsPanelRows, rhsPanelCols, contractingLen, lhsActiveRows, rhsActiveCols)
	}
	const n, m, k = 6, 9, 7 // three 2-row panels
	lhs, rhs, out := largeProductForTest[float32](n, m, k)
	if calls != 3 {
		t.Errorf("a [%d, %d] × [%d, %d] float32 product called the SSE2 kernel %d times, want 3 (one per 2-row panel)", n, k, k, m, calls)
	}
	for i := range n {
		for j := range m {
			var want float32
			for kk := range k {
				want += lhs[i*k+kk] * rhs[kk*m+j]
			}
			if out[i*m+j] != want {
				t.Fatalf("output[%d][%d] = %g, want %g", i, j, out[i*m+j], want)
			}
		}
	}
	calls = 0
	largeProductForTest[float64](n, m, k)
	if calls != 0 {
		t.Errorf("a float64 product called the float32 kernel %d times", calls)
	}
}

func TestSSE2LargeKernelFloat32EmptyContraction(t *testing.T) {
	out := make([]float32, 2*8)
	for i := range out {
		out[i] = 7
	}
	sse2LargeKernelFloat32(make([]float32, 1), make([]float32, 1), out, 2, 8, 0, 2, 5)
	for i, v := range out {
		if v != 0 {
			t.Fatalf("output element %d = %g after an empty contraction, want 0", i, v)
		}
	}
}

func TestSSE2LargeKernelFloat32RefusesSmallPanels(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a packed rhs one element short of 8 padded columns × 8 contracting did not panic")
		}
	}()
	// 5 active columns read two whole groups of 4.
	sse2LargeKernelFloat32(make([]float32, 2*8), make([]float32, 8*8-1), make([]float32, 2*8), 2, 8, 8, 2, 5)
}

func BenchmarkSSE2LargeKernelFloat32(b *testing.B) {
	params := NoSIMDParams
	for _, size := range []struct {
		name          string
		rows, cols, k int
	}{
		{"panel-2x512x512", 2, 512, 512}, // a whole panel
		{"gpt-2x64x64", 2, 64, 64},       // lesson 10's d_model = 64
	} {
		lhs := make([]float32, size.rows*size.k)
		rhs := make([]float32, params.RHSPanelCrossSize*size.k) // the release reads the whole panel's last element
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
		}{{"release", largeNoSIMDPanel[float32, float32]}, {"sse2", sse2LargeKernelFloat32}} {
			b.Run(size.name+"/"+kernel.name, func(b *testing.B) {
				for b.Loop() {
					kernel.f(lhs, rhs, out, params.LHSPanelCrossSize, params.RHSPanelCrossSize, size.k, size.rows, size.cols)
				}
				b.ReportMetric(float64(2*size.rows*size.cols*size.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
