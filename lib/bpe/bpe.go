// Package bpe is byte-level byte-pair encoding (BPE), the tokenizer of
// GPT-2 and its successors: it learns a vocabulary of byte strings from a
// text and cuts any text into them.
//
// Training starts from the 256 byte values as tokens and the text as a
// sequence of them. It counts every pair of adjacent tokens, makes the most
// frequent pair a new token (ids 256, 257, … in the order learned), replaces
// it everywhere, and repeats until the vocabulary has the size asked for.
// Each new token is a "merge" of two older ones, so "func" may be
// ("f"+"u") + ("n"+"c"). Encoding a text replays the merges on its bytes,
// oldest first; decoding concatenates the tokens' bytes. Because the base
// tokens are the bytes, every text can be encoded and nothing is ever
// unknown; a frequent string becomes one token, a rare one stays several.
//
// Sennrich, Haddow and Birch brought BPE, a compression algorithm (Gage
// 1994), to translation as subword units (Neural Machine Translation of
// Rare Words with Subword Units, ACL 2016, arXiv:1508.07909). Radford et al.
// made it byte-level for GPT-2 and first cut the text with a regular
// expression, so that tokens do not span a word and the punctuation after
// it (Language Models are Unsupervised Multitask Learners, 2019); [Split]
// is such a pre-split for Go source. The code follows Karpathy's minbpe
// (github.com/karpathy/minbpe): the plain algorithm in a few lines, next to
// the faster one that [Train] and [Tokenizer.Encode] run, and tests that
// they agree.
//
// Introduced in lesson 12 (tokens).
package bpe

import (
	"bytes"
	"fmt"
	"math"
)

// Options are the choices of [Train]. The zero value trains on the text
// as one stream of bytes.
//
// Introduced in lesson 12.
type Options struct {
	// PreSplit cuts the text into chunks with [Split] before training, and
	// the tokenizer does the same before encoding: pairs are counted and
	// merged only inside a chunk, so no token spans a word and the
	// punctuation or white space next to it.
	PreSplit bool
}

// Merge is one learned token: the pair of tokens (Left, Right) that
// training replaced by the new token ID. Count is how often the pair
// occurred when it was chosen, counted at every position (see [Train]).
//
// Introduced in lesson 12.
type Merge struct {
	Left, Right int // the pair's token ids
	ID          int // the new token: 256 + the merge's rank
	Count       int // occurrences of the pair when it was merged
}

// Tokenizer is a trained byte-level BPE: the 256 byte tokens and the
// merges learned after them. It is safe for concurrent use.
//
// Introduced in lesson 12.
type Tokenizer struct {
	merges   []Merge
	vocab    [][]byte         // vocab[id] is the token's bytes
	rank     map[uint64]int32 // pairKey(left, right) → the merge's index
	preSplit bool
}

// pairKey packs a pair of token ids into one map key. Comparing keys as
// numbers compares the pairs lexicographically, (left, then right).
func pairKey(left, right int32) uint64 { return uint64(left)<<32 | uint64(uint32(right)) }

// Train learns a byte-level BPE of vocabSize tokens (256 byte tokens and
// vocabSize − 256 merges) from text.
//
// Each step counts the adjacent pairs of the current tokens and merges the
// most frequent pair, as minbpe's get_stats and merge do:
//
//   - a pair is counted at every position, even where occurrences overlap:
//     "aaa" holds the pair ("a","a") twice;
//   - the merge replaces occurrences left to right without overlap:
//     "aaa" becomes ["aa" "a"], "aaaa" becomes ["aa" "aa"];
//   - ties are broken by the pair itself: among pairs of the same count,
//     the one whose (left id, right id) is smallest, left id first, wins.
//     (minbpe takes the pair seen first in the text instead.) So each
//     choice depends on the counts alone, not on where a pair first
//     occurs nor on the order a map is walked: training twice gives the
//     same tokenizer.
//
// Training stops early when no pair occurs at least twice: merging a pair
// seen once would spend a token on a string the text holds once. Then the
// tokenizer has fewer than vocabSize tokens; [Tokenizer.VocabSize] says
// how many.
//
// With opts.PreSplit the text is first cut with [Split] and pairs are
// counted inside each chunk only; identical chunks are trained once, with
// their count as weight, and the merges depend on the text only through
// how often each chunk occurs — the order of its files, say, does not
// matter. Without it, the text is one sequence, and a pair across the seam
// of two files counts too.
//
// Merges are learned greedily, so a larger vocabulary extends a smaller
// one: Train(text, 512, o) has the first 256 merges of Train(text, 4096, o).
//
// The work is incremental (after each merge only the counts of the pairs
// around the replaced positions change); trainPlain, which recounts
// everything at each step as minbpe does, is the reference the tests hold
// it to. Learning 4,096 tokens from 1 MB of Go source takes under half a
// second on two cores, a tenth of that with the pre-split.
//
// It returns an error if vocabSize < 256 or the text is 2 GiB or longer.
//
// Introduced in lesson 12.
func Train(text []byte, vocabSize int, opts Options) (*Tokenizer, error) {
	if vocabSize < 256 {
		return nil, fmt.Errorf("bpe.Train: vocabSize %d is below the 256 byte tokens", vocabSize)
	}
	if len(text) >= math.MaxInt32 {
		return nil, fmt.Errorf("bpe.Train: text of %d bytes is too long, want < 2 GiB", len(text))
	}
	return newTokenizer(trainFast(text, vocabSize, opts.PreSplit), opts.PreSplit), nil
}

// newTokenizer builds the tokens of merges, which must be a valid sequence
// (merge i has ID 256+i and parts below it).
func newTokenizer(merges []Merge, preSplit bool) *Tokenizer {
	t := &Tokenizer{
		merges:   merges,
		vocab:    make([][]byte, 256, 256+len(merges)),
		rank:     make(map[uint64]int32, len(merges)),
		preSplit: preSplit,
	}
	for b := range 256 {
		t.vocab[b] = []byte{byte(b)}
	}
	for i, m := range merges {
		if m.ID != 256+i || m.Left >= m.ID || m.Right >= m.ID {
			panic(fmt.Sprintf("bpe: merge %d is %+v, want ID %d made of older tokens", i, m, 256+i))
		}
		t.vocab = append(t.vocab, bytes.Join([][]byte{t.vocab[m.Left], t.vocab[m.Right]}, nil))
		t.rank[pairKey(int32(m.Left), int32(m.Right))] = int32(i)
	}
	return t
}

// Merges returns the learned merges in the order learned: Merges()[i]
// made token 256+i.
//
// Introduced in lesson 12.
func (t *Tokenizer) Merges() []Merge { return append([]Merge(nil), t.merges...) }

// VocabSize returns the number of tokens, 256 + len(Merges()). Ids run
// from 0 to VocabSize()−1.
//
// Introduced in lesson 12.
func (t *Tokenizer) VocabSize() int { return len(t.vocab) }

// PreSplit says whether the tokenizer was trained, and encodes, with
// [Split]'s chunks ([Options.PreSplit]).
//
// Introduced in lesson 12.
func (t *Tokenizer) PreSplit() bool { return t.preSplit }

// Token returns a copy of the bytes of token id. It panics if id is not in
// [0, VocabSize()), like indexing a slice.
//
// Introduced in lesson 12.
func (t *Tokenizer) Token(id int) []byte {
	t.check("Token", id)
	return bytes.Clone(t.vocab[id])
}

// Pieces returns each token's bytes as a string, for printing an encoding
// with %q. It panics on an invalid id, as [Tokenizer.Decode] does.
//
// Introduced in lesson 12.
func (t *Tokenizer) Pieces(ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		t.check("Pieces", id)
		out[i] = string(t.vocab[id])
	}
	return out
}

func (t *Tokenizer) check(fn string, id int) {
	if id < 0 || id >= len(t.vocab) {
		panic(fmt.Sprintf("bpe: Tokenizer.%s: token id %d is not in the vocabulary [0, %d)", fn, id, len(t.vocab)))
	}
}

// Decode returns the text of a sequence of token ids: their bytes,
// concatenated. Any sequence of valid ids decodes, whether Encode could
// have produced it or not, and Decode(Encode(text)) is text. The bytes
// need not be valid UTF-8: a model may emit half of a character.
//
// An id outside [0, VocabSize()) is a bug of the caller (a model's output
// layer has VocabSize() entries), so Decode panics with a message naming
// it, like indexing a slice, rather than returning an error.
//
// Introduced in lesson 12.
func (t *Tokenizer) Decode(ids []int) []byte {
	n := 0
	for _, id := range ids {
		t.check("Decode", id)
		n += len(t.vocab[id])
	}
	out := make([]byte, 0, n)
	for _, id := range ids {
		out = append(out, t.vocab[id]...)
	}
	return out
}

// Encode returns the token ids of text. It applies the merges as training
// learned them, the oldest (lowest id) first, each at every place it
// applies, left to right without overlap — on each chunk of [Split] when
// the tokenizer was trained with [Options.PreSplit], else on the whole
// text. Encoding the training text reproduces training's final sequence.
//
// Typical sizes: n bytes of Go source → about n/3 ids with 4,096 tokens
// and the pre-split, n/4 without (lesson 10's held-out text; n/2.4 and
// n/2.7 with 1,024 tokens).
//
// The work is a priority queue of the pairs in the text, ordered by merge
// and then position (as Hugging Face's tokenizers do), and a
// chunk that repeats is encoded once per call; encodePlain, minbpe's loop,
// is the reference the tests hold it to.
//
// Introduced in lesson 12.
func (t *Tokenizer) Encode(text []byte) []int {
	out := make([]int, 0, len(text)/3+1)
	var e encoder
	if !t.preSplit {
		return e.encode(t, text, out)
	}
	type span struct{ start, end int32 } // in cached
	var cached []int
	cache := map[string]span{}
	for len(text) > 0 {
		n := chunkLen(text)
		chunk := text[:n]
		text = text[n:]
		if n == 1 {
			out = append(out, int(chunk[0]))
			continue
		}
		if s, ok := cache[string(chunk)]; ok {
			out = append(out, cached[s.start:s.end]...)
			continue
		}
		start := len(out)
		out = e.encode(t, chunk, out)
		s := span{int32(len(cached)), 0}
		cached = append(cached, out[start:]...)
		s.end = int32(len(cached))
		cache[string(chunk)] = s
	}
	return out
}

// BytesPerToken is how much the tokenizer compresses text: len(text)
// divided by the number of tokens Encode gives. 1 for a tokenizer without
// merges; the larger, the more text a model of a given context length
// sees. 0 for an empty text.
//
// Introduced in lesson 12.
func (t *Tokenizer) BytesPerToken(text []byte) float64 {
	if len(text) == 0 {
		return 0
	}
	return float64(len(text)) / float64(len(t.Encode(text)))
}

// BitsPerByte converts a language model's mean loss per token — its
// cross-entropy in nats, as training reports it — over a text of the given
// numbers of tokens and bytes to bits per byte:
//
//	bits/byte = loss/token · tokens / (bytes · ln 2)
//
// The loss times the tokens is the text's total cost in nats; dividing by
// ln 2 makes it bits, and by the bytes, bits per byte. Unlike loss per
// token, it compares models whose tokenizers differ, and a byte-level model
// (lesson 10's bits per character) with a BPE one. bytes must be positive.
//
// Introduced in lesson 12.
func BitsPerByte(lossPerToken float64, tokens, bytes int) float64 {
	return lossPerToken * float64(tokens) / (float64(bytes) * math.Ln2)
}

// String says how large the tokenizer is and whether it pre-splits.
func (t *Tokenizer) String() string {
	split := "one byte stream"
	if t.preSplit {
		split = "pre-split"
	}
	return fmt.Sprintf("byte-level BPE: %d tokens (256 bytes + %d merges), %s", len(t.vocab), len(t.merges), split)
}
