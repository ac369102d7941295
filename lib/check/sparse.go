package check

import (
	"fmt"
	"slices"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 03's last two exercises: sparse
// attention as Longformer computes it, and Shaw et al.'s relative
// positions on the values as well as the keys.

// The inputs and outputs of those exercises, defined with their tasks in
// lib/exercise.
type (
	SparseIn         = exercise.SparseIn
	SparseOut        = exercise.SparseOut
	RelativeValuesIn = exercise.RelativeValuesIn
)

type sparseFunc = func(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64)

func sparseIn(seed uint32, n, dk, dv, window, dilation int, global ...int) SparseIn {
	return sparseInFrom(random.New(seed), n, dk, dv, window, dilation, global)
}

func sparseInFrom(r *random.Source, n, dk, dv, window, dilation int, global []int) SparseIn {
	w := windowInFrom(r, n, n, dk, dv, 0)
	return SparseIn{Q: w.Q, K: w.K, V: w.V, Window: window, Dilation: dilation, Global: global, Scores: reference.ScaledScores(w.Q, w.K)}
}

// sparseVariant is sparse attention with the pattern visible(in, i, j),
// asking for the visible scores only, or all of them when dense.
func sparseVariant(visible func(in SparseIn, i, j int) bool, dense bool) func(SparseIn) SparseOut {
	return func(in SparseIn) SparseOut {
		var res SparseOut
		for i := range in.Q {
			for j := range in.K {
				if dense || visible(in, i, j) {
					res.Scores++
				}
			}
		}
		res.Out, res.Weights = reference.MaskedAttention(in.Q, in.K, in.V, func(i, j int) bool { return visible(in, i, j) })
		return res
	}
}

func longformer(in SparseIn, i, j int) bool {
	return reference.SparseVisible(i, j, in.Window, in.Dilation, in.Global)
}

func compareSparse(got, want SparseOut) *Diff {
	if d := Both("out", Matrix(tol), "weights", Matrix(tol))(exercise.Pair[[][]float64, [][]float64]{A: got.Out, B: got.Weights},
		exercise.Pair[[][]float64, [][]float64]{A: want.Out, B: want.Weights}); d != nil {
		return d
	}
	switch {
	case got.Scores > want.Scores:
		return &Diff{Msg: fmt.Sprintf("the output is right, but score was called %d times: the pattern has %d visible pairs; compute only those scores", got.Scores, want.Scores)}
	case got.Scores < want.Scores:
		return &Diff{Msg: fmt.Sprintf("the output is right, but score was called %d times for %d visible pairs: compute each score with score(i, j), once", got.Scores, want.Scores)}
	}
	return nil
}

var sparseSpec = Register(&Exercise[sparseFunc, SparseIn, SparseOut]{
	ID: "sparse-attention", Title: "sparse attention as Longformer computes it", Points: 3,
	Signature: "func SparseAttention(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64)",
	Task:      exercise.SparseAttention,
	Reference: sparseVariant(longformer, false),
	Cases: func() []Case[SparseIn] {
		return []Case[SparseIn]{
			{"10 tokens, window 1, global token 0 (a [CLS] token)", sparseIn(51, 10, 4, 3, 1, 1, 0)},
			{"12 tokens, window 2, dilation 2, global tokens 0 and 7", sparseIn(52, 12, 4, 2, 2, 2, 0, 7)},
			{"8 tokens, window 1, no global token: a band", sparseIn(53, 8, 3, 3, 1, 1)},
			{"9 tokens, window 1, dilation 3, global token 4", sparseIn(54, 9, 5, 2, 1, 3, 4)},
			{"5 tokens, window 0, every token global: full attention", sparseIn(55, 5, 4, 4, 0, 1, 0, 1, 2, 3, 4)},
			{"one token", sparseIn(56, 1, 4, 2, 2, 1)},
		}
	},
	Hidden: func(r *random.Source) []Case[SparseIn] {
		n := intIn(r, 10, 18)
		window, dilation := intIn(r, 1, 3), intIn(r, 2, 3)
		g := []int{intIn(r, 1, n-1)}
		if r.Float64() < 0.5 {
			g = append(g, 0)
		}
		m := intIn(r, 6, 12)
		return []Case[SparseIn]{
			{fmt.Sprintf("%d tokens, window %d, dilation %d, global tokens %v", n, window, dilation, g), sparseInFrom(r, n, intIn(r, 2, 8), intIn(r, 1, 5), window, dilation, g)},
			{fmt.Sprintf("%d tokens, window %d, global token 0", m, window), sparseInFrom(r, m, intIn(r, 2, 8), intIn(r, 1, 5), window, 1, []int{0})},
			{"a band without global tokens", sparseInFrom(r, m, 3, 3, intIn(r, 0, 2), intIn(r, 1, 2), nil)},
			{"every token global: full attention", sparseInFrom(r, 4, 3, 2, 0, 1, []int{0, 1, 2, 3})},
			{"one token", sparseInFrom(r, 1, intIn(r, 1, 5), 2, intIn(r, 0, 2), 1, nil)},
		}
	},
	Compare: compareSparse,
	Hints: []Hint[SparseIn, SparseOut]{
		{Name: "dense", Message: "the weights are right, but you computed every score and masked afterwards: call score(i, j) only for the keys query i can see — skipping the others is what makes the attention sparse",
			Wrong: sparseVariant(longformer, true)},
		{Name: "global-rows-only", Message: "global attention goes both ways: every query sees the global tokens too (column g), not only the global token's query every key",
			Wrong: sparseVariant(func(in SparseIn, i, j int) bool {
				return reference.SparseVisible(i, j, in.Window, in.Dilation, nil) || slices.Contains(in.Global, i)
			}, false)},
		{Name: "global-columns-only", Message: "global attention goes both ways: a global token's query sees every key too (row g), not only every query the global tokens",
			Wrong: sparseVariant(func(in SparseIn, i, j int) bool {
				return reference.SparseVisible(i, j, in.Window, in.Dilation, nil) || slices.Contains(in.Global, j)
			}, false)},
		{Name: "no-dilation", Message: "with dilation d, query i sees the keys i ± d·m for m = 0 … window only: skip the keys in between ((i − j) mod d ≠ 0)",
			Wrong: sparseVariant(func(in SparseIn, i, j int) bool {
				return reference.SparseVisible(i, j, in.Window*in.Dilation, 1, in.Global)
			}, false)},
		{Name: "dilation-span", Message: "window counts dilated steps: the farthest key in the window is window·dilation positions away, not window",
			Wrong: sparseVariant(func(in SparseIn, i, j int) bool {
				if slices.Contains(in.Global, i) || slices.Contains(in.Global, j) {
					return true
				}
				return absInt(i-j) <= in.Window && absInt(i-j)%in.Dilation == 0
			}, false)},
	},
	// Nothing in the library computes sparse attention; its attention
	// would do the softmax and the weighted sum, which the exercise asks
	// for in plain Go.
	Deny:  []string{"lib/attention"},
	Allow: StdOnly,
})

// SparseAttention checks the learner's SparseAttention: Longformer's
// dilated sliding window plus global tokens, equal to full attention
// masked with that pattern, with only the visible scores computed.
func SparseAttention(f func(q, k, v [][]float64, window, dilation int, global []int, score func(i, j int) float64) (out, weights [][]float64)) *Result {
	return sparseSpec.Check(f)
}

type relativeValuesFunc = func(q, k, v, relK, relV [][]float64, maxDist int) (out, weights [][]float64)

func relativeValuesIn(seed uint32, n, dk, dv, maxDist int) RelativeValuesIn {
	return relativeValuesInFrom(random.New(seed), n, dk, dv, maxDist)
}

func relativeValuesInFrom(r *random.Source, n, dk, dv, maxDist int) RelativeValuesIn {
	in := relativeInFrom(r, n, dk, dv, maxDist)
	return RelativeValuesIn{Q: in.Q, K: in.K, V: in.V, RelK: in.Rel, RelV: r.Normal(2*maxDist+1, dv), MaxDist: maxDist}
}

// relativeValuesVariant: weights from keysOf(in) (the reference's relative
// keys, or plain attention), the values' relative vector chosen by
// rowOf(i, j) (nil: none), weighted or not.
func relativeValuesVariant(relativeKeys bool, rowOf func(in RelativeValuesIn, i, j int) int, weighted bool) func(RelativeValuesIn) attnOut {
	return func(in RelativeValuesIn) attnOut {
		var w [][]float64
		if relativeKeys {
			_, w = reference.RelativeAttention(in.Q, in.K, in.V, in.RelK, in.MaxDist)
		} else {
			_, w = reference.MaskedAttention(in.Q, in.K, in.V, nil)
		}
		out := make([][]float64, len(in.Q))
		for i := range out {
			out[i] = make([]float64, len(in.V[0]))
			for j := range in.V {
				for c := range out[i] {
					out[i][c] += w[i][j] * in.V[j][c]
					if rowOf == nil {
						continue
					}
					a := in.RelV[rowOf(in, i, j)][c]
					if weighted {
						a *= w[i][j]
					}
					out[i][c] += a
				}
			}
		}
		return attnOut{A: out, B: w}
	}
}

func clipRow(in RelativeValuesIn, i, j int) int {
	return max(-in.MaxDist, min(in.MaxDist, j-i)) + in.MaxDist
}

var relativeValuesSpec = Register(&Exercise[relativeValuesFunc, RelativeValuesIn, attnOut]{
	ID: "relative-values", Title: "relative positions on the values too (Shaw et al., 2018)", Points: 2,
	Signature: "func RelativeAttentionValues(q, k, v, relK, relV [][]float64, maxDist int) (out, weights [][]float64)",
	Task:      exercise.RelativeAttentionValues,
	Reference: func(in RelativeValuesIn) attnOut {
		out, w := reference.RelativeAttentionValues(in.Q, in.K, in.V, in.RelK, in.RelV, in.MaxDist)
		return attnOut{A: out, B: w}
	},
	Cases: func() []Case[RelativeValuesIn] {
		return []Case[RelativeValuesIn]{
			{"4 tokens, maxDist 1", relativeValuesIn(61, 4, 4, 3, 1)},
			{"7 tokens, maxDist 2 (distances clipped)", relativeValuesIn(62, 7, 4, 5, 2)},
			{"5 tokens, maxDist 4 (no clipping), d_v ≠ d_k", relativeValuesIn(63, 5, 3, 2, 4)},
			{"maxDist 0: one vector for every distance", relativeValuesIn(64, 4, 4, 4, 0)},
			{"one token", relativeValuesIn(65, 1, 4, 2, 2)},
		}
	},
	Hidden: func(r *random.Source) []Case[RelativeValuesIn] {
		n := intIn(r, 6, 12)
		d := intIn(r, 1, 3)
		short := intIn(r, 2, 4)
		return []Case[RelativeValuesIn]{
			{fmt.Sprintf("%d tokens, maxDist %d (distances clipped)", n, d), relativeValuesInFrom(r, n, intIn(r, 2, 8), intIn(r, 1, 5), d)},
			{fmt.Sprintf("%d tokens, maxDist %d (no clipping)", short, short+2), relativeValuesInFrom(r, short, intIn(r, 1, 5), intIn(r, 1, 4), short+2)},
			{"maxDist 0: one vector for every distance", relativeValuesInFrom(r, intIn(r, 2, 6), 3, 3, 0)},
			{"one token", relativeValuesInFrom(r, 1, intIn(r, 1, 5), 2, intIn(r, 0, 3))},
		}
	},
	Deny:    []string{"lib/attention"},
	Allow:   StdOnly,
	Compare: Both("out", Matrix(tol), "weights", Matrix(tol)),
	Hints: []Hint[RelativeValuesIn, attnOut]{
		{Name: "no-relative-values", Message: "the output is exercise 5's: add the relative value vector a^V of each distance, weighted by w_ij, to the values",
			Wrong: relativeValuesVariant(true, nil, false)},
		{Name: "values-distance-sign", Message: "the values' distance is j − i too (key minus query): row maxDist + clip(j − i) of relV; you seem to use i − j",
			Wrong: relativeValuesVariant(true, func(in RelativeValuesIn, i, j int) int { return clipRow(in, j, i) }, true)},
		{Name: "unweighted", Message: "a^V_(j−i) is weighted by w_ij like v_j: out_i = Σ_j w_ij (v_j + a^V_(j−i)), not Σ_j w_ij v_j + Σ_j a^V_(j−i)",
			Wrong: relativeValuesVariant(true, clipRow, false)},
		{Name: "no-relative-keys", Message: "the weights still use the relative keys: e_ij = q_i·(k_j + a^K_(j−i))/√d_k, as in exercise 5",
			Wrong: relativeValuesVariant(false, clipRow, true)},
	},
})

// RelativeAttentionValues checks the learner's RelativeAttentionValues:
// exercise 5's weights with relative keys, and out_i = Σ_j w_ij (v_j + a^V_clip(j−i)).
func RelativeAttentionValues(f func(q, k, v, relK, relV [][]float64, maxDist int) (out, weights [][]float64)) *Result {
	return relativeValuesSpec.Check(f)
}
