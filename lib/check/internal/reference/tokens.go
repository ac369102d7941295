package reference

import (
	"bytes"
	"math"
)

// This file holds the references of lesson 12's exercises: one training
// step of byte-level BPE, encoding a text with a learned merge list, and
// bits per byte from a loss per token.

// Replace is how a merge replaces the occurrences of its pair (a, b) by
// the new token Z.
type Replace int

const (
	// LeftToRight is the rule: left to right, without overlap; a a a
	// becomes Z a, a a a a becomes Z Z.
	LeftToRight Replace = iota
	// Overlapping replaces every occurrence, overlapping ones too: each
	// position where the pair starts becomes Z and the tokens the pairs
	// cover go; a a a becomes Z Z.
	Overlapping
	// RightKept writes Z where the pair starts but keeps its right token:
	// a b becomes Z b, a a a becomes Z Z a.
	RightKept
	// FirstOnly replaces the first occurrence only.
	FirstOnly
)

// replace returns ids with the occurrences of pair replaced by id, as
// rule says, in a new slice.
func replace(ids []int, pair [2]int, id int, rule Replace) []int {
	at := func(i int) bool { return i+1 < len(ids) && ids[i] == pair[0] && ids[i+1] == pair[1] }
	out := make([]int, 0, len(ids))
	switch rule {
	case Overlapping:
		for i := range ids {
			switch {
			case at(i):
				out = append(out, id)
			case i > 0 && at(i-1):
				// covered by the pair that starts at i−1
			default:
				out = append(out, ids[i])
			}
		}
	case RightKept:
		for i := range ids {
			if at(i) {
				out = append(out, id)
			} else {
				out = append(out, ids[i])
			}
		}
	default:
		done := false
		for i := 0; i < len(ids); i++ {
			if !done && at(i) {
				out = append(out, id)
				i++
				done = rule == FirstOnly
			} else {
				out = append(out, ids[i])
			}
		}
	}
	return out
}

// PairCounts counts the pairs of adjacent ids. A pair is counted at every
// position: a a a holds (a, a) twice. With noOverlap (a usual mistake) a
// pair's occurrences are counted left to right without overlap, as a
// replacement would find them: a a a holds (a, a) once.
func PairCounts(ids []int, noOverlap bool) map[[2]int]int {
	counts := map[[2]int]int{}
	end := map[[2]int]int{} // the position of the right token of the pair's last counted occurrence
	for i := 0; i+1 < len(ids); i++ {
		p := [2]int{ids[i], ids[i+1]}
		if e, ok := end[p]; noOverlap && ok && e == i {
			continue
		}
		counts[p]++
		end[p] = i + 1
	}
	return counts
}

// MergeVariant selects the reference (zero value) or one usual mistake of
// a BPE training step.
type MergeVariant struct {
	Replace        Replace // how the pair's occurrences are replaced
	CountNoOverlap bool    // pairs counted without overlap: a a a holds (a, a) once
	TieFirstSeen   bool    // of equally frequent pairs, the one seen first in the sequence
	TieLargest     bool    // of equally frequent pairs, the largest
}

// BestPair returns the most frequent pair of adjacent ids and its count;
// of equally frequent pairs, the smallest (smaller left id, then smaller
// right id), as lib/bpe's training chooses. ids must hold two ids or more.
func BestPair(ids []int, vr MergeVariant) (pair [2]int, count int) {
	counts := PairCounts(ids, vr.CountNoOverlap)
	// Walk the pairs in the order they first occur, so that "seen first"
	// is the first one met.
	for i := 0; i+1 < len(ids); i++ {
		p := [2]int{ids[i], ids[i+1]}
		c := counts[p]
		switch {
		case c > count:
		case c < count || vr.TieFirstSeen:
			continue
		case vr.TieLargest && !less(pair, p):
			continue
		case !vr.TieLargest && !less(p, pair):
			continue
		}
		pair, count = p, c
	}
	return pair, count
}

// less orders pairs by left id, then right id.
func less(a, b [2]int) bool { return a[0] < b[0] || a[0] == b[0] && a[1] < b[1] }

// MergeStep is one step of BPE training on a sequence of token ids (at
// least two): count every pair of adjacent ids, at every position, take
// the most frequent pair (of equally frequent ones the smallest, left id
// first) and replace its occurrences, left to right without overlap, by
// the new id next.
func MergeStep(ids []int, next int, vr MergeVariant) (merged []int, left, right int) {
	pair, _ := BestPair(ids, vr)
	return replace(ids, pair, next, vr.Replace), pair[0], pair[1]
}

// Train learns up to maxMerges merges from text by repeated merge steps
// (merge i makes token 256+i), stopping early when no pair occurs twice,
// as lib/bpe's Train does without its pre-split.
func Train(text []byte, maxMerges int) [][2]int {
	ids := Bytes(text)
	var merges [][2]int
	for len(merges) < maxMerges && len(ids) >= 2 {
		pair, count := BestPair(ids, MergeVariant{})
		if count < 2 {
			break
		}
		ids = replace(ids, pair, 256+len(merges), LeftToRight)
		merges = append(merges, pair)
	}
	return merges
}

// Bytes returns the ids of text's bytes, 0 … 255.
func Bytes(text []byte) []int {
	ids := make([]int, len(text))
	for i, b := range text {
		ids[i] = int(b)
	}
	return ids
}

// BPEVariant selects the reference (zero value) or one usual mistake
// of encoding with a merge list.
type BPEVariant struct {
	Replace       Replace // how each merge replaces its pair
	Reversed      bool    // merges applied newest first
	LongestMatch  bool    // greedy longest match over the tokens' bytes, left to right (WordPiece's way)
	BreakAtAbsent bool    // stops at the first merge the sequence does not hold
	OneMerge      bool    // applies the oldest merge present, then stops (minbpe's loop body, once)
}

// Vocab returns the bytes of every token of a merge list: the 256 bytes,
// then merges[i]'s two parts concatenated as token 256+i.
func Vocab(merges [][2]int) [][]byte {
	vocab := make([][]byte, 256, 256+len(merges))
	for b := range 256 {
		vocab[b] = []byte{byte(b)}
	}
	for _, m := range merges {
		vocab = append(vocab, bytes.Join([][]byte{vocab[m[0]], vocab[m[1]]}, nil))
	}
	return vocab
}

// Encode returns the token ids of text for a merge list (merges[i] =
// {left, right} makes token 256+i): the bytes as ids, then each merge,
// oldest first, replacing its pair everywhere, left to right without
// overlap. It equals minbpe's loop (merge the present pair of lowest rank
// until none is left): merging pair r only makes pairs with token 256+r,
// whose merges come after r.
func Encode(text []byte, merges [][2]int, vr BPEVariant) []int {
	if vr.LongestMatch {
		return longestMatch(text, Vocab(merges))
	}
	ids := Bytes(text)
	for k := range merges {
		r := k
		if vr.Reversed {
			r = len(merges) - 1 - k
		}
		pair := merges[r]
		if vr.BreakAtAbsent && !holds(ids, pair) {
			break
		}
		if vr.OneMerge && !holds(ids, pair) {
			continue
		}
		ids = replace(ids, pair, 256+r, vr.Replace)
		if vr.OneMerge {
			break
		}
	}
	return ids
}

// holds reports whether pair occurs in ids.
func holds(ids []int, pair [2]int) bool {
	for i := 0; i+1 < len(ids); i++ {
		if ids[i] == pair[0] && ids[i+1] == pair[1] {
			return true
		}
	}
	return false
}

// longestMatch cuts text left to right, each time into the longest token
// whose bytes start the rest (the lowest id among equally long ones).
func longestMatch(text []byte, vocab [][]byte) []int {
	var out []int
	for len(text) > 0 {
		best := int(text[0])
		for id := 256; id < len(vocab); id++ {
			if len(vocab[id]) > len(vocab[best]) && bytes.HasPrefix(text, vocab[id]) {
				best = id
			}
		}
		out = append(out, best)
		text = text[len(vocab[best]):]
	}
	return out
}

// BitsVariant selects the reference (zero value) or one usual mistake of
// bits per byte.
type BitsVariant struct {
	NoLn2        bool // nats per byte: not divided by ln 2
	PerToken     bool // bits per token: divided by the number of tokens, not of bytes
	MeanOfRatios bool // the mean over the tokens of loss_i / (ln 2 · bytes_i)
	Log10        bool // divided by log10 2 instead of ln 2
	Ln2Times     bool // multiplied by ln 2 instead of divided
}

// BitsPerByte converts a model's loss in nats on each token of a text
// (losses[i]) to bits per byte of the text, given each token's length in
// bytes: Σ losses / (ln 2 · Σ tokenBytes). The total loss is the text's
// cost in nats; ln 2 makes it bits, and the bytes make it per byte.
func BitsPerByte(losses []float64, tokenBytes []int, vr BitsVariant) float64 {
	if vr.MeanOfRatios {
		sum := 0.0
		for i, l := range losses {
			sum += l / (math.Ln2 * float64(tokenBytes[i]))
		}
		return sum / float64(len(losses))
	}
	nats, n := 0.0, 0
	for i, l := range losses {
		nats += l
		n += tokenBytes[i]
	}
	if vr.PerToken {
		n = len(losses)
	}
	switch {
	case vr.NoLn2:
		return nats / float64(n)
	case vr.Log10:
		return nats / (math.Log10(2) * float64(n))
	case vr.Ln2Times:
		return nats * math.Ln2 / float64(n)
	}
	return nats / (math.Ln2 * float64(n))
}
