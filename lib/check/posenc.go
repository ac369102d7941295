package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/exercise/withlib"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/viz"
)

// This file holds the checks of lesson 04's exercises: the sinusoidal
// encoding in plain Go and as a graph, its columns as series, embeddings
// plus positions, a growing table, an attention head and a multi-head
// layer on token ids with positions and a mask toggle, and learned
// positions.

// The inputs and outputs of lesson 04's exercises, defined with their
// tasks in lib/exercise and lib/exercise/withlib.
type (
	PEIn        = exercise.PEIn
	SeriesIn    = withlib.SeriesIn
	SeriesOut   = withlib.SeriesOut
	EmbedIn     = exercise.EmbedIn
	GrowIn      = exercise.GrowIn
	TokenIn     = exercise.TokenIn
	MultiHeadIn = withlib.MultiHeadIn
	LearnedIn   = exercise.LearnedIn
	LearnedOut  = exercise.LearnedOut
)

// PEVariant is the encoding with one of the usual mistakes.
type PEVariant struct {
	Swap     bool // sin on odd columns, cos on even ones
	PosI     bool // position and pair index exchanged: sin(i/n^(2k/d))
	ExpJ     bool // exponent j/d instead of 2i/d
	EvenOnly bool // the last column of an odd d left at 0
	NoTwo    bool // exponent i/d instead of 2i/d
}

// peVariant computes the encoding with the mistakes of v.
func peVariant(in PEIn, v PEVariant) [][]float64 {
	pe := make([][]float64, in.Seq)
	for k := range pe {
		pe[k] = make([]float64, in.D)
		last := in.D
		if v.EvenOnly {
			last = in.D - in.D%2
		}
		for j := 0; j < last; j++ {
			e := float64(j - j%2)
			switch {
			case v.ExpJ:
				e = float64(j)
			case v.NoTwo:
				e = float64(j / 2)
			}
			angle := float64(k) / math.Pow(in.Base, e/float64(in.D))
			if v.PosI {
				angle = float64(j/2) / math.Pow(in.Base, float64(2*k)/float64(in.D))
			}
			if (j%2 == 0) != v.Swap {
				pe[k][j] = math.Sin(angle)
			} else {
				pe[k][j] = math.Cos(angle)
			}
		}
	}
	return pe
}

func peCases() []Case[PEIn] {
	return []Case[PEIn]{
		{"4 positions, d = 4, n = 100 (the source's example)", PEIn{Seq: 4, D: 4, Base: 100}},
		{"10 positions, d = 16, n = 10000", PEIn{Seq: 10, D: 16, Base: 10000}},
		{"odd d = 7", PEIn{Seq: 6, D: 7, Base: 10000}},
		{"one position", PEIn{Seq: 1, D: 6, Base: 10000}},
		{"d = 1", PEIn{Seq: 3, D: 1, Base: 100}},
	}
}

// peHidden draws encodings of random sizes and bases, with the edge
// cases of the visible ones: an odd d, one position, d = 1.
func peHidden(r *random.Source) []Case[PEIn] {
	bases := []float64{10, 100, 1000, 10000}
	seq, d := intIn(r, 5, 60), 2*intIn(r, 2, 48)
	odd := 2*intIn(r, 1, 6) + 1
	b := bases[intIn(r, 0, 2)] // not 10000: a base ignored shows
	return []Case[PEIn]{
		{fmt.Sprintf("%d positions, d = %d, base %g", seq, d, b), PEIn{Seq: seq, D: d, Base: b}},
		{fmt.Sprintf("%d positions, d = %d", seq, d), PEIn{Seq: seq, D: d, Base: bases[intIn(r, 0, 3)]}},
		{fmt.Sprintf("odd d = %d", odd), PEIn{Seq: intIn(r, 2, 12), D: odd, Base: bases[intIn(r, 0, 3)]}},
		{"one position", PEIn{Seq: 1, D: 2 * intIn(r, 1, 5), Base: 10000}},
		{"d = 1", PEIn{Seq: intIn(r, 2, 8), D: 1, Base: bases[intIn(r, 0, 3)]}},
	}
}

// peHints are the usual mistakes of the encoding, shared by the plain-Go
// and the graph exercise.
func peHints() []Hint[PEIn, [][]float64] {
	wrong := func(v PEVariant) func(PEIn) [][]float64 { return func(in PEIn) [][]float64 { return peVariant(in, v) } }
	return []Hint[PEIn, [][]float64]{
		{Name: "sin-cos-swapped", Message: "sin and cos are swapped: even columns 2i are sin(k/n^(2i/d)), odd columns 2i+1 cos",
			Wrong: wrong(PEVariant{Swap: true})},
		{Name: "pos-i-mixed", Message: "the position and the pair index are mixed up: the angle is k/n^(2i/d), with k the position (the row) and i = j/2 from the column",
			Wrong: wrong(PEVariant{PosI: true})},
		{Name: "exponent-j", Message: "the exponent is 2i/d with i = ⌊j/2⌋ — the same for columns 2i and 2i+1 — not j/d",
			Wrong: wrong(PEVariant{ExpJ: true})},
		{Name: "exponent-i", Message: "the exponent is 2i/d, not i/d: columns 2i and 2i+1 use n^(2i/d)",
			Wrong: wrong(PEVariant{NoTwo: true})},
		{Name: "odd-d", Message: "with an odd d the last column d−1 is a sine without its cosine: loop over the columns j, not over the pairs",
			Wrong: wrong(PEVariant{EvenOnly: true})},
		{Name: "base-ignored", Message: "use the base n you are given in n^(2i/d), not 10000 (the paper's choice)",
			Detect: func(in PEIn, got [][]float64) bool {
				return in.Base != 10000 && Matrix(tol)(got, reference.PositionalEncoding(in.Seq, in.D, 10000)) == nil
			}},
		{Name: "shape", Message: "the encoding is [seqLen][d]: one row per position, one column per dimension",
			Detect: func(in PEIn, got [][]float64) bool {
				return shape(got, reference.PositionalEncoding(in.Seq, in.D, in.Base)) != nil
			}},
	}
}

// comparePE names position and dimension instead of row and column.
func comparePE(tol float64) func(got, want [][]float64) *Diff {
	return func(got, want [][]float64) *Diff {
		d := Matrix(tol)(got, want)
		if d != nil && d.Where != "" {
			d.Where = strings.NewReplacer("row", "position k =", "column", "dimension j =").Replace(d.Where)
		}
		return d
	}
}

var peSpec = Register(&Exercise[func(int, int, float64) [][]float64, PEIn, [][]float64]{
	ID: "pe-table", Title: "the sinusoidal encoding matrix", Points: 3,
	Signature: "func PositionalEncoding(seqLen, d int, n float64) [][]float64",
	Task:      exercise.PositionalEncoding,
	Reference: func(in PEIn) [][]float64 { return reference.PositionalEncoding(in.Seq, in.D, in.Base) },
	Cases:     peCases,
	Hidden:    peHidden,
	Compare:   comparePE(tol),
	Hints:     peHints(),
	Deny: []string{"lib/posenc.Sinusoidal", "lib/posenc.RunSinusoidal", "lib/posenc.SinusoidalGraph",
		"lib/posenc.SinusoidalOf", "lib/posenc.NewTable", "lib/posenc.Table", "lib/posenc.sinusoidalRow"},
	Allow: StdOnly,
})

// PositionalEncoding checks the learner's PositionalEncoding: the
// sinusoidal encoding [seqLen][d] with base n.
func PositionalEncoding(f func(seqLen, d int, n float64) [][]float64) *Result {
	return peSpec.Check(f)
}

type peGraphFunc = func(g *graph.Graph, seqLen, d int, n float64) *graph.Node

var peGraphSpec = Register(&Exercise[peGraphFunc, PEIn, [][]float64]{
	ID: "pe-graph", Title: "the sinusoidal encoding as a GoMLX graph", Points: 2,
	Signature: "func PositionalEncodingGraph(g *graph.Graph, seqLen, d int, n float64) *graph.Node",
	Task:      withlib.PositionalEncodingGraph,
	Reference: func(in PEIn) [][]float64 { return reference.PositionalEncoding(in.Seq, in.D, in.Base) },
	Cases:     peCases,
	Hidden:    peHidden,
	Compare:   comparePE(1e-4), // float32 sin/cos of angles up to ~50 rad
	Hints:     peHints(),
	Deny: []string{"lib/posenc.Sinusoidal", "lib/posenc.RunSinusoidal", "lib/posenc.SinusoidalGraph",
		"lib/posenc.SinusoidalOf", "lib/posenc.NewTable", "lib/posenc.Table", "lib/posenc.sinusoidalRow"},
	Allow: GraphOps,
})

// PositionalEncodingGraph checks the learner's PositionalEncodingGraph:
// the sinusoidal encoding built as a [seqLen, d] node of g.
func PositionalEncodingGraph(f func(g *graph.Graph, seqLen, d int, n float64) *graph.Node) *Result {
	return peGraphSpec.Check(f)
}

func compareSeries(got, want SeriesOut) *Diff {
	if len(got.Names) != len(want.Names) {
		return &Diff{Msg: fmt.Sprintf("expected %d series (one per dimension asked for), got %d", len(want.Names), len(got.Names))}
	}
	for s := range want.Names {
		if got.Names[s] != want.Names[s] {
			return &Diff{Where: fmt.Sprintf("series %d, Name", s), Want: fmt.Sprintf("%q", want.Names[s]), Got: fmt.Sprintf("%q", got.Names[s])}
		}
		if d := Vector(tol)(got.X[s], want.X[s]); d != nil {
			return prefix(fmt.Sprintf("series %d (%s), X:", s, want.Names[s]), d)
		}
		if d := Vector(tol)(got.Y[s], want.Y[s]); d != nil {
			return prefix(fmt.Sprintf("series %d (%s), Y:", s, want.Names[s]), d)
		}
	}
	return nil
}

var seriesSpec = Register(&Exercise[func([][]float64, []int) []viz.Series, SeriesIn, SeriesOut]{
	ID: "pe-series", Title: "the sinusoids of single columns", Points: 1,
	Signature: "func SinusoidSeries(pe [][]float64, dims []int) []viz.Series",
	Task:      withlib.SinusoidSeries,
	Reference: func(in SeriesIn) SeriesOut { return withlib.SeriesResult(reference.SinusoidSeries(in.PE, in.Dims)) },
	Cases: func() []Case[SeriesIn] {
		return []Case[SeriesIn]{
			{"columns 1, 2, 20, 21 of 25 positions, d = 100", SeriesIn{PE: reference.PositionalEncoding(25, 100, 10000), Dims: []int{1, 2, 20, 21}}},
			{"column 0 of one position", SeriesIn{PE: reference.PositionalEncoding(1, 4, 100), Dims: []int{0}}},
			{"no columns", SeriesIn{PE: reference.PositionalEncoding(5, 4, 100), Dims: nil}},
			{"the last column of an odd d = 5", SeriesIn{PE: reference.PositionalEncoding(6, 5, 100), Dims: []int{4, 3}}},
		}
	},
	Hidden: func(r *random.Source) []Case[SeriesIn] {
		seq, d := intIn(r, 5, 30), intIn(r, 4, 40)
		cols := []int{intIn(r, 0, d-1), intIn(r, 0, d-1), intIn(r, 0, d-1)}
		odd := 2*intIn(r, 1, 4) + 1
		return []Case[SeriesIn]{
			{fmt.Sprintf("columns %v of %d positions, d = %d", cols, seq, d), SeriesIn{PE: reference.PositionalEncoding(seq, d, 10000), Dims: cols}},
			{"a random matrix, columns in any order", SeriesIn{PE: r.Normal(intIn(r, 3, 9), 4), Dims: []int{3, 0, 2}}},
			{"no columns", SeriesIn{PE: reference.PositionalEncoding(intIn(r, 1, 6), 4, 100), Dims: nil}},
			{"the last column of an odd d", SeriesIn{PE: reference.PositionalEncoding(intIn(r, 2, 9), odd, 100), Dims: []int{odd - 1}}},
		}
	},
	Compare: compareSeries,
	Hints: []Hint[SeriesIn, SeriesOut]{
		{Name: "pair-index", Message: "the name gives the pair index i = j/2, not the column j: column 21 is \"cosine 10\"",
			Detect: func(in SeriesIn, got SeriesOut) bool {
				for s, j := range in.Dims {
					if s < len(got.Names) && j > 1 && strings.HasSuffix(got.Names[s], fmt.Sprintf(" %d", j)) {
						return true
					}
				}
				return false
			}},
		{Name: "row-not-column", Message: "a series is a column of pe (one value per position k), not a row: Y[k] = pe[k][j]",
			Detect: func(in SeriesIn, got SeriesOut) bool {
				for s, j := range in.Dims {
					if s < len(got.Y) && j < len(in.PE) && Vector(tol)(got.Y[s], in.PE[j]) == nil {
						return true
					}
				}
				return false
			}},
		{Name: "sine-cosine-names", Message: "even columns are sines (\"sine i\"), odd columns cosines (\"cosine i\")",
			Detect: func(in SeriesIn, got SeriesOut) bool {
				for s, j := range in.Dims {
					if s < len(got.Names) && strings.HasPrefix(got.Names[s], "sine") != (j%2 == 0) {
						return true
					}
				}
				return false
			}},
	},
	Deny:  []string{"lib/posenc.DimensionSeries", "lib/posenc.DimensionName"},
	Allow: []string{"lib/viz"},
})

// SinusoidSeries checks the learner's SinusoidSeries: columns of an
// encoding as named viz.Series.
func SinusoidSeries(f func(pe [][]float64, dims []int) []viz.Series) *Result {
	return seriesSpec.Check(f)
}

func embedIn(seed uint32, vocab, d, seq, extra int) EmbedIn {
	return embedInFrom(random.New(seed), vocab, d, seq, extra)
}

func embedInFrom(r *random.Source, vocab, d, seq, extra int) EmbedIn {
	ids := make([]int, seq)
	for i := range ids {
		ids[i] = int(r.Uint32() % uint32(vocab))
	}
	table := r.Normal(vocab, d)
	for i := range table {
		table[i] = scaled(table[i], 1/math.Sqrt(float64(d)))
	}
	return EmbedIn{Table: table, PE: reference.PositionalEncoding(seq+extra, d, 10000), IDs: ids}
}

// embedVariant: noScale drops √d; scalePE scales the encoding instead;
// byID indexes the encoding with the token id.
func embedVariant(noScale, scalePE, byID bool) func(EmbedIn) [][]float64 {
	return func(in EmbedIn) [][]float64 {
		d := float64(len(in.Table[0]))
		out := make([][]float64, len(in.IDs))
		for p, id := range in.IDs {
			out[p] = make([]float64, len(in.Table[0]))
			row := p
			if byID {
				row = id
			}
			for c := range out[p] {
				e, pe := in.Table[id][c]*math.Sqrt(d), in.PE[min(row, len(in.PE)-1)][c]
				if noScale {
					e = in.Table[id][c]
				}
				if scalePE {
					e, pe = in.Table[id][c], pe*math.Sqrt(d)
				}
				out[p][c] = e + pe
			}
		}
		return out
	}
}

var embedSpec = Register(&Exercise[func([][]float64, []int, [][]float64) [][]float64, EmbedIn, [][]float64]{
	ID: "pe-embed", Title: "embeddings · √d_model + positions", Points: 1,
	Signature: "func EmbedWithPositions(table [][]float64, ids []int, pe [][]float64) [][]float64",
	Task:      exercise.EmbedWithPositions,
	Reference: func(in EmbedIn) [][]float64 { return reference.EmbedWithPositions(in.Table, in.IDs, in.PE) },
	Cases: func() []Case[EmbedIn] {
		return []Case[EmbedIn]{
			{"5 tokens, vocabulary 8, d = 4", embedIn(61, 8, 4, 5, 0)},
			{"a longer encoding table than the sentence", embedIn(62, 10, 6, 3, 7)},
			{"one token", embedIn(63, 5, 4, 1, 0)},
			{"odd d = 5", embedIn(64, 6, 5, 4, 2)},
		}
	},
	Hidden: func(r *random.Source) []Case[EmbedIn] {
		vocab, d, seq := intIn(r, 5, 40), 2*intIn(r, 1, 10), intIn(r, 2, 15)
		return []Case[EmbedIn]{
			{fmt.Sprintf("%d tokens, vocabulary %d, d = %d", seq, vocab, d), embedInFrom(r, vocab, d, seq, 0)},
			{"a longer encoding table than the sentence", embedInFrom(r, intIn(r, 5, 20), 6, intIn(r, 2, 6), intIn(r, 1, 9))},
			{"one token", embedInFrom(r, intIn(r, 2, 9), 4, 1, 0)},
			{"odd d", embedInFrom(r, intIn(r, 3, 9), 2*intIn(r, 1, 4)+1, intIn(r, 2, 6), intIn(r, 0, 3))},
		}
	},
	Compare: comparePE(tol),
	Hints: []Hint[EmbedIn, [][]float64]{
		{Name: "no-scale", Message: "scale the embeddings by √d_model before adding the positions", Wrong: embedVariant(true, false, false)},
		{Name: "scaled-pe", Message: "√d_model scales the token embeddings, not the positional encoding", Wrong: embedVariant(false, true, false)},
		{Name: "pe-by-id", Message: "the encoding row is the token's position p in the sentence, not its id: pe[p], not pe[ids[p]]", Wrong: embedVariant(false, false, true)},
	},
	Deny:  []string{"lib/posenc.RunInputEmbedding", "lib/posenc.InputEmbedding"},
	Allow: StdOnly,
})

// EmbedWithPositions checks the learner's EmbedWithPositions:
// table[ids[p]]·√d_model + pe[p].
func EmbedWithPositions(f func(table [][]float64, ids []int, pe [][]float64) [][]float64) *Result {
	return embedSpec.Check(f)
}

func growIn(have, n, d int, base float64) GrowIn {
	return GrowIn{Table: reference.PositionalEncoding(have, d, base), N: n, D: d, Base: base}
}

var growSpec = Register(&Exercise[func([][]float64, int, int, float64) [][]float64, GrowIn, [][]float64]{
	ID: "pe-grow", Title: "a table that grows", Points: 2,
	Signature: "func GrowTable(table [][]float64, n, d int, base float64) [][]float64",
	Task:      exercise.GrowTable,
	Reference: func(in GrowIn) [][]float64 { return reference.GrowTable(in.Table, in.N, in.D, in.Base) },
	Cases: func() []Case[GrowIn] {
		return []Case[GrowIn]{
			{"5 rows, a sentence of 12 tokens", growIn(5, 12, 8, 10000)},
			{"10 rows, a sentence of 4 tokens (no growth)", growIn(10, 4, 6, 10000)},
			{"10 rows, a sentence of 10 tokens", growIn(10, 10, 6, 10000)},
			{"an empty table", growIn(0, 3, 4, 100)},
			{"odd d = 5", growIn(2, 7, 5, 100)},
		}
	},
	Hidden: func(r *random.Source) []Case[GrowIn] {
		have, d := intIn(r, 1, 20), 2*intIn(r, 1, 16)
		more := have + intIn(r, 1, 40)
		return []Case[GrowIn]{
			{fmt.Sprintf("%d rows, a sentence of %d tokens, d = %d", have, more, d), growIn(have, more, d, 10000)},
			{"a sentence shorter than the table (no growth)", growIn(have+5, intIn(r, 1, have+4), d, 10000)},
			{"a sentence as long as the table", growIn(have, have, d, 100)},
			{"an empty table", growIn(0, intIn(r, 1, 9), 4, 100)},
			{"odd d", growIn(intIn(r, 1, 4), intIn(r, 5, 12), 2*intIn(r, 1, 4)+1, 100)},
		}
	},
	Compare: comparePE(tol),
	Hints: []Hint[GrowIn, [][]float64]{
		{Name: "shrinks", Message: "a table never shrinks: when the sentence is shorter than the table, return the table as it is",
			Detect: func(in GrowIn, got [][]float64) bool { return len(got) == in.N && in.N < len(in.Table) }},
		{Name: "new-rows-only", Message: "return the whole table — the rows it had followed by the new ones — not only the new rows",
			Detect: func(in GrowIn, got [][]float64) bool {
				return len(in.Table) > 0 && in.N > len(in.Table) && len(got) == in.N-len(in.Table)
			}},
		{Name: "restarted-positions", Message: "the new rows continue the positions: row len(table) is position len(table), not position 0",
			Wrong: func(in GrowIn) [][]float64 {
				if in.N <= len(in.Table) {
					return in.Table
				}
				return append(append([][]float64{}, in.Table...), reference.PositionalEncoding(in.N-len(in.Table), in.D, in.Base)...)
			}},
		{Name: "off-by-one", Message: "the table must have exactly max(len(table), n) rows",
			Detect: func(in GrowIn, got [][]float64) bool { return absInt(len(got)-max(len(in.Table), in.N)) == 1 }},
	},
	Deny: []string{"lib/posenc.NewTable", "lib/posenc.Table", "lib/posenc.Sinusoidal", "lib/posenc.RunSinusoidal",
		"lib/posenc.sinusoidalRow"},
	Allow: StdOnly,
})

// GrowTable checks the learner's GrowTable: the sinusoidal table extended
// to at least n rows.
func GrowTable(f func(table [][]float64, n, d int, base float64) [][]float64) *Result {
	return growSpec.Check(f)
}

func tokenIn(seed uint32, vocab, d, dk, seq int, mask bool) TokenIn {
	return tokenInFrom(random.New(seed), vocab, d, dk, seq, mask)
}

func tokenInFrom(r *random.Source, vocab, d, dk, seq int, mask bool) TokenIn {
	ids := make([]int, seq)
	for i := range ids {
		ids[i] = int(r.Uint32() % uint32(vocab))
	}
	emb := r.Normal(vocab, d)
	for i := range emb {
		emb[i] = scaled(emb[i], 1/math.Sqrt(float64(d)))
	}
	w := func() [][]float64 { return scaledM(r.Normal(d, dk), 1/math.Sqrt(float64(d))) }
	return TokenIn{IDs: ids, Emb: emb, WQ: w(), WK: w(), WV: w(), Mask: mask}
}

// TokenVariant is the attention module with one of the usual mistakes.
type TokenVariant struct {
	NoPE, NoEmbScale, NoScale bool
	MaskAfter                 bool // the future zeroed after the softmax
	MaskDiagonal              bool // the diagonal masked too
	MaskLower                 bool // the past masked instead of the future
	NoMask                    bool // the toggle ignored
}

// tokenVariant computes AttentionFromTokens with the mistakes of v.
func tokenVariant(v TokenVariant) func(TokenIn) attnOut {
	return func(in TokenIn) attnOut {
		d := len(in.Emb[0])
		emb := in.Emb
		if v.NoEmbScale {
			emb = scaledM(in.Emb, 1/math.Sqrt(float64(d)))
		}
		pe := reference.PositionalEncoding(len(in.IDs), d, 10000)
		if v.NoPE {
			pe = scaledM(pe, 0)
		}
		x := reference.EmbedWithPositions(emb, in.IDs, pe)
		q, k, val := reference.MatMul(x, in.WQ), reference.MatMul(x, in.WK), reference.MatMul(x, in.WV)
		if v.NoScale {
			q = scaledM(q, math.Sqrt(float64(len(in.WK[0]))))
		}
		var visible func(i, j int) bool
		switch {
		case !in.Mask || v.NoMask || v.MaskAfter:
		case v.MaskDiagonal:
			visible = func(i, j int) bool { return j < i }
		case v.MaskLower:
			visible = func(i, j int) bool { return j >= i }
		default:
			visible = func(i, j int) bool { return j <= i }
		}
		out, w := reference.MaskedAttention(q, k, val, visible)
		if in.Mask && v.MaskAfter {
			for i := range w {
				for j := i + 1; j < len(w[i]); j++ {
					w[i][j] = 0
				}
			}
			out = reference.MatMul(w, val)
		}
		return attnOut{A: w, B: out}
	}
}

func tokenHints() []Hint[TokenIn, attnOut] {
	return []Hint[TokenIn, attnOut]{
		{Name: "mask-after-softmax", Message: "the future was zeroed after the softmax, so the rows no longer sum to 1: mask the scores (−1e9 or −Inf) before the softmax",
			Wrong: tokenVariant(TokenVariant{MaskAfter: true})},
		{Name: "future-open", Message: "with mask = true, token i must not see tokens after it: mask the scores of keys j > i",
			Wrong: tokenVariant(TokenVariant{NoMask: true})},
		{Name: "diagonal-masked", Message: "the diagonal is masked too: token i may attend to itself (mask j > i only, not j ≥ i)",
			Wrong: tokenVariant(TokenVariant{MaskDiagonal: true})},
		{Name: "past-masked", Message: "the mask hides the past instead of the future: token i sees tokens 0…i, so mask the keys j > i (the upper triangle)",
			Wrong: tokenVariant(TokenVariant{MaskLower: true})},
		{Name: "no-positions", Message: "the positional encoding is missing: x = E[ids]·√d_model + P",
			Wrong: tokenVariant(TokenVariant{NoPE: true})},
		{Name: "no-embedding-scale", Message: "scale the embeddings by √d_model before adding P",
			Wrong: tokenVariant(TokenVariant{NoEmbScale: true})},
		{Name: "no-scale", Message: "divide the scores Q·Kᵀ by √d_k before the softmax",
			Wrong: tokenVariant(TokenVariant{NoScale: true})},
	}
}

var tokenSpec = Register(&Exercise[func([]int, [][]float64, [][]float64, [][]float64, [][]float64, bool) ([][]float64, [][]float64), TokenIn, attnOut]{
	ID: "pe-attention", Title: "an attention module with positions and a mask", Points: 3,
	Signature: "func AttentionFromTokens(ids []int, emb, wq, wk, wv [][]float64, mask bool) (weights, out [][]float64)",
	Task:      exercise.AttentionFromTokens,
	Reference: tokenVariant(TokenVariant{}),
	Cases: func() []Case[TokenIn] {
		return []Case[TokenIn]{
			{"6 tokens, d_model 8, no mask", tokenIn(71, 10, 8, 8, 6, false)},
			{"6 tokens, d_model 8, look-ahead mask", tokenIn(71, 10, 8, 8, 6, true)},
			{"one token, mask", tokenIn(72, 5, 4, 4, 1, true)},
			{"odd d_model 5, d_k 3, mask", tokenIn(73, 7, 5, 3, 4, true)},
			{"a repeated token, no mask", func() TokenIn { c := tokenIn(74, 6, 6, 6, 5, false); c.IDs[3] = c.IDs[1]; return c }()},
		}
	},
	Hidden: func(r *random.Source) []Case[TokenIn] {
		seq, d, dk := intIn(r, 3, 12), 2*intIn(r, 2, 8), intIn(r, 2, 8)
		repeated := tokenInFrom(r, 8, 6, 6, 6, false)
		repeated.IDs[4] = repeated.IDs[1]
		return []Case[TokenIn]{
			{fmt.Sprintf("%d tokens, d_model %d, d_k %d, look-ahead mask", seq, d, dk), tokenInFrom(r, intIn(r, 5, 30), d, dk, seq, true)},
			{fmt.Sprintf("%d tokens, d_model %d, d_k %d, no mask", seq, d, dk), tokenInFrom(r, intIn(r, 5, 30), d, dk, seq, false)},
			{"one token, mask", tokenInFrom(r, 5, 4, 4, 1, true)},
			{"odd d_model, mask", tokenInFrom(r, 7, 2*intIn(r, 1, 4)+1, intIn(r, 2, 5), intIn(r, 2, 6), true)},
			{"a repeated token, no mask", repeated},
		}
	},
	Compare: Both("weights", Matrix(tol), "out", Matrix(tol)),
	Hints:   tokenHints(),
	Deny:    []string{"lib/posenc.NewTokenAttention", "lib/posenc.TokenAttention", "lib/posenc.RunInputEmbedding"},
	Allow:   []string{"lib/attention.Explain", "lib/attention.Options", "lib/attention.LookAhead"},
})

// AttentionFromTokens checks the learner's AttentionFromTokens: one
// attention head on token ids with sinusoidal positions and an optional
// look-ahead mask.
func AttentionFromTokens(f func(ids []int, emb, wq, wk, wv [][]float64, mask bool) (weights, out [][]float64)) *Result {
	return tokenSpec.Check(f)
}

func multiheadIn(seed uint32, vocab, d, heads, seq int, mask bool) MultiHeadIn {
	return multiheadInFrom(random.New(seed), seed, vocab, d, heads, seq, mask)
}

func multiheadInFrom(r *random.Source, seed uint32, vocab, d, heads, seq int, mask bool) MultiHeadIn {
	t := tokenInFrom(r, vocab, d, d, seq, mask)
	return MultiHeadIn{IDs: t.IDs, Emb: t.Emb, MH: attention.NewMultiHeadWeights(d, seed), Heads: heads, Mask: mask}
}

// MultiHeadVariant is the multi-head module with one of the usual
// mistakes.
type MultiHeadVariant struct {
	NoMask, NoPE, ScaleDModel, NoOutput, Interleaved bool
}

func multiheadVariant(v MultiHeadVariant) func(MultiHeadIn) Pair[[][][]float64, [][]float64] {
	return func(in MultiHeadIn) Pair[[][][]float64, [][]float64] {
		w := in.MH
		d := len(in.Emb[0])
		pe := reference.PositionalEncoding(len(in.IDs), d, 10000)
		if v.NoPE {
			pe = scaledM(pe, 0)
		}
		x := reference.EmbedWithPositions(in.Emb, in.IDs, pe)
		q, k, val := reference.AddBias(reference.MatMul(x, w.WQ), w.BQ), reference.AddBias(reference.MatMul(x, w.WK), w.BK), reference.AddBias(reference.MatMul(x, w.WV), w.BV)
		dk := d / in.Heads
		pick := func(m [][]float64, h int) [][]float64 {
			out := make([][]float64, len(m))
			for i := range m {
				out[i] = make([]float64, dk)
				for c := range dk {
					if v.Interleaved {
						out[i][c] = m[i][c*in.Heads+h]
					} else {
						out[i][c] = m[i][h*dk+c]
					}
				}
			}
			return out
		}
		var visible func(i, j int) bool
		if in.Mask && !v.NoMask {
			visible = func(i, j int) bool { return j <= i }
		}
		concat := make([][]float64, len(x))
		for i := range concat {
			concat[i] = make([]float64, d)
		}
		var weights [][][]float64
		for h := range in.Heads {
			qh := pick(q, h)
			if v.ScaleDModel {
				qh = scaledM(qh, math.Sqrt(float64(dk))/math.Sqrt(float64(d)))
			}
			o, wt := reference.MaskedAttention(qh, pick(k, h), pick(val, h), visible)
			weights = append(weights, wt)
			for i := range o {
				copy(concat[i][h*dk:], o[i])
			}
		}
		out := concat
		if !v.NoOutput {
			out = reference.AddBias(reference.MatMul(concat, w.WO), w.BO)
		}
		return Pair[[][][]float64, [][]float64]{A: weights, B: out}
	}
}

// compareHeads compares per-head weights [heads][seq][seq], naming the head.
func compareHeads(got, want [][][]float64) *Diff {
	if len(got) != len(want) {
		return &Diff{Msg: fmt.Sprintf("wrong shape: expected %d heads, got %d", len(want), len(got))}
	}
	for h := range want {
		if d := Matrix(tol)(got[h], want[h]); d != nil {
			return prefix(fmt.Sprintf("head %d,", h), d)
		}
	}
	return nil
}

type multiheadFunc = func([]int, [][]float64, *attention.MultiHeadWeights, int, bool) ([][][]float64, [][]float64)

var multiheadSpec = Register(&Exercise[multiheadFunc, MultiHeadIn, Pair[[][][]float64, [][]float64]]{
	ID: "pe-multihead", Title: "positions and masking in multi-head attention", Points: 3,
	Signature: "func MultiHeadFromTokens(ids []int, emb [][]float64, w *attention.MultiHeadWeights, heads int, mask bool) (weights [][][]float64, out [][]float64)",
	Task:      withlib.MultiHeadFromTokens,
	Reference: multiheadVariant(MultiHeadVariant{}),
	Cases: func() []Case[MultiHeadIn] {
		return []Case[MultiHeadIn]{
			{"5 tokens, d_model 8, 2 heads, no mask", multiheadIn(81, 9, 8, 2, 5, false)},
			{"5 tokens, d_model 8, 2 heads, look-ahead mask", multiheadIn(81, 9, 8, 2, 5, true)},
			{"6 tokens, d_model 12, 4 heads, mask", multiheadIn(82, 10, 12, 4, 6, true)},
			{"one head", multiheadIn(83, 6, 6, 1, 4, true)},
			{"one token", multiheadIn(84, 4, 8, 2, 1, true)},
		}
	},
	Hidden: func(r *random.Source) []Case[MultiHeadIn] {
		heads := []int{2, 4, 8}[intIn(r, 0, 2)]
		d := heads * intIn(r, 1, 3)
		seq := intIn(r, 3, 10)
		return []Case[MultiHeadIn]{
			{fmt.Sprintf("%d tokens, d_model %d, %d heads, mask", seq, d, heads), multiheadInFrom(r, r.Uint32(), intIn(r, 5, 30), d, heads, seq, true)},
			{fmt.Sprintf("%d tokens, d_model %d, %d heads, no mask", seq, d, heads), multiheadInFrom(r, r.Uint32(), intIn(r, 5, 30), d, heads, seq, false)},
			{"one head", multiheadInFrom(r, r.Uint32(), 6, 2*intIn(r, 1, 4), 1, intIn(r, 2, 6), true)},
			{"one token", multiheadInFrom(r, r.Uint32(), 4, 8, 2, 1, true)},
		}
	},
	Compare: Both("weights", compareHeads, "out", Matrix(tol)),
	Hints: []Hint[MultiHeadIn, Pair[[][][]float64, [][]float64]]{
		{Name: "future-open", Message: "with mask = true every head must hide the future: apply the look-ahead mask to each head's scores",
			Wrong: multiheadVariant(MultiHeadVariant{NoMask: true})},
		{Name: "no-positions", Message: "the positional encoding is missing: x = E[ids]·√d_model + P before the projections",
			Wrong: multiheadVariant(MultiHeadVariant{NoPE: true})},
		{Name: "scale-d-model", Message: "each head scales by √d_k = √(d_model/heads), not √d_model",
			Wrong: multiheadVariant(MultiHeadVariant{ScaleDModel: true})},
		{Name: "interleaved-heads", Message: "head h owns the consecutive columns h·d_k … h·d_k + d_k − 1, not every heads-th column",
			Wrong: multiheadVariant(MultiHeadVariant{Interleaved: true})},
		{Name: "no-output-projection", Message: "the weights are right but the output is not: concatenate the heads, then multiply by W_O and add b_O",
			Wrong: multiheadVariant(MultiHeadVariant{NoOutput: true})},
	},
	Deny:  []string{"lib/attention.ExplainMultiHead", "lib/attention.ExplainMultiHeadBatch", "lib/attention.MultiHead"},
	Allow: []string{"lib/attention.Explain", "lib/attention.Options", "lib/attention.LookAhead", "lib/attention.MultiHeadWeights"},
})

// MultiHeadFromTokens checks the learner's MultiHeadFromTokens: multi-head
// self-attention on token ids with positions and an optional mask.
func MultiHeadFromTokens(f func(ids []int, emb [][]float64, w *attention.MultiHeadWeights, heads int, mask bool) (weights [][][]float64, out [][]float64)) *Result {
	return multiheadSpec.Check(f)
}

func learnedRef(in LearnedIn) LearnedOut {
	out, err := reference.AddLearned(in.X, in.Table)
	return LearnedOut{Out: out, Err: err != nil}
}

func compareLearned(got, want LearnedOut) *Diff {
	switch {
	case want.Err && !got.Err:
		return &Diff{Msg: "expected an error, got a result"}
	case want.Err:
		return nil
	case got.Err:
		return &Diff{Msg: "expected a result, got an error"}
	}
	return comparePE(tol)(got.Out, want.Out)
}

var learnedSpec = Register(&Exercise[func([][]float64, [][]float64) ([][]float64, error), LearnedIn, LearnedOut]{
	ID: "pe-learned", Title: "learned positional embeddings", Points: 1,
	Signature: "func AddLearned(x, table [][]float64) ([][]float64, error)",
	Task:      exercise.AddLearned,
	Reference: learnedRef,
	Cases: func() []Case[LearnedIn] {
		r := random.New(91)
		return []Case[LearnedIn]{
			{"4 tokens, a table of 10 rows", LearnedIn{X: r.Normal(4, 6), Table: r.Normal(10, 6)}},
			{"as many tokens as rows", LearnedIn{X: r.Normal(5, 3), Table: r.Normal(5, 3)}},
			{"one token", LearnedIn{X: r.Normal(1, 4), Table: r.Normal(3, 4)}},
			{"11 tokens, 10 rows (error)", LearnedIn{X: r.Normal(11, 6), Table: r.Normal(10, 6)}},
			{"no tokens (error)", LearnedIn{X: nil, Table: r.Normal(3, 4)}},
			{"rows of width 4, table of width 6 (error)", LearnedIn{X: r.Normal(2, 4), Table: r.Normal(5, 6)}},
		}
	},
	Hidden: func(r *random.Source) []Case[LearnedIn] {
		rows, d := intIn(r, 3, 50), intIn(r, 1, 8)
		n := intIn(r, 1, rows)
		return []Case[LearnedIn]{
			{fmt.Sprintf("%d tokens, a table of %d rows", n, rows), LearnedIn{X: r.Normal(n, d), Table: r.Normal(rows, d)}},
			{"as many tokens as rows", LearnedIn{X: r.Normal(rows, d), Table: r.Normal(rows, d)}},
			{"one token", LearnedIn{X: r.Normal(1, d), Table: r.Normal(rows, d)}},
			{"one token more than rows (error)", LearnedIn{X: r.Normal(rows+1, d), Table: r.Normal(rows, d)}},
			{"no tokens (error)", LearnedIn{X: nil, Table: r.Normal(rows, d)}},
			{"rows of another width (error)", LearnedIn{X: r.Normal(2, d), Table: r.Normal(rows, d+1)}},
		}
	},
	Compare: compareLearned,
	Hints: []Hint[LearnedIn, LearnedOut]{
		{Name: "too-long", Message: "a learned table has no row past its last: return an error when len(x) > len(table)",
			Detect: func(in LearnedIn, got LearnedOut) bool { return !got.Err && len(in.X) > len(in.Table) }},
		{Name: "width", Message: "check that every row of x is as wide as the table's rows, else return an error",
			Detect: func(in LearnedIn, got LearnedOut) bool { return !got.Err && learnedRef(in).Err && len(in.X) > 0 }},
		{Name: "empty", Message: "an empty x is an error too (there is nothing to add positions to)",
			Detect: func(in LearnedIn, got LearnedOut) bool { return !got.Err && len(in.X) == 0 }},
	},
	Deny:  []string{"lib/posenc.NewLearned", "lib/posenc.Learned"},
	Allow: StdOnly,
})

// AddLearned checks the learner's AddLearned: x + table[:len(x)], with an
// error past the table's last row.
func AddLearned(f func(x, table [][]float64) ([][]float64, error)) *Result {
	return learnedSpec.Check(f)
}
