// Package text turns short sentences into token ids and back, for the
// course's examples: a word-level tokenizer, a vocabulary built from a list
// of sentences, and padding of a batch to one length.
//
// Tokens are lower-case words; punctuation is split off into tokens of its
// own, so "Dog bites man." becomes [dog bites man .]. Two ids are reserved:
// [PadID] (0, the token "<pad>") fills short sequences of a batch, and
// [UnkID] (1, "<unk>") stands for every word the vocabulary does not know
// (out of vocabulary, OOV). A real model uses a subword tokenizer (BPE,
// WordPiece) trained on a large corpus; this one is small enough to read and
// to check by hand.
//
// Introduced in lesson 04 (positional encoding); the appendix lesson uses it
// too.
package text

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/attention-in-go/course/lib/random"
)

// The reserved tokens and their ids. Padding is 0 so that a zero-filled
// tensor is all padding, which is what attention.PaddingMask expects by
// default.
//
// Part of the library behind lesson 04; the lesson does not name it.
const (
	PadID    = 0       // id of the padding token
	UnkID    = 1       // id of the out-of-vocabulary token
	PadToken = "<pad>" // the padding token
	UnkToken = "<unk>" // the out-of-vocabulary token
)

// Tokenize splits s into lower-case tokens:
//
//   - a word is a run of letters and digits; an apostrophe between two
//     letters stays inside the word ("don't", "dog's");
//   - every other character that is not white space (punctuation, symbols)
//     is a token of its own;
//   - white space only separates tokens.
//
// So Tokenize("Sphinx of Black Quartz, judge my vow!") is
// [sphinx of black quartz , judge my vow !]. An empty or blank s gives no
// tokens.
//
// Introduced in lesson 04.
func Tokenize(s string) []string {
	runes := []rune(strings.ToLower(s))
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	var tokens []string
	var word []rune
	flush := func() {
		if len(word) > 0 {
			tokens = append(tokens, string(word))
			word = word[:0]
		}
	}
	for i, r := range runes {
		switch {
		case isWord(r):
			word = append(word, r)
		case (r == '\'' || r == '’') && len(word) > 0 && unicode.IsLetter(word[len(word)-1]) &&
			i+1 < len(runes) && unicode.IsLetter(runes[i+1]):
			word = append(word, r) // don't, dog's
		case unicode.IsSpace(r):
			flush()
		default:
			flush()
			tokens = append(tokens, string(r))
		}
	}
	flush()
	return tokens
}

// Vocab maps tokens to ids and back. Ids 0 and 1 are the reserved
// [PadToken] and [UnkToken]; the tokens of the sentences it was built from
// follow in alphabetical order, from id 2. Build one with [NewVocab].
//
// Introduced in lesson 04.
type Vocab struct {
	tokens []string       // id → token
	ids    map[string]int // token → id
}

// NewVocab builds the vocabulary of sentences: every distinct token that
// [Tokenize] finds in them, sorted (so that the ids do not depend on the
// order of the sentences), after the two reserved tokens. With no
// sentences the vocabulary has only the reserved tokens, and every word
// encodes to [UnkID].
//
// Introduced in lesson 04.
func NewVocab(sentences []string) *Vocab {
	seen := map[string]bool{}
	var words []string
	for _, s := range sentences {
		for _, t := range Tokenize(s) {
			if !seen[t] {
				seen[t] = true
				words = append(words, t)
			}
		}
	}
	sort.Strings(words)
	v := &Vocab{tokens: append([]string{PadToken, UnkToken}, words...), ids: map[string]int{}}
	for id, t := range v.tokens {
		v.ids[t] = id
	}
	return v
}

// Len returns the number of tokens, reserved ones included: the number of
// rows of an embedding table for this vocabulary.
func (v *Vocab) Len() int { return len(v.tokens) }

// Tokens returns every token in id order (a copy): Tokens()[id] is the
// token of id.
func (v *Vocab) Tokens() []string { return append([]string(nil), v.tokens...) }

// Has reports whether token (compared in lower case) is in the vocabulary.
func (v *Vocab) Has(token string) bool {
	_, ok := v.ids[strings.ToLower(token)]
	return ok
}

// ID returns the id of token (compared in lower case), or [UnkID] when the
// vocabulary does not have it.
func (v *Vocab) ID(token string) int {
	if id, ok := v.ids[strings.ToLower(token)]; ok {
		return id
	}
	return UnkID
}

// Encode tokenizes sentence with [Tokenize] and returns the id of every
// token; unknown words become [UnkID].
//
// Part of the library behind lesson 04; the lesson does not name it.
func (v *Vocab) Encode(sentence string) []int {
	return v.EncodeTokens(Tokenize(sentence))
}

// EncodeTokens returns the id of every token of an already tokenized
// sentence (compared in lower case); unknown tokens become [UnkID]. Use it
// for words kept as a list, such as the labels of a figure.
//
// Part of the library behind lesson 04; the lesson does not name it.
func (v *Vocab) EncodeTokens(tokens []string) []int {
	ids := make([]int, len(tokens))
	for i, t := range tokens {
		ids[i] = v.ID(t)
	}
	return ids
}

// Decode returns the token of every id; padding decodes to "<pad>" and
// unknown words to "<unk>" (the original word is lost). An id outside
// [0, Len()) is an error.
//
// Part of the library behind lesson 04; the lesson does not name it.
func (v *Vocab) Decode(ids []int) ([]string, error) {
	tokens := make([]string, len(ids))
	for i, id := range ids {
		if id < 0 || id >= len(v.tokens) {
			return nil, fmt.Errorf("text.Decode: id %d at position %d is not in the vocabulary (ids go from 0 to %d): was it encoded with another vocabulary?",
				id, i, len(v.tokens)-1)
		}
		tokens[i] = v.tokens[id]
	}
	return tokens, nil
}

// EncodeBatch encodes every sentence and pads them with [Pad] to length
// (0: the length of the longest sentence), giving a [batch][length] matrix
// of ids ready for a model and for attention.Padding.
//
// Part of the library behind lesson 04; the lesson does not name it.
func (v *Vocab) EncodeBatch(sentences []string, length int) ([][]int, error) {
	batch := make([][]int, len(sentences))
	for i, s := range sentences {
		batch[i] = v.Encode(s)
	}
	return Pad(batch, length)
}

// Sample returns n words drawn uniformly, with replacement, from the
// vocabulary's own words (never the reserved tokens), with the course's
// seeded generator: the same seed gives the same words on every machine.
// It panics if n < 0 or the vocabulary has no words.
//
// Part of the library behind lesson 04; the lesson does not name it.
func (v *Vocab) Sample(n int, seed uint32) []string {
	if n < 0 {
		panic(fmt.Sprintf("text.Sample: n must be ≥ 0, got %d", n))
	}
	words := len(v.tokens) - 2
	if words <= 0 && n > 0 {
		panic("text.Sample: the vocabulary has no words to sample: build it from at least one non-empty sentence")
	}
	r := random.New(seed)
	out := make([]string, n)
	for i := range out {
		out[i] = v.tokens[2+int(r.Float64()*float64(words))]
	}
	return out
}

// Pad returns copies of the sequences filled with [PadID] at the end up to
// length, so that they fit in one [batch][length] tensor. Length 0 means the
// length of the longest sequence. A sequence longer than length is an error
// rather than being cut silently.
//
// Introduced in lesson 04.
func Pad(batch [][]int, length int) ([][]int, error) {
	if length < 0 {
		return nil, fmt.Errorf("text.Pad: length must be ≥ 0 (0 = the longest sequence), got %d", length)
	}
	if length == 0 {
		for _, s := range batch {
			length = max(length, len(s))
		}
	}
	out := make([][]int, len(batch))
	for i, s := range batch {
		if len(s) > length {
			return nil, fmt.Errorf("text.Pad: sequence %d has %d tokens, more than the length %d: raise the length or shorten the sentence",
				i, len(s), length)
		}
		out[i] = make([]int, length)
		copy(out[i], s)
		for j := len(s); j < length; j++ {
			out[i][j] = PadID
		}
	}
	return out, nil
}
