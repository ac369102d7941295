package attention

import (
	"fmt"
	"math"
	"strings"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/internal/eager"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the attention of the recurrent encoder-decoder models that
// came before the Transformer: one decoder state (the query) looks at every
// encoder state of the source sentence (the keys and values). Every model of
// that family computes
//
//	e_s = score(h_t, h_s)                   one number per source position s
//	α_s = exp(e_s) / Σ_s' exp(e_s')          the weights, summing to 1
//	c_t = Σ_s α_s · h_s                      the context vector
//
// and differs only in the score. Vectors are rows, as everywhere in the
// course: where a paper writes W·h for a column vector h, the library stores
// the transposed matrix and computes h·W.

// ScoreKind names one of the score functions of Bahdanau et al. (additive)
// and Luong et al. (dot, general, concat).
//
// Introduced in lesson 02 (Bahdanau and Luong attention).
type ScoreKind string

// The four score functions; see [AdditiveScore], [DotScore], [GeneralScore]
// and [ConcatScore].
const (
	Additive ScoreKind = "additive" // Bahdanau: vᵀ·tanh(W1·h_t + W2·h_s)
	Dot      ScoreKind = "dot"      // Luong: h_tᵀ·h_s
	General  ScoreKind = "general"  // Luong: h_tᵀ·W·h_s
	Concat   ScoreKind = "concat"   // Luong: vᵀ·tanh(W·[h_t; h_s])
)

// ScoreKinds lists the four score functions in the order lesson 02 presents
// them. Treat it as read-only.
//
// Introduced in lesson 07.
var ScoreKinds = []ScoreKind{Additive, Dot, General, Concat}

// AdditiveScore is the score of Bahdanau, Cho & Bengio, "Neural Machine
// Translation by Jointly Learning to Align and Translate" (ICLR 2015),
// their alignment model a(s_{i-1}, h_j), also called additive or "concat"
// attention:
//
//	score(h_t, h_s) = vᵀ · tanh(W1·h_t + W2·h_s)
//
// The query and every key are projected into a common attention space of
// size attn, added, squashed by tanh and reduced to one number by v: a
// one-hidden-layer network that scores each pair. Query and keys may have
// different sizes, and attn is free. The key projection h_s·W2 does not
// depend on the decoder step, so a model computes it once per sentence.
// In Bahdanau's decoder the query is the previous decoder state s_{t-1}.
//
// Typical shapes: query [batch, hidden_q], keys [batch, seq, hidden_k],
// w1 [hidden_q, attn], w2 [hidden_k, attn], v [attn] → scores
// [batch, seq].
//
// Introduced in lesson 02.
func AdditiveScore(query, keys, w1, w2, v *graph.Node) *graph.Node {
	_, _, hq, hk := checkQueryKeys("AdditiveScore", query, keys)
	attn := checkVector("AdditiveScore", "v", v)
	checkWeight("AdditiveScore", "w1", w1, hq, attn)
	checkWeight("AdditiveScore", "w2", w2, hk, attn)
	q := graph.MatMul(query, w1)           // Shape: [batch, hidden_q] x [hidden_q, attn] → [batch, attn]
	k := graph.MatMul(keys, w2)            // Shape: [batch, seq, hidden_k] x [hidden_k, attn] → [batch, seq, attn]
	q = graph.InsertAxes(q, 1)             // Shape: [batch, 1, attn]: the same query for every key
	h := graph.Tanh(graph.Add(q, k))       // Shape: [batch, seq, attn]
	return graph.Einsum("bsa,a->bs", h, v) // Shape: [batch, seq, attn] · [attn] → [batch, seq]
}

// DotScore is the simplest score of Luong, Pham & Manning, "Effective
// Approaches to Attention-based Neural Machine Translation" (EMNLP 2015):
//
//	score(h_t, h_s) = h_tᵀ · h_s
//
// No parameters: a key scores high when it points the same way as the
// query. Query and keys must have the same size. Divided by √hidden it is
// the scaled dot-product score of the Transformer (lesson 01); without the
// division, large hidden sizes saturate the softmax.
//
// Typical shapes: query [batch, hidden], keys [batch, seq, hidden] →
// scores [batch, seq].
//
// Introduced in lesson 02.
func DotScore(query, keys *graph.Node) *graph.Node {
	_, _, hq, hk := checkQueryKeys("DotScore", query, keys)
	if hq != hk {
		exceptions.Panicf("attention.DotScore: query and keys must have the same size, got %s and %s "+
			"(use GeneralScore or AdditiveScore for different sizes)", query.Shape(), keys.Shape())
	}
	return graph.Einsum("bh,bsh->bs", query, keys) // Shape: [batch, hidden] · [batch, seq, hidden] → [batch, seq]
}

// GeneralScore is Luong et al.'s "general" (bilinear, multiplicative) score
// (Luong, Pham & Manning, "Effective Approaches to Attention-based Neural
// Machine Translation", EMNLP 2015):
//
//	score(h_t, h_s) = h_tᵀ · W · h_s
//
// W learns which components of the query should match which components of
// a key; with W = I it is [DotScore]. Query and keys may have different
// sizes. The query is multiplied by W first, once per decoder step
// (hidden_q·hidden_k multiply-adds), then dotted with every key.
//
// Typical shapes: query [batch, hidden_q], keys [batch, seq, hidden_k],
// w [hidden_q, hidden_k] → scores [batch, seq].
//
// Introduced in lesson 02.
func GeneralScore(query, keys, w *graph.Node) *graph.Node {
	_, _, hq, hk := checkQueryKeys("GeneralScore", query, keys)
	checkWeight("GeneralScore", "w", w, hq, hk)
	qw := graph.MatMul(query, w)                // Shape: [batch, hidden_q] x [hidden_q, hidden_k] → [batch, hidden_k]
	return graph.Einsum("bk,bsk->bs", qw, keys) // Shape: [batch, hidden_k] · [batch, seq, hidden_k] → [batch, seq]
}

// ConcatScore is Luong et al.'s "concat" score (Luong, Pham & Manning,
// "Effective Approaches to Attention-based Neural Machine Translation",
// EMNLP 2015):
//
//	score(h_t, h_s) = vᵀ · tanh(W · [h_t; h_s])
//
// The query and a key are stacked into one vector of hidden_q + hidden_k
// numbers and go through one tanh layer and v. Splitting W into its first
// hidden_q rows W1 and its last hidden_k rows W2 shows that this is
// [AdditiveScore] with the query computed from the current decoder state
// h_t; it is written here as the concatenation the formula describes.
//
// Typical shapes: query [batch, hidden_q], keys [batch, seq, hidden_k],
// w [hidden_q + hidden_k, attn], v [attn] → scores [batch, seq].
//
// Introduced in lesson 02.
func ConcatScore(query, keys, w, v *graph.Node) *graph.Node {
	batch, seq, hq, hk := checkQueryKeys("ConcatScore", query, keys)
	attn := checkVector("ConcatScore", "v", v)
	checkWeight("ConcatScore", "w", w, hq+hk, attn)
	q := graph.InsertAxes(query, 1)                       // Shape: [batch, 1, hidden_q]
	q = graph.BroadcastToDims(q, batch, seq, hq)          // Shape: [batch, seq, hidden_q]: h_t next to every h_s
	pair := graph.Concatenate([]*graph.Node{q, keys}, -1) // Shape: [batch, seq, hidden_q + hidden_k] = [h_t; h_s]
	h := graph.Tanh(graph.MatMul(pair, w))                // Shape: [batch, seq, hidden_q + hidden_k] x [hidden_q + hidden_k, attn] → [batch, seq, attn]
	return graph.Einsum("bsa,a->bs", h, v)                // Shape: [batch, seq, attn] · [attn] → [batch, seq]
}

// Context turns the scores of one decoder step into attention weights and
// the context vector, the second half of every Bahdanau or Luong attention:
//
//	α_s = softmax(e)_s = exp(e_s) / Σ_s' exp(e_s')
//	c   = Σ_s α_s · v_s
//
// The weights are positive and sum to 1 over the source positions; the
// context is the weighted average of the values — a soft lookup that
// blends every value instead of returning one. In Bahdanau and Luong
// attention the values are the encoder states, the same vectors as the
// keys.
//
// mask is nil or Bool with true where a source position is padding: its
// score is set to -1e9 before the softmax (see [Softmax]), so its weight is
// exactly 0. It is [batch, seq], anything that broadcasts to it such as
// [seq], or the [batch, 1, seq] of [PaddingMask]. A row whose every
// position is masked gets uniform weights (a defined result, not NaN).
//
// Typical shapes: scores [batch, seq], values [batch, seq, hidden_v] →
// context [batch, hidden_v], weights [batch, seq].
//
// Introduced in lesson 02.
func Context(scores, values, mask *graph.Node) (context, weights *graph.Node) {
	if scores.Rank() != 2 || values.Rank() != 3 ||
		scores.Shape().Dim(0) != values.Shape().Dim(0) || scores.Shape().Dim(1) != values.Shape().Dim(1) {
		exceptions.Panicf("attention.Context: scores must be [batch, seq] and values [batch, seq, hidden_v], got %s and %s",
			scores.Shape(), values.Shape())
	}
	masked := scores
	if mask != nil {
		if mask.Rank() == 3 && mask.Shape().Dim(1) == 1 {
			mask = graph.Reshape(mask, mask.Shape().Dim(0), mask.Shape().Dim(2)) // Shape: [batch, 1, seq] → [batch, seq]
		}
		masked = applyMask(scores, mask)
	}
	weights = Softmax(masked, 1)                          // Shape: [batch, seq]
	context = graph.Einsum("bs,bsh->bh", weights, values) // Shape: [batch, seq] · [batch, seq, hidden_v] → [batch, hidden_v]
	return context, weights
}

// ScoreParams holds the parameters of a score function as graph nodes, so
// that [Score] runs with constants (lessons) or trainable variables
// (training lessons). Only the fields the kind uses are read:
//
//	Additive  W1 [hidden_q, attn], W2 [hidden_k, attn], V [attn]
//	Dot       none
//	General   W [hidden_q, hidden_k]
//	Concat    W [hidden_q + hidden_k, attn], V [attn]
//
// Introduced in lesson 02.
type ScoreParams struct {
	W1, W2, W, V *graph.Node
}

// Score computes the scores of kind with the parameters p: it calls
// [AdditiveScore], [DotScore], [GeneralScore] or [ConcatScore].
//
// Typical shapes: query [batch, hidden_q], keys [batch, seq, hidden_k] →
// scores [batch, seq].
//
// Introduced in lesson 02.
func Score(kind ScoreKind, query, keys *graph.Node, p ScoreParams) *graph.Node {
	need := func(names string, nodes ...*graph.Node) {
		for _, n := range nodes {
			if n == nil {
				exceptions.Panicf("attention.Score: the %s score needs ScoreParams %s", kind, names)
			}
		}
	}
	switch kind {
	case Additive:
		need("W1, W2 and V", p.W1, p.W2, p.V)
		return AdditiveScore(query, keys, p.W1, p.W2, p.V)
	case Dot:
		return DotScore(query, keys)
	case General:
		need("W", p.W)
		return GeneralScore(query, keys, p.W)
	case Concat:
		need("W and V", p.W, p.V)
		return ConcatScore(query, keys, p.W, p.V)
	}
	exceptions.Panicf("attention.Score: unknown score kind %q (want one of %v)", kind, ScoreKinds)
	return nil
}

// Keys holds the keys a decoder attends to, with the part of every score
// that depends on them alone computed once. A decoder scores the same
// encoder states at each of its steps; [Score] called at every step would
// project them again — W2·h_s for the additive score, the key rows of W
// for concat — and training would differentiate each copy. Prepared once,
// the projection is computed and differentiated once per sentence:
//
//	additive  score = vᵀ · tanh(W1·h_t + K),  K = W2·h_s          (prepared)
//	concat    score = vᵀ · tanh(W_q·h_t + K), K = W_k·h_s, W = [W_q; W_k]
//
// The dot and general scores have no key-only part (general multiplies
// the query by W, which is cheaper than multiplying every key). Keys.Score
// returns the scores of [Score] — tested equal — only the order of the
// work differs.
//
// Typical shapes: keys [batch, seq, hidden_k] → prepared [batch, seq,
// attn]; query [batch, hidden_q] → scores [batch, seq].
//
// Introduced in lesson 07.
type Keys struct {
	kind     ScoreKind
	keys     *graph.Node
	prepared *graph.Node // [batch, seq, attn]: W2·h_s or W_k·h_s; nil for dot and general
	wq       *graph.Node // the query's weights: W1 or W_q
	p        ScoreParams
	hq, hk   int
}

// PrepareKeys computes the key-only part of kind's score for keys (see
// [Keys]); score each decoder step's query with Keys.Score.
//
// Introduced in lesson 07.
func PrepareKeys(kind ScoreKind, keys *graph.Node, p ScoreParams) *Keys {
	if keys.Rank() != 3 {
		exceptions.Panicf("attention.PrepareKeys: keys must be [batch, seq, hidden_k], got %s", keys.Shape())
	}
	k := &Keys{kind: kind, keys: keys, p: p, hk: keys.Shape().Dim(2)}
	switch kind {
	case Additive:
		if p.W1 == nil || p.W2 == nil || p.V == nil {
			exceptions.Panicf("attention.PrepareKeys: the %s score needs ScoreParams W1, W2 and V", kind)
		}
		attn := checkVector("PrepareKeys", "v", p.V)
		k.hq = p.W1.Shape().Dim(0)
		checkWeight("PrepareKeys", "w1", p.W1, k.hq, attn)
		checkWeight("PrepareKeys", "w2", p.W2, k.hk, attn)
		k.wq = p.W1
		k.prepared = graph.MatMul(keys, p.W2) // Shape: [batch, seq, hidden_k] x [hidden_k, attn] → [batch, seq, attn]
	case Concat:
		if p.W == nil || p.V == nil {
			exceptions.Panicf("attention.PrepareKeys: the %s score needs ScoreParams W and V", kind)
		}
		attn := checkVector("PrepareKeys", "v", p.V)
		k.hq = p.W.Shape().Dim(0) - k.hk
		checkWeight("PrepareKeys", "w", p.W, k.hq+k.hk, attn)
		k.wq = graph.Slice(p.W, graph.AxisRange(0, k.hq))        // Shape: [hidden_q + hidden_k, attn] → [hidden_q, attn]: W_q
		wk := graph.Slice(p.W, graph.AxisRange(k.hq, k.hq+k.hk)) // Shape: → [hidden_k, attn]: W_k
		k.prepared = graph.MatMul(keys, wk)                      // Shape: [batch, seq, hidden_k] x [hidden_k, attn] → [batch, seq, attn]
	case Dot, General:
	default:
		exceptions.Panicf("attention.PrepareKeys: unknown score kind %q (want one of %v)", kind, ScoreKinds)
	}
	return k
}

// Score returns the scores of query against the prepared keys, equal to
// Score(kind, query, keys, p).
//
// Typical shapes: query [batch, hidden_q] → scores [batch, seq].
func (k *Keys) Score(query *graph.Node) *graph.Node {
	if k.prepared == nil {
		return Score(k.kind, query, k.keys, k.p)
	}
	_, _, hq, _ := checkQueryKeys("Keys.Score", query, k.keys)
	if hq != k.hq {
		exceptions.Panicf("attention.Keys.Score: the %s score's weights take queries of %d numbers, got %s", k.kind, k.hq, query.Shape())
	}
	q := graph.InsertAxes(graph.MatMul(query, k.wq), 1) // Shape: [batch, hidden_q] x [hidden_q, attn] → [batch, attn] → [batch, 1, attn]
	h := graph.Tanh(graph.Add(q, k.prepared))           // Shape: [batch, seq, attn]
	return graph.Einsum("bsa,a->bs", h, k.p.V)          // Shape: [batch, seq, attn] · [attn] → [batch, seq]
}

// checkQueryKeys checks query [batch, hidden_q] and keys [batch, seq,
// hidden_k] and returns their dimensions.
func checkQueryKeys(fn string, query, keys *graph.Node) (batch, seq, hq, hk int) {
	if query.Rank() != 2 || keys.Rank() != 3 || query.Shape().Dim(0) != keys.Shape().Dim(0) {
		exceptions.Panicf("attention.%s: query must be [batch, hidden_q] and keys [batch, seq, hidden_k] "+
			"with the same batch, got %s and %s", fn, query.Shape(), keys.Shape())
	}
	d := keys.Shape().Dimensions
	return d[0], d[1], query.Shape().Dim(1), d[2]
}

// checkWeight checks that w is [rows, cols].
func checkWeight(fn, name string, w *graph.Node, rows, cols int) {
	if w.Rank() != 2 || w.Shape().Dim(0) != rows || w.Shape().Dim(1) != cols {
		exceptions.Panicf("attention.%s: %s must be [%d, %d], got %s", fn, name, rows, cols, w.Shape())
	}
}

// checkVector checks that v is a vector and returns its length.
func checkVector(fn, name string, v *graph.Node) int {
	if v.Rank() != 1 {
		exceptions.Panicf("attention.%s: %s must be a vector [attn], got %s", fn, name, v.Shape())
	}
	return v.Shape().Dim(0)
}

// ScoreWeights holds concrete values for [ScoreParams]: the parameters of
// one score function that a lesson builds without training. Only the fields
// Kind uses are set. The zero value with Kind: Dot is a valid dot score.
//
// Typical shapes: W1 [hidden_q][attn], W2 [hidden_k][attn], V [attn]
// (additive); W [hidden_q][hidden_k] (general); W [hidden_q + hidden_k][attn],
// V [attn] (concat).
//
// Introduced in lesson 02.
type ScoreWeights struct {
	Kind      ScoreKind
	W1, W2, W [][]float64
	V         []float64
}

// NewScoreWeights draws the parameters of kind for queries and keys of size
// hidden and an attention space of size hidden, from seed, with the
// standard deviation 1/√fan_in of each matrix (see [DrawScoreWeights]).
//
// Introduced in lesson 02.
func NewScoreWeights(kind ScoreKind, hidden int, seed uint32) *ScoreWeights {
	return DrawScoreWeights(random.New(seed), kind, hidden, hidden, hidden, 0)
}

// DrawScoreWeights draws the parameters of kind from r, with normal entries
// of mean 0 and standard deviation std, in the order W1, W2, V (additive),
// W (general), W, V (concat), each matrix row by row — like numpy's
// np.random.normal(0, std, shape) called in that order. std = 0 draws each
// matrix with 1/√fan_in instead (fan_in: hidden_q for W1, hidden_k for W2
// and the general W, hidden_q + hidden_k for the concat W, attn for V),
// which keeps the projections at the scale of their inputs.
//
// attn is ignored by the dot and general scores. It panics on sizes < 1,
// an unknown kind, or a dot score with hidden_q ≠ hidden_k.
//
// Typical shapes: hidden_q = hidden_k = attn = 64 ([NewScoreWeights]); the
// source's Luong example draws a general W [6][6] with std 0.1.
//
// Introduced in lesson 02.
func DrawScoreWeights(r *random.Source, kind ScoreKind, hiddenQ, hiddenK, attn int, std float64) *ScoreWeights {
	if hiddenQ < 1 || hiddenK < 1 {
		panic(fmt.Sprintf("attention.DrawScoreWeights: hidden sizes must be ≥ 1, got %d and %d", hiddenQ, hiddenK))
	}
	if (kind == Additive || kind == Concat) && attn < 1 {
		panic(fmt.Sprintf("attention.DrawScoreWeights: the %s score needs an attention size ≥ 1, got %d", kind, attn))
	}
	// draw returns a rows×cols matrix with standard deviation std, or
	// 1/√fanIn when std is 0.
	draw := func(rows, cols, fanIn int) [][]float64 {
		s := std
		if s == 0 {
			s = 1 / math.Sqrt(float64(fanIn))
		}
		m := r.Normal(rows, cols)
		for _, row := range m {
			for j := range row {
				row[j] *= s
			}
		}
		return m
	}
	vector := func(n int) []float64 {
		v := make([]float64, 0, n)
		for _, row := range draw(n, 1, n) {
			v = append(v, row[0])
		}
		return v
	}
	w := &ScoreWeights{Kind: kind}
	switch kind {
	case Additive:
		w.W1 = draw(hiddenQ, attn, hiddenQ)
		w.W2 = draw(hiddenK, attn, hiddenK)
		w.V = vector(attn)
	case Dot:
		if hiddenQ != hiddenK {
			panic(fmt.Sprintf("attention.DrawScoreWeights: the dot score needs hidden_q = hidden_k, got %d and %d", hiddenQ, hiddenK))
		}
	case General:
		w.W = draw(hiddenQ, hiddenK, hiddenK) // W·h_s maps a key (hidden_k numbers) into the query's space
	case Concat:
		w.W = draw(hiddenQ+hiddenK, attn, hiddenQ+hiddenK)
		w.V = vector(attn)
	default:
		panic(fmt.Sprintf("attention.DrawScoreWeights: unknown score kind %q (want one of %v)", kind, ScoreKinds))
	}
	return w
}

// NumParams returns the number of parameters: 2·hidden·attn + attn for
// additive (hidden_q·attn + hidden_k·attn + attn in general), 0 for dot,
// hidden_q·hidden_k for general, (hidden_q + hidden_k)·attn + attn for
// concat.
func (w *ScoreWeights) NumParams() int {
	n := len(w.V)
	for _, m := range [][][]float64{w.W1, w.W2, w.W} {
		for _, row := range m {
			n += len(row)
		}
	}
	return n
}

// Params returns the weights as float32 constants of graph g.
func (w *ScoreWeights) Params(g *graph.Graph) ScoreParams {
	var p ScoreParams
	matrix := func(m [][]float64) *graph.Node {
		if m == nil {
			return nil
		}
		return graph.ConstTensor(g, eager.Tensor(m))
	}
	p.W1, p.W2, p.W = matrix(w.W1), matrix(w.W2), matrix(w.W)
	if w.V != nil {
		p.V = graph.Reshape(graph.ConstTensor(g, eager.Tensor([][]float64{w.V})), len(w.V)) // Shape: [1, attn] → [attn]
	}
	return p
}

// check reports what is wrong with the weights for queries of size hq and
// keys of size hk.
func (w *ScoreWeights) check(hq, hk int) error {
	if w == nil {
		return fmt.Errorf("no score weights: use NewScoreWeights or &ScoreWeights{Kind: Dot}")
	}
	matrix := func(name string, m [][]float64, rows, cols int, what string) error {
		if err := checkMatrix(name, m, rows, cols); err != nil {
			return fmt.Errorf("the %s score: %w (%s must be %s)", w.Kind, err, name, what)
		}
		return nil
	}
	vector := func(attn int) error {
		if len(w.V) != attn {
			return fmt.Errorf("the %s score: V has %d entries, want attn = %d (the columns of W)", w.Kind, len(w.V), attn)
		}
		return nil
	}
	switch w.Kind {
	case Additive:
		if err := matrix("W1", w.W1, hq, -1, fmt.Sprintf("[hidden_q = %d][attn]", hq)); err != nil {
			return err
		}
		attn := len(w.W1[0])
		if err := matrix("W2", w.W2, hk, attn, fmt.Sprintf("[hidden_k = %d][attn = %d]", hk, attn)); err != nil {
			return err
		}
		return vector(attn)
	case Dot:
		if hq != hk {
			return fmt.Errorf("the dot score needs queries and keys of the same size, got %d and %d: use the general or additive score", hq, hk)
		}
		return nil
	case General:
		return matrix("W", w.W, hq, hk, fmt.Sprintf("[hidden_q = %d][hidden_k = %d]", hq, hk))
	case Concat:
		if err := matrix("W", w.W, hq+hk, -1, fmt.Sprintf("[hidden_q + hidden_k = %d][attn]", hq+hk)); err != nil {
			return err
		}
		return vector(len(w.W[0]))
	}
	return fmt.Errorf("unknown score kind %q (want one of %v)", w.Kind, ScoreKinds)
}

// Alignment is what [Attend] and [Align] return: the attention of one or
// more decoder states, one row per query.
//
// Typical shapes: scores and weights [batch][seq] (Align: [tgt][src]),
// context [batch][hidden_v].
//
// Introduced in lesson 02.
type Alignment struct {
	Kind    ScoreKind   // the score function used
	Params  int         // its number of parameters
	Scores  [][]float64 // score(h_t, h_s), before the mask   [rows][seq]
	Weights [][]float64 // softmax of the (masked) scores      [rows][seq]
	Context [][]float64 // Σ_s weight_s · value_s              [rows][hidden_v]
}

// Attend runs one Bahdanau or Luong attention step on a batch: the score of
// w.Kind ([Score]), then [Context]:
//
//	e = score(query, keys),   α = softmax(e masked),   context = Σ_s α_s · values_s
//
// mask is nil or [batch][seq] with 1 where a position is padding (its
// weight is then exactly 0). It computes in float32 on the course backend.
//
// Typical shapes: query [batch][hidden_q], keys [batch][seq][hidden_k],
// values [batch][seq][hidden_v] → scores and weights [batch][seq], context
// [batch][hidden_v].
//
// Introduced in lesson 02.
func Attend(query [][]float64, keys, values [][][]float64, w *ScoreWeights, mask [][]float64) (*Alignment, error) {
	if err := checkMatrix("query", query, -1, -1); err != nil {
		return nil, fmt.Errorf("attention.Attend: %w (query is [batch][hidden_q])", err)
	}
	batch := len(query)
	kt, err := tensor3("keys", keys, batch, -1, -1)
	if err != nil {
		return nil, fmt.Errorf("attention.Attend: %w", err)
	}
	seq, hq, hk := len(keys[0]), len(query[0]), len(keys[0][0])
	vt, err := tensor3("values", values, batch, seq, -1)
	if err != nil {
		return nil, fmt.Errorf("attention.Attend: %w (values has one vector per key)", err)
	}
	if err := w.check(hq, hk); err != nil {
		return nil, fmt.Errorf("attention.Attend: %w", err)
	}
	inputs := []any{eager.Tensor(query), kt, vt}
	if mask != nil {
		if err := checkMatrix("mask", mask, batch, seq); err != nil {
			return nil, fmt.Errorf("attention.Attend: %w (mask is [batch][seq], 1 = padding)", err)
		}
		inputs = append(inputs, eager.Bools(mask))
	}
	outs, err := run(func(in []*graph.Node) []*graph.Node {
		scores := Score(w.Kind, in[0], in[1], w.Params(in[0].Graph()))
		var m *graph.Node
		if len(in) == 4 {
			m = in[3]
		}
		context, weights := Context(scores, in[2], m)
		return []*graph.Node{scores, weights, context}
	}, inputs...)
	if err != nil {
		return nil, err
	}
	return &Alignment{Kind: w.Kind, Params: w.NumParams(),
		Scores: eager.Matrix(outs[0]), Weights: eager.Matrix(outs[1]), Context: eager.Matrix(outs[2])}, nil
}

// Align computes the attention of every decoder state of a target sentence
// over the encoder states of its source sentence, which serve as keys and
// values — the alignment matrix of a translation:
//
//	Weights[t][s] = α_ts = softmax_s(score(decoder_t, encoder_s))
//	Context[t]    = Σ_s α_ts · encoder_s
//
// Row t is one decoder step; pass a single row for one step. It is
// [Attend] with the target positions as the batch.
//
// Typical shapes: decoder [tgt][hidden_q], encoder [src][hidden_k] →
// scores and weights [tgt][src], context [tgt][hidden_k].
//
// Introduced in lesson 02.
func Align(decoder, encoder [][]float64, w *ScoreWeights) (*Alignment, error) {
	if err := checkMatrix("decoder", decoder, -1, -1); err != nil {
		return nil, fmt.Errorf("attention.Align: %w (decoder is [tgt][hidden])", err)
	}
	if err := checkMatrix("encoder", encoder, -1, -1); err != nil {
		return nil, fmt.Errorf("attention.Align: %w (encoder is [src][hidden])", err)
	}
	keys := make([][][]float64, len(decoder))
	for t := range keys {
		keys[t] = encoder // every decoder step sees the same source sentence
	}
	a, err := Attend(decoder, keys, keys, w, nil)
	if err != nil {
		return nil, fmt.Errorf("attention.Align: %s", strings.TrimPrefix(err.Error(), "attention.Attend: "))
	}
	return a, nil
}

// tensor3 converts a [d0][d1][d2] array to a float32 tensor, checking its
// shape (a dimension < 0: any size, taken from the first element).
func tensor3(name string, x [][][]float64, d0, d1, d2 int) (*tensors.Tensor, error) {
	if len(x) == 0 || len(x[0]) == 0 || len(x[0][0]) == 0 {
		return nil, fmt.Errorf("%s is empty", name)
	}
	if d0 >= 0 && len(x) != d0 {
		return nil, fmt.Errorf("%s has %d sequences, want batch = %d", name, len(x), d0)
	}
	if d1 < 0 {
		d1 = len(x[0])
	}
	if d2 < 0 {
		d2 = len(x[0][0])
	}
	flat := make([]float32, 0, len(x)*d1*d2)
	for b, m := range x {
		if err := checkMatrix(fmt.Sprintf("%s[%d]", name, b), m, d1, d2); err != nil {
			return nil, fmt.Errorf("%w: every sequence of a batch has the same length and width (pad them first)", err)
		}
		for _, row := range m {
			for _, v := range row {
				flat = append(flat, float32(v))
			}
		}
	}
	return tensors.FromFlatDataAndDimensions(flat, len(x), d1, d2), nil
}

// ScoreComparison holds the four score functions run on the same inputs,
// one [Alignment] per kind in the order of [ScoreKinds].
//
// Typical shapes: 4 alignments, each with weights [batch][seq].
//
// Introduced in lesson 02.
type ScoreComparison []*Alignment

// CompareScores runs [Attend] once per score function on the same batch,
// each with its parameters from [NewScoreWeights](kind, hidden, seed). The
// queries and keys must have the same size hidden (the dot score needs
// it). mask is as for [Attend].
//
// Typical shapes: query [batch][hidden], keys and values
// [batch][seq][hidden], mask [batch][seq] — the source's check uses batch
// 2, seq 10, hidden 64.
//
// Introduced in lesson 02.
func CompareScores(query [][]float64, keys, values [][][]float64, seed uint32, mask [][]float64) (ScoreComparison, error) {
	if len(query) == 0 || len(query[0]) == 0 {
		return nil, fmt.Errorf("attention.CompareScores: query is empty")
	}
	c := make(ScoreComparison, 0, len(ScoreKinds))
	for _, kind := range ScoreKinds {
		a, err := Attend(query, keys, values, NewScoreWeights(kind, len(query[0]), seed), mask)
		if err != nil {
			return nil, fmt.Errorf("attention.CompareScores: %s: %w", kind, err)
		}
		c = append(c, a)
	}
	return c, nil
}

// String formats the comparison as a table: per score function its number
// of parameters, the shapes of the context and the weights, each row's sum
// of weights (1 for a softmax) and each row's largest weight (1/seq for
// uniform attention, 1 when one position takes everything).
func (c ScoreComparison) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-9s %7s  %-9s  %-9s  %-s\n", "score", "params", "context", "weights", "sum of weights | largest weight, per row")
	for _, a := range c {
		sums, largest := make([]string, len(a.Weights)), make([]string, len(a.Weights))
		for i, row := range a.Weights {
			s, m := 0.0, 0.0
			for _, x := range row {
				s, m = s+x, max(m, x)
			}
			sums[i], largest[i] = fmt.Sprintf("%.4f", s), fmt.Sprintf("%.3f", m)
		}
		fmt.Fprintf(&b, "%-9s %7d  %-9s  %-9s  %s | %s\n", a.Kind, a.Params,
			fmt.Sprint([]int{len(a.Context), len(a.Context[0])}), fmt.Sprint([]int{len(a.Weights), len(a.Weights[0])}),
			strings.Join(sums, " "), strings.Join(largest, " "))
	}
	return b.String()
}

// Weights returns the weights of query row i under every score function,
// one row per kind: a matrix to draw as a heat map.
func (c ScoreComparison) Weights(i int) [][]float64 {
	m := make([][]float64, len(c))
	for k, a := range c {
		m[k] = a.Weights[i]
	}
	return m
}

// Kinds returns the names of the score functions, to label the rows of
// [ScoreComparison.Weights].
func (c ScoreComparison) Kinds() []string {
	names := make([]string, len(c))
	for k, a := range c {
		names[k] = string(a.Kind)
	}
	return names
}
