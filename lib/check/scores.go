package check

import (
	"fmt"
	"math"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 02's exercises: the Bahdanau
// (additive) and Luong (dot, general, concat) score functions of one
// query against every key. Vectors are rows: h·W with W [in][out].

// ScoreIn is an input of the score exercises (lib/exercise).
type ScoreIn = exercise.ScoreIn

// scoreIn draws a case; general and concat choose W's shape.
func scoreIn(seed uint32, dq, dk, seq, attn int, kind string) ScoreIn {
	return scoreInFrom(random.New(seed), dq, dk, seq, attn, kind)
}

func scoreInFrom(r *random.Source, dq, dk, seq, attn int, kind string) ScoreIn {
	in := ScoreIn{Query: r.Normal(1, dq)[0], Keys: r.Normal(seq, dk)}
	switch kind {
	case "additive":
		in.W1, in.W2, in.V = r.Normal(dq, attn), r.Normal(dk, attn), r.Normal(1, attn)[0]
	case "general":
		in.W = r.Normal(dq, dk)
	case "concat":
		in.W, in.V = r.Normal(dq+dk, attn), r.Normal(1, attn)[0]
	}
	return in
}

func scoreCases(kind string, square bool) func() []Case[ScoreIn] {
	return func() []Case[ScoreIn] {
		cs := []Case[ScoreIn]{
			{"query of 4, 5 keys of 4", scoreIn(31, 4, 4, 5, 3, kind)},
			{"one key", scoreIn(32, 3, 3, 1, 2, kind)},
		}
		if !square {
			cs = append(cs, Case[ScoreIn]{"query of 3, 4 keys of 5 (different sizes), attn 2", scoreIn(33, 3, 5, 4, 2, kind)})
		} else {
			cs = append(cs, Case[ScoreIn]{"odd size 5, 6 keys", scoreIn(33, 5, 5, 6, 2, kind)})
		}
		return cs
	}
}

// scoreHidden draws cases like the visible ones: random sizes, one key,
// different query and key sizes (unless the score needs them equal),
// and large values.
func scoreHidden(kind string, square bool) func(r *random.Source) []Case[ScoreIn] {
	return func(r *random.Source) []Case[ScoreIn] {
		dq, seq, attn := intIn(r, 2, 8), intIn(r, 2, 10), intIn(r, 1, 6)
		dk := intIn(r, 2, 8)
		if square {
			dk = dq
		}
		one := intIn(r, 1, 6)
		oneK := one
		if !square {
			oneK = intIn(r, 1, 6)
		}
		large := scoreInFrom(r, dq, dk, 4, attn, kind)
		large.Query = scaled(large.Query, 20)
		return []Case[ScoreIn]{
			{fmt.Sprintf("query of %d, %d keys of %d, attn %d", dq, seq, dk, attn), scoreInFrom(r, dq, dk, seq, attn, kind)},
			{"one key", scoreInFrom(r, one, oneK, 1, intIn(r, 1, 4), kind)},
			{"a large query", large},
		}
	}
}

var additiveSpec = Register(&Exercise[func(q []float64, keys, w1, w2 [][]float64, v []float64) []float64, ScoreIn, []float64]{
	ID: "additive-score", Title: "Bahdanau additive score", Points: 2,
	Signature: "func AdditiveScores(query []float64, keys, w1, w2 [][]float64, v []float64) []float64",
	Task:      exercise.AdditiveScores,
	Reference: func(in ScoreIn) []float64 { return reference.AdditiveScores(in.Query, in.Keys, in.W1, in.W2, in.V) },
	Cases:     scoreCases("additive", false),
	Hidden:    scoreHidden("additive", false),
	Compare:   Vector(tol),
	Hints: []Hint[ScoreIn, []float64]{
		{Name: "w1-w2-swapped", Message: "W1 projects the query and W2 the keys: q·W1 + h_j·W2",
			Detect: func(in ScoreIn, got []float64) bool {
				if len(in.Query) != len(in.Keys[0]) {
					return false
				}
				return Vector(tol)(got, reference.AdditiveScores(in.Query, in.Keys, in.W2, in.W1, in.V)) == nil
			}},
		{Name: "no-tanh", Message: "tanh is missing: e_j = v·tanh(q·W1 + h_j·W2)",
			Wrong: noTanh},
		{Name: "wrong-length", Message: "one score per key: the result has len(keys) values",
			Detect: func(in ScoreIn, got []float64) bool { return len(got) != len(in.Keys) }},
	},
	Deny:  []string{"lib/attention"},
	Allow: StdOnly,
})

// noTanh is the additive score without tanh: v·(q·W1 + h_j·W2).
func noTanh(in ScoreIn) []float64 {
	q := reference.MatMul([][]float64{in.Query}, in.W1)[0]
	hs := reference.MatMul(in.Keys, in.W2)
	out := make([]float64, len(in.Keys))
	for j := range hs {
		for a := range in.V {
			out[j] += in.V[a] * (q[a] + hs[j][a])
		}
	}
	return out
}

func sqrt(n int) float64 { return math.Sqrt(float64(n)) }

// AdditiveScores checks the learner's Bahdanau score e_j = v·tanh(q·W1 + h_j·W2).
func AdditiveScores(f func(query []float64, keys, w1, w2 [][]float64, v []float64) []float64) *Result {
	return additiveSpec.Check(f)
}

var dotSpec = Register(&Exercise[func(q []float64, keys [][]float64) []float64, ScoreIn, []float64]{
	ID: "dot-score", Title: "Luong dot score", Points: 1,
	Signature: "func DotScores(query []float64, keys [][]float64) []float64",
	Task:      exercise.DotScores,
	Reference: func(in ScoreIn) []float64 { return reference.DotScores(in.Query, in.Keys) },
	Cases:     scoreCases("dot", true),
	Hidden:    scoreHidden("dot", true),
	Compare:   Vector(tol),
	Hints: []Hint[ScoreIn, []float64]{
		{Name: "softmaxed", Message: "these are the attention weights (softmax of the scores); return the raw scores q·h_j",
			Wrong: func(in ScoreIn) []float64 { return reference.Softmax(reference.DotScores(in.Query, in.Keys), 1) }},
		{Name: "scaled", Message: "Luong's dot score is not scaled: return q·h_j without dividing by √d",
			Wrong: func(in ScoreIn) []float64 {
				return scaled(reference.DotScores(in.Query, in.Keys), 1/sqrt(len(in.Query)))
			}},
	},
	Deny:  []string{"lib/attention"},
	Allow: StdOnly,
})

// DotScores checks the learner's Luong dot score e_j = q·h_j.
func DotScores(f func(query []float64, keys [][]float64) []float64) *Result { return dotSpec.Check(f) }

var generalSpec = Register(&Exercise[func(q []float64, keys, w [][]float64) []float64, ScoreIn, []float64]{
	ID: "general-score", Title: "Luong general score", Points: 1,
	Signature: "func GeneralScores(query []float64, keys, w [][]float64) []float64",
	Task:      exercise.GeneralScores,
	Reference: func(in ScoreIn) []float64 { return reference.GeneralScores(in.Query, in.Keys, in.W) },
	Cases:     scoreCases("general", false),
	Hidden:    scoreHidden("general", false),
	Compare:   Vector(tol),
	Hints: []Hint[ScoreIn, []float64]{
		{Name: "w-transposed", Message: "W is [d_q][d_k]: compute (q·W)·h_j — you used Wᵀ",
			Detect: func(in ScoreIn, got []float64) bool {
				if len(in.Query) != len(in.Keys[0]) {
					return false
				}
				return Vector(tol)(got, reference.GeneralScores(in.Query, in.Keys, reference.Transpose(in.W))) == nil
			}},
		{Name: "no-w", Message: "this is the dot score: the general score multiplies the query by W first",
			Detect: func(in ScoreIn, got []float64) bool {
				return len(in.Query) == len(in.Keys[0]) && Vector(tol)(got, reference.DotScores(in.Query, in.Keys)) == nil
			}},
	},
	Deny:  []string{"lib/attention"},
	Allow: StdOnly,
})

// GeneralScores checks the learner's Luong general score e_j = (q·W)·h_j.
func GeneralScores(f func(query []float64, keys, w [][]float64) []float64) *Result {
	return generalSpec.Check(f)
}

var concatSpec = Register(&Exercise[func(q []float64, keys, w [][]float64, v []float64) []float64, ScoreIn, []float64]{
	ID: "concat-score", Title: "Luong concat score", Points: 2,
	Signature: "func ConcatScores(query []float64, keys, w [][]float64, v []float64) []float64",
	Task:      exercise.ConcatScores,
	Reference: func(in ScoreIn) []float64 { return reference.ConcatScores(in.Query, in.Keys, in.W, in.V) },
	Cases:     scoreCases("concat", false),
	Hidden:    scoreHidden("concat", false),
	Compare:   Vector(tol),
	Hints: []Hint[ScoreIn, []float64]{
		{Name: "key-first", Message: "the concatenation is [q; h_j]: the query first, then the key",
			Detect: func(in ScoreIn, got []float64) bool {
				if len(in.Query) != len(in.Keys[0]) {
					return false
				}
				return Vector(tol)(got, keyFirst(in)) == nil
			}},
	},
	Deny:  []string{"lib/attention"},
	Allow: StdOnly,
})

// ConcatScores checks the learner's Luong concat score e_j = v·tanh([q; h_j]·W).
func ConcatScores(f func(query []float64, keys, w [][]float64, v []float64) []float64) *Result {
	return concatSpec.Check(f)
}

// keyFirst is the concat score with [h_j; q] instead of [q; h_j].
func keyFirst(in ScoreIn) []float64 {
	out := make([]float64, len(in.Keys))
	for j, h := range in.Keys {
		out[j] = reference.ConcatScores(h, [][]float64{in.Query}, in.W, in.V)[0]
	}
	return out
}
