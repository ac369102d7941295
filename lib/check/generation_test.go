package check

import (
	"math"
	"sort"
	"testing"

	"github.com/attention-in-go/course/lib/check/internal/reference"
)

// Learner-style solutions of lessons 09's and 10's exercises, written
// separately from the references, and the usual mistakes, each of which
// must get its hint and less than full points.

func crossSolution(y, memory, wq, wk, wv [][]float64, srcPad []bool) (out, weights [][]float64) {
	project := func(x, w [][]float64) [][]float64 {
		p := make([][]float64, len(x))
		for i := range x {
			p[i] = make([]float64, len(w[0]))
			for c := range p[i] {
				for r := range x[i] {
					p[i][c] += x[i][r] * w[r][c]
				}
			}
		}
		return p
	}
	q, k, v := project(y, wq), project(memory, wk), project(memory, wv)
	for i := range q {
		row := make([]float64, len(k))
		most := math.Inf(-1)
		for j := range k {
			if srcPad[j] {
				continue
			}
			for c := range q[i] {
				row[j] += q[i][c] * k[j][c]
			}
			row[j] /= math.Sqrt(float64(len(k[j])))
			most = max(most, row[j])
		}
		sum := 0.0
		for j := range row {
			if srcPad[j] {
				row[j] = 0
				continue
			}
			row[j] = math.Exp(row[j] - most)
			sum += row[j]
		}
		o := make([]float64, len(v[0]))
		for j := range row {
			row[j] /= sum
			for c := range o {
				o[c] += row[j] * v[j][c]
			}
		}
		out, weights = append(out, o), append(weights, row)
	}
	return out, weights
}

func TestCrossAttentionHints(t *testing.T) {
	variant := func(vr reference.CrossVariant) crossFunc {
		return func(y, memory, wq, wk, wv [][]float64, srcPad []bool) ([][]float64, [][]float64) {
			o := crossVariant(vr)(CrossIn{Y: y, Memory: memory, WQ: wq, WK: wk, WV: wv, SrcPad: srcPad})
			return o.A, o.B
		}
	}
	expectHints(t, crossSpec, crossSolution, []hintCase[crossFunc]{
		{"queries from the memory", "roles-swapped", variant(reference.CrossVariant{RolesSwapped: true})},
		{"a look-ahead mask", "causal-cross", variant(reference.CrossVariant{Causal: true})},
		{"padding visible", "padding-visible", variant(reference.CrossVariant{NoPadding: true})},
		{"no 1/√d_k", "no-scale", variant(reference.CrossVariant{NoScale: true})},
	})
}

func maskSolution(tgt []int, pad int) [][]bool {
	m := make([][]bool, len(tgt))
	for i := range m {
		m[i] = make([]bool, len(tgt))
		for j := range m[i] {
			m[i][j] = j > i || tgt[j] == pad
		}
	}
	return m
}

func TestDecoderMaskHints(t *testing.T) {
	variant := func(vr reference.MaskVariant) func([]int, int) [][]bool {
		return func(tgt []int, pad int) [][]bool { return reference.DecoderMask(tgt, pad, vr) }
	}
	expectHints(t, maskSpec, maskSolution, []hintCase[func([]int, int) [][]bool]{
		{"padding only", "no-causal", variant(reference.MaskVariant{NoCausal: true})},
		{"look-ahead only", "no-padding", variant(reference.MaskVariant{NoPadding: true})},
		{"j >= i", "diagonal-hidden", variant(reference.MaskVariant{Diagonal: true})},
		{"padded rows", "padding-rows", variant(reference.MaskVariant{PaddingRows: true})},
		{"true = visible", "inverted", variant(reference.MaskVariant{Inverted: true})},
		{"pad taken as 0", "no-padding", func(tgt []int, pad int) [][]bool { return reference.DecoderMask(tgt, 0, reference.MaskVariant{}) }},
	})
}

func TestTeacherForcingHints(t *testing.T) {
	solution := func(target []int, start int) ([]int, []int) {
		in := []int{start}
		for i := 0; i+1 < len(target); i++ {
			in = append(in, target[i])
		}
		return in, target
	}
	type f = func([]int, int) ([]int, []int)
	expectHints(t, teacherSpec, solution, []hintCase[f]{
		{"the target as input", "not-shifted", func(target []int, _ int) ([]int, []int) { return target, target }},
		{"labels shifted too", "labels-shifted", func(target []int, start int) ([]int, []int) {
			in, _ := solution(target, start)
			return in, in
		}},
		{"start at the end", "start-appended", func(target []int, start int) ([]int, []int) {
			return append(append([]int(nil), target[1:]...), start), target
		}},
	})
}

func lmSolution(seq []int, pad int) (inputs, targets []int, mask []bool) {
	for t := 0; t+1 < len(seq); t++ {
		inputs = append(inputs, seq[t])
		targets = append(targets, seq[t+1])
		mask = append(mask, seq[t+1] != pad)
	}
	return inputs, targets, mask
}

func TestLMTargetsHints(t *testing.T) {
	variant := func(vr reference.LMVariant) func([]int, int) ([]int, []int, []bool) {
		return func(seq []int, pad int) ([]int, []int, []bool) { return reference.LMTargets(seq, pad, vr) }
	}
	expectHints(t, lmSpec, lmSolution, []hintCase[func([]int, int) ([]int, []int, []bool)]{
		{"targets = inputs", "not-shifted", variant(reference.LMVariant{NotShifted: true})},
		{"the other way", "wrong-way", variant(reference.LMVariant{WrongWay: true})},
		{"mask on the inputs", "mask-on-inputs", variant(reference.LMVariant{MaskOnInputs: true})},
	})
}

// sampleSolution sorts the ids by logit to find the top-k, then inverts
// the cumulative distribution in id order.
func sampleSolution(logits []float64, temperature float64, topK int, u float64) int {
	ids := make([]int, len(logits))
	for i := range ids {
		ids[i] = i
	}
	sort.SliceStable(ids, func(a, b int) bool { return logits[ids[a]] > logits[ids[b]] })
	if temperature == 0 {
		return ids[0]
	}
	if topK <= 0 || topK > len(ids) {
		topK = len(ids)
	}
	kept := map[int]bool{}
	for _, i := range ids[:topK] {
		kept[i] = true
	}
	top := logits[ids[0]] / temperature
	p, sum := make([]float64, len(logits)), 0.0
	for i := range logits {
		if kept[i] {
			p[i] = math.Exp(logits[i]/temperature - top)
			sum += p[i]
		}
	}
	last, cum := 0, 0.0
	for i := range p {
		if kept[i] {
			last = i
			if cum += p[i] / sum; cum > u {
				return i
			}
		}
	}
	return last
}

func TestSampleHints(t *testing.T) {
	variant := func(vr reference.SampleVariant) func([]float64, float64, int, float64) int {
		return func(l []float64, temp float64, k int, u float64) int { return reference.Sample(l, temp, k, u, vr) }
	}
	expectHints(t, sampleSpec, sampleSolution, []hintCase[func([]float64, float64, int, float64) int]{
		{"logits·T", "temperature-times", variant(reference.SampleVariant{TemperatureTimes: true})},
		{"no top-k", "top-k-ignored", variant(reference.SampleVariant{TopKIgnored: true})},
		{"the k smallest", "top-k-smallest", variant(reference.SampleVariant{TopKSmallest: true})},
		{"not renormalised", "not-renormalized", variant(reference.SampleVariant{NotRenormalized: true})},
		{"T after the softmax", "temperature-after", variant(reference.SampleVariant{TemperatureAfter: true})},
		{"top-k+1", "top-k-plus-one", variant(reference.SampleVariant{TopKPlusOne: true})},
		{"top-k keeps every logit ≥ the k-th", "ties", variant(reference.SampleVariant{TopKThreshold: true})},
		{"ties: the higher id first", "ties", variant(reference.SampleVariant{TiesHigherFirst: true})},
		{"no max subtracted", "overflow", variant(reference.SampleVariant{NoMaxSubtraction: true})},
		{"T = 0 divides by 0", "greedy", func(l []float64, temp float64, k int, u float64) int {
			if temp == 0 {
				return 0 // what a NaN comparison leaves: the first id
			}
			return sampleSolution(l, temp, k, u)
		}},
	})
}

func cacheSolution(cacheK, cacheV [][]float64, q, k, v []float64) (out []float64, newK, newV [][]float64) {
	newK, newV = append(cacheK, k), append(cacheV, v)
	scores := make([]float64, len(newK))
	most := math.Inf(-1)
	for j, key := range newK {
		for c := range q {
			scores[j] += q[c] * key[c]
		}
		scores[j] /= math.Sqrt(float64(len(q)))
		most = max(most, scores[j])
	}
	sum := 0.0
	for j := range scores {
		scores[j] = math.Exp(scores[j] - most)
		sum += scores[j]
	}
	out = make([]float64, len(v))
	for j := range scores {
		for c := range out {
			out[c] += scores[j] / sum * newV[j][c]
		}
	}
	return out, newK, newV
}

func TestCachedAttentionHints(t *testing.T) {
	variant := func(vr reference.CacheVariant) cacheFunc {
		return func(ck, cv [][]float64, q, k, v []float64) ([]float64, [][]float64, [][]float64) {
			return reference.CachedAttention(ck, cv, q, k, v, vr)
		}
	}
	expectHints(t, cacheSpec, cacheSolution, []hintCase[cacheFunc]{
		{"attend, then append", "attend-before-append", variant(reference.CacheVariant{AttendBeforeAppend: true})},
		{"no 1/√d_k", "no-scale", variant(reference.CacheVariant{NoScale: true})},
		{"the old cache returned", "cache-not-grown", variant(reference.CacheVariant{CacheNotGrown: true})},
	})
}
