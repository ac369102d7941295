package gpt

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/corpus"
	"github.com/attention-in-go/course/lib/internal/record"
)

var extrapolation = flag.Bool("extrapolation", false, "train lesson 10's positions experiment on this machine's kernel class and record it in testdata/extrapolation.json")

// The kinds and seeds of lesson 10's positions experiment.
var (
	extrapolationKinds = []Positions{Sinusoidal, Learned, NoPositions, Rotary, ALiBi}
	extrapolationSeeds = []uint64{10, 11, 12}
)

// TestExtrapolation, with -extrapolation, trains PositionsExperiment with
// every kind of positions from every seed on the kernels this run has
// (GOMLX_SIMD_AVX512=false, and GOMLX_SIMD_AVX2=false too, for the other
// classes) and replaces that class's entry of testdata/extrapolation.json.
// Without the flag it checks the recorded file: every class has every
// kind and seed, windows of 2T (T for learned positions) and finite bits.
func TestExtrapolation(t *testing.T) {
	path := filepath.Join("testdata", "extrapolation.json")
	T := PositionsExperiment.Model.Context
	if *extrapolation {
		s, err := corpus.Load()
		if err != nil {
			t.Fatal(err)
		}
		kernels := backend.KernelsWith(os.Environ())
		x, err := PositionsExperiment.RunExtrapolation(s, extrapolationKinds, extrapolationSeeds, kernels)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s\n%s", kernels, ExtrapolationTable([]*Extrapolation{x}))
		if err := record.Replace(path, x, func(e *Extrapolation) string { return e.Kernels }); err != nil {
			t.Fatal(err)
		}
		return
	}
	xs, err := Extrapolations()
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) == 0 {
		t.Fatal("testdata/extrapolation.json records no kernel class: run this test with -extrapolation")
	}
	for _, x := range xs {
		if x.Context != T || !slices.Equal(x.Seeds, extrapolationSeeds) || len(x.Rows) != len(extrapolationKinds) {
			t.Fatalf("%s: context %d, seeds %v, %d rows; want %d, %v, %d: re-run with -extrapolation", x.Kernels, x.Context, x.Seeds, len(x.Rows), T, extrapolationSeeds, len(extrapolationKinds))
		}
		for i, r := range x.Rows {
			want := 2 * T
			if r.Positions == Learned {
				want = T
			}
			if r.Positions != extrapolationKinds[i] || len(r.Bits) != len(extrapolationSeeds) {
				t.Fatalf("%s row %d: %s with %d seeds", x.Kernels, i, r.Positions, len(r.Bits))
			}
			for _, bits := range r.Bits {
				if len(bits) != want {
					t.Errorf("%s %s: a window of %d positions, want %d", x.Kernels, r.Positions, len(bits), want)
				}
				for _, b := range bits {
					if !(b > 0 && b < 16) {
						t.Errorf("%s %s: %g bits per character", x.Kernels, r.Positions, b)
						break
					}
				}
			}
		}
	}
}

// TestExtrapolationSummaries: Within, Beyond, Curves and the table on
// made-up bits whose means are known: two seeds of a 2T window rising
// linearly, and a learned row of T positions.
func TestExtrapolationSummaries(t *testing.T) {
	const T = 4
	ramp := func(start float64) []float64 {
		b := make([]float64, 2*T)
		for i := range b {
			b[i] = start + float64(i)
		}
		return b
	}
	x := &Extrapolation{Kernels: "AVX2", Context: T, Seeds: []uint64{1, 2}, Rows: []ExtrapolationRow{
		{Positions: Rotary, Bits: [][]float64{ramp(1), ramp(3)}},
		{Positions: Learned, Bits: [][]float64{{2, 2, 2, 2}, {4, 4, 4, 4}}},
	}}
	r := x.Rows[0]
	if got := r.Within(T); !slices.Equal(got, []float64{2.5, 4.5}) {
		t.Errorf("Within = %v, want the means of 1…4 and 3…6", got)
	}
	if got := r.Beyond(T); !slices.Equal(got, []float64{6.5, 8.5}) {
		t.Errorf("Beyond = %v, want the means of 5…8 and 7…10", got)
	}
	if got := x.Rows[1].Beyond(T); got != nil {
		t.Errorf("learned Beyond = %v, want nil", got)
	}
	c := x.Curves()
	if len(c) != 2 || !slices.Equal(c[0].Bits, ramp(2)) || c[1].Seq != T {
		t.Errorf("Curves = %+v, want the mean of the seeds", c)
	}
	table := ExtrapolationTable([]*Extrapolation{x})
	for _, want := range []string{"rope        0–3        3.50       2.50–4.50", "rope        4–7        7.50       6.50–8.50", "learned     0–3        3.00       2.00–4.00"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "learned     4–7") {
		t.Errorf("the table has a row beyond T for learned positions:\n%s", table)
	}
}
