package explore

import (
	"fmt"
	"strings"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/synthetic"
	"github.com/attention-in-go/course/lib/text"
)

// PatternThreshold is the weight above which the analysis counts a
// weight in a head's sparse ratio (lesson 3's attention.AnalyzePattern).
const PatternThreshold = 0.1

// synthetic draws the settings' synthetic sentences.
func (s Settings) synthetic() ([][]int, error) {
	return synthetic.Sentences(synthetic.Config{Count: s.Count, VocabSize: s.VocabSize, MaxLen: s.MaxLen, Seed: s.Seed})
}

// Data returns the sentences the explorer analyses as token ids, and the
// size of their vocabulary: the typed sentence, cut to MaxLen and numbered
// by a vocabulary of its own words (lib/text: <pad> = 0, <unk> = 1, words
// from 2) or by the Tokenizer's ids, or Count synthetic sentences of
// VocabSize ids (lib/synthetic).
//
// Part of the library behind the appendix; the lesson does not name it.
func (s Settings) Data() (sentences [][]int, vocabSize int, err error) {
	if err := s.Validate(); err != nil {
		return nil, 0, err
	}
	if strings.TrimSpace(s.Sentence) == "" {
		sentences, err := s.synthetic()
		return sentences, s.VocabSize, err
	}
	if s.Tokenizer != nil {
		ids := s.Tokenizer.Encode([]byte(s.Sentence))
		return [][]int{ids[:min(len(ids), s.MaxLen)]}, s.Tokenizer.VocabSize(), nil
	}
	vocab := text.NewVocab([]string{s.Sentence})
	ids := vocab.Encode(s.Sentence)
	if len(ids) == 0 {
		return nil, 0, fmt.Errorf("explore: the sentence %q has no words", s.Sentence)
	}
	return [][]int{ids[:min(len(ids), s.MaxLen)]}, vocab.Len(), nil
}

// Analysis is what the explorer's "run analysis" button shows beside the
// heat maps, as the source app's analysis pages do: the data's validation,
// the padded batch with its mask, the summary statistics, and lesson 3's
// pattern metrics of each head.
//
// Part of the library behind the appendix; the lesson does not name it.
type Analysis struct {
	Settings  Settings
	Sentences [][]int // the data (Settings.Data)
	VocabSize int
	// Problem is synthetic.Check's verdict on the data: nil when every
	// length is in 1 … MaxLen and every id in 1 … VocabSize−1.
	Problem error
	Batch   synthetic.Batch   // the sentences padded to MaxLen, with the mask (1 = padding)
	Summary synthetic.Summary // describe() of the ids and the lengths
	Tokens  []string          // the heat maps' tokens, padding excluded
	Heads   []attention.Pattern
}

// Analyze computes the analysis of the settings: Data, its validation,
// padding and statistics, and the pattern metrics (diagonal, local,
// sparse ratio above [PatternThreshold], entropy) of each head's weights
// over the real tokens, padding left out.
//
// Part of the library behind the appendix; the lesson does not name it.
func (s Settings) Analyze() (Analysis, error) {
	sentences, vocabSize, err := s.Data()
	if err != nil {
		return Analysis{}, err
	}
	a := Analysis{Settings: s, Sentences: sentences, VocabSize: vocabSize,
		Problem: synthetic.Check(sentences, vocabSize, s.MaxLen), Batch: synthetic.Pad(sentences)}
	// Pad to MaxLen, as the heat maps are, rather than to the longest.
	for i := range a.Batch.IDs {
		for len(a.Batch.IDs[i]) < s.MaxLen {
			a.Batch.IDs[i] = append(a.Batch.IDs[i], synthetic.PadID)
			a.Batch.Mask[i] = append(a.Batch.Mask[i], 1)
		}
	}
	if a.Summary, err = synthetic.Summarize(sentences); err != nil {
		return Analysis{}, err
	}
	tokens, weights, err := s.Attention()
	if err != nil {
		return Analysis{}, err
	}
	_, mask, err := s.Tokens()
	if err != nil {
		return Analysis{}, err
	}
	n := 0
	for _, m := range mask[0] {
		if m == 0 {
			n++
		}
	}
	a.Tokens = tokens[:n]
	real := make([][][]float64, len(weights))
	for h, w := range weights {
		real[h] = make([][]float64, n)
		for i := range real[h] {
			real[h][i] = w[i][:n]
		}
	}
	if a.Heads, err = attention.AnalyzeHeads(real, PatternThreshold); err != nil {
		return Analysis{}, err
	}
	return a, nil
}

// rowsShown is how many sentences of the padded batch String prints.
const rowsShown = 8

// String prints the analysis as four short sections.
func (a Analysis) String() string {
	var b strings.Builder
	source := fmt.Sprintf("%d synthetic sentences, vocabulary %d, at most %d tokens (seed %d)",
		len(a.Sentences), a.VocabSize, a.Settings.MaxLen, a.Settings.Seed)
	switch {
	case strings.TrimSpace(a.Settings.Sentence) != "" && a.Settings.Tokenizer != nil:
		source = fmt.Sprintf("the sentence %q: %d tokens (at most %d) of a byte-level BPE of %d (padding shown as 0)",
			a.Settings.Sentence, len(a.Sentences[0]), a.Settings.MaxLen, a.VocabSize)
	case strings.TrimSpace(a.Settings.Sentence) != "":
		source = fmt.Sprintf("the sentence %q: %d tokens (at most %d) of a vocabulary of %d (<pad> = 0, <unk> = 1)",
			a.Settings.Sentence, len(a.Sentences[0]), a.Settings.MaxLen, a.VocabSize)
	}
	fmt.Fprintf(&b, "Data: %s\n\n", source)
	verdict := "ok: every length in 1 … %d, every id in 1 … %d, no padding inside a sentence"
	if a.Problem != nil {
		fmt.Fprintf(&b, "Validation: FAILED: %v\n\n", a.Problem)
	} else {
		fmt.Fprintf(&b, "Validation: "+verdict+"\n\n", a.Settings.MaxLen, a.VocabSize-1)
	}
	fmt.Fprintf(&b, "Padded batch [%d][%d] and its mask (1 = padding):\n", len(a.Batch.IDs), len(a.Batch.IDs[0]))
	for i := range min(len(a.Batch.IDs), rowsShown) {
		fmt.Fprintf(&b, "  %v  mask %v\n", a.Batch.IDs[i], a.Batch.Mask[i])
	}
	if len(a.Batch.IDs) > rowsShown {
		fmt.Fprintf(&b, "  … %d more\n", len(a.Batch.IDs)-rowsShown)
	}
	fmt.Fprintf(&b, "\nSummary statistics:\n%s\n", a.Summary)
	names := make([]string, len(a.Heads))
	for h := range names {
		names[h] = fmt.Sprintf("head %d", h+1)
	}
	fmt.Fprintf(&b, "Attention patterns over %s:\n%s", strings.Join(a.Tokens, " "), attention.PatternTable(names, a.Heads))
	return b.String()
}
