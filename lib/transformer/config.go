package transformer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/attention-in-go/course/lib/attention"
)

// Config describes a Transformer encoder: the sizes every part is built
// from.
//
// Introduced in lesson 05.
type Config struct {
	// Vocab is the number of token ids, 0..Vocab-1: the rows of the
	// embedding table.
	Vocab int
	// DModel is the width of every token vector between the sublayers
	// (d_model).
	DModel int
	// Heads is the number of attention heads h; each works on
	// d_k = DModel/Heads columns, so Heads must divide DModel.
	Heads int
	// DFF is the width of the hidden layer of the feed-forward network
	// (d_ff), usually 4·DModel.
	DFF int
	// Layers is the number of encoder layers N stacked on top of each
	// other.
	Layers int
	// MaxLen is the longest sequence the positional encoding is computed
	// for; longer inputs are an error.
	MaxLen int
	// Dropout is the rate of the dropout applied while training (paper
	// §5.4: after each sublayer and after adding the positional encoding).
	// It is part of the configuration so that a training lesson can use
	// it; at inference dropout does nothing, and the functions of this
	// package, which compute the forward pass of a trained or untrained
	// model, never apply it.
	Dropout float64
}

// Base returns the configuration of the source lesson's encoder, which is
// the base model of the paper (Vaswani et al. 2017, Table 3) with a
// vocabulary of 10,000 tokens: d_model 512, 8 heads, d_ff 2048, 6 layers,
// sequences of up to 5,000 tokens, dropout 0.1.
//
// Introduced in lesson 05.
func Base() Config {
	return Config{Vocab: 10000, DModel: 512, Heads: 8, DFF: 2048, Layers: 6, MaxLen: 5000, Dropout: 0.1}
}

// Validate reports a configuration that cannot be built: a size that is
// not positive, or a number of heads that does not divide DModel.
func (c Config) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"Vocab", c.Vocab}, {"DModel", c.DModel}, {"Heads", c.Heads}, {"DFF", c.DFF}, {"Layers", c.Layers}, {"MaxLen", c.MaxLen}} {
		if f.v < 1 {
			return fmt.Errorf("transformer: Config.%s = %d, it must be at least 1", f.name, f.v)
		}
	}
	if c.DModel%c.Heads != 0 {
		return fmt.Errorf("transformer: Config.DModel = %d is not divisible by Config.Heads = %d: choose a number of heads that divides d_model", c.DModel, c.Heads)
	}
	if c.Dropout < 0 || c.Dropout >= 1 {
		return fmt.Errorf("transformer: Config.Dropout = %g, it must be in [0, 1)", c.Dropout)
	}
	return nil
}

// String formats the configuration as a two-column table.
func (c Config) String() string {
	dk := "-"
	if c.Heads > 0 {
		dk = strconv.Itoa(c.DModel / c.Heads)
	}
	rows := [][2]string{
		{"vocabulary size (vocab)", strconv.Itoa(c.Vocab)},
		{"model width (d_model)", strconv.Itoa(c.DModel)},
		{"attention heads (h)", strconv.Itoa(c.Heads)},
		{"width of one head (d_k = d_model/h)", dk},
		{"feed-forward width (d_ff)", strconv.Itoa(c.DFF)},
		{"encoder layers (N)", strconv.Itoa(c.Layers)},
		{"longest sequence (max_len)", strconv.Itoa(c.MaxLen)},
		{"dropout (training only)", strconv.FormatFloat(c.Dropout, 'g', -1, 64)},
	}
	return twoColumns(rows)
}

// ParamCounts is the number of parameters of each part of an encoder, as
// [Config.ParamCounts] computes them.
//
// Introduced in lesson 05.
type ParamCounts struct {
	Config Config
	// Embedding is the token embedding table: vocab·d_model.
	Embedding int
	// PositionalEncoding is 0: the sinusoids are fixed, computed rather
	// than learned (PyTorch code keeps them in a buffer, not a parameter).
	PositionalEncoding int
	// Attention is one layer's multi-head self-attention: W_Q, W_K, W_V,
	// W_O and their biases, 4·d_model² + 4·d_model.
	Attention int
	// FFN is one layer's feed-forward network: W₁ [d_model, d_ff], b₁
	// [d_ff], W₂ [d_ff, d_model], b₂ [d_model], 2·d_model·d_ff + d_ff +
	// d_model.
	FFN int
	// Norms is one layer's two LayerNorms, each with γ and β of d_model:
	// 4·d_model.
	Norms int
	// Layer is one encoder layer: Attention + FFN + Norms.
	Layer int
	// Layers is the N layers: N·Layer.
	Layers int
	// Total is Embedding + Layers: everything that is learned.
	Total int
}

// FFNParamCount returns the number of parameters of the position-wise
// feed-forward network: W₁ and W₂ with d_model·d_ff weights each, b₁ with
// d_ff and b₂ with d_model biases, 2·d_model·d_ff + d_ff + d_model.
//
// Introduced in lesson 05.
func FFNParamCount(dModel, dFF int) int { return 2*dModel*dFF + dFF + dModel }

// LayerNormParamCount returns the number of parameters of one LayerNorm:
// the gain γ and the bias β, d_model each.
//
// Part of the library behind lesson 05; the lesson does not name it.
func LayerNormParamCount(dModel int) int { return 2 * dModel }

// EncoderLayerParamCount returns the number of parameters of one encoder
// layer: multi-head attention with biases ([attention.MultiHeadParamCount]),
// the feed-forward network ([FFNParamCount]) and two LayerNorms. The number
// of heads does not change it.
//
// Part of the library behind lesson 05; the lesson does not name it.
func EncoderLayerParamCount(dModel, dFF int) int {
	return attention.MultiHeadParamCount(dModel, true) + FFNParamCount(dModel, dFF) + 2*LayerNormParamCount(dModel)
}

// ParamCounts counts the parameters of the encoder c describes, part by
// part. It counts what a PyTorch encoder built from nn.Embedding,
// nn.Linear (with bias) and nn.LayerNorm layers reports with
// sum(p.numel() for p in model.parameters()): the positional encoding is a
// buffer, and there is no final LayerNorm and no output layer.
//
// For [Base]: embedding 5,120,000, one layer 3,152,384, six layers
// 18,914,304, total 24,034,304.
//
// Introduced in lesson 05.
func (c Config) ParamCounts() ParamCounts {
	p := ParamCounts{
		Config:    c,
		Embedding: c.Vocab * c.DModel,
		Attention: attention.MultiHeadParamCount(c.DModel, true),
		FFN:       FFNParamCount(c.DModel, c.DFF),
		Norms:     2 * LayerNormParamCount(c.DModel),
	}
	p.Layer = p.Attention + p.FFN + p.Norms
	p.Layers = c.Layers * p.Layer
	p.Total = p.Embedding + p.Layers
	return p
}

// String formats the counts as a table: part, formula, count.
func (p ParamCounts) String() string {
	c := p.Config
	rows := [][3]string{
		{"token embedding", fmt.Sprintf("vocab·d = %d·%d", c.Vocab, c.DModel), Thousands(p.Embedding)},
		{"positional encoding", "fixed sinusoids, not learned", Thousands(p.PositionalEncoding)},
		{"per layer: self-attention", "4·d² + 4·d", Thousands(p.Attention)},
		{"per layer: feed-forward", "2·d·d_ff + d_ff + d", Thousands(p.FFN)},
		{"per layer: 2 × LayerNorm", "2 × (γ, β) = 4·d", Thousands(p.Norms)},
		{"one encoder layer", "", Thousands(p.Layer)},
		{fmt.Sprintf("%d encoder layers", c.Layers), fmt.Sprintf("N·layer = %d·%s", c.Layers, Thousands(p.Layer)), Thousands(p.Layers)},
		{"total", "embedding + layers", Thousands(p.Total)},
	}
	return countTable(rows, len(rows)-1)
}

// countTable lays out rows of (part, formula, count), the counts
// right-aligned, with a rule above row ruleAt (the total).
func countTable(rows [][3]string, ruleAt int) string {
	var w [3]int
	for _, r := range rows {
		for j, s := range r {
			w[j] = max(w[j], len([]rune(s)))
		}
	}
	var b strings.Builder
	for i, r := range rows {
		if i == ruleAt {
			b.WriteString(strings.Repeat("─", w[0]+w[1]+w[2]+4) + "\n")
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", pad(r[0], w[0], false), pad(r[1], w[1], false), pad(r[2], w[2], true))
	}
	return b.String()
}

// Thousands formats n with commas between groups of three digits, as
// Python's f"{n:,}" does: 24034304 → "24,034,304".
//
// Introduced in lesson 05.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// pad pads s with spaces to w runes, on the left when right is true.
func pad(s string, w int, right bool) string {
	fill := strings.Repeat(" ", max(0, w-len([]rune(s))))
	if right {
		return fill + s
	}
	return s + fill
}

// twoColumns formats label/value rows with the values right-aligned.
func twoColumns(rows [][2]string) string {
	var w [2]int
	for _, r := range rows {
		w[0], w[1] = max(w[0], len([]rune(r[0]))), max(w[1], len([]rune(r[1])))
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s  %s\n", pad(r[0], w[0], false), pad(r[1], w[1], true))
	}
	return b.String()
}
