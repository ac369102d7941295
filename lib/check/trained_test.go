package check

import (
	"math"
	"testing"
)

// These tests hold the checks of lessons 06–08's exercises: a solution
// written like a learner's (separately from the references) scores full
// marks, and each usual mistake, written the way a learner would make it,
// scores less and gets its hint.

func sig(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// learnerGRU is a GRU step with the mistakes it is asked for.
func learnerGRU(swapZ, resetBefore, noBias, zr bool) gruStepFunc {
	return func(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64 {
		n := len(h)
		lin := func(v []float64, w [][]float64, b []float64, col int) float64 {
			s := 0.0
			if !noBias {
				s = b[col]
			}
			for i := range v {
				s += v[i] * w[i][col]
			}
			return s
		}
		rOff, zOff := 0, n
		if zr {
			rOff, zOff = n, 0
		}
		r, z := make([]float64, n), make([]float64, n)
		for j := range n {
			r[j] = sig(lin(x, wx, bx, rOff+j) + lin(h, wh, bh, rOff+j))
			z[j] = sig(lin(x, wx, bx, zOff+j) + lin(h, wh, bh, zOff+j))
		}
		rh := make([]float64, n)
		for j := range n {
			rh[j] = r[j] * h[j]
		}
		out := make([]float64, n)
		for j := range n {
			var hn float64
			if resetBefore {
				hn = lin(rh, wh, bh, 2*n+j)
			} else {
				hn = r[j] * lin(h, wh, bh, 2*n+j)
			}
			c := math.Tanh(lin(x, wx, bx, 2*n+j) + hn)
			if swapZ {
				out[j] = z[j]*c + (1-z[j])*h[j]
			} else {
				out[j] = (1-z[j])*c + z[j]*h[j]
			}
		}
		return out
	}
}

func TestGRUStep(t *testing.T) {
	expectHints(t, gruStepSpec, learnerGRU(false, false, false, false), []hintCase[gruStepFunc]{
		{"z and 1 − z swapped", "z-swapped", learnerGRU(true, false, false, false)},
		{"reset before the product", "reset-before-product", learnerGRU(false, true, false, false)},
		{"no biases", "no-bias", learnerGRU(false, false, true, false)},
		{"gates read as [z | r | n]", "gates-swapped", learnerGRU(false, false, false, true)},
		{"recurrent bias forgotten", "no-recurrent-bias", func(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64 {
			return learnerGRU(false, false, false, false)(x, h, wx, wh, bx, make([]float64, len(bh)))
		}},
		{"b_hn outside the reset", "bias-outside-reset", func(x, h []float64, wx, wh [][]float64, bx, bh []float64) []float64 {
			// r ⊙ (h·W_hn) + b_hn = r ⊙ (h·W_hn + b_hn) + (1 − r) ⊙ b_hn: run the
			// right cell with b_hn zeroed, and add b_hn outside the tanh's reset.
			n := len(h)
			bh0 := append([]float64(nil), bh...)
			bx2 := append([]float64(nil), bx...)
			for j := range n {
				bh0[2*n+j] = 0
				bx2[2*n+j] += bh[2*n+j]
			}
			return learnerGRU(false, false, false, false)(x, h, wx, wh, bx2, bh0)
		}},
	})
}

// learnerEncode runs learnerGRU over xs; mode "" is right, "read" reads
// padding, "zero" returns zeros at padding, "reset" resets the state there.
func learnerEncode(mode string) gruEncodeFunc {
	step := learnerGRU(false, false, false, false)
	return func(xs [][]float64, keep []bool, wx, wh [][]float64, bx, bh []float64) ([][]float64, []float64) {
		h := make([]float64, len(wh))
		var states [][]float64
		for t := range xs {
			if keep[t] || mode == "read" {
				h = step(xs[t], h, wx, wh, bx, bh)
			} else if mode == "reset" {
				h = make([]float64, len(h))
			}
			if !keep[t] && mode == "zero" {
				states = append(states, make([]float64, len(h)))
				continue
			}
			states = append(states, h)
		}
		if mode == "last" {
			return states, states[0]
		}
		return states, h
	}
}

func TestGRUEncode(t *testing.T) {
	expectHints(t, gruEncodeSpec, learnerEncode(""), []hintCase[gruEncodeFunc]{
		{"padding read", "padding-read", learnerEncode("read")},
		{"zeros at padding", "padding-zero-state", learnerEncode("zero")},
		{"reset at padding", "padding-resets", learnerEncode("reset")},
		{"the first state as last", "last", learnerEncode("last")},
	})
}

// learnerBahdanau is the attention of a decoding, with the mistakes asked
// for: "luong" queries with s_t, "nomask", "after" zeroes after the
// softmax, "steps" takes the softmax over the steps.
func learnerBahdanau(mode string) bahdanauFunc {
	return func(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64) ([][]float64, [][]float64) {
		steps, attn := len(dec)-1, len(v)
		scores := make([][]float64, steps)
		for t := range steps {
			q := dec[t]
			if mode == "luong" {
				q = dec[t+1]
			}
			scores[t] = make([]float64, len(enc))
			for s, h := range enc {
				for a := range attn {
					x := 0.0
					for i := range q {
						x += q[i] * w1[i][a]
					}
					for i := range h {
						x += h[i] * w2[i][a]
					}
					scores[t][s] += v[a] * math.Tanh(x)
				}
				if mode == "scaled" {
					scores[t][s] /= math.Sqrt(float64(attn))
				}
				if !keep[s] && mode != "nomask" && mode != "after" {
					scores[t][s] = math.Inf(-1)
				}
			}
		}
		weights := make([][]float64, steps)
		for t := range weights {
			weights[t] = make([]float64, len(enc))
		}
		if mode == "steps" {
			for s := range enc {
				sum := 0.0
				for t := range steps {
					weights[t][s] = math.Exp(scores[t][s] / 1)
					sum += weights[t][s]
				}
				for t := range steps {
					weights[t][s] /= sum
					if math.IsNaN(weights[t][s]) {
						weights[t][s] = 1 / float64(steps)
					}
				}
			}
		} else {
			for t := range steps {
				sum := 0.0
				for s := range enc {
					weights[t][s] = math.Exp(scores[t][s])
					sum += weights[t][s]
				}
				for s := range enc {
					weights[t][s] /= sum
					if mode == "after" && !keep[s] {
						weights[t][s] = 0
					}
				}
			}
		}
		contexts := make([][]float64, steps)
		for t := range steps {
			contexts[t] = make([]float64, len(enc[0]))
			for s, h := range enc {
				for i := range h {
					contexts[t][i] += weights[t][s] * h[i]
				}
			}
		}
		return contexts, weights
	}
}

func TestBahdanauAttention(t *testing.T) {
	expectHints(t, bahdanauSpec, learnerBahdanau(""), []hintCase[bahdanauFunc]{
		{"Luong order", "luong-order", learnerBahdanau("luong")},
		{"scores scaled by 1/√d_attn", "scaled", learnerBahdanau("scaled")},
		{"no mask", "padding-attended", learnerBahdanau("nomask")},
		{"mask after the softmax", "mask-after-softmax", learnerBahdanau("after")},
		{"softmax over the steps", "softmax-over-steps", learnerBahdanau("steps")},
		{"W1 and W2 swapped", "w1-w2-swapped", func(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64) ([][]float64, [][]float64) {
			if len(w1) != len(w2) || len(w1[0]) != len(w2[0]) {
				return nil, nil
			}
			return learnerBahdanau("")(dec, enc, keep, w2, w1, v)
		}},
		{"every state a query", "rows", func(dec, enc [][]float64, keep []bool, w1, w2 [][]float64, v []float64) ([][]float64, [][]float64) {
			return learnerBahdanau("")(append(dec, dec[len(dec)-1]), enc, keep, w1, w2, v)
		}},
	})
}

func learnerSpan(mode string) func(w [][]float64, of, ot, sf, st int) float64 {
	return func(w [][]float64, of, ot, sf, st int) float64 {
		rows := ot - of
		if mode == "inclusive" || mode == "inclusive-n" {
			ot, st = ot+1, st+1
		}
		if mode == "inclusive" {
			rows++
		}
		sum := 0.0
		for t := of; t < ot; t++ {
			for s := sf; s < st; s++ {
				if mode == "transposed" {
					if s >= len(w) || t >= len(w[s]) {
						return 0
					}
					sum += w[s][t]
				} else {
					if t >= len(w) || s >= len(w[t]) {
						return 0
					}
					sum += w[t][s]
				}
			}
		}
		if mode == "sum" {
			return sum
		}
		return sum / float64(rows)
	}
}

func TestSpanMass(t *testing.T) {
	expectHints(t, spanSpec, learnerSpan(""), []hintCase[func([][]float64, int, int, int, int) float64]{
		{"the sum, not the mean", "sum-not-mean", learnerSpan("sum")},
		{"To inclusive", "inclusive-end", learnerSpan("inclusive")},
		{"To inclusive, divided by To − From", "inclusive-end", learnerSpan("inclusive-n")},
		{"weights read [source][output]", "transposed", learnerSpan("transposed")},
	})
}

// learnerPool pools x; mode "mean" or "max", with "-len" (divide by
// len(x)), "-pad" (padding pooled), "-zero" (max from 0), "-nan" (0/0 and
// −Inf left as they come).
func learnerPool(mode string) poolFunc {
	return func(x [][]float64, keep []bool) []float64 {
		d := len(x[0])
		out := make([]float64, d)
		isMax := mode[:3] == "max"
		if isMax && mode != "max-zero" {
			for i := range out {
				out[i] = math.Inf(-1)
			}
		}
		n := 0
		for t, row := range x {
			if !keep[t] && mode != "mean-pad" && mode != "max-pad" {
				continue
			}
			n++
			for i, a := range row {
				if isMax {
					out[i] = math.Max(out[i], a)
				} else {
					out[i] += a
				}
			}
		}
		if mode == "mean-len" {
			n = len(x)
		}
		for i := range out {
			switch {
			case !isMax && (n > 0 || mode == "mean-nan"):
				out[i] /= float64(n)
			case isMax && n == 0 && mode != "max-nan":
				out[i] = 0
			}
		}
		return out
	}
}

func TestPooling(t *testing.T) {
	expectHints(t, meanSpec, learnerPool("mean"), []hintCase[poolFunc]{
		{"divided by len(x)", "full-length", learnerPool("mean-len")},
		{"padding averaged in", "padding-included", learnerPool("mean-pad")},
		{"0/0 on a fully padded sequence", "fully-padded", learnerPool("mean-nan")},
	})
	expectHints(t, maxSpec, learnerPool("max"), []hintCase[poolFunc]{
		{"padding in the max", "padding-included", learnerPool("max-pad")},
		{"max from 0", "zero-init", learnerPool("max-zero")},
		{"−Inf on a fully padded sequence", "fully-padded", learnerPool("max-nan")},
	})
	// A learner's WithCLS, written apart from the reference.
	withCLS := func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool) {
		return append([][]float64{cls}, x...), append([]bool{true}, keep...)
	}
	expectHints(t, clsSpec, withCLS, []hintCase[clsFunc]{
		{"shifted in place", "changes-input", func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool) {
			x = append(x, nil) // within x's capacity: the caller's array
			copy(x[1:], x)
			x[0] = cls
			keep = append(keep, false)
			copy(keep[1:], keep)
			keep[0] = true
			return x, keep
		}},
		{"[CLS] at the end", "cls-last", func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool) {
			return append(append([][]float64{}, x...), cls), append(append([]bool{}, keep...), true)
		}},
		{"[CLS] masked", "cls-masked", func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool) {
			return append([][]float64{cls}, x...), append([]bool{false}, keep...)
		}},
		{"[CLS] over the first token", "cls-over-first", func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool) {
			return append([][]float64{cls}, x[1:]...), append([]bool{true}, keep[1:]...)
		}},
		{"the mask as it was", "mask-not-extended", func(x [][]float64, keep []bool, cls []float64) ([][]float64, []bool) {
			return append([][]float64{cls}, x...), keep
		}},
	})
}
