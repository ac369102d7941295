package precision

import (
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes/bfloat16"
	"github.com/gomlx/compute/dtypes/float16"

	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/viz"
)

// TestRoundKnownBitPatterns compares with values read off the formats'
// bit layouts (IEEE 754-2008 binary16; bfloat16 = the top 16 bits of a
// float32), worked out by hand.
func TestRoundKnownBitPatterns(t *testing.T) {
	tests := []struct {
		f    Format
		x    float64
		want float64
	}{
		{Float16, 1, 1},
		{Float16, 65504, 65504},              // 0x7BFF, the largest half
		{Float16, 65519, 65504},              // below the midpoint 65520: rounds down
		{Float16, 65520, math.Inf(1)},        // the midpoint rounds to even: past the largest, 0x7C00 = +Inf
		{Float16, 1 + 0x1p-11, 1},            // halfway between 1 and 1+2⁻¹⁰: ties to even (1)
		{Float16, 1 + 3*0x1p-11, 1 + 0x1p-9}, // halfway between 1+2⁻¹⁰ and 1+2⁻⁹: ties to even
		{Float16, 1.0 / 3, 0x1.554p-2},       // 0x3555 = 0.333251953125
		{Float16, 0x1p-24, 0x1p-24},          // 0x0001, the smallest subnormal
		{Float16, 0x1p-26, 0},                // under half of it: 0
		{Float16, 100.03, 100},               // spacing 2⁻⁴ = 0.0625 between 64 and 128
		{BFloat16, 1, 1},                     // 0x3F80
		{BFloat16, 1.0 / 3, 0x1.56p-2},       // 0x3EAB = 0.333984375
		{BFloat16, 100.3, 100.5},             // spacing 0.5 between 64 and 128
		{BFloat16, 1e38, 0x1.2cp126},         // 0x7E96: bfloat16 keeps float32's range
		{BFloat16, 1 + 0x1p-8, 1},            // halfway between 1 and 1+2⁻⁷: ties to even
		{Float32, 1 + 0x1p-24, 1},            // halfway: ties to even
		{Float32, 0.1, 0x1.99999ap-4},        // 0x3DCCCCCD
		{Float64, 0.1, 0.1},
	}
	for _, tc := range tests {
		if got := tc.f.Round(tc.x); got != tc.want {
			t.Errorf("%s.Round(%v) = %v (%x), want %v (%x)", tc.f, tc.x, got, got, tc.want, tc.want)
		}
	}
	for _, f := range []Format{Float32, Float16, BFloat16} {
		if got, want := f.Round(1+f.Epsilon()), 1+f.Epsilon(); got != want {
			t.Errorf("%s: 1+ε = %v rounds to %v: ε is not the spacing", f, want, got)
		}
		if got := f.Round(1 + f.Epsilon()/4); got != 1 {
			t.Errorf("%s: 1+ε/4 rounds to %v, want 1", f, got)
		}
	}
}

// TestSoftmax: in Float64 it is the exact softmax; the naive float16
// softmax overflows past ln 65 504 ≈ 11.09 where the stable one does not;
// bfloat16 scores near 100 are 0.5 apart, so scores 100 and 100.3 become
// 100 and 100.5 and their weights e^−0.5 apart.
func TestSoftmax(t *testing.T) {
	x := []float64{1, 2, 3}
	sum := math.Exp(1) + math.Exp(2) + math.Exp(3)
	got := Softmax(Float64, x, Options{})
	for i := range x {
		if want := math.Exp(x[i]) / sum; math.Abs(got[i]-want) > 1e-15 {
			t.Errorf("Float64 softmax = %v, want e^x/Σ", got)
		}
	}
	big := []float64{12, 11}
	if w := Softmax(Float16, big, Options{Naive: true}); !math.IsNaN(w[0]) {
		t.Errorf("naive float16 softmax of %v = %v: want NaN (Inf/Inf)", big, w)
	}
	w := Softmax(Float16, big, Options{})
	if want := 1 / (1 + math.Exp(-1)); math.Abs(w[0]-want) > 1e-3 {
		t.Errorf("stable float16 softmax of %v = %v, want %.4f for the first", big, w, want)
	}
	w = Softmax(BFloat16, []float64{100, 100.3}, Options{})
	if want := Float64.Round(BFloat16.Round(1 / (1 + math.Exp(0.5)))); math.Abs(w[0]-want) > 4e-3 {
		t.Errorf("bfloat16 softmax of 100, 100.3 = %v, want %.4f first (0.5 apart after rounding)", w, want)
	}
	w = Softmax(BFloat16, []float64{100, 100.3}, Options{Scores: Float32})
	if want := 1 / (1 + math.Exp(0.3)); math.Abs(w[0]-want) > 4e-3 {
		t.Errorf("bfloat16 softmax of float32 scores 100, 100.3 = %v, want %.4f first", w, want)
	}
}

// TestRoundAgreesWithGoMLX: on float32 values in the normal range, Round
// gives what GoMLX's converters give (for bfloat16 everywhere; float16's
// converter is only right above its subnormals, 2⁻¹⁴).
func TestRoundAgreesWithGoMLX(t *testing.T) {
	r := random.New(7)
	for _, row := range r.Normal(2000, 1) {
		for _, scale := range []float64{1e-4, 1, 300, 3e4} {
			x := float64(float32(row[0] * scale))
			if math.Abs(x) < 0x1p-14 {
				continue
			}
			if got, want := Float16.Round(x), float64(float16.FromFloat32(float32(x)).Float32()); got != want {
				t.Fatalf("Float16.Round(%v) = %v, GoMLX's float16 %v", x, got, want)
			}
			if got, want := BFloat16.Round(x), float64(bfloat16.FromFloat32(float32(x)).Float32()); got != want {
				t.Fatalf("BFloat16.Round(%v) = %v, GoMLX's bfloat16 %v", x, got, want)
			}
		}
	}
}

// TestSweep: float32 stays near its ε, the naive float16 softmax breaks
// once scores pass ln 65 504 and the stable one never does, and
// bfloat16's error grows with the scores.
func TestSweep(t *testing.T) {
	sw, err := Sweep(Cases, []float64{1, 8, 64}, 32, 50, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range sw["float32"] {
		if p.MaxError > 1e-5 || p.Broken != 0 {
			t.Errorf("float32 at σ %g: %+v", p.Sigma, p)
		}
	}
	if p := sw["float16, naive (no max)"]; p[0].Broken != 0 || p[2].Broken != 1 {
		t.Errorf("naive float16: %+v, want no broken row at σ 1, all at σ 64", p)
	}
	for _, p := range sw["float16"] {
		if p.Broken != 0 {
			t.Errorf("stable float16 broke at σ %g", p.Sigma)
		}
	}
	if p := sw["bfloat16"]; !(p[2].MaxError > 5*p[0].MaxError) {
		t.Errorf("bfloat16: %+v, want the error to grow with σ", p)
	}
	if _, err := viz.PNG(Figure(Cases, sw)); err != nil {
		t.Error(err)
	}
	if _, err := Sweep(Cases, []float64{1}, 0, 1, 1); err == nil {
		t.Error("n = 0: no error")
	}
}
