package posenc

import (
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/random"
)

// TestRotaryHandValues checks RoPE on x = (1, 2, 3, 4), d = 4, against the
// rotation worked out by hand: pair 0 = (1, 2) turns by p·θ₀ = p radians,
// pair 1 = (3, 4) by p·θ₁, θ₁ = n^(-2/4) = 1/√n. With n = 4/π², θ₁ = π/2:
// a quarter turn per position, (3, 4) → (−4, 3) at p = 1, (−3, −4) at p = 2.
// It fails if the pairs are (i, i + d/2) instead of (2i, 2i+1), if
// θ_i = n^(-i/d) instead of n^(-2i/d), or if the rotation turns the other
// way.
func TestRotaryHandValues(t *testing.T) {
	quarter := 4 / (math.Pi * math.Pi) // n with n^(-1/2) = π/2
	c1, s1, c2, s2 := math.Cos(1), math.Sin(1), math.Cos(2), math.Sin(2)
	x := []float64{1, 2, 3, 4}
	tests := []struct {
		name string
		p    int
		base float64
		want []float64
	}{
		{"p=0 is the identity", 0, quarter, []float64{1, 2, 3, 4}},
		{"p=1, quarter turn of pair 1", 1, quarter, []float64{c1 - 2*s1, s1 + 2*c1, -4, 3}},
		{"p=2, half turn of pair 1", 2, quarter, []float64{c2 - 2*s2, s2 + 2*c2, -3, -4}},
		{"p=-1 turns back", -1, quarter, []float64{c1 + 2*s1, -s1 + 2*c1, 4, -3}},
		// n = 10000, d = 4: θ₁ = 10000^(-1/2) = 0.01.
		{"n=10000, p=1", 1, 10000, []float64{c1 - 2*s1, s1 + 2*c1, 3*math.Cos(0.01) - 4*math.Sin(0.01), 3*math.Sin(0.01) + 4*math.Cos(0.01)}},
		{"n=10000, p=100", 100, 10000, []float64{math.Cos(100) - 2*math.Sin(100), math.Sin(100) + 2*math.Cos(100), 3*math.Cos(1) - 4*math.Sin(1), 3*math.Sin(1) + 4*math.Cos(1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Rotary([][]float64{x}, []int{tc.p}, tc.base)
			assertClose(t, "Rotary", got, [][]float64{tc.want}, 1e-13)
			graphed, err := RunRotary([][]float64{x}, []int{tc.p}, tc.base)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "RunRotary (float32)", graphed, [][]float64{tc.want}, 2e-6)
		})
	}
}

// TestRotaryGraphMatchesReference runs RotaryOf on [batch, heads, seq, d]
// with positions [seq], and on [batch, seq, d] with positions [batch, seq],
// and compares every row with the float64 Rotary of that row.
func TestRotaryGraphMatchesReference(t *testing.T) {
	tests := []struct {
		name      string
		d         int
		base      float64
		positions []int
	}{
		{"d=8 positions 0…5", 8, DefaultBase, []int{0, 1, 2, 3, 4, 5}},
		{"d=16 unsorted and far", 16, DefaultBase, []int{7, 0, 300, 41, 1000}},
		{"d=16 base 100", 16, 100, []int{3, 2, 1}},
		{"d=8 negative", 8, DefaultBase, []int{-5, 12, 0}},
	}
	for n, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const batch, heads = 2, 3
			seq := len(tc.positions)
			r := random.New(uint32(30 + n))
			var flat []float32
			var rows [][][]float64 // [batch·heads][seq][d]
			for range batch * heads {
				m := r.Normal(seq, tc.d)
				rows = append(rows, m)
				for _, row := range m {
					for _, v := range row {
						flat = append(flat, float32(v))
					}
				}
			}
			pos := make([]int32, seq)
			for i, p := range tc.positions {
				pos[i] = int32(p)
			}
			out := graph.MustExecOnce(backend.Default(), func(x, p *graph.Node) *graph.Node {
				return RotaryOf(x, p, tc.base)
			}, tensors.FromFlatDataAndDimensions(flat, batch, heads, seq, tc.d), pos)
			if dims := out.Shape().Dimensions; len(dims) != 4 || dims[0] != batch || dims[1] != heads || dims[2] != seq || dims[3] != tc.d {
				t.Fatalf("shape %v, want [%d %d %d %d]", dims, batch, heads, seq, tc.d)
			}
			got := tensors.MustCopyFlatData[float32](out)
			for s, m := range rows {
				want := Rotary(m, tc.positions, tc.base)
				gm := make([][]float64, seq)
				for i := range gm {
					gm[i] = make([]float64, tc.d)
					for j := range gm[i] {
						gm[i][j] = float64(got[(s*seq+i)*tc.d+j])
					}
				}
				assertClose(t, "RotaryOf", gm, want, 1e-5)
			}

			// Positions per batch row: [batch, seq] for x [batch, seq, d].
			second := make([]int, seq)
			for i, p := range tc.positions {
				second[i] = 2*p + 1
			}
			perRow := append(append([]int32(nil), pos...), make([]int32, seq)...)
			for i, p := range second {
				perRow[seq+i] = int32(p)
			}
			x2 := append(append([]float32(nil), flat[:seq*tc.d]...), flat[seq*tc.d:2*seq*tc.d]...)
			out2 := graph.MustExecOnce(backend.Default(), func(x, p *graph.Node) *graph.Node {
				return RotaryOf(x, p, tc.base)
			}, tensors.FromFlatDataAndDimensions(x2, 2, seq, tc.d), tensors.FromFlatDataAndDimensions(perRow, 2, seq))
			got2 := tensors.MustCopyFlatData[float32](out2)
			for b, ps := range [][]int{tc.positions, second} {
				want := Rotary(rows[b], ps, tc.base)
				for i := range want {
					for j := range want[i] {
						if g := float64(got2[(b*seq+i)*tc.d+j]); math.Abs(g-want[i][j]) > 1e-5 {
							t.Fatalf("positions [batch, seq], row %d: [%d][%d] = %g, want %g", b, i, j, g, want[i][j])
						}
					}
				}
			}
		})
	}
}

// TestRotaryKeepsNorms: each pair (2i, 2i+1) is a 2-D rotation, so it
// keeps its own length, and so does the whole vector.
func TestRotaryKeepsNorms(t *testing.T) {
	r := random.New(4)
	for _, d := range []int{2, 8, 16, 64} {
		x := r.Normal(6, d)
		positions := []int{0, 1, 9, 77, 512, -3}
		got := Rotary(x, positions, DefaultBase)
		for row := range x {
			total, totalGot := 0.0, 0.0
			for i := 0; i < d/2; i++ {
				was := math.Hypot(x[row][2*i], x[row][2*i+1])
				now := math.Hypot(got[row][2*i], got[row][2*i+1])
				if math.Abs(was-now) > 1e-12 {
					t.Errorf("d=%d p=%d pair %d: length %g → %g", d, positions[row], i, was, now)
				}
				total += was * was
				totalGot += now * now
			}
			if math.Abs(total-totalGot) > 1e-10 {
				t.Errorf("d=%d p=%d: ‖x‖² %g → %g", d, positions[row], total, totalGot)
			}
		}
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// refRelativeScore is ⟨R(p)q, R(p′)k⟩ written out with θ_i = n^(-2i/d):
// each pair contributes (q₀k₀ + q₁k₁)·cos φ + (q₁k₀ − q₀k₁)·sin φ with
// φ = (p′ − p)·θ_i — only the difference of the positions appears.
func refRelativeScore(q, k []float64, p, pPrime int, n float64) float64 {
	d := len(q)
	s := 0.0
	for i := 0; i < d/2; i++ {
		phi := float64(pPrime-p) / math.Pow(n, float64(2*i)/float64(d))
		q0, q1, k0, k1 := q[2*i], q[2*i+1], k[2*i], k[2*i+1]
		s += (q0*k0+q1*k1)*math.Cos(phi) + (q1*k0-q0*k1)*math.Sin(phi)
	}
	return s
}

// TestRotaryRelativePosition is RoPE's reason to be: the score
// ⟨R(p)q, R(p′)k⟩ depends on p and p′ only through p − p′. Shifting both
// positions by s leaves it unchanged (to rounding), it equals the closed
// form in p′ − p, and changing p − p′ changes it. The float32 graph holds
// the same property to float32 precision.
func TestRotaryRelativePosition(t *testing.T) {
	tests := []struct {
		d            int
		n            float64
		p, pPrime, s int
	}{
		{8, DefaultBase, 5, 2, 10},
		{8, DefaultBase, 2, 5, 100},
		{16, DefaultBase, 0, 0, 37},
		{16, DefaultBase, 30, 1, -25},
		{16, 100, 7, 3, 1000},
		{64, DefaultBase, 12, 40, 3},
	}
	r := random.New(9)
	for _, tc := range tests {
		q, k := r.Normal(1, tc.d)[0], r.Normal(1, tc.d)[0]
		score := func(p, pPrime int) float64 {
			rq := Rotary([][]float64{q}, []int{p}, tc.n)[0]
			rk := Rotary([][]float64{k}, []int{pPrime}, tc.n)[0]
			return dot(rq, rk)
		}
		base := score(tc.p, tc.pPrime)
		if shifted := score(tc.p+tc.s, tc.pPrime+tc.s); math.Abs(shifted-base) > 1e-11 {
			t.Errorf("d=%d: ⟨R(%d)q, R(%d)k⟩ = %.15f but shifted by %d: %.15f", tc.d, tc.p, tc.pPrime, base, tc.s, shifted)
		}
		if want := refRelativeScore(q, k, tc.p, tc.pPrime, tc.n); math.Abs(base-want) > 1e-11 {
			t.Errorf("d=%d p=%d p′=%d: score %.15f, closed form %.15f", tc.d, tc.p, tc.pPrime, base, want)
		}
		// The relative position matters: one step further apart is another score.
		if other := score(tc.p, tc.pPrime+1); math.Abs(other-base) < 1e-3 {
			t.Errorf("d=%d: p − p′ = %d and %d give the same score %g", tc.d, tc.p-tc.pPrime, tc.p-tc.pPrime-1, base)
		}

		// The graph, in float32: both rows rotated in one call.
		got, err := RunRotary([][]float64{q, k, q, k}, []int{tc.p, tc.pPrime, tc.p + tc.s, tc.pPrime + tc.s}, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := dot(got[0], got[1]), dot(got[2], got[3]); math.Abs(a-base) > 1e-4 || math.Abs(b-base) > 1e-4 {
			t.Errorf("d=%d graph: scores %g and shifted %g, want %g", tc.d, a, b, base)
		}
	}
}

func TestRotaryErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    [][]float64
		pos  []int
		base float64
		want string
	}{
		{"odd width", [][]float64{{1, 2, 3}}, []int{0}, DefaultBase, "even width"},
		{"rows and positions", [][]float64{{1, 2}, {3, 4}}, []int{0}, DefaultBase, "2 rows for 1 positions"},
		{"ragged", [][]float64{{1, 2}, {3, 4, 5, 6}}, []int{0, 1}, DefaultBase, "row 1 has 4 columns"},
		{"base", [][]float64{{1, 2}}, []int{0}, 0, "base"},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tc.want) {
					t.Errorf("%s: recover() = %v, want a panic about %q", tc.name, r, tc.want)
				}
			}()
			Rotary(tc.x, tc.pos, tc.base)
		}()
	}
	if _, err := RunRotary([][]float64{{1, 2, 3}}, []int{0}, DefaultBase); err == nil {
		t.Error("RunRotary with an odd width: nil error")
	}
	if _, err := RunRotary([][]float64{{1, 2}}, []int{0, 1}, DefaultBase); err == nil {
		t.Error("RunRotary with 1 row for 2 positions: nil error")
	}
	_, err := run(func(in []*graph.Node) []*graph.Node {
		return []*graph.Node{RotaryOf(in[0], in[1], DefaultBase)}
	}, tensors.FromValue([][]float32{{1, 2}, {3, 4}}), []int32{0, 1, 2})
	if err == nil || !strings.Contains(err.Error(), "one position per row") {
		t.Errorf("RotaryOf with 3 positions for 2 rows: error = %v", err)
	}
}
