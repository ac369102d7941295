package posenc

import (
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/attention-in-go/course/lib/backend"
)

// TestALiBiSlopes checks the slopes against get_slopes of the paper's
// official code (ofirpress/attention_with_linear_biases), worked out by
// hand. For n a power of 2, start = 2^(-8/n) and the slopes are start^1 …
// start^n. Otherwise, with p the largest power of 2 below n, the p slopes
// of p heads are followed by get_slopes(2p)[0::2][:n−p], every other slope
// of 2p heads:
//
//	n = 3:  p = 2: 2^-4, 2^-8;  get_slopes(4) = 2^-2, 2^-4, 2^-6, 2^-8, [0::2] = 2^-2, 2^-6, keep 1: 2^-2
//	n = 6:  p = 4: 2^-2, 2^-4, 2^-6, 2^-8;  get_slopes(8)[0::2] = 2^-1, 2^-3, 2^-5, 2^-7, keep 2: 2^-1, 2^-3
//	n = 12: p = 8: 2^-1 … 2^-8;  get_slopes(16) = 2^-0.5, 2^-1, …, 2^-8, [0::2] = 2^-0.5, 2^-1.5, 2^-2.5, …, keep 4
//
// It fails if the slopes of n heads are computed as if n were a power of 2
// (2^(-8h/n)), if the extra slopes are the first n−p of 2p heads instead of
// every other one, or if they come first.
func TestALiBiSlopes(t *testing.T) {
	pow := func(e float64) float64 { return math.Pow(2, e) }
	tests := []struct {
		heads int
		want  []float64
	}{
		{1, []float64{1.0 / 256}},
		{2, []float64{1.0 / 16, 1.0 / 256}},
		{3, []float64{1.0 / 16, 1.0 / 256, 1.0 / 4}},
		{4, []float64{1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256}},
		{6, []float64{1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 2, 1.0 / 8}},
		{8, []float64{1.0 / 2, 1.0 / 4, 1.0 / 8, 1.0 / 16, 1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256}},
		{12, []float64{1.0 / 2, 1.0 / 4, 1.0 / 8, 1.0 / 16, 1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256,
			pow(-0.5), pow(-1.5), pow(-2.5), pow(-3.5)}},
		{16, []float64{pow(-0.5), pow(-1), pow(-1.5), pow(-2), pow(-2.5), pow(-3), pow(-3.5), pow(-4),
			pow(-4.5), pow(-5), pow(-5.5), pow(-6), pow(-6.5), pow(-7), pow(-7.5), pow(-8)}},
	}
	for _, tc := range tests {
		got := ALiBiSlopes(tc.heads)
		if len(got) != len(tc.want) {
			t.Errorf("ALiBiSlopes(%d) = %d slopes, want %d", tc.heads, len(got), len(tc.want))
			continue
		}
		for h := range got {
			if math.Abs(got[h]-tc.want[h]) > 1e-15*tc.want[h] {
				t.Errorf("ALiBiSlopes(%d)[%d] = %.17g, want %.17g", tc.heads, h, got[h], tc.want[h])
			}
		}
	}
	func() {
		defer func() {
			if r, _ := recover().(string); !strings.Contains(r, "heads must be ≥ 1") {
				t.Errorf("ALiBiSlopes(0): recover() = %q, want a panic about the number of heads", r)
			}
		}()
		ALiBiSlopes(0)
	}()
}

// TestALiBiHandValues: 2 heads have slopes 1/16 and 1/256; the bias of
// query i and key j is −m·(i − j), written out here.
func TestALiBiHandValues(t *testing.T) {
	const a, b = 1.0 / 16, 1.0 / 256
	tests := []struct {
		name    string
		queries []int
		keys    []int
		head0   [][]float64 // head 1's bias is head 0's times (1/256)/(1/16)
	}{
		{"positions 0…3", []int{0, 1, 2, 3}, []int{0, 1, 2, 3}, [][]float64{
			{0, a, 2 * a, 3 * a}, // j > i: positive, hidden by the causal mask
			{-a, 0, a, 2 * a},
			{-2 * a, -a, 0, a},
			{-3 * a, -2 * a, -a, 0},
		}},
		{"one cached step at position 5 over 7 slots", []int{5}, []int{0, 1, 2, 3, 4, 5, 6}, [][]float64{
			{-5 * a, -4 * a, -3 * a, -2 * a, -a, 0, a},
		}},
	}
	for _, tc := range tests {
		got := ALiBi(2, tc.queries, tc.keys)
		if len(got) != 2 {
			t.Fatalf("%s: %d heads, want 2", tc.name, len(got))
		}
		assertClose(t, tc.name+" head 0", got[0], tc.head0, 1e-15)
		head1 := make([][]float64, len(tc.head0))
		for i, row := range tc.head0 {
			for _, v := range row {
				head1[i] = append(head1[i], v*b/a)
			}
		}
		assertClose(t, tc.name+" head 1", got[1], head1, 1e-15)
	}
}

// TestALiBiPenalisesDistance: for every head and query, the bias is 0 on
// the query's own position and falls, strictly and linearly by m_h per
// token, towards earlier keys: the earlier the key, the more negative.
func TestALiBiPenalisesDistance(t *testing.T) {
	for _, heads := range []int{1, 4, 6, 8} {
		positions := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		slopes := ALiBiSlopes(heads)
		bias := ALiBi(heads, positions, positions)
		for h, m := range slopes {
			if !(m > 0) {
				t.Fatalf("heads=%d: slope %d = %g, want > 0", heads, h, m)
			}
			for i := range positions {
				if bias[h][i][i] != 0 {
					t.Errorf("heads=%d head %d: bias[%d][%d] = %g, want 0", heads, h, i, i, bias[h][i][i])
				}
				for j := 0; j < i; j++ {
					if !(bias[h][i][j] < bias[h][i][j+1]) {
						t.Errorf("heads=%d head %d query %d: key %d has bias %g, key %d %g: an earlier key must be penalised more",
							heads, h, i, j, bias[h][i][j], j+1, bias[h][i][j+1])
					}
					if step := bias[h][i][j+1] - bias[h][i][j]; math.Abs(step-m) > 1e-12 {
						t.Errorf("heads=%d head %d: one token further back costs %g, want the slope %g", heads, h, step, m)
					}
				}
			}
		}
	}
}

// TestALiBiGraphMatchesReference: ALiBiOf gives [heads, seq_q, seq_k] equal
// to ALiBi, for a full sequence and for one query over a cache.
func TestALiBiGraphMatchesReference(t *testing.T) {
	tests := []struct {
		heads         int
		queries, keys []int
	}{
		{8, []int{0, 1, 2, 3, 4}, []int{0, 1, 2, 3, 4}},
		{6, []int{5, 6, 7}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{12, []int{40}, []int{0, 10, 20, 30, 40}},
		{1, []int{3}, []int{3}},
	}
	for _, tc := range tests {
		toInt32 := func(v []int) []int32 {
			out := make([]int32, len(v))
			for i, x := range v {
				out[i] = int32(x)
			}
			return out
		}
		out := graph.MustExecOnce(backend.Default(), func(q, k *graph.Node) *graph.Node {
			return ALiBiOf(tc.heads, q, k)
		}, toInt32(tc.queries), toInt32(tc.keys))
		if dims := out.Shape().Dimensions; len(dims) != 3 || dims[0] != tc.heads || dims[1] != len(tc.queries) || dims[2] != len(tc.keys) {
			t.Fatalf("shape %v, want [%d %d %d]", dims, tc.heads, len(tc.queries), len(tc.keys))
		}
		got := tensors.MustCopyFlatData[float32](out)
		want := ALiBi(tc.heads, tc.queries, tc.keys)
		for h := range want {
			for i := range want[h] {
				for j, w := range want[h][i] {
					if g := float64(got[(h*len(tc.queries)+i)*len(tc.keys)+j]); math.Abs(g-w) > 1e-6*max(1, math.Abs(w)) {
						t.Errorf("heads=%d: bias[%d][%d][%d] = %g, want %g", tc.heads, h, i, j, g, w)
					}
				}
			}
		}
	}
}
