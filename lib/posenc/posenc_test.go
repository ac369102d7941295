package posenc

import (
	"math"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// refPE is the paper's formula written out for one entry, in float64:
// column 2i is sin(pos / n^(2i/d)), column 2i+1 is cos of the same angle.
func refPE(pos, col, d int, n float64) float64 {
	if col%2 == 0 {
		i := col / 2
		return math.Sin(float64(pos) / math.Pow(n, float64(2*i)/float64(d)))
	}
	i := (col - 1) / 2
	return math.Cos(float64(pos) / math.Pow(n, float64(2*i)/float64(d)))
}

func assertClose(t *testing.T, what string, got, want [][]float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d rows, want %d", what, len(got), len(want))
	}
	bad := 0
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s row %d: got %d columns, want %d", what, i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			if d := math.Abs(got[i][j] - want[i][j]); !(d <= tol) {
				if bad < 5 {
					t.Errorf("%s[%d][%d] = %.9f, want %.9f", what, i, j, got[i][j], want[i][j])
				}
				bad++
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d entries differ in all", what, bad)
	}
}

func TestSinusoidalHandValues(t *testing.T) {
	tests := []struct {
		name          string
		pos, col, d   int
		n             float64
		want          float64
		seqLenForCall int
	}{
		{"PE(1,0) = sin 1", 1, 0, 512, 10000, math.Sin(1), 2},
		{"PE(1,1) = cos 1", 1, 1, 512, 10000, math.Cos(1), 2},
		{"PE(0, even) = 0", 0, 6, 8, 10000, 0, 1},
		{"PE(0, odd) = 1", 0, 7, 8, 10000, 1, 1},
		// 10000^(128/512) = 10, so PE(10, 128) = sin(10/10) = sin 1.
		{"PE(10,128), d=512", 10, 128, 512, 10000, math.Sin(1), 11},
		{"PE(10,129), d=512", 10, 129, 512, 10000, math.Cos(1), 11},
		// n = 100, d = 4: column 2 is sin(pos / 100^(2/4)) = sin(pos/10).
		{"n=100: PE(3,2) = sin 0.3", 3, 2, 4, 100, math.Sin(0.3), 4},
		{"n=100: PE(3,3) = cos 0.3", 3, 3, 4, 100, math.Cos(0.3), 4},
		{"n=100: PE(2,1) = cos 2", 2, 1, 4, 100, math.Cos(2), 4},
		// Odd d = 5: column 4 is a sine, sin(pos / 10000^(4/5)), with no cosine after it.
		{"odd d: PE(7,4) = sin(7/10000^0.8)", 7, 4, 5, 10000, math.Sin(7 / math.Pow(10000, 0.8)), 8},
		{"odd d: PE(7,3) = cos(7/10000^0.4)", 7, 3, 5, 10000, math.Cos(7 / math.Pow(10000, 0.4)), 8},
		{"odd d = 1: PE(2,0) = sin 2", 2, 0, 1, 10000, math.Sin(2), 3},
	}
	for _, tc := range tests {
		pe := Sinusoidal(tc.seqLenForCall, tc.d, tc.n)
		if got := pe[tc.pos][tc.col]; math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: got %.17g, want %.17g", tc.name, got, tc.want)
		}
	}
}

func TestSinusoidalMatchesFormula(t *testing.T) {
	for _, tc := range []struct {
		seq, d int
		n      float64
	}{{50, 512, 10000}, {26, 100, 10000}, {4, 4, 100}, {9, 7, 10000}, {12, 1, 100}} {
		pe := Sinusoidal(tc.seq, tc.d, tc.n)
		want := make([][]float64, tc.seq)
		for pos := range want {
			want[pos] = make([]float64, tc.d)
			for j := range want[pos] {
				want[pos][j] = refPE(pos, j, tc.d, tc.n)
			}
		}
		assertClose(t, "Sinusoidal", pe, want, 1e-12)
	}
}

func TestSinusoidalPanics(t *testing.T) {
	for _, tc := range []struct {
		seq, d int
		n      float64
		want   string
	}{{-1, 4, 100, "sequence length"}, {3, 0, 100, "d_model"}, {3, 4, 0, "base"}, {3, 4, math.NaN(), "base"}} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tc.want) {
					t.Errorf("Sinusoidal(%d, %d, %g): recover() = %v, want a panic about %s", tc.seq, tc.d, tc.n, r, tc.want)
				}
			}()
			Sinusoidal(tc.seq, tc.d, tc.n)
		}()
	}
}

// TestGraphMatchesPlain checks the GoMLX graph against the float64 Go code:
// float32 as a model runs it, float64 to machine precision.
func TestGraphMatchesPlain(t *testing.T) {
	for _, tc := range []struct {
		seq, d int
		n      float64
	}{{50, 512, 10000}, {100, 512, 10000}, {26, 100, 10000}, {4, 4, 100}, {9, 7, 10000}, {5, 1, 10000}} {
		got, err := RunSinusoidal(tc.seq, tc.d, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		// float32: angles up to 100 rad carry a relative rounding of ~1e-7.
		assertClose(t, "RunSinusoidal (float32)", got, Sinusoidal(tc.seq, tc.d, tc.n), 5e-5)

		out := graph.MustExecOnce(backend.Default(), func(g *graph.Graph) *graph.Node {
			return SinusoidalGraph(g, dtypes.Float64, tc.seq, tc.d, tc.n)
		})
		flat := tensors.MustCopyFlatData[float64](out)
		got64 := make([][]float64, tc.seq)
		for i := range got64 {
			got64[i] = flat[i*tc.d : (i+1)*tc.d]
		}
		assertClose(t, "SinusoidalGraph (float64)", got64, Sinusoidal(tc.seq, tc.d, tc.n), 1e-11)
	}
}

// TestSinusoidalOfBatch encodes arbitrary integer positions [batch, seq].
func TestSinusoidalOfBatch(t *testing.T) {
	positions := [][]int32{{3, 4, 5}, {10, 0, 7}}
	const d = 6
	out := graph.MustExecOnce(backend.Default(), func(p *graph.Node) *graph.Node {
		return SinusoidalOf(p, d, 100)
	}, positions)
	if dims := out.Shape().Dimensions; len(dims) != 3 || dims[0] != 2 || dims[1] != 3 || dims[2] != d {
		t.Fatalf("shape %v, want [2 3 %d]", dims, d)
	}
	flat := tensors.MustCopyFlatData[float32](out)
	pe := Sinusoidal(11, d, 100)
	for b, row := range positions {
		for s, pos := range row {
			for j := 0; j < d; j++ {
				if got := float64(flat[(b*3+s)*d+j]); math.Abs(got-pe[pos][j]) > 1e-6 {
					t.Errorf("position %d dim %d = %g, want %g", pos, j, got, pe[pos][j])
				}
			}
		}
	}
}

// refRotation builds M_k from the paper's frequencies, independently of the
// library: one 2×2 rotation by θ_i = k / n^(2i/d) per sine/cosine pair.
func refRotation(k, d int, n float64) [][]float64 {
	m := make([][]float64, d)
	for r := range m {
		m[r] = make([]float64, d)
	}
	for i := 0; 2*i+1 < d; i++ {
		theta := float64(k) / math.Pow(n, float64(2*i)/float64(d))
		m[2*i][2*i], m[2*i][2*i+1] = math.Cos(theta), math.Sin(theta)
		m[2*i+1][2*i], m[2*i+1][2*i+1] = -math.Sin(theta), math.Cos(theta)
	}
	return m
}

// TestRelativePositionIsRotation checks PE(pos+k) = M_k·PE(pos) for every
// pos with the rotation built in the test: it fails if Sinusoidal swaps sine
// and cosine, or uses n^(i/d) instead of n^(2i/d), and if RelativeMap does.
func TestRelativePositionIsRotation(t *testing.T) {
	for _, tc := range []struct {
		k, d int
		n    float64
	}{{1, 8, 10000}, {4, 64, 10000}, {10, 512, 10000}, {-3, 16, 10000}, {7, 4, 100}, {25, 100, 100}} {
		const seq = 60
		pe := Sinusoidal(seq, tc.d, tc.n)
		want := refRotation(tc.k, tc.d, tc.n)
		got, err := RelativeMap(tc.k, tc.d, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, "RelativeMap", got, want, 1e-14)
		worst := 0.0
		for pos := max(0, -tc.k); pos < seq && pos+tc.k < seq; pos++ {
			moved := MatVec(want, pe[pos])
			for j := range moved {
				worst = max(worst, math.Abs(moved[j]-pe[pos+tc.k][j]))
			}
		}
		if worst > 1e-12 {
			t.Errorf("k=%d d=%d n=%g: max |M_k·PE(pos) − PE(pos+k)| = %g, want < 1e-12", tc.k, tc.d, tc.n, worst)
		}
		checked, err := CheckRelative(seq, tc.d, tc.k, tc.n)
		if err != nil || checked > 1e-12 {
			t.Errorf("CheckRelative(k=%d, d=%d) = %g, %v, want < 1e-12", tc.k, tc.d, checked, err)
		}
	}
}

// TestRelativeMapComposes: moving by a then by b is moving by a+b, and
// moving back undoes it (M_{-k} = M_kᵀ, a rotation).
func TestRelativeMapComposes(t *testing.T) {
	const d, n = 12, 10000
	m3, _ := RelativeMap(3, d, n)
	m5, _ := RelativeMap(5, d, n)
	m8, _ := RelativeMap(8, d, n)
	mMinus3, _ := RelativeMap(-3, d, n)
	prod := func(a, b [][]float64) [][]float64 {
		out := make([][]float64, d)
		for r := range out {
			out[r] = make([]float64, d)
			for c := range out[r] {
				for k := 0; k < d; k++ {
					out[r][c] += a[r][k] * b[k][c]
				}
			}
		}
		return out
	}
	assertClose(t, "M_5·M_3", prod(m5, m3), m8, 1e-12)
	identity := make([][]float64, d)
	for i := range identity {
		identity[i] = make([]float64, d)
		identity[i][i] = 1
	}
	assertClose(t, "M_-3·M_3", prod(mMinus3, m3), identity, 1e-12)
}

func TestRelativeMapErrors(t *testing.T) {
	for _, tc := range []struct {
		d    int
		n    float64
		want string
	}{{5, 10000, "must be even"}, {0, 10000, "must be even"}, {4, -1, "base"}} {
		if _, err := RelativeMap(1, tc.d, tc.n); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("RelativeMap(1, %d, %g) error = %v, want it to mention %q", tc.d, tc.n, err, tc.want)
		}
	}
	if _, err := CheckRelative(5, 8, 5, 10000); err == nil || !strings.Contains(err.Error(), "longer sequence") {
		t.Errorf("CheckRelative with k = seqLen: error = %v, want one asking for a longer sequence", err)
	}
}

func TestTableGrowsLikePrecomputed(t *testing.T) {
	const d, n = 16, 10000
	tab := NewTable(8, d, n)
	first := tab.Rows(5)
	if tab.Len() != 8 || tab.Grown() != 0 || len(first) != 5 {
		t.Fatalf("after Rows(5): Len %d, Grown %d, %d rows; want 8, 0, 5", tab.Len(), tab.Grown(), len(first))
	}
	steps := []struct{ ask, wantLen, wantGrown int }{
		{8, 8, 0},
		{9, 16, 1},  // doubles
		{40, 40, 2}, // jumps to what is asked when that is more than double
		{12, 40, 2}, // shorter: no growth
		{41, 80, 3},
	}
	for _, s := range steps {
		rows := tab.Rows(s.ask)
		if len(rows) != s.ask || tab.Len() != s.wantLen || tab.Grown() != s.wantGrown {
			t.Errorf("Rows(%d): %d rows, Len %d, Grown %d; want %d, %d, %d", s.ask, len(rows), tab.Len(), tab.Grown(), s.ask, s.wantLen, s.wantGrown)
		}
	}
	want := Sinusoidal(80, d, n)
	for pos, row := range tab.Rows(80) {
		for j := range row {
			if row[j] != want[pos][j] {
				t.Fatalf("grown table PE(%d, %d) = %.17g, precomputed %.17g: they must be identical", pos, j, row[j], want[pos][j])
			}
		}
	}
	assertClose(t, "rows returned before growing", first, want[:5], 0)
	// Appending to a returned slice must not write into the table.
	_ = append(first, []float64{42})
	if got := tab.Rows(6)[5][0]; got != want[5][0] {
		t.Errorf("append to a returned slice changed row 5 to %g", got)
	}
}

func TestLearned(t *testing.T) {
	l := NewLearned(20, 8, 3)
	if l.MaxLen() != 20 || len(l.Table[0]) != 8 {
		t.Fatalf("table %d×%d, want 20×8", l.MaxLen(), len(l.Table[0]))
	}
	again := NewLearned(20, 8, 3)
	assertClose(t, "same seed", again.Table, l.Table, 0)
	if want := random.New(3).Normal(20, 8); MaxAbsDiff(l.Table, want) != 0 {
		t.Error("NewLearned is not random.New(seed).Normal(max_len, d_model)")
	}
	rows, err := l.Rows(20)
	if err != nil || len(rows) != 20 {
		t.Errorf("Rows(20) = %d rows, %v; want 20 rows", len(rows), err)
	}
	_, err = l.Rows(21)
	if err == nil || !strings.Contains(err.Error(), "cannot extrapolate") || !strings.Contains(err.Error(), "max_len = 20") {
		t.Errorf("Rows(21) error = %v, want one saying a table of max_len = 20 cannot extrapolate", err)
	}
}

// TestPermutationEquivariance: self-attention without positions commutes
// with permuting the tokens; once positions are added it does not.
func TestPermutationEquivariance(t *testing.T) {
	x := random.New(5).Normal(5, 8)
	perm := []int{3, 0, 4, 1, 2}
	px, err := Permute(x, perm)
	if err != nil {
		t.Fatal(err)
	}
	a, err := selfAttention(x)
	if err != nil {
		t.Fatal(err)
	}
	b, err := selfAttention(px)
	if err != nil {
		t.Fatal(err)
	}
	wantOut, _ := Permute(a.out, perm)
	wantW, _ := PermuteBoth(a.weights, perm)
	assertClose(t, "attention(P·x) output vs P·attention(x)", b.out, wantOut, 1e-5)
	assertClose(t, "attention(P·x) weights vs P·W·Pᵀ", b.weights, wantW, 1e-6)
	if got, ok := RowPermutation(a.out, b.out, 1e-5); !ok || !equalInts(got, perm) {
		t.Errorf("RowPermutation = %v, %v; want %v, true", got, ok, perm)
	}

	pe := Sinusoidal(5, 8, DefaultBase)
	xp, _ := RunInputEmbedding(x, pe)
	pxp, _ := RunInputEmbedding(px, pe)
	c, _ := selfAttention(xp)
	d, _ := selfAttention(pxp)
	permuted, _ := Permute(c.out, perm)
	if diff := MaxAbsDiff(permuted, d.out); diff < 0.01 {
		t.Errorf("with positions, attention(P·x) is still P·attention(x) (max difference %g): the encoding does not reach the output", diff)
	}
	if _, ok := RowPermutation(c.out, d.out, 1e-3); ok {
		t.Error("with positions, the outputs are still a reordering of each other")
	}
}

type attnResult struct{ out, weights [][]float64 }

// selfAttention is softmax(x·xᵀ/√d)·x in float64.
func selfAttention(x [][]float64) (attnResult, error) {
	d := float64(len(x[0]))
	r := attnResult{}
	for i := range x {
		scores := make([]float64, len(x))
		m := math.Inf(-1)
		for j := range x {
			for c := range x[i] {
				scores[j] += x[i][c] * x[j][c]
			}
			scores[j] /= math.Sqrt(d)
			m = max(m, scores[j])
		}
		sum := 0.0
		for j := range scores {
			scores[j] = math.Exp(scores[j] - m)
			sum += scores[j]
		}
		out := make([]float64, len(x[0]))
		for j := range scores {
			scores[j] /= sum
			for c := range out {
				out[c] += scores[j] * x[j][c]
			}
		}
		r.weights = append(r.weights, scores)
		r.out = append(r.out, out)
	}
	return r, nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPermuteErrors(t *testing.T) {
	m := [][]float64{{1}, {2}, {3}}
	for _, perm := range [][]int{{0, 1}, {0, 1, 1}, {0, 1, 3}, {-1, 0, 1}} {
		if _, err := Permute(m, perm); err == nil {
			t.Errorf("Permute(%v) = nil error, want one", perm)
		}
	}
	if _, err := PermuteBoth([][]float64{{1, 2}, {3, 4}, {5, 6}}, []int{0, 1, 2}); err == nil || !strings.Contains(err.Error(), "square") {
		t.Errorf("PermuteBoth of a 3×2 matrix: error = %v, want one about a square matrix", err)
	}
	if _, ok := RowPermutation([][]float64{{1}, {1}}, [][]float64{{1}, {2}}, 0); ok {
		t.Error("RowPermutation matched a row that is not there")
	}
	if got, ok := RowPermutation([][]float64{{1}, {1}, {2}}, [][]float64{{2}, {1}, {1}}, 0); !ok || !equalInts(got, []int{2, 0, 1}) {
		t.Errorf("RowPermutation with a repeated row = %v, %v; want [2 0 1], true", got, ok)
	}
	if MaxAbsDiff([][]float64{{1, 2}}, [][]float64{{1}}) != math.Inf(1) {
		t.Error("MaxAbsDiff of different shapes is not +Inf")
	}
}

func TestInputEmbedding(t *testing.T) {
	emb := random.New(8).Normal(3, 4)
	pe := Sinusoidal(6, 4, 100) // longer than the sequence: only 3 rows are used
	got, err := RunInputEmbedding(emb, pe)
	if err != nil {
		t.Fatal(err)
	}
	want := make([][]float64, 3)
	for i := range want {
		want[i] = make([]float64, 4)
		for j := range want[i] {
			want[i][j] = emb[i][j]*2 + pe[i][j] // √4 = 2
		}
	}
	assertClose(t, "emb·√d + PE", got, want, 1e-5)
	scaled, _ := RunInputEmbedding(emb, nil)
	assertClose(t, "emb·√d", scaled, [][]float64{
		{emb[0][0] * 2, emb[0][1] * 2, emb[0][2] * 2, emb[0][3] * 2},
		{emb[1][0] * 2, emb[1][1] * 2, emb[1][2] * 2, emb[1][3] * 2},
		{emb[2][0] * 2, emb[2][1] * 2, emb[2][2] * 2, emb[2][3] * 2}}, 1e-5)

	for _, tc := range []struct {
		name string
		pe   [][]float64
		want string
	}{{"too short", Sinusoidal(2, 4, 100), "pe has 2 rows"}, {"wrong width", Sinusoidal(5, 6, 100), "d_model = 4"}} {
		if _, err := RunInputEmbedding(emb, tc.pe); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

func TestLookupMatchesEmbed(t *testing.T) {
	table := random.New(2).Normal(7, 3)
	ids := [][]int32{{4, 0, 6}, {1, 1, 2}}
	out := graph.MustExecOnce(backend.Default(), func(tab, ids *graph.Node) *graph.Node {
		return Lookup(tab, ids)
	}, eager.Tensor(table), ids)
	flat := tensors.MustCopyFlatData[float32](out)
	for b, row := range ids {
		ints := []int{int(row[0]), int(row[1]), int(row[2])}
		want, err := Embed(table, ints)
		if err != nil {
			t.Fatal(err)
		}
		for s := range row {
			for j := 0; j < 3; j++ {
				if got := float64(flat[(b*3+s)*3+j]); math.Abs(got-want[s][j]) > 1e-6 {
					t.Errorf("Lookup[%d][%d][%d] = %g, want %g", b, s, j, got, want[s][j])
				}
			}
		}
	}
	if _, err := Embed(table, []int{2, 7}); err == nil || !strings.Contains(err.Error(), "id 7") {
		t.Errorf("Embed with id 7 of 7 rows: error = %v, want one naming id 7", err)
	}
}

// refTokenAttention is TokenAttention in float64 loops.
func refTokenAttention(m *TokenAttention, ids []int, lookAhead, positions bool) (weights, out [][]float64) {
	d := m.DModel
	pe := Sinusoidal(len(ids), d, m.Base)
	x := make([][]float64, len(ids))
	for i, id := range ids {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = m.Embeddings[id][j] * math.Sqrt(float64(d))
			if positions {
				x[i][j] += pe[i][j]
			}
		}
	}
	proj := func(w [][]float64) [][]float64 {
		out := make([][]float64, len(x))
		for i := range x {
			out[i] = make([]float64, d)
			for o := 0; o < d; o++ {
				for k := 0; k < d; k++ {
					out[i][o] += x[i][k] * w[k][o]
				}
			}
		}
		return out
	}
	q, k, v := proj(m.WQ), proj(m.WK), proj(m.WV)
	for i := range q {
		scores := make([]float64, len(k))
		mx := math.Inf(-1)
		for j := range k {
			if lookAhead && j > i {
				scores[j] = math.Inf(-1)
				continue
			}
			for c := 0; c < d; c++ {
				scores[j] += q[i][c] * k[j][c]
			}
			scores[j] /= math.Sqrt(float64(d))
			mx = max(mx, scores[j])
		}
		sum := 0.0
		for j := range scores {
			scores[j] = math.Exp(scores[j] - mx)
			sum += scores[j]
		}
		o := make([]float64, d)
		for j := range scores {
			scores[j] /= sum
			for c := range o {
				o[c] += scores[j] * v[j][c]
			}
		}
		weights, out = append(weights, scores), append(out, o)
	}
	return weights, out
}

func TestTokenAttention(t *testing.T) {
	m := NewTokenAttention(9, 10, 4)
	ids := []int{3, 8, 3, 1, 0, 5}
	for _, tc := range []struct {
		name string
		opts *TokenOptions
	}{{"default", nil}, {"look-ahead", &TokenOptions{LookAhead: true}}, {"no positions", &TokenOptions{NoPositions: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			steps, err := m.Run(ids, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			opts := tc.opts
			if opts == nil {
				opts = &TokenOptions{}
			}
			wantW, wantOut := refTokenAttention(m, ids, opts.LookAhead, !opts.NoPositions)
			assertClose(t, "Weights", steps.Weights, wantW, 1e-5)
			assertClose(t, "Output", steps.Output, wantOut, 1e-4)
			for i := range steps.Input {
				for j := range steps.Input[i] {
					if d := steps.Input[i][j] - steps.Embedded[i][j] - steps.Positions[i][j]; math.Abs(d) > 1e-5 {
						t.Fatalf("Input[%d][%d] ≠ Embedded + Positions (off by %g)", i, j, d)
					}
				}
			}
			if opts.LookAhead {
				for i := range steps.Weights {
					for j := i + 1; j < len(ids); j++ {
						if steps.Weights[i][j] != 0 {
							t.Errorf("look-ahead weight[%d][%d] = %g, want exactly 0", i, j, steps.Weights[i][j])
						}
					}
				}
			}
			// Token 3 appears at positions 0 and 2: without positions both
			// copies attend identically; with positions they do not.
			same := MaxAbsDiff(steps.Weights[0:1], steps.Weights[2:3])
			if opts.NoPositions && same > 1e-6 {
				t.Errorf("without positions the two copies of a token attend differently (%g)", same)
			}
			if !opts.NoPositions && !opts.LookAhead && same < 1e-3 {
				t.Errorf("with positions the two copies of a token attend the same way (%g)", same)
			}
		})
	}
	steps, _ := m.Run(ids, nil)
	var names []string
	for _, s := range steps.Shapes {
		names = append(names, s.String())
	}
	if got := strings.Join(names, "; "); !strings.Contains(got, "weights  [1 6 6]") || !strings.Contains(got, "PE       [6 10]") {
		t.Errorf("Shapes = %s", got)
	}
	if _, err := m.Run([]int{2, 9}, nil); err == nil || !strings.Contains(err.Error(), "id 9") {
		t.Errorf("Run with id 9 of a 9-token vocabulary: error = %v, want one naming id 9", err)
	}
	if _, err := m.Run(nil, nil); err == nil {
		t.Error("Run with no ids: nil error")
	}
}

func TestCosineSimilarityOfEncoding(t *testing.T) {
	// ‖PE(a)‖² = d/2 and PE(a)·PE(b) = Σ_i cos((a−b)·ω_i), so the similarity
	// depends only on a − b.
	const seq, d, n = 30, 128, 10000
	sim := CosineSimilarity(Sinusoidal(seq, d, n))
	for a := 0; a < seq; a++ {
		for b := 0; b < seq; b++ {
			want := 0.0
			for i := 0; i < d/2; i++ {
				want += math.Cos(float64(a-b) / math.Pow(n, float64(2*i)/d))
			}
			want /= d / 2
			if math.Abs(sim[a][b]-want) > 1e-12 {
				t.Fatalf("sim[%d][%d] = %.15f, want %.15f", a, b, sim[a][b], want)
			}
		}
	}
	got := CosineSimilarity([][]float64{{1, 0}, {1, 1}, {0, 0}, {-2, 0}})
	want := [][]float64{{1, 1 / math.Sqrt2, 0, -1}, {1 / math.Sqrt2, 1, 0, -1 / math.Sqrt2}, {0, 0, 0, 0}, {-1, -1 / math.Sqrt2, 0, 1}}
	assertClose(t, "CosineSimilarity", got, want, 1e-15)
}

func TestWavelengths(t *testing.T) {
	dims, lambdas := Wavelengths(512, 10000)
	if len(dims) != 256 || dims[1] != 2 || dims[255] != 510 {
		t.Fatalf("dims = %v…%v (%d), want 0, 2, …, 510", dims[:2], dims[len(dims)-1], len(dims))
	}
	for _, tc := range []struct {
		idx  int
		want float64
	}{{0, 2 * math.Pi}, {64, 2 * math.Pi * 10}, {255, 2 * math.Pi * math.Pow(10000, 510.0/512)}} {
		if math.Abs(lambdas[tc.idx]-tc.want) > 1e-9*tc.want {
			t.Errorf("wavelength of dim %g = %g, want %g", dims[tc.idx], lambdas[tc.idx], tc.want)
		}
	}
	_, odd := Wavelengths(5, 100)
	if len(odd) != 3 {
		t.Errorf("d = 5 has %d sine columns, want 3 (0, 2, 4)", len(odd))
	}
}
