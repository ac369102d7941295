package seq2seq

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/rnn"
)

// Pad is the padding id of sources and targets: masked out of the
// attention and of the loss.
//
// Part of the library behind lesson 06; the lesson does not name it.
const Pad = 0

// Config describes an encoder–decoder. Zero fields take the defaults in
// brackets.
//
// Introduced in lesson 06.
type Config struct {
	// SrcVocab and TgtVocab are the numbers of token ids, padding
	// included [12: pad, start, digits 0–9, as in [ReverseTask]].
	SrcVocab, TgtVocab int
	// Start is the id fed to the decoder before the first target token [1].
	Start int
	// Embed is the size of the token embeddings [16]; Hidden the size of
	// the GRU states of encoder and decoder [64].
	Embed, Hidden int
	// Attention turns attention on. Score is its score function
	// [attention.Additive]; AttnSize the size of the additive or concat
	// attention space [Hidden].
	Attention bool
	Score     attention.ScoreKind
	AttnSize  int
	// Luong uses the decoder's current state as the query, Luong et al.'s
	// global attention (h_t = GRU(y_{t-1}, h_{t-1}), then c_t from h_t,
	// output from tanh(W_c·[c_t; h_t])). The default is Bahdanau's order:
	// c_t from the previous state, then h_t = GRU([y_{t-1}; c_t], h_{t-1}),
	// output from [h_t; c_t].
	Luong bool
}

// withDefaults returns c with the zero fields set.
func (c Config) withDefaults() Config {
	if c.SrcVocab == 0 {
		c.SrcVocab = Vocab
	}
	if c.TgtVocab == 0 {
		c.TgtVocab = Vocab
	}
	if c.Start == 0 {
		c.Start = Start
	}
	if c.Embed == 0 {
		c.Embed = 16
	}
	if c.Hidden == 0 {
		c.Hidden = 64
	}
	if c.Score == "" {
		c.Score = attention.Additive
	}
	if c.AttnSize == 0 {
		c.AttnSize = c.Hidden
	}
	return c
}

// String names the model: "no attention" or the score and style.
func (c Config) String() string {
	c = c.withDefaults()
	if !c.Attention {
		return "no attention"
	}
	style := "Bahdanau order"
	if c.Luong {
		style = "Luong order"
	}
	return fmt.Sprintf("attention (%s, %s)", c.Score, style)
}

// params holds the model's parameters as nodes of one graph.
type params struct {
	cfg            Config
	srcEmb, tgtEmb *graph.Node // [vocab, embed]
	enc, dec       rnn.GRUParams
	score          attention.ScoreParams
	wc             *graph.Node // Luong: [2·hidden, hidden]
	wo, bo         *graph.Node // output: [in, tgt_vocab], [tgt_vocab]
}

func uniformScope(scope *model.Scope, fanIn int) *model.Scope {
	k := 1 / math.Sqrt(float64(fanIn))
	return scope.WithInitializer(initializer.RandomUniformFn(scope, -k, k))
}

func newParams(scope *model.Scope, g *graph.Graph, cfg Config) *params {
	c := cfg.withDefaults()
	if c.SrcVocab < 2 || c.TgtVocab < 2 || c.Embed < 1 || c.Hidden < 1 || c.AttnSize < 1 {
		exceptions.Panicf("seq2seq: vocabularies must have ≥ 2 ids and sizes be ≥ 1, got %+v", c)
	}
	f32 := func(dims ...int) shapes.Shape { return shapes.Make(dtypes.Float32, dims...) }
	p := &params{cfg: c}
	emb := scope.At("embed").WithInitializer(initializer.RandomNormalFn(scope, 1))
	p.srcEmb = emb.VariableWithShape("source", f32(c.SrcVocab, c.Embed)).NodeValue(g)
	p.tgtEmb = emb.VariableWithShape("target", f32(c.TgtVocab, c.Embed)).NodeValue(g)
	p.enc = rnn.NewGRUParams(scope.At("encoder"), g, c.Embed, c.Hidden)
	decIn := c.Embed + c.Hidden // [y_{t-1}; c_t]
	if c.Luong {
		decIn = c.Embed
	}
	p.dec = rnn.NewGRUParams(scope.At("decoder"), g, decIn, c.Hidden)
	outIn := 2 * c.Hidden // [h_t; c_t]
	if c.Attention {
		a := scope.At("attention")
		h, n := c.Hidden, c.AttnSize
		switch c.Score {
		case attention.Additive:
			s := uniformScope(a, h)
			p.score.W1 = s.VariableWithShape("w1", f32(h, n)).NodeValue(g)
			p.score.W2 = s.VariableWithShape("w2", f32(h, n)).NodeValue(g)
			p.score.V = uniformScope(a, n).VariableWithShape("v", f32(n)).NodeValue(g)
		case attention.General:
			p.score.W = uniformScope(a, h).VariableWithShape("w", f32(h, h)).NodeValue(g)
		case attention.Concat:
			s := uniformScope(a, 2*h)
			p.score.W = s.VariableWithShape("w", f32(2*h, n)).NodeValue(g)
			p.score.V = uniformScope(a, n).VariableWithShape("v", f32(n)).NodeValue(g)
		case attention.Dot:
		default:
			exceptions.Panicf("seq2seq: unknown score kind %q (want one of %v)", c.Score, attention.ScoreKinds)
		}
		if c.Luong {
			p.wc = uniformScope(scope.At("combine"), 2*h).VariableWithShape("w", f32(2*h, h)).NodeValue(g)
			outIn = h
		}
	}
	out := uniformScope(scope.At("output"), outIn)
	p.wo = out.VariableWithShape("w", f32(outIn, c.TgtVocab)).NodeValue(g)
	p.bo = out.VariableWithShape("b", f32(c.TgtVocab)).NodeValue(g)
	return p
}

// embed looks up the embeddings of ids.
func embed(table, ids *graph.Node) *graph.Node {
	return graph.Gather(table, graph.InsertAxes(ids, -1)) // Shape: [batch, seq] → [batch, seq, 1] → [batch, seq, embed]
}

// encoded is what the encoder hands the decoder.
type encoded struct {
	states *graph.Node     // [batch, src, hidden]
	last   *graph.Node     // [batch, hidden]: the single vector c
	pad    *graph.Node     // Bool [batch, src], true on padding
	keys   *attention.Keys // the states prepared for scoring (with attention)
}

// Encode runs the GRU encoder over the source ids, padding masked, and
// returns every state h_1 … h_S and the last real one (the context vector
// c of a model without attention).
//
// Typical shapes: src [batch, src_len] int32 → states [batch, src_len,
// hidden], last [batch, hidden].
//
// Introduced in lesson 06.
func Encode(scope *model.Scope, cfg Config, src *graph.Node) (states, last *graph.Node) {
	p := newParams(scope, src.Graph(), cfg)
	e := p.encode(src)
	return e.states, e.last
}

func (p *params) encode(src *graph.Node) encoded {
	if src.Rank() != 2 {
		exceptions.Panicf("seq2seq: source ids must be [batch, src_len], got %s", src.Shape())
	}
	x := embed(p.srcEmb, src)                                               // Shape: [batch, src, embed]
	real := graph.NotEqual(src, graph.ScalarZero(src.Graph(), src.DType())) // Shape: [batch, src] Bool
	states, last := rnn.GRULayer(x, nil, real, p.enc)
	e := encoded{states: states, last: last, pad: graph.LogicalNot(real)}
	if p.cfg.Attention {
		e.keys = attention.PrepareKeys(p.cfg.Score, states, p.score) // the key side of every score, once per sentence
	}
	return e
}

// step is one decoder step: previous token embedding y [batch, embed] and
// state h [batch, hidden] → new state, logits [batch, tgt_vocab] and the
// attention weights [batch, src] (nil without attention).
func (p *params) step(e encoded, y, h *graph.Node) (hNext, logits, weights *graph.Node) {
	c := p.cfg
	attend := func(q *graph.Node) (ctx, w *graph.Node) {
		scores := e.keys.Score(q)                         // Shape: [batch, hidden] · [batch, src, hidden] → [batch, src]
		return attention.Context(scores, e.states, e.pad) // Shape: → [batch, hidden], [batch, src]
	}
	var out *graph.Node
	switch {
	case !c.Attention:
		ctx := e.last
		hNext = rnn.GRUStep(graph.Concatenate([]*graph.Node{y, ctx}, -1), h, p.dec) // Shape: [batch, embed + hidden] → [batch, hidden]
		out = graph.Concatenate([]*graph.Node{hNext, ctx}, -1)                      // Shape: [batch, 2·hidden]
	case c.Luong:
		hNext = rnn.GRUStep(y, h, p.dec) // Shape: [batch, embed] → [batch, hidden]
		var ctx *graph.Node
		ctx, weights = attend(hNext)
		out = graph.Tanh(graph.MatMul(graph.Concatenate([]*graph.Node{ctx, hNext}, -1), p.wc)) // Shape: [batch, 2·hidden] x [2·hidden, hidden] → [batch, hidden]
	default:
		var ctx *graph.Node
		ctx, weights = attend(h)
		hNext = rnn.GRUStep(graph.Concatenate([]*graph.Node{y, ctx}, -1), h, p.dec) // Shape: [batch, embed + hidden] → [batch, hidden]
		out = graph.Concatenate([]*graph.Node{hNext, ctx}, -1)                      // Shape: [batch, 2·hidden]
	}
	logits = graph.Add(graph.MatMul(out, p.wo), graph.InsertAxes(p.bo, 0)) // Shape: [batch, in] x [in, vocab] → [batch, vocab]
	return hNext, logits, weights
}

// TeacherForced runs the model in training mode: the decoder reads the true
// previous target token at every step (teacher forcing) and returns the
// logits of every position and the attention weights (nil without
// attention). The decoder starts from the encoder's last state.
//
// Typical shapes: src [batch, src_len], tgtIn [batch, tgt_len] int32 (Start
// then the target shifted right) → logits [batch, tgt_len, tgt_vocab],
// weights [batch, tgt_len, src_len].
//
// Introduced in lesson 06.
func TeacherForced(scope *model.Scope, cfg Config, src, tgtIn *graph.Node) (logits, weights *graph.Node) {
	p := newParams(scope, src.Graph(), cfg)
	e := p.encode(src)
	ys := embed(p.tgtEmb, tgtIn) // Shape: [batch, tgt] → [batch, tgt, embed]
	T := tgtIn.Shape().Dim(1)
	h := e.last
	outs, ws := make([]*graph.Node, T), make([]*graph.Node, T)
	for t := range T {
		y := graph.Squeeze(graph.Slice(ys, graph.AxisRange(), graph.AxisElem(t)), 1) // Shape: [batch, 1, embed] → [batch, embed]
		h, outs[t], ws[t] = p.step(e, y, h)
	}
	logits = graph.Stack(outs, 1) // Shape: tgt × [batch, vocab] → [batch, tgt, vocab]
	if p.cfg.Attention {
		weights = graph.Stack(ws, 1) // Shape: tgt × [batch, src] → [batch, tgt, src]
	}
	return logits, weights
}

// Greedy decodes steps tokens: each step feeds back the most likely token
// of the previous one (argmax), starting from cfg.Start. It returns the
// tokens and the attention weights of every step (zeros without
// attention: there is nothing to plot).
//
// Typical shapes: src [batch, src_len] → tokens [batch, steps] int32,
// weights [batch, steps, src_len].
//
// Introduced in lesson 06.
func Greedy(scope *model.Scope, cfg Config, src *graph.Node, steps int) (tokens, weights *graph.Node) {
	g := src.Graph()
	p := newParams(scope, g, cfg)
	e := p.encode(src)
	batch := src.Shape().Dim(0)
	prev := graph.BroadcastToDims(graph.Const(g, int32(p.cfg.Start)), batch) // Shape: [batch]
	h := e.last
	toks, ws := make([]*graph.Node, steps), make([]*graph.Node, steps)
	for t := range steps {
		y := graph.Gather(p.tgtEmb, graph.InsertAxes(prev, -1)) // Shape: [batch] → [batch, 1] → [batch, embed]
		var logits *graph.Node
		h, logits, ws[t] = p.step(e, y, h)
		prev = graph.ArgMax(logits, -1, dtypes.Int32) // Shape: [batch, vocab] → [batch]
		toks[t] = prev
		if ws[t] == nil {
			ws[t] = graph.Zeros(g, shapes.Make(dtypes.Float32, batch, src.Shape().Dim(1)))
		}
	}
	return graph.Stack(toks, 1), graph.Stack(ws, 1) // Shape: steps × [batch] → [batch, steps]; steps × [batch, src] → [batch, steps, src]
}

// Loss is the cross-entropy of the logits against the target ids, averaged
// over the real (non-padding) target tokens:
//
//	L = −(1/N) Σ_{b,t: y_bt ≠ pad} log softmax(logits_bt)[y_bt]
//
// Typical shapes: tgt [batch, tgt_len] int32, logits [batch, tgt_len,
// vocab] → scalar.
//
// Introduced in lesson 06.
func Loss(tgt, logits *graph.Node) *graph.Node {
	vocab := logits.Shape().Dim(-1)
	logp := graph.LogSoftmax(logits, -1)
	picked := graph.ReduceSum(graph.Mul(logp, graph.OneHot(tgt, vocab, logp.DType())), -1) // Shape: [batch, tgt, vocab] → [batch, tgt]
	return graph.Neg(realMean(tgt, picked))
}

// realMean averages x [batch, tgt] over the real (non-padding) target
// tokens of tgt.
func realMean(tgt, x *graph.Node) *graph.Node {
	real := graph.ConvertDType(graph.NotEqual(tgt, graph.ScalarZero(tgt.Graph(), tgt.DType())), x.DType())
	n := graph.Max(graph.ReduceAllSum(real), graph.ScalarOne(tgt.Graph(), x.DType()))
	return graph.Div(graph.ReduceAllSum(graph.Mul(x, real)), n)
}
