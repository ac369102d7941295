package reference

import (
	"math"
	"slices"
	"testing"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/random"
)

// These tests hold the references of lessons 09's and 10's exercises
// against the course library (float32 graphs, written separately) and
// against values worked out by hand.

func TestCrossAttentionMatchesLibrary(t *testing.T) {
	r := random.New(91)
	y, memory := r.Normal(4, 6), r.Normal(7, 6)
	wq, wk, wv := r.Normal(6, 3), r.Normal(6, 3), r.Normal(6, 5)
	srcPad := []bool{false, false, false, false, false, true, true}
	// The library's attention on the projections, with the source's
	// padding as a mask on the keys: [tgt][src], 1 where hidden.
	mask := make([][]float64, 4)
	for i := range mask {
		mask[i] = make([]float64, 7)
		for j, p := range srcPad {
			if p {
				mask[i][j] = 1
			}
		}
	}
	want, err := attention.Explain(MatMul(y, wq), MatMul(memory, wk), MatMul(memory, wv), &attention.Options{Mask: mask})
	if err != nil {
		t.Fatal(err)
	}
	out, weights := CrossAttention(y, memory, wq, wk, wv, srcPad, CrossVariant{})
	if d := maxDiff(t, "cross-attention", out, want.Output); d > 1e-5 {
		t.Errorf("cross-attention differs from the library's by %g", d)
	}
	if d := maxDiff(t, "cross weights", weights, want.Weights); d > 1e-5 {
		t.Errorf("cross-attention weights differ from the library's by %g", d)
	}
	for i := range weights {
		if weights[i][5] != 0 || weights[i][6] != 0 {
			t.Errorf("row %d puts weight on padding: %v", i, weights[i])
		}
	}
	// The usual mistakes give other numbers on the same input.
	for name, vr := range map[string]CrossVariant{"causal": {Causal: true}, "no padding": {NoPadding: true}, "no scale": {NoScale: true}} {
		o, _ := CrossAttention(y, memory, wq, wk, wv, srcPad, vr)
		if maxDiff(t, name, o, out) < 1e-3 {
			t.Errorf("variant %s equals the reference on a case meant to tell them apart", name)
		}
	}
}

func TestDecoderMaskByHand(t *testing.T) {
	// Target "a b PAD" (pad 0): row i hides j > i and the padded key 2.
	tgt := []int{5, 7, 0}
	want := [][]bool{
		{false, true, true},
		{false, false, true},
		{false, false, true},
	}
	if got := DecoderMask(tgt, 0, MaskVariant{}); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("DecoderMask(%v) = %v, want %v", tgt, got, want)
	}
	// The library's look-ahead and padding masks, combined by hand.
	la := attention.LookAhead(5)
	pd, err := attention.Padding([][]int{{3, 4, 9, 0, 0}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := DecoderMask([]int{3, 4, 9, 0, 0}, 0, MaskVariant{})
	for i := range 5 {
		for j := range 5 {
			if w := la[i][j] == 1 || pd[0][j] == 1; got[i][j] != w {
				t.Errorf("mask[%d][%d] = %v, the library's masks say %v", i, j, got[i][j], w)
			}
		}
	}
}

func TestTeacherForcingByHand(t *testing.T) {
	in, labels := TeacherForcing([]int{4, 5, 6}, 1)
	if !slices.Equal(in, []int{1, 4, 5}) || !slices.Equal(labels, []int{4, 5, 6}) {
		t.Errorf("TeacherForcing([4 5 6], 1) = %v, %v; want [1 4 5], [4 5 6]", in, labels)
	}
}

func TestLMTargetsByHand(t *testing.T) {
	in, tg, m := LMTargets([]int{7, 8, 9, 0, 0}, 0, LMVariant{})
	if !slices.Equal(in, []int{7, 8, 9, 0}) || !slices.Equal(tg, []int{8, 9, 0, 0}) || !slices.Equal(m, []bool{true, true, false, false}) {
		t.Errorf("LMTargets = %v %v %v", in, tg, m)
	}
	_, _, wrong := LMTargets([]int{7, 8, 9, 0, 0}, 0, LMVariant{MaskOnInputs: true})
	if slices.Equal(wrong, m) {
		t.Error("the mask on the inputs equals the mask on the targets")
	}
}

func TestSampleByHand(t *testing.T) {
	// logits ln 1, ln 2, ln 3, ln 4 at T = 1: p = 0.1 0.2 0.3 0.4,
	// cumulative 0.1 0.3 0.6 1.
	logits := []float64{0, math.Log(2), math.Log(3), math.Log(4)}
	tests := []struct {
		temp float64
		topK int
		u    float64
		want int
	}{
		{1, 0, 0.05, 0}, {1, 0, 0.25, 1}, {1, 0, 0.59, 2}, {1, 0, 0.61, 3}, {1, 0, 0.999999, 3},
		// top-2 keeps ids 2 and 3: p = 3/7, 4/7.
		{1, 2, 0.42, 2}, {1, 2, 0.43, 3},
		// T = 0.5 squares the odds: 1, 4, 9, 16 over 30.
		{0.5, 0, 1.0/30 + 1e-9, 1}, {0.5, 0, 5.0/30 - 1e-9, 1}, {0.5, 0, 14.0/30 + 1e-9, 3},
		// T = 0: the argmax, whatever u.
		{0, 0, 0.01, 3}, {0, 2, 0.99, 3},
	}
	for _, tt := range tests {
		if got := Sample(logits, tt.temp, tt.topK, tt.u, SampleVariant{}); got != tt.want {
			t.Errorf("Sample(T=%v, topK=%d, u=%v) = %d, want %d", tt.temp, tt.topK, tt.u, got, tt.want)
		}
	}
	// Ties: top-1 of [2, 5, 5] keeps id 1; the argmax is id 1 too.
	if got := Sample([]float64{2, 5, 5}, 1, 1, 0.9, SampleVariant{}); got != 1 {
		t.Errorf("top-1 of a tie = %d, want 1 (the lower id)", got)
	}
	// The empirical frequencies of many draws follow softmax(logits/T).
	r := random.New(10)
	counts := make([]float64, 4)
	const n = 20000
	for range n {
		counts[Sample(logits, 1, 0, r.Float64(), SampleVariant{})]++
	}
	for i, want := range []float64{0.1, 0.2, 0.3, 0.4} {
		if math.Abs(counts[i]/n-want) > 0.015 {
			t.Errorf("id %d drawn %.3f of the time, want %.1f", i, counts[i]/n, want)
		}
	}
}

// TestCachedAttentionEqualsFullRecomputation generates step by step with
// the cache and compares every step with the library's causal attention
// over the whole prefix.
func TestCachedAttentionEqualsFullRecomputation(t *testing.T) {
	r := random.New(12)
	q, k, v := r.Normal(6, 4), r.Normal(6, 4), r.Normal(6, 3)
	full, err := attention.Explain(q, k, v, &attention.Options{Mask: attention.LookAhead(6)})
	if err != nil {
		t.Fatal(err)
	}
	var ck, cv [][]float64
	for step := range 6 {
		var out []float64
		out, ck, cv = CachedAttention(ck, cv, q[step], k[step], v[step], CacheVariant{})
		if len(ck) != step+1 || len(cv) != step+1 {
			t.Fatalf("step %d: cache of %d keys and %d values, want %d", step, len(ck), len(cv), step+1)
		}
		if d := maxDiff(t, "cached step", [][]float64{out}, [][]float64{full.Output[step]}); d > 1e-5 {
			t.Errorf("step %d: cached attention differs from full causal attention by %g", step, d)
		}
	}
}
