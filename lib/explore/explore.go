// Package explore is the course's interactive attention explorer, the Go
// counterpart of the source's Streamlit app: a sentence typed in a text
// box (or synthetic tokens, with sliders for the vocabulary size and the
// number of sentences), sliders for the number of heads, the sequence
// length and the positional encoding's length and dimension, heat maps
// that follow them in a GoNB notebook, and a "run analysis" button that
// shows the data's validation, the padded batch with its mask, the
// summary statistics and each head's pattern metrics beside the heat maps.
//
// The picture and the analysis are pure functions of the settings
// ([Settings.Figure], [Settings.Analyze]), so they are tested like any
// other figure; [Run] only adds the widgets. GoNB's
// widgets need a browser: a notebook executed headless (the course's
// `cmd/course run`, `make site`, the Docker build, which set
// COURSE_HEADLESS=1) gets the picture of the starting settings and no
// sliders, instead of a cell that would wait for a reader who never comes.
//
// Introduced in the appendix (masks, synthetic data and an interactive
// explorer).
package explore

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/bpe"
	"github.com/attention-in-go/course/lib/posenc"
	"github.com/attention-in-go/course/lib/text"
	"github.com/attention-in-go/course/lib/viz"
)

// DModel is the width of the explorer's token vectors: 64 splits into 1,
// 2, 4 or 8 heads of d_k = 64/h.
const DModel = 64

// HeadChoices are the numbers of heads the heads slider offers.
var HeadChoices = []int{1, 2, 4, 8}

// Settings are what the sliders control.
//
// Part of the library behind the appendix; the lesson does not name it.
type Settings struct {
	// Sentence is the text to attend over, lower-cased and split into words
	// (lib/text) or cut into Tokenizer's tokens; "" uses synthetic tokens
	// (lib/synthetic) instead.
	Sentence string
	// Tokenizer, when set, cuts Sentence into the subword tokens of a
	// byte-level BPE (lib/bpe, lesson 12), as the source's explorer does
	// with its subword tokenizer, instead of into words. A token's label
	// shows its spaces as "·" and tabs and newlines escaped: " err" is
	// "·err", "\n\t" is `\n\t`.
	Tokenizer *bpe.Tokenizer
	// Heads is the number of attention heads, one of HeadChoices.
	Heads int
	// MaxLen is the sequence length: longer sentences are cut, shorter
	// ones padded, and the padding masked (1 … 16).
	MaxLen int
	// VocabSize and Count are the synthetic data's vocabulary (ids
	// 0 … VocabSize−1, 0 for padding; 2 … 1000) and number of sentences
	// (1 … 100); the heat maps show the first sentence, the analysis all.
	VocabSize, Count int
	// PELen and PEDim are the positions and dimensions of the positional
	// encoding shown beside the attention (PE(pos, 2i) = sin(pos/10000^(2i/d)),
	// PE(pos, 2i+1) = cos(…)).
	PELen, PEDim int
	// Seed draws the token vectors, the projections and synthetic tokens.
	Seed uint32
}

// Default returns the explorer's starting settings for sentence.
func Default(sentence string) Settings {
	return Settings{Sentence: sentence, Heads: 2, MaxLen: 8, VocabSize: 50, Count: 10, PELen: 50, PEDim: 64, Seed: 1}
}

// Validate says what is wrong with s, and what to do, or returns nil.
func (s Settings) Validate() error {
	ok := false
	for _, h := range HeadChoices {
		ok = ok || s.Heads == h
	}
	switch {
	case !ok:
		return fmt.Errorf("explore: %d heads: choose one of %v (d_model = %d must split evenly)", s.Heads, HeadChoices, DModel)
	case s.MaxLen < 1 || s.MaxLen > 16:
		return fmt.Errorf("explore: max length %d: choose 1 … 16", s.MaxLen)
	case s.VocabSize < 2 || s.VocabSize > 1000:
		return fmt.Errorf("explore: vocabulary size %d: choose 2 … 1000 (id 0 is padding)", s.VocabSize)
	case s.Count < 1 || s.Count > 100:
		return fmt.Errorf("explore: %d sentences: choose 1 … 100", s.Count)
	case s.PELen < 1 || s.PELen > 200:
		return fmt.Errorf("explore: PE length %d: choose 1 … 200 positions", s.PELen)
	case s.PEDim < 2 || s.PEDim > 512:
		return fmt.Errorf("explore: PE dimension %d: choose 2 … 512", s.PEDim)
	}
	return nil
}

// Tokens returns the tokens the explorer attends over, padded or cut to
// MaxLen, and the padding mask [1][MaxLen] (1 = padding, lib/attention's
// convention). Without a sentence they are the first of the synthetic
// sentences ([Settings.Data]), ids shown as "t17", ….
func (s Settings) Tokens() (tokens []string, mask [][]float64, err error) {
	switch {
	case strings.TrimSpace(s.Sentence) != "" && s.Tokenizer != nil:
		tokens = Labels(s.Tokenizer, s.Tokenizer.Encode([]byte(s.Sentence)))
	case strings.TrimSpace(s.Sentence) != "":
		tokens = text.Tokenize(s.Sentence)
	default:
		sentences, err := s.synthetic()
		if err != nil {
			return nil, nil, err
		}
		for _, id := range sentences[0] {
			tokens = append(tokens, fmt.Sprintf("t%d", id))
		}
	}
	if len(tokens) == 0 {
		return nil, nil, fmt.Errorf("explore: the sentence %q has no words", s.Sentence)
	}
	if len(tokens) > s.MaxLen {
		tokens = tokens[:s.MaxLen]
	}
	mask = [][]float64{make([]float64, s.MaxLen)}
	for j := len(tokens); j < s.MaxLen; j++ {
		tokens = append(tokens, text.PadToken)
		mask[0][j] = 1
	}
	return tokens, mask, nil
}

// Labels returns the tokens of ids as labels for a figure: their bytes,
// with a space shown as "·" and other white space and non-printable bytes
// escaped as in a Go string ("\t", "\n", "\xff"), so that " err", "err"
// and "\n\t" are told apart.
//
// Introduced in lesson 12.
func Labels(tok *bpe.Tokenizer, ids []int) []string {
	out := make([]string, len(ids))
	for i, p := range tok.Pieces(ids) {
		q := strconv.Quote(p)
		out[i] = strings.ReplaceAll(q[1:len(q)-1], " ", "·")
	}
	return out
}

// Attention returns the multi-head self-attention weights [heads][seq][seq]
// of the tokens: x = emb·√d_model + PE, then lib/attention's MultiHead with
// seeded projections and the padding mask on the keys.
func (s Settings) Attention() (tokens []string, weights [][][]float64, err error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	tokens, mask, err := s.Tokens()
	if err != nil {
		return nil, nil, err
	}
	emb := attention.ToyEmbeddings(tokens, DModel, s.Seed)
	pe := posenc.Sinusoidal(len(tokens), DModel, 10000)
	scale := math.Sqrt(DModel) / 8 // toy vectors have entries of about ±1 already: keep them near the encoding's scale
	x := make([][]float64, len(emb))
	for i := range emb {
		x[i] = make([]float64, DModel)
		for j := range x[i] {
			x[i][j] = emb[i][j]*scale + pe[i][j]
		}
	}
	res, err := attention.ExplainMultiHead(x, x, s.Heads, attention.NewMultiHeadWeights(DModel, s.Seed), &attention.Options{Mask: mask})
	if err != nil {
		return nil, nil, err
	}
	return tokens, res.Weights, nil
}

// Figure draws the settings: one heat map per head (queries down, keys
// across, padded keys masked to 0) and the positional encoding
// [PELen × PEDim].
func (s Settings) Figure() (viz.Figure, error) {
	tokens, weights, err := s.Attention()
	if err != nil {
		return nil, err
	}
	heads := make([]viz.Figure, len(weights))
	for h, w := range weights {
		heads[h] = &viz.Heatmap{Values: w, Rows: tokens, Cols: tokens, Min: 0, Max: 1, FixedRange: true,
			Title: fmt.Sprintf("head %d of %d", h+1, len(weights)), XLabel: "key", YLabel: "query"}
	}
	cols := min(len(heads), 4)
	attn := &viz.Grid{Figures: heads, Cols: cols,
		Title: fmt.Sprintf("Self-attention, %d head(s) of d_k = %d, length %d", s.Heads, DModel/s.Heads, s.MaxLen)}
	pe := &viz.Heatmap{Values: posenc.Sinusoidal(s.PELen, s.PEDim, 10000), Palette: viz.Diverging(),
		Min: -1, Max: 1, FixedRange: true, XLabel: "dimension", YLabel: "position",
		Title: fmt.Sprintf("Positional encoding, %d positions × %d dimensions", s.PELen, s.PEDim)}
	return &viz.Grid{Figures: []viz.Figure{attn, pe}, Cols: 1}, nil
}

// pngSrc returns a figure as a data: URL for an <img>.
func pngSrc(f viz.Figure) (string, error) {
	b, err := viz.PNG(f)
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b), nil
}
