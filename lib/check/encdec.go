package check

import (
	"fmt"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 09's exercises: the decoder's
// cross-attention, the mask of its self-attention, and the teacher-forcing
// shift that lets it train on a whole target at once.

type (
	// CrossIn is an input of the cross-attention exercise (lib/exercise).
	CrossIn = exercise.CrossIn
	// TokensIn is an input of the exercises on token ids (lib/exercise).
	TokensIn = exercise.TokensIn
)

type crossFunc = func(y, memory, wq, wk, wv [][]float64, srcPad []bool) (out, weights [][]float64)

// crossIn draws a case: tgt decoder states and src encoder states of
// width d, projections to dk and dv, and the last pads source positions
// padded.
func crossIn(r *random.Source, tgt, src, d, dk, dv, pads int) CrossIn {
	in := CrossIn{Y: r.Normal(tgt, d), Memory: r.Normal(src, d), WQ: r.Normal(d, dk), WK: r.Normal(d, dk), WV: r.Normal(d, dv),
		SrcPad: make([]bool, src)}
	for j := src - pads; j < src; j++ {
		in.SrcPad[j] = true
	}
	return in
}

func crossVariant(vr reference.CrossVariant) func(CrossIn) attnOut {
	return func(in CrossIn) attnOut {
		out, w := reference.CrossAttention(in.Y, in.Memory, in.WQ, in.WK, in.WV, in.SrcPad, vr)
		return attnOut{A: out, B: w}
	}
}

var crossSpec = Register(&Exercise[crossFunc, CrossIn, attnOut]{
	ID: "cross-attention", Title: "the decoder's cross-attention", Points: 3,
	Signature: "func CrossAttention(y, memory, wq, wk, wv [][]float64, srcPad []bool) (out, weights [][]float64)",
	Task:      exercise.CrossAttention,
	Reference: crossVariant(reference.CrossVariant{}),
	Cases: func() []Case[CrossIn] {
		return []Case[CrossIn]{
			{"3 target tokens, 5 source tokens, no padding", crossIn(random.New(91), 3, 5, 4, 3, 2, 0)},
			{"4 target tokens, 6 source tokens, the last 2 padding", crossIn(random.New(92), 4, 6, 4, 4, 3, 2)},
			{"a longer target than source: 6 over 3", crossIn(random.New(93), 6, 3, 5, 2, 4, 1)},
			{"one target token", crossIn(random.New(94), 1, 4, 3, 3, 3, 1)},
		}
	},
	Hidden: func(r *random.Source) []Case[CrossIn] {
		src := intIn(r, 4, 9)
		return []Case[CrossIn]{
			// d_k ≥ 2 and at least two real keys: otherwise 1/√d_k changes nothing.
			{fmt.Sprintf("%d source tokens, some padding", src), crossIn(r, intIn(r, 2, 7), src, intIn(r, 2, 6), intIn(r, 2, 5), intIn(r, 1, 4), intIn(r, 1, src-2))},
			{"a target longer than the source", crossIn(r, intIn(r, 6, 9), intIn(r, 3, 5), intIn(r, 2, 5), intIn(r, 2, 4), intIn(r, 1, 4), 1)},
			{"one target token, no padding", crossIn(r, 1, intIn(r, 2, 6), intIn(r, 2, 5), intIn(r, 1, 4), intIn(r, 1, 4), 0)},
		}
	},
	// The library computes attention (lib/attention) and whole decoder
	// layers (lib/transformer): the exercise asks for the wiring in plain Go.
	Deny:    []string{"lib/attention", "lib/transformer"},
	Allow:   StdOnly,
	Compare: Both("out", Matrix(tol), "weights", Matrix(tol)),
	Hints: []Hint[CrossIn, attnOut]{
		{Name: "roles-swapped", Message: "the queries come from the decoder (y·W_Q), the keys and values from the encoder's memory (memory·W_K, memory·W_V): one row of weights per target token, one column per source token",
			Wrong: crossVariant(reference.CrossVariant{RolesSwapped: true})},
		{Name: "causal-cross", Message: "no look-ahead mask in cross-attention: the whole source is known before decoding starts, so every target token may look at every (real) source token",
			Wrong: crossVariant(reference.CrossVariant{Causal: true})},
		{Name: "padding-visible", Message: "the source's padding must get weight 0: leave the positions where srcPad is true out of the softmax",
			Wrong: crossVariant(reference.CrossVariant{NoPadding: true})},
		{Name: "no-scale", Message: "divide the scores by √d_k (the width of the keys) before the softmax",
			Wrong: crossVariant(reference.CrossVariant{NoScale: true})},
	},
})

// CrossAttention checks the learner's CrossAttention: queries from the
// decoder, keys and values from the encoder's memory, padding masked.
func CrossAttention(f func(y, memory, wq, wk, wv [][]float64, srcPad []bool) (out, weights [][]float64)) *Result {
	return crossSpec.Check(f)
}

// tokens draws n ids in 3 … 12 followed by pads padding ids (0).
func tokens(r *random.Source, n, pads int) []int {
	out := make([]int, n+pads)
	for i := range n {
		out[i] = intIn(r, 3, 12)
	}
	return out
}

func maskVariant(vr reference.MaskVariant) func(TokensIn) [][]bool {
	return func(in TokensIn) [][]bool { return reference.DecoderMask(in.Tokens, in.Pad, vr) }
}

// compareBools compares [rows][cols] masks exactly (true = hidden).
func compareBools(got, want [][]bool) *Diff {
	if len(got) != len(want) {
		return &Diff{Msg: fmt.Sprintf("wrong shape: expected %d rows (one per target token), got %d", len(want), len(got))}
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			return &Diff{Msg: fmt.Sprintf("wrong shape: row %d has %d values, expected %d (one per target token)", i, len(got[i]), len(want[i]))}
		}
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				what := "hidden, should be visible (false)"
				if want[i][j] {
					what = "visible, should be hidden (true)"
				}
				return &Diff{Where: fmt.Sprintf("row %d (query), column %d (key)", i, j), Want: fmt.Sprint(want[i][j]), Got: fmt.Sprintf("%v — %s", got[i][j], what)}
			}
		}
	}
	return nil
}

var maskSpec = Register(&Exercise[func(tgt []int, pad int) [][]bool, TokensIn, [][]bool]{
	ID: "decoder-mask", Title: "the decoder's self-attention mask", Points: 2,
	Signature: "func DecoderMask(tgt []int, pad int) [][]bool",
	Task:      exercise.DecoderMask,
	Reference: maskVariant(reference.MaskVariant{}),
	Cases: func() []Case[TokensIn] {
		return []Case[TokensIn]{
			{"4 tokens, no padding", TokensIn{Tokens: []int{1, 7, 4, 9}, Pad: 0}},
			{"5 tokens, the last 2 padding", TokensIn{Tokens: []int{1, 5, 6, 0, 0}, Pad: 0}},
			{"padding id 2", TokensIn{Tokens: []int{1, 8, 2}, Pad: 2}},
			{"one token", TokensIn{Tokens: []int{1}, Pad: 0}},
		}
	},
	Hidden: func(r *random.Source) []Case[TokensIn] {
		n, pads := intIn(r, 3, 8), intIn(r, 1, 4)
		pad := intIn(r, 1, 2) // not 0: a mask that takes 0 for the padding is caught
		withPad := tokens(r, n, pads)
		for i := n; i < len(withPad); i++ {
			withPad[i] = pad
		}
		return []Case[TokensIn]{
			{fmt.Sprintf("%d tokens, %d of them padding (id %d)", n+pads, pads, pad), TokensIn{Tokens: withPad, Pad: pad}},
			{"no padding", TokensIn{Tokens: tokens(r, intIn(r, 2, 7), 0), Pad: 0}},
			{"one token", TokensIn{Tokens: tokens(r, 1, 0), Pad: 0}},
		}
	},
	// The library's look-ahead and padding masks are the two halves.
	Deny:    []string{"lib/attention.LookAhead", "lib/attention.LookAheadMask", "lib/attention.Padding", "lib/attention.PaddingMask", "lib/transformer"},
	Allow:   StdOnly,
	Compare: compareBools,
	Hints: []Hint[TokensIn, [][]bool]{
		{Name: "no-causal", Message: "hide the future too: key j is hidden from query i when j > i, whether or not it is padding",
			Wrong: maskVariant(reference.MaskVariant{NoCausal: true})},
		{Name: "no-padding", Message: "hide the padding too: a key whose token is the padding id is hidden from every query",
			Wrong: maskVariant(reference.MaskVariant{NoPadding: true})},
		{Name: "diagonal-hidden", Message: "a real token sees itself: only j > i is the future, j = i stays visible (unless token j is padding)",
			Wrong: maskVariant(reference.MaskVariant{Diagonal: true})},
		{Name: "padding-rows", Message: "padding hides a key (a column j), not a query (a row i): test tgt[j] == pad",
			Wrong: maskVariant(reference.MaskVariant{PaddingRows: true})},
		{Name: "inverted", Message: "true means hidden (the course's convention for masks): the diagonal and the past are false",
			Wrong: maskVariant(reference.MaskVariant{Inverted: true})},
	},
})

// DecoderMask checks the learner's DecoderMask: the look-ahead mask and
// the target's padding in one [tgt][tgt] mask, true = hidden.
func DecoderMask(f func(tgt []int, pad int) [][]bool) *Result { return maskSpec.Check(f) }

// compareInts compares id sequences exactly.
func compareInts(got, want []int) *Diff {
	if len(got) != len(want) {
		return &Diff{Msg: fmt.Sprintf("wrong length: expected %d ids, got %d", len(want), len(got))}
	}
	for i := range want {
		if got[i] != want[i] {
			return &Diff{Where: fmt.Sprintf("position %d", i), Want: fmt.Sprint(want[i]), Got: fmt.Sprint(got[i])}
		}
	}
	return nil
}

type idsOut = Pair[[]int, []int]

func teacherRef(in TokensIn) idsOut {
	a, b := reference.TeacherForcing(in.Tokens, in.Start)
	return idsOut{A: a, B: b}
}

var teacherSpec = Register(&Exercise[func(target []int, start int) (decoderIn, labels []int), TokensIn, idsOut]{
	ID: "teacher-forcing", Title: "teacher forcing: the decoder's input and labels", Points: 1,
	Signature: "func TeacherForcing(target []int, start int) (decoderIn, labels []int)",
	Task:      exercise.TeacherForcing,
	Reference: teacherRef,
	Cases: func() []Case[TokensIn] {
		return []Case[TokensIn]{
			{"a 4-token target", TokensIn{Tokens: []int{5, 6, 7, 8}, Start: 1}},
			{"start id 2", TokensIn{Tokens: []int{9, 3, 3}, Start: 2}},
			{"one token", TokensIn{Tokens: []int{4}, Start: 1}},
		}
	},
	Hidden: func(r *random.Source) []Case[TokensIn] {
		return []Case[TokensIn]{
			{"a target", TokensIn{Tokens: tokens(r, intIn(r, 3, 10), 0), Start: intIn(r, 1, 2)}},
			{"one token", TokensIn{Tokens: tokens(r, 1, 0), Start: 1}},
		}
	},
	// lib/dates and lib/seq2seq build lesson 07's and 09's shifted inputs.
	Deny:    []string{"lib/dates", "lib/seq2seq"},
	Allow:   StdOnly,
	Compare: Both("decoderIn", compareInts, "labels", compareInts),
	Hints: []Hint[TokensIn, idsOut]{
		{Name: "not-shifted", Message: "the decoder's input is the target shifted right: start first, then every token but the last — with the target itself as input, position i would see the answer it must predict",
			Wrong: func(in TokensIn) idsOut { return idsOut{A: in.Tokens, B: in.Tokens} }},
		{Name: "labels-shifted", Message: "the labels are the target as it is; only the input moves (right, by one, with the start token in front)",
			Wrong: func(in TokensIn) idsOut {
				a, _ := reference.TeacherForcing(in.Tokens, in.Start)
				return idsOut{A: a, B: a}
			}},
		{Name: "start-appended", Message: "the start token goes in front: [start, t₀, …, t_{n−2}]",
			Wrong: func(in TokensIn) idsOut {
				return idsOut{A: append(append([]int(nil), in.Tokens[1:]...), in.Start), B: in.Tokens}
			}},
	},
})

// TeacherForcing checks the learner's TeacherForcing: the decoder's input
// is the target shifted right behind the start token, the labels the
// target.
func TeacherForcing(f func(target []int, start int) (decoderIn, labels []int)) *Result {
	return teacherSpec.Check(f)
}
