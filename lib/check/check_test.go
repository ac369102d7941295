package check

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
)

// firstHint returns the HintName of the first case that has one.
func firstHint(r *Result) string {
	for _, c := range r.Cases {
		if c.HintName != "" {
			return c.HintName
		}
	}
	return ""
}

func full(t *testing.T, r *Result) {
	t.Helper()
	if r.Points != float64(r.Max) || r.Status != "ok" {
		t.Errorf("%s: got %v/%d (%s), want full points\n%s", r.ID, r.Points, r.Max, r.Status, r.Report())
	}
}

// wrong checks that a wrong implementation scores less than full and
// shows the expected hint.
func wrong(t *testing.T, name string, r *Result, hint string) {
	t.Helper()
	if r.Points >= float64(r.Max) {
		t.Errorf("%s: got full points %v/%d for a wrong implementation", name, r.Points, r.Max)
	}
	if got := firstHint(r); got != hint {
		t.Errorf("%s: hint = %q, want %q\n%s", name, got, hint, r.Report())
	}
}

func TestSoftmax(t *testing.T) {
	naive := func(x []float64, temp float64) []float64 {
		out, sum := make([]float64, len(x)), 0.0
		for i := range x {
			out[i] = math.Exp(x[i] / temp)
			sum += out[i]
		}
		for i := range out {
			out[i] /= sum
		}
		return out
	}
	full(t, softmaxSpec.Run(func(x []float64, temp float64) []float64 { return reference.Softmax(x, temp) }, true))
	// Any correct formulation passes: float32 and exp-log.
	full(t, softmaxSpec.Run(func(x []float64, temp float64) []float64 {
		best := x[0]
		for _, a := range x {
			best = max(best, a)
		}
		out, sum := make([]float64, len(x)), float32(0)
		for i := range x {
			out[i] = float64(float32(math.Exp((x[i] - best) / temp)))
			sum += float32(out[i])
		}
		logSum := math.Log(float64(sum))
		for i := range out {
			out[i] = math.Exp(math.Log(out[i]) - logSum)
		}
		return out
	}, true))
	tests := []struct {
		name string
		f    func([]float64, float64) []float64
		hint string
	}{
		{"multiplied by T", func(x []float64, temp float64) []float64 { return reference.Softmax(scaled(x, temp*temp), temp) }, "temperature-multiplied"},
		{"no temperature", func(x []float64, temp float64) []float64 { return reference.Softmax(x, 1) }, "no-temperature"},
		{"naive exp", naive, "overflow"},
	}
	var mutants []hintCase[func([]float64, float64) []float64]
	for _, tc := range tests {
		wrong(t, tc.name, softmaxSpec.Run(tc.f, true), tc.hint)
		mutants = append(mutants, hintCase[func([]float64, float64) []float64]{tc.name, tc.hint, tc.f})
	}
	expectKilled(t, softmaxSpec, func(x []float64, temp float64) []float64 { return reference.Softmax(x, temp) }, mutants)
}

func TestAttention(t *testing.T) {
	variant := func(vr reference.AttentionVariant) func(q, k, v [][]float64) ([][]float64, [][]float64) {
		return func(q, k, v [][]float64) ([][]float64, [][]float64) { return reference.Attention(q, k, v, nil, vr) }
	}
	full(t, attentionSpec.Run(variant(reference.AttentionVariant{}), true))
	tests := []struct {
		name string
		vr   reference.AttentionVariant
		hint string
	}{
		{"missing 1/√d_k", reference.AttentionVariant{NoScale: true}, "no-scale"},
		{"√d_v", reference.AttentionVariant{SqrtDV: true}, "sqrt-dv"},
		{"softmax over columns", reference.AttentionVariant{ColumnSoftmax: true}, "column-softmax"},
	}
	type attnFunc = func(q, k, v [][]float64) ([][]float64, [][]float64)
	var mutants []hintCase[attnFunc]
	for _, tc := range tests {
		wrong(t, tc.name, attentionSpec.Run(variant(tc.vr), true), tc.hint)
		mutants = append(mutants, hintCase[attnFunc]{tc.name, tc.hint, variant(tc.vr)})
	}
	transposed := func(q, k, v [][]float64) ([][]float64, [][]float64) {
		o, w := reference.Attention(q, k, v, nil, reference.AttentionVariant{})
		return o, reference.Transpose(w)
	}
	wrong(t, "weights transposed", attentionSpec.Run(transposed, true), "shape")
	expectKilled(t, attentionSpec, variant(reference.AttentionVariant{}), append(mutants, hintCase[attnFunc]{"weights transposed", "shape", transposed}))
}

func TestMasks(t *testing.T) {
	full(t, paddingSpec.Run(func(ids [][]int, pad int) [][]float64 { return reference.PaddingMask(ids, pad) }, true))
	wrong(t, "inverted padding", paddingSpec.Run(func(ids [][]int, pad int) [][]float64 { return invert(reference.PaddingMask(ids, pad)) }, true), "inverted")
	wrong(t, "pad 0", paddingSpec.Run(func(ids [][]int, pad int) [][]float64 { return reference.PaddingMask(ids, 0) }, true), "pad-zero")
	expectKilled(t, paddingSpec, func(ids [][]int, pad int) [][]float64 { return reference.PaddingMask(ids, pad) }, []hintCase[func([][]int, int) [][]float64]{
		{"inverted padding", "inverted", func(ids [][]int, pad int) [][]float64 { return invert(reference.PaddingMask(ids, pad)) }},
		{"pad 0", "pad-zero", func(ids [][]int, pad int) [][]float64 { return reference.PaddingMask(ids, 0) }},
	})

	full(t, causalSpec.Run(func(n int) [][]float64 { return reference.CausalMask(n, false, false) }, true))
	tests := []struct {
		name string
		f    func(int) [][]float64
		hint string
	}{
		{"diagonal masked", func(n int) [][]float64 { return reference.CausalMask(n, true, false) }, "diagonal"},
		{"future open", func(n int) [][]float64 { return reference.CausalMask(n, false, true) }, "future-open"},
	}
	var mutants []hintCase[func(int) [][]float64]
	for _, tc := range tests {
		wrong(t, tc.name, causalSpec.Run(tc.f, true), tc.hint)
		mutants = append(mutants, hintCase[func(int) [][]float64]{tc.name, tc.hint, tc.f})
	}
	expectKilled(t, causalSpec, func(n int) [][]float64 { return reference.CausalMask(n, false, false) }, mutants)
}

func TestMaskedSelfAttention(t *testing.T) {
	variant := func(vr reference.AttentionVariant) func(x, wq, wk, wv [][]float64) [][]float64 {
		return func(x, wq, wk, wv [][]float64) [][]float64 { return reference.MaskedSelfAttention(x, wq, wk, wv, vr) }
	}
	full(t, maskedSpec.Run(variant(reference.AttentionVariant{}), true))
	tests := []struct {
		name string
		vr   reference.AttentionVariant
		hint string
	}{
		{"future open", reference.AttentionVariant{NoMask: true}, "future-open"},
		{"diagonal masked", reference.AttentionVariant{MaskDiagonal: true}, "diagonal"},
		{"diagonal masked by adding −1e9 (the +M form)", reference.AttentionVariant{MaskDiagonal: true, MaskAdd: true}, "diagonal"},
		{"mask after softmax", reference.AttentionVariant{MaskAfter: true}, "mask-after-softmax"},
		{"missing 1/√d_k", reference.AttentionVariant{NoScale: true}, "no-scale"},
		{"softmax over columns", reference.AttentionVariant{ColumnSoftmax: true}, "column-softmax"},
	}
	var mutants []hintCase[func(x, wq, wk, wv [][]float64) [][]float64]
	for _, tc := range tests {
		wrong(t, tc.name, maskedSpec.Run(variant(tc.vr), true), tc.hint)
		mutants = append(mutants, hintCase[func(x, wq, wk, wv [][]float64) [][]float64]{tc.name, tc.hint, variant(tc.vr)})
	}
	expectKilled(t, maskedSpec, variant(reference.AttentionVariant{}), mutants)
}

func TestScores(t *testing.T) {
	full(t, additiveSpec.Run(reference.AdditiveScores, true))
	full(t, dotSpec.Run(reference.DotScores, true))
	full(t, generalSpec.Run(reference.GeneralScores, true))
	full(t, concatSpec.Run(reference.ConcatScores, true))
	wrong(t, "additive W1/W2 swapped", additiveSpec.Run(func(q []float64, keys, w1, w2 [][]float64, v []float64) []float64 {
		return reference.AdditiveScores(q, keys, w2, w1, v)
	}, true), "w1-w2-swapped")
	wrong(t, "additive without tanh", additiveSpec.Run(func(q []float64, keys, w1, w2 [][]float64, v []float64) []float64 {
		return noTanh(ScoreIn{Query: q, Keys: keys, W1: w1, W2: w2, V: v})
	}, true), "no-tanh")
	wrong(t, "dot softmaxed", dotSpec.Run(func(q []float64, keys [][]float64) []float64 {
		return reference.Softmax(reference.DotScores(q, keys), 1)
	}, true), "softmaxed")
	wrong(t, "general without W", generalSpec.Run(func(q []float64, keys, w [][]float64) []float64 {
		if len(q) != len(keys[0]) {
			return make([]float64, len(keys))
		}
		return reference.DotScores(q, keys)
	}, true), "no-w")
	wrong(t, "concat key first", concatSpec.Run(func(q []float64, keys, w [][]float64, v []float64) []float64 {
		return keyFirst(ScoreIn{Query: q, Keys: keys, W: w, V: v})
	}, true), "key-first")
	type additiveFunc = func(q []float64, keys, w1, w2 [][]float64, v []float64) []float64
	expectKilled(t, additiveSpec, reference.AdditiveScores, []hintCase[additiveFunc]{
		{"W1/W2 swapped", "w1-w2-swapped", func(q []float64, keys, w1, w2 [][]float64, v []float64) []float64 {
			return reference.AdditiveScores(q, keys, w2, w1, v)
		}},
		{"without tanh", "no-tanh", func(q []float64, keys, w1, w2 [][]float64, v []float64) []float64 {
			return noTanh(ScoreIn{Query: q, Keys: keys, W1: w1, W2: w2, V: v})
		}},
	})
	expectKilled(t, dotSpec, reference.DotScores, []hintCase[func(q []float64, keys [][]float64) []float64]{
		{"softmaxed", "softmaxed", func(q []float64, keys [][]float64) []float64 {
			return reference.Softmax(reference.DotScores(q, keys), 1)
		}},
	})
	expectKilled(t, generalSpec, reference.GeneralScores, []hintCase[func(q []float64, keys, w [][]float64) []float64]{
		{"without W", "no-w", func(q []float64, keys, w [][]float64) []float64 {
			if len(q) != len(keys[0]) {
				return make([]float64, len(keys))
			}
			return reference.DotScores(q, keys)
		}},
		{"Wᵀ", "", func(q []float64, keys, w [][]float64) []float64 {
			return reference.GeneralScores(q, keys, reference.Transpose(w))
		}},
	})
	expectKilled(t, concatSpec, reference.ConcatScores, []hintCase[func(q []float64, keys, w [][]float64, v []float64) []float64]{
		{"key first", "key-first", func(q []float64, keys, w [][]float64, v []float64) []float64 {
			return keyFirst(ScoreIn{Query: q, Keys: keys, W: w, V: v})
		}},
	})
}

// TestNeverPassesOnFailure: a panic, an endless loop, NaN, the TODO stub
// and a nil function give 0 points and a clear message.
func TestNeverPassesOnFailure(t *testing.T) {
	short := *causalSpec
	task := *causalSpec.Task
	task.Timeout = 200 * time.Millisecond
	short.Task = &task
	short.Hidden = nil
	tests := []struct {
		name   string
		f      func(int) [][]float64
		status string
		msg    string
	}{
		{"panic", func(n int) [][]float64 { var m [][]float64; return [][]float64{m[n]} }, "failed", "your function panicked: runtime error: index out of range"},
		{"endless loop", func(n int) [][]float64 {
			for {
				time.Sleep(time.Millisecond)
			}
		}, "failed", "did not return within 200ms — an endless loop?"},
		{"NaN", func(n int) [][]float64 { m := reference.CausalMask(n, false, false); m[0][0] = math.NaN(); return m }, "failed", "NaN"},
		{"TODO stub", func(n int) [][]float64 { panic("TODO: exercise causal-mask — write your code here") }, "not done", "not done yet"},
		{"nil", nil, "no function given", ""},
		{"wrong shape", func(n int) [][]float64 { return reference.CausalMask(n+1, false, false) }, "failed", "wrong shape: expected"},
	}
	for _, tc := range tests {
		r := short.Run(tc.f, false)
		if r.Points != 0 || r.Status != tc.status || !strings.Contains(r.Report(), tc.msg) {
			t.Errorf("%s: got %v points, status %q, report\n%s\nwant 0, %q and a report containing %q", tc.name, r.Points, r.Status, r.Report(), tc.status, tc.msg)
		}
		if strings.Contains(r.Report(), "✓") {
			t.Errorf("%s: report shows a passed case:\n%s", tc.name, r.Report())
		}
	}
}

// TestServeGrade runs the grader's protocol in memory: inputs out,
// outcomes back through lib/exercise's server, compared by the parent; a
// truncated stream fails the remaining cases; extra bytes after the
// outcomes, garbage, or another seed's outcomes never earn points.
func TestServeGrade(t *testing.T) {
	serve := func(f func(q []float64, keys [][]float64) []float64, seed uint64) []byte {
		var in, out bytes.Buffer
		n, err := dotSpec.WriteInputs(&in, seed)
		if err != nil || n != len(dotSpec.Cases())+len(dotSpec.hidden(seed)) {
			t.Fatalf("WriteInputs: %d cases, %v", n, err)
		}
		if err := exercise.Bind(dotSpec.Task, f).Serve(&in, &out); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	data := serve(reference.DotScores, 5)
	full(t, dotSpec.Grade(bytes.NewReader(data), 5))
	r := dotSpec.Grade(bytes.NewReader(data[:len(data)/2]), 5)
	if r.Points >= float64(r.Max) || !strings.Contains(r.Report(), "no result") {
		t.Errorf("truncated results: got %v/%d\n%s", r.Points, r.Max, r.Report())
	}
	for name, bad := range map[string][]byte{
		"trailing bytes": append(append([]byte{}, data...), 0x01),
		"garbage":        []byte("points: 1/1\n"),
		"another seed's": serve(reference.DotScores, 6),
		"outcomes twice": append(append([]byte{}, data...), data...),
	} {
		if r := dotSpec.Grade(bytes.NewReader(bad), 5); r.Points != 0 {
			t.Errorf("%s: %v points\n%s", name, r.Points, r.Report())
		}
	}
	// Right on the visible cases, wrong on the hidden ones: 0 points.
	memorised := func(q []float64, keys [][]float64) []float64 {
		for _, c := range dotSpec.Cases() {
			if fmt.Sprint(c.In.Query) == fmt.Sprint(q) {
				return reference.DotScores(q, keys)
			}
		}
		return make([]float64, len(keys))
	}
	if r := dotSpec.Grade(bytes.NewReader(serve(memorised, 5)), 5); r.Points != 0 || r.Status != "failed" {
		t.Errorf("memorised visible answers: %v points, %s\n%s", r.Points, r.Status, r.Report())
	}
}

// TestHiddenCases: every exercise draws hidden cases; different seeds
// draw different inputs, the same seed the same ones.
func TestHiddenCases(t *testing.T) {
	for _, id := range IDs() {
		s, _ := Lookup(id)
		var a, b, c bytes.Buffer
		if _, err := s.WriteInputs(&a, 1); err != nil {
			t.Fatal(err)
		}
		s.WriteInputs(&b, 1)
		s.WriteInputs(&c, 2)
		if s.Info().Hidden == 0 {
			t.Errorf("%s has no hidden cases", id)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) || bytes.Equal(a.Bytes(), c.Bytes()) {
			t.Errorf("%s: the same seed must draw the same inputs, another seed others", id)
		}
		if len(s.Info().Deny) == 0 {
			t.Errorf("%s has no deny list: name the library functions that implement it", id)
		}
	}
}

func TestReportPoints(t *testing.T) {
	r := paddingSpec.Run(func(ids [][]int, pad int) [][]float64 {
		if len(ids) == 2 && len(ids[0]) == 4 {
			return reference.PaddingMask(ids, pad)
		}
		return nil
	}, false)
	if !strings.Contains(r.Report(), "points: 0.25/1") || r.Status != "partial" {
		t.Errorf("1 of 4 cases: got %s\n%s", r.Status, r.Report())
	}
}
