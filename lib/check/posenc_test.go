package check

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/viz"
)

// peSolution is a learner-style solution: exp-log instead of pow.
func peSolution(seqLen, d int, n float64) [][]float64 {
	p := make([][]float64, seqLen)
	for k := range p {
		p[k] = make([]float64, d)
		for j := range p[k] {
			angle := float64(k) * math.Exp(-float64(2*(j/2))/float64(d)*math.Log(n))
			if j%2 == 0 {
				p[k][j] = math.Sin(angle)
			} else {
				p[k][j] = math.Cos(angle)
			}
		}
	}
	return p
}

func TestPEHints(t *testing.T) {
	variant := func(v PEVariant) func(int, int, float64) [][]float64 {
		return func(s, d int, n float64) [][]float64 { return peVariant(PEIn{Seq: s, D: d, Base: n}, v) }
	}
	expectHints(t, peSpec, peSolution, []hintCase[func(int, int, float64) [][]float64]{
		{"sin and cos swapped", "sin-cos-swapped", variant(PEVariant{Swap: true})},
		{"position and i mixed up", "pos-i-mixed", variant(PEVariant{PosI: true})},
		{"exponent j/d", "exponent-j", variant(PEVariant{ExpJ: true})},
		{"exponent i/d", "exponent-i", variant(PEVariant{NoTwo: true})},
		{"loop over pairs (odd d)", "odd-d", variant(PEVariant{EvenOnly: true})},
		{"transposed", "shape", func(s, d int, n float64) [][]float64 { return reference.Transpose(peSolution(s, d, n)) }},
		{"base ignored", "base-ignored", func(s, d int, n float64) [][]float64 { return peSolution(s, d, 10000) }},
	})
}

// peGraphSolution is a learner-style graph: iota, pow, sin, cos, where.
func peGraphSolution(g *graph.Graph, seqLen, d int, n float64) *graph.Node {
	pos := graph.Iota(g, shapes.Make(dtypes.Float32, seqLen, d), 0)
	j := graph.Iota(g, shapes.Make(dtypes.Float32, seqLen, d), 1)
	parity := graph.Mod(j, graph.Scalar(g, dtypes.Float32, 2))
	twoI := graph.Sub(j, parity)
	angles := graph.Div(pos, graph.Pow(graph.Scalar(g, dtypes.Float32, n), graph.DivScalar(twoI, float64(d))))
	return graph.Where(graph.Equal(parity, graph.ZerosLike(parity)), graph.Sin(angles), graph.Cos(angles))
}

func TestPEGraphHints(t *testing.T) {
	// A wrong graph: the table computed in Go with sin and cos swapped,
	// put in as a constant.
	swapped := func(g *graph.Graph, s, d int, n float64) *graph.Node {
		return graph.Const(g, peVariant(PEIn{Seq: s, D: d, Base: n}, PEVariant{Swap: true}))
	}
	expectHints(t, peGraphSpec, peGraphSolution, []hintCase[peGraphFunc]{
		{"sin and cos swapped", "sin-cos-swapped", swapped},
	})
	res := peGraphSpec.Run(func(g *graph.Graph, s, d int, n float64) *graph.Node {
		return graph.Transpose(peGraphSolution(g, s, d, n), 0, 1)
	}, false)
	if res.Cases[0].Passed || !strings.Contains(res.Cases[2].Problem, "has shape") || !strings.Contains(res.Cases[2].Problem, "[seqLen, d]") {
		t.Errorf("a transposed node passed or was not told its shape:\n%s", res.Report())
	}
	res = peGraphSpec.Run(func(g *graph.Graph, s, d int, n float64) *graph.Node { return nil }, false)
	if res.Points != 0 || !strings.Contains(res.Cases[0].Problem, "returned nil") {
		t.Errorf("nil scored %v, or was not told it returned nil:\n%s", res.Points, res.Report())
	}
}

func seriesSolution(pe [][]float64, dims []int) []viz.Series {
	return reference.SinusoidSeries(pe, dims)
}

func TestSeriesHints(t *testing.T) {
	expectHints(t, seriesSpec, seriesSolution, []hintCase[func([][]float64, []int) []viz.Series]{
		{"named by column", "pair-index", func(pe [][]float64, dims []int) []viz.Series {
			s := reference.SinusoidSeries(pe, dims)
			for i, j := range dims {
				s[i].Name = fmt.Sprintf("%s %d", map[bool]string{true: "sine", false: "cosine"}[j%2 == 0], j)
			}
			return s
		}},
		{"rows instead of columns", "row-not-column", func(pe [][]float64, dims []int) []viz.Series {
			s := reference.SinusoidSeries(pe, dims)
			for i, j := range dims {
				if j < len(pe) {
					s[i].Y = pe[j]
				}
			}
			return s
		}},
		{"sine and cosine names swapped", "sine-cosine-names", func(pe [][]float64, dims []int) []viz.Series {
			s := reference.SinusoidSeries(pe, dims)
			for i, j := range dims {
				s[i].Name = fmt.Sprintf("%s %d", map[bool]string{false: "sine", true: "cosine"}[j%2 == 0], j/2)
			}
			return s
		}},
	})
}

func embedSolution(table [][]float64, ids []int, pe [][]float64) [][]float64 {
	return reference.EmbedWithPositions(table, ids, pe)
}

func TestEmbedHints(t *testing.T) {
	variant := func(f func(EmbedIn) [][]float64) func([][]float64, []int, [][]float64) [][]float64 {
		return func(table [][]float64, ids []int, pe [][]float64) [][]float64 {
			return f(EmbedIn{Table: table, PE: pe, IDs: ids})
		}
	}
	expectHints(t, embedSpec, embedSolution, []hintCase[func([][]float64, []int, [][]float64) [][]float64]{
		{"no √d", "no-scale", variant(embedVariant(true, false, false))},
		{"√d on the encoding", "scaled-pe", variant(embedVariant(false, true, false))},
		{"pe[ids[p]]", "pe-by-id", variant(embedVariant(false, false, true))},
	})
}

func growSolution(table [][]float64, n, d int, base float64) [][]float64 {
	for k := len(table); k < n; k++ {
		table = append(table, peSolution(k+1, d, base)[k])
	}
	return table
}

func TestGrowHints(t *testing.T) {
	type growFunc = func([][]float64, int, int, float64) [][]float64
	expectHints(t, growSpec, growSolution, []hintCase[growFunc]{
		{"always n rows", "shrinks", func(table [][]float64, n, d int, base float64) [][]float64 {
			return reference.PositionalEncoding(n, d, base)
		}},
		{"new rows only", "new-rows-only", func(table [][]float64, n, d int, base float64) [][]float64 {
			if n <= len(table) {
				return table
			}
			return reference.PositionalEncoding(n, d, base)[len(table):]
		}},
		{"positions restart at 0", "restarted-positions", func(table [][]float64, n, d int, base float64) [][]float64 {
			if n <= len(table) {
				return table
			}
			return append(table, reference.PositionalEncoding(n-len(table), d, base)...)
		}},
		{"one row short", "off-by-one", func(table [][]float64, n, d int, base float64) [][]float64 {
			if n <= len(table) {
				return table
			}
			return reference.PositionalEncoding(n-1, d, base)
		}},
	})
}

type tokenFunc = func([]int, [][]float64, [][]float64, [][]float64, [][]float64, bool) ([][]float64, [][]float64)

// tokenSolution uses the course's eager attention, as a learner may.
func tokenSolution(ids []int, emb, wq, wk, wv [][]float64, mask bool) ([][]float64, [][]float64) {
	x := embedSolution(emb, ids, peSolution(len(ids), len(emb[0]), 10000))
	var m [][]float64
	if mask {
		m = attention.LookAhead(len(ids))
	}
	s, err := attention.Explain(reference.MatMul(x, wq), reference.MatMul(x, wk), reference.MatMul(x, wv), &attention.Options{Mask: m})
	if err != nil {
		panic(err)
	}
	return s.Weights, s.Output
}

func TestTokenHints(t *testing.T) {
	variant := func(v TokenVariant) tokenFunc {
		return func(ids []int, emb, wq, wk, wv [][]float64, mask bool) ([][]float64, [][]float64) {
			o := tokenVariant(v)(TokenIn{IDs: ids, Emb: emb, WQ: wq, WK: wk, WV: wv, Mask: mask})
			return o.A, o.B
		}
	}
	expectHints(t, tokenSpec, tokenSolution, []hintCase[tokenFunc]{
		{"mask after the softmax", "mask-after-softmax", variant(TokenVariant{MaskAfter: true})},
		{"mask ignored", "future-open", variant(TokenVariant{NoMask: true})},
		{"diagonal masked", "diagonal-masked", variant(TokenVariant{MaskDiagonal: true})},
		{"past masked", "past-masked", variant(TokenVariant{MaskLower: true})},
		{"no positions", "no-positions", variant(TokenVariant{NoPE: true})},
		{"no √d_model", "no-embedding-scale", variant(TokenVariant{NoEmbScale: true})},
		{"no √d_k", "no-scale", variant(TokenVariant{NoScale: true})},
	})
}

func multiheadSolution(ids []int, emb [][]float64, w *attention.MultiHeadWeights, heads int, mask bool) ([][][]float64, [][]float64) {
	x := embedSolution(emb, ids, peSolution(len(ids), len(emb[0]), 10000))
	var m [][]float64
	if mask {
		m = attention.LookAhead(len(ids))
	}
	res, err := attention.ExplainMultiHead(x, x, heads, w, &attention.Options{Mask: m})
	if err != nil {
		panic(err)
	}
	return res.Weights, res.Output
}

func TestMultiHeadHints(t *testing.T) {
	variant := func(v MultiHeadVariant) multiheadFunc {
		return func(ids []int, emb [][]float64, w *attention.MultiHeadWeights, heads int, mask bool) ([][][]float64, [][]float64) {
			o := multiheadVariant(v)(MultiHeadIn{IDs: ids, Emb: emb, MH: w, Heads: heads, Mask: mask})
			return o.A, o.B
		}
	}
	expectHints(t, multiheadSpec, multiheadSolution, []hintCase[multiheadFunc]{
		{"mask ignored", "future-open", variant(MultiHeadVariant{NoMask: true})},
		{"no positions", "no-positions", variant(MultiHeadVariant{NoPE: true})},
		{"√d_model", "scale-d-model", variant(MultiHeadVariant{ScaleDModel: true})},
		{"interleaved heads", "interleaved-heads", variant(MultiHeadVariant{Interleaved: true})},
		{"no W_O", "no-output-projection", variant(MultiHeadVariant{NoOutput: true})},
	})
}

func learnedSolution(x, table [][]float64) ([][]float64, error) {
	return reference.AddLearned(x, table)
}

func TestLearnedHints(t *testing.T) {
	type learnedFunc = func([][]float64, [][]float64) ([][]float64, error)
	add := func(x, table [][]float64) [][]float64 {
		out := make([][]float64, len(x))
		for p := range x {
			for c := range x[p] {
				if c < len(table[p%len(table)]) {
					out[p] = append(out[p], x[p][c]+table[p%len(table)][c])
				}
			}
		}
		return out
	}
	expectHints(t, learnedSpec, learnedSolution, []hintCase[learnedFunc]{
		{"no length check", "too-long", func(x, table [][]float64) ([][]float64, error) {
			if len(x) == 0 {
				return nil, errors.New("empty")
			}
			return add(x, table), nil
		}},
		{"no width check", "width", func(x, table [][]float64) ([][]float64, error) {
			if len(x) == 0 || len(x) > len(table) {
				return nil, errors.New("bad")
			}
			return add(x, table), nil
		}},
		{"empty accepted", "empty", func(x, table [][]float64) ([][]float64, error) {
			if len(x) == 0 {
				return nil, nil
			}
			return reference.AddLearned(x, table)
		}},
	})
}
