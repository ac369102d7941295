package reference

import (
	"fmt"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/text"
	"github.com/attention-in-go/course/lib/viz"
)

// SentenceDModel and SentenceSeed give the appendix tool's token vectors:
// attention.ToyEmbeddings(tokens, SentenceDModel, SentenceSeed).
const (
	SentenceDModel        = 16
	SentenceSeed   uint32 = 1
)

// SentenceHeatmap is the non-interactive core of the appendix's attention
// tool: the sentence's words (text.Tokenize), cut or padded with
// text.PadToken to maxLen, self-attention of their toy embeddings with
// the padded keys masked, as a heat map titled with the sentence.
func SentenceHeatmap(sentence string, maxLen int) (*viz.Heatmap, error) {
	if maxLen < 1 {
		return nil, fmt.Errorf("maxLen %d: choose at least 1", maxLen)
	}
	tokens := text.Tokenize(sentence)
	if len(tokens) == 0 {
		return nil, fmt.Errorf("the sentence %q has no words", sentence)
	}
	tokens = tokens[:min(len(tokens), maxLen)]
	n := len(tokens)
	for len(tokens) < maxLen {
		tokens = append(tokens, text.PadToken)
	}
	x := attention.ToyEmbeddings(tokens, SentenceDModel, SentenceSeed)
	_, w := MaskedAttention(x, x, x, func(i, j int) bool { return j < n })
	return &viz.Heatmap{Values: w, Rows: tokens, Cols: tokens, Title: sentence, XLabel: "key", YLabel: "query",
		FixedRange: true, Min: 0, Max: 1}, nil
}
