package check

import (
	"fmt"
	"strings"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise/withlib"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/text"
	"github.com/attention-in-go/course/lib/viz"
)

// This file holds the check of the appendix's interactive attention tool:
// its non-interactive core, from a typed sentence to the heat map the
// widget shows.

// SentenceIn is an input of the sentence heat map exercise.
type SentenceIn = withlib.SentenceIn

type sentenceFunc = func(sentence string, maxLen int) (*viz.Heatmap, error)

// sentenceVariant is the tool with one step changed: the words from
// split, cut to maxLen unless noCut, padded unless noPad, the padded keys
// masked unless noMask.
func sentenceVariant(split func(string) []string, noCut, noPad, noMask bool) func(SentenceIn) HeatmapOut {
	return func(in SentenceIn) HeatmapOut {
		tokens := split(in.Sentence)
		if in.MaxLen < 1 || len(tokens) == 0 {
			return HeatmapOut{Err: true, ErrText: "bad input"}
		}
		if !noCut {
			tokens = tokens[:min(len(tokens), in.MaxLen)]
		}
		n := len(tokens)
		for !noPad && len(tokens) < in.MaxLen {
			tokens = append(tokens, text.PadToken)
		}
		x := attention.ToyEmbeddings(tokens, reference.SentenceDModel, reference.SentenceSeed)
		_, w := reference.MaskedAttention(x, x, x, func(i, j int) bool { return noMask || j < n })
		return withlib.HeatmapResult(&viz.Heatmap{Values: w, Rows: tokens, Cols: tokens, Title: in.Sentence,
			XLabel: "key", YLabel: "query", FixedRange: true, Min: 0, Max: 1}, nil, false)
	}
}

// sentenceTol allows for attention.Explain's float32 arithmetic.
const sentenceTol = 1e-4

var sentenceSpec = Register(&Exercise[sentenceFunc, SentenceIn, HeatmapOut]{
	ID: "sentence-heatmap", Title: "an interactive attention tool: its core, a sentence to a heat map", Points: 3,
	Signature: "func SentenceHeatmap(sentence string, maxLen int) (*viz.Heatmap, error)",
	Task:      withlib.SentenceHeatmap,
	Reference: func(in SentenceIn) HeatmapOut {
		h, err := reference.SentenceHeatmap(in.Sentence, in.MaxLen)
		return withlib.HeatmapResult(h, err, false)
	},
	Cases: func() []Case[SentenceIn] {
		return []Case[SentenceIn]{
			{"a sentence shorter than maxLen: padded, the padding masked", SentenceIn{Sentence: "The cat sat on the mat", MaxLen: 8}},
			{"a sentence longer than maxLen: cut", SentenceIn{Sentence: "A dog chased the red ball across the park", MaxLen: 5}},
			{"exactly maxLen words, capitals and punctuation", SentenceIn{Sentence: "Hello, World!", MaxLen: 4}},
			{"one word", SentenceIn{Sentence: "attention", MaxLen: 3}},
			{"maxLen 0 (error)", SentenceIn{Sentence: "the cat", MaxLen: 0}},
			{"no words (error)", SentenceIn{Sentence: "   ", MaxLen: 6}},
		}
	},
	Hidden: func(r *random.Source) []Case[SentenceIn] {
		words := []string{"the", "The", "cat", "dog", "sat", "ran", "on", "mat", "log", "Red", "ball", "quickly", ",", "."}
		sentence := func(n int) string {
			w := make([]string, n)
			for i := range w {
				w[i] = words[intIn(r, 0, len(words)-1)]
			}
			// A capital first letter and a full stop against the last
			// word: splitting on spaces is not tokenizing.
			s := strings.Join(w, " ")
			return strings.ToUpper(s[:1]) + s[1:] + "."
		}
		short, long := intIn(r, 2, 5), intIn(r, 4, 7)
		return []Case[SentenceIn]{
			{fmt.Sprintf("%d words, maxLen %d: padded", short, short+3), SentenceIn{Sentence: sentence(short), MaxLen: short + intIn(r, 2, 4)}},
			{fmt.Sprintf("%d words, maxLen %d: cut", long+3, long), SentenceIn{Sentence: sentence(long + 3), MaxLen: long}},
			{"exactly maxLen tokens", SentenceIn{Sentence: sentence(long - 1), MaxLen: long}},
			{"negative maxLen (error)", SentenceIn{Sentence: sentence(short), MaxLen: -intIn(r, 1, 3)}},
			{"an empty sentence (error)", SentenceIn{Sentence: "", MaxLen: long}},
		}
	},
	Compare: compareHeatmapWithin(sentenceTol, "maxLen below 1, or a sentence without words"),
	Hints: []Hint[SentenceIn, HeatmapOut]{
		{Name: "pad-not-masked", Message: "mask the padded keys: every query must give <pad> the weight 0 (a mask [1][maxLen] with 1 on the padding)",
			Wrong: sentenceVariant(text.Tokenize, false, false, true)},
		{Name: "not-padded", Message: "pad the tokens with text.PadToken (\"<pad>\") up to maxLen: the heat map is always maxLen × maxLen, so that its rows stay put while you type",
			Wrong: sentenceVariant(text.Tokenize, false, true, false)},
		{Name: "not-cut", Message: "cut the tokens to the first maxLen: the heat map is maxLen × maxLen however long the sentence",
			Wrong: sentenceVariant(text.Tokenize, true, false, false)},
		// The same mistake as it usually shows: a [1][maxLen] mask over
		// more tokens, which attention.Explain rejects.
		{Name: "not-cut-error", Message: "an error for a sentence longer than maxLen: cut the tokens to the first maxLen, so that the mask [1][maxLen] fits them and Explain accepts it",
			Detect: func(in SentenceIn, got HeatmapOut) bool {
				return got.Err && in.MaxLen >= 1 && len(text.Tokenize(in.Sentence)) > in.MaxLen
			}},
		{Name: "fields", Message: "split the sentence with text.Tokenize, which lower-cases the words and splits off punctuation, not strings.Fields",
			Wrong: sentenceVariant(strings.Fields, false, false, false)},
		{Name: "no-error", Message: "return an error when maxLen < 1 or the sentence has no words, rather than a heat map",
			Detect: func(in SentenceIn, got HeatmapOut) bool {
				return !got.Err && (in.MaxLen < 1 || len(text.Tokenize(in.Sentence)) == 0)
			}},
		{Name: "free-range", Message: "fix the colour range to [0, 1] (FixedRange: true, Min: 0, Max: 1) so that the colours mean the same for every sentence",
			Detect: func(_ SentenceIn, got HeatmapOut) bool {
				return !got.Err && !got.Nil && (!got.FixedRange || got.Min != 0 || got.Max != 1)
			}},
	},
	// lib/explore's Settings.Attention computes such a heat map's weights
	// (multi-head, but one head is this); the exercise is to write it.
	Deny:  []string{"lib/explore"},
	Allow: []string{"lib/attention.Explain", "lib/attention.Options", "lib/attention.ToyEmbeddings", "lib/text.PadToken", "lib/text.Tokenize", "lib/viz"},
})

// SentenceHeatmap checks the learner's SentenceHeatmap: the heat map of a
// typed sentence's self-attention, cut or padded to maxLen, padding masked.
func SentenceHeatmap(f func(sentence string, maxLen int) (*viz.Heatmap, error)) *Result {
	return sentenceSpec.Check(f)
}
