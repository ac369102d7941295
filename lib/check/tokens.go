package check

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/random"
)

// This file holds the checks of lesson 12's exercises: one training step
// of byte-level BPE, encoding a text with a learned merge list, and a
// language model's loss per token as bits per byte.

type (
	// MergeIn is an input of the merge-step exercise (lib/exercise).
	MergeIn = exercise.MergeIn
	// MergeOut is MergeStep's result (lib/exercise).
	MergeOut = exercise.MergeOut
	// EncodeIn is an input of the encoding exercise (lib/exercise).
	EncodeIn = exercise.EncodeIn
	// BitsIn is an input of the bits-per-byte exercise (lib/exercise).
	BitsIn = exercise.BitsIn
)

// Drawing the hidden cases: texts of random letters, and ids that are
// all different.

// distinctInts draws n different integers in [lo, hi], in random order.
func distinctInts(r *random.Source, n, lo, hi int) []int {
	seen := map[int]bool{}
	out := make([]int, 0, n)
	for len(out) < n {
		x := intIn(r, lo, hi)
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// letters draws n different lower-case letters.
func letters(r *random.Source, n int) []byte {
	out := make([]byte, n)
	for i, x := range distinctInts(r, n, 'a', 'z') {
		out[i] = byte(x)
	}
	return out
}

// punctuation draws n different punctuation marks and digits: they
// separate the planted pairs of a text, each pair it makes occurring once.
func punctuation(r *random.Source, n int) []byte {
	const marks = ".,;:!?-+*/=<>()[]{}0123456789"
	out := make([]byte, n)
	for i, x := range distinctInts(r, n, 0, len(marks)-1) {
		out[i] = marks[x]
	}
	return out
}

// wordsText draws a short text: nw words of 2–4 letters of a small
// alphabet, and n of them, with repeats, joined by spaces. It returns
// the text and the words, so that another text can reuse them.
func wordsText(r *random.Source, nw, n int) (string, []string) {
	abc := letters(r, intIn(r, 3, 5))
	words := make([]string, nw)
	for i := range words {
		w := make([]byte, intIn(r, 2, 4))
		for j := range w {
			w[j] = abc[intIn(r, 0, len(abc)-1)]
		}
		words[i] = string(w)
	}
	return pickWords(r, words, n), words
}

// pickWords joins n words drawn from words with spaces.
func pickWords(r *random.Source, words []string, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = words[intIn(r, 0, len(words)-1)]
	}
	return strings.Join(out, " ")
}

// shuffle puts the elements of s in a random order.
func shuffle[T any](r *random.Source, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		j := intIn(r, 0, i)
		s[i], s[j] = s[j], s[i]
	}
}

// Exercise 1: one merge step.

type mergeFunc = func(ids []int, next int) (merged []int, left, right int)

func mergeVariant(vr reference.MergeVariant) func(MergeIn) MergeOut {
	return func(in MergeIn) MergeOut {
		m, l, r := reference.MergeStep(in.IDs, in.Next, vr)
		return MergeOut{Merged: m, Left: l, Right: r}
	}
}

func compareMerge(got, want MergeOut) *Diff {
	if got.Left != want.Left || got.Right != want.Right {
		return &Diff{Where: "the pair merged (left, right)", Want: fmt.Sprintf("(%d, %d)", want.Left, want.Right),
			Got: fmt.Sprintf("(%d, %d)", got.Left, got.Right)}
	}
	if d := compareInts(got.Merged, want.Merged); d != nil {
		return prefix("merged", d)
	}
	return nil
}

// bytesIn is a merge step on the bytes of s.
func bytesIn(s string, next int) MergeIn { return MergeIn{IDs: reference.Bytes([]byte(s)), Next: next} }

// tieIn draws a sequence in which four pairs occur c times each and
// every other pair once: the smallest of the four is the answer; the
// first one in the sequence is the third smallest, neither the smallest
// nor the largest. The pairs' ids and the ids between them all differ.
func tieIn(r *random.Source) (MergeIn, string) {
	next := intIn(r, 256, 320)
	c := intIn(r, 2, 3)
	tok := distinctInts(r, 8+4*c, 0, next-1)
	pairs := [][2]int{{tok[0], tok[1]}, {tok[2], tok[3]}, {tok[4], tok[5]}, {tok[6], tok[7]}}
	sort.Slice(pairs, func(i, j int) bool {
		return pairs[i][0] < pairs[j][0] || pairs[i][0] == pairs[j][0] && pairs[i][1] < pairs[j][1]
	})
	order := []int{2, 3, 1, 0} // the third smallest first, then the largest
	var seq []int
	sep := tok[8:]
	for rep := range c {
		if rep > 0 {
			shuffle(r, order)
		}
		for _, k := range order {
			seq = append(seq, pairs[k][0], pairs[k][1], sep[0])
			sep = sep[1:]
		}
	}
	return MergeIn{IDs: seq, Next: next}, fmt.Sprintf("four pairs %d times each, (%d, %d) first", c, pairs[2][0], pairs[2][1])
}

// runIn draws a sequence with a run of k equal ids (k = 4 or 5), which
// holds that pair k−1 times, and a pair (b, c), smaller, m times
// (m = k−2): counted at every position the run's pair wins, counted
// without overlap (k/2 times) it does not.
func runIn(r *random.Source) (MergeIn, string) {
	next := intIn(r, 256, 320)
	k := intIn(r, 4, 5)
	m := k - 2
	tok := distinctInts(r, 3+m+1, 0, next-1)
	abc := tok[:3]
	sort.Ints(abc)
	a, b, c := abc[2], abc[0], abc[1]
	sep := tok[3:]
	at := intIn(r, 0, m) // the run comes after this many (b, c)
	var seq []int
	for i := range m + 1 {
		if i == at {
			for range k {
				seq = append(seq, a)
			}
		} else {
			seq = append(seq, b, c)
		}
		seq = append(seq, sep[i])
	}
	return MergeIn{IDs: seq, Next: next}, fmt.Sprintf("a run of %d × %d and (%d, %d) %d times", k, a, b, c, m)
}

var mergeSpec = Register(&Exercise[mergeFunc, MergeIn, MergeOut]{
	ID: "bpe-merge", Title: "one merge step of BPE training", Points: 3,
	Signature: "func MergeStep(ids []int, next int) (merged []int, left, right int)",
	Task:      exercise.MergeStep,
	Reference: mergeVariant(reference.MergeVariant{}),
	Cases: func() []Case[MergeIn] {
		return []Case[MergeIn]{
			{`"aaabdaaabac": (a, a) 4 times becomes 256 (a = 97, b = 98, c = 99, d = 100)`, bytesIn("aaabdaaabac", 256)},
			{`"aaa": (a, a) counted twice, replaced once`, bytesIn("aaa", 256)},
			{`"aaaa": replaced twice`, bytesIn("aaaa", 256)},
			{`"cdab-cdab": (c, d), (d, a) and (a, b) twice each; the smallest, (a, b), wins`, bytesIn("cdab-cdab", 256)},
			{`"ccccabab": (c, c) 3 times beats (a, b) twice`, bytesIn("ccccabab", 256)},
			{"ids from earlier merges (256 … 259), next 260", MergeIn{IDs: []int{258, 32, 259, 101, 32, 258, 32, 259, 101}, Next: 260}},
			{"two ids: the only pair", MergeIn{IDs: []int{104, 105}, Next: 256}},
		}
	},
	// Each seed draws a four-way tie (the tie rule; every occurrence
	// replaced), a run of one id (overlapping counts and replacements),
	// a random text and two ids.
	Hidden: func(r *random.Source) []Case[MergeIn] {
		tie, tieName := tieIn(r)
		run, runName := runIn(r)
		text, _ := wordsText(r, intIn(r, 3, 5), intIn(r, 5, 9))
		return []Case[MergeIn]{
			{tieName, tie},
			{runName, run},
			{fmt.Sprintf("the bytes of %q", text), bytesIn(text, 256)},
			{"two ids", MergeIn{IDs: distinctInts(r, 2, 0, 299), Next: 300}},
		}
	},
	Deny:    []string{"lib/bpe"},
	Allow:   StdOnly,
	Compare: compareMerge,
	Hints: []Hint[MergeIn, MergeOut]{
		{Name: "overlapping", Message: "replace left to right without overlap: once (a, a) at positions 0–1 becomes next, the (a, a) at 1–2 is gone — a a a becomes [next a], a a a a becomes [next next]",
			Wrong: mergeVariant(reference.MergeVariant{Replace: reference.Overlapping})},
		{Name: "right-kept", Message: "the pair's two ids become one: after writing next, skip the pair's right id (i += 2), so each replacement shortens the sequence by one",
			Wrong: mergeVariant(reference.MergeVariant{Replace: reference.RightKept})},
		{Name: "first-only", Message: "replace every occurrence of the pair, left to right, not only the first",
			Wrong: mergeVariant(reference.MergeVariant{Replace: reference.FirstOnly})},
		{Name: "count-no-overlap", Message: "count a pair at every position, overlapping occurrences too: a a a holds (a, a) twice (at 0–1 and 1–2), as lib/bpe and minbpe count",
			Wrong: mergeVariant(reference.MergeVariant{CountNoOverlap: true})},
		{Name: "ties-first-seen", Message: "of equally frequent pairs take the smallest (smaller left id, then smaller right id), not the one seen first in the sequence",
			Wrong: mergeVariant(reference.MergeVariant{TieFirstSeen: true})},
		{Name: "ties-largest", Message: "of equally frequent pairs take the smallest (smaller left id, then smaller right id), not the largest",
			Wrong: mergeVariant(reference.MergeVariant{TieLargest: true})},
		{Name: "ties", Message: "of equally frequent pairs take the smallest (smaller left id, then smaller right id); a Go map is walked in a random order, so pick the winner by comparing, not by which pair comes first",
			Detect: func(in MergeIn, got MergeOut) bool {
				best, n := reference.BestPair(in.IDs, reference.MergeVariant{})
				p := [2]int{got.Left, got.Right}
				return p != best && reference.PairCounts(in.IDs, false)[p] == n
			}},
	},
})

// MergeStep checks the learner's MergeStep: the most frequent pair of
// adjacent ids (the smallest of equally frequent ones), replaced left to
// right without overlap by next.
func MergeStep(f func(ids []int, next int) (merged []int, left, right int)) *Result {
	return mergeSpec.Check(f)
}

// Exercise 2: encoding with a merge list.

func encodeVariant(vr reference.BPEVariant) func(EncodeIn) []int {
	return func(in EncodeIn) []int { return reference.Encode(in.Text, in.Merges, vr) }
}

// learned is an encoding case: the merges BPE learns from train (at
// most n) applied to text.
func learned(train string, n int, text string) EncodeIn {
	return EncodeIn{Text: []byte(text), Merges: reference.Train([]byte(train), n)}
}

// shorterFirstIn draws merges learned from a text where (y, z) occurs 3
// times and (x, y) twice, each time between punctuation marks: (y, z)
// becomes 256 and (x, y) 257. In x y z, BPE merges (y, z); the longest
// token that starts it is x y. With the same merges, x y x y holds no
// (y, z): merge 256 does not apply, merge 257 does.
func shorterFirstIn(r *random.Source) (Case[EncodeIn], Case[EncodeIn]) {
	l, p := letters(r, 3), punctuation(r, 6)
	x, y, z := string(l[0]), string(l[1]), string(l[2])
	train := y + z + string(p[0]) + y + z + string(p[1]) + y + z + string(p[2]) + x + y + string(p[3]) + x + y + string(p[4])
	merges := reference.Train([]byte(train), 10)
	a := x + y + z + string(p[5]) + x + y
	b := x + y + x + y
	return Case[EncodeIn]{fmt.Sprintf("merges learned from %q, text %q", train, a), EncodeIn{Text: []byte(a), Merges: merges}},
		Case[EncodeIn]{fmt.Sprintf("merges learned from %q, text %q", train, b), EncodeIn{Text: []byte(b), Merges: merges}}
}

// runEncodeIn draws merges learned from three runs of 4 equal letters,
// (a, a) then (aa, aa), and a text with a run of 5 to 7.
func runEncodeIn(r *random.Source) Case[EncodeIn] {
	l, p := letters(r, 1), punctuation(r, 4)
	run := func(n int) string { return strings.Repeat(string(l), n) }
	train := run(4) + string(p[0]) + run(4) + string(p[1]) + run(4) + string(p[2])
	text := string(p[3]) + run(intIn(r, 5, 7))
	return Case[EncodeIn]{fmt.Sprintf("merges learned from %q, text %q", train, text), learned(train, 10, text)}
}

var encodeSpec = Register(&Exercise[func(text []byte, merges [][2]int) []int, EncodeIn, []int]{
	ID: "bpe-encode", Title: "encoding a text with a merge list", Points: 3,
	Signature: "func Encode(text []byte, merges [][2]int) []int",
	Task:      exercise.Encode,
	Reference: encodeVariant(reference.BPEVariant{}),
	Cases: func() []Case[EncodeIn] {
		const wiki = "aaabdaaabac"        // merges (a, a), (a, b), (aa, ab)
		const her = "the newer hear ever" // merges (e, r), (h, e)
		const runs = "aaaa aaaa aaaa"     // merges (a, a), (aa, aa), …
		return []Case[EncodeIn]{
			{`the training text "aaabdaaabac" with its 3 merges: aa, ab, aaab`, learned(wiki, 10, wiki)},
			{`"abaaab" with the same merges`, learned(wiki, 10, "abaaab")},
			{`"abacab" with the same merges: no aa, so merge 256 does not apply, merge 257 does`, learned(wiki, 10, "abacab")},
			{`"her" with the merges learned from "the newer hear ever": er (256), then he (257)`, learned(her, 10, "her")},
			{`"here, there, her" with the same merges`, learned(her, 10, "here, there, her")},
			{`"aaaaaaa" with the merges learned from "aaaa aaaa aaaa": aa (256), then aaaa (257)`, learned(runs, 10, "aaaaaaa")},
			{`"héllo" without merges: its bytes (é is 2 bytes)`, EncodeIn{Text: []byte("héllo")}},
			{"an empty text", EncodeIn{Text: []byte{}, Merges: reference.Train([]byte(wiki), 10)}},
		}
	},
	// Each seed draws a text and its merges, another text with the same
	// merges, a text where a shorter token is merged before a longer one
	// that overlaps it, one that lacks the oldest merge, and runs of one
	// letter.
	Hidden: func(r *random.Source) []Case[EncodeIn] {
		train, words := wordsText(r, intIn(r, 3, 5), intIn(r, 8, 14))
		merges := reference.Train([]byte(train), intIn(r, 6, 12))
		other := pickWords(r, append(words, string(letters(r, intIn(r, 2, 5)))), intIn(r, 4, 8))
		shorter, absent := shorterFirstIn(r)
		return []Case[EncodeIn]{
			{fmt.Sprintf("the training text %q, %d merges", train, len(merges)), EncodeIn{Text: []byte(train), Merges: merges}},
			{fmt.Sprintf("%q with the merges learned from %q", other, train), EncodeIn{Text: []byte(other), Merges: merges}},
			shorter,
			absent,
			runEncodeIn(r),
		}
	},
	Deny:    []string{"lib/bpe"},
	Allow:   StdOnly,
	Compare: compareInts,
	Hints: []Hint[EncodeIn, []int]{
		{Name: "longest-match", Message: "replay the merges in the order learned, oldest first; BPE does not cut the longest token off the front of the text: with er (256) learned before he (257), \"her\" is h + er, not he + r",
			Wrong: encodeVariant(reference.BPEVariant{LongestMatch: true})},
		{Name: "reversed", Message: "apply every merge of the list, oldest first: merges[0] (token 256), then merges[1], … to the last — a newer merge is made of older tokens, so it can only apply after them",
			Wrong: encodeVariant(reference.BPEVariant{Reversed: true})},
		{Name: "overlapping", Message: "replace each merge's pair left to right without overlap, as in exercise 1: with (a, a) as token 256, a a a becomes [256 a]",
			Wrong: encodeVariant(reference.BPEVariant{Replace: reference.Overlapping})},
		{Name: "right-kept", Message: "a merge's two tokens become one: after writing the new token, skip the pair's right token, as in exercise 1",
			Wrong: encodeVariant(reference.BPEVariant{Replace: reference.RightKept})},
		{Name: "first-only", Message: "apply each merge at every place it occurs, not only the first",
			Wrong: encodeVariant(reference.BPEVariant{Replace: reference.FirstOnly})},
		{Name: "stops-early", Message: "go through the whole merge list: a merge the text does not hold is skipped, not the end (a later one may still apply), and one merge applied is not the end either",
			Detect: func(in EncodeIn, got []int) bool {
				return compareInts(got, encodeVariant(reference.BPEVariant{BreakAtAbsent: true})(in)) == nil ||
					compareInts(got, encodeVariant(reference.BPEVariant{OneMerge: true})(in)) == nil
			}},
	},
})

// Encode checks the learner's Encode: a text's bytes, with the merges of
// a list applied oldest first, each everywhere, left to right.
func Encode(f func(text []byte, merges [][2]int) []int) *Result {
	return encodeSpec.Check(f)
}

// Exercise 3: bits per byte.

func bitsVariant(vr reference.BitsVariant) func(BitsIn) float64 {
	return func(in BitsIn) float64 { return reference.BitsPerByte(in.Losses, in.TokenBytes, vr) }
}

// compareBits compares bits per byte within a relative 1e-9.
func compareBits(got, want float64) *Diff {
	if math.IsNaN(got) || math.IsInf(got, 0) || math.Abs(got-want) > 1e-9*math.Abs(want) {
		return &Diff{Where: "bits per byte", Want: fmtF(want), Got: fmtF(got)}
	}
	return nil
}

// bitsIn draws n tokens of 1 to maxBytes bytes, at least one of them
// longer than one byte, with losses in (0.05, 6) nats.
func bitsIn(r *random.Source, n, maxBytes int) BitsIn {
	in := BitsIn{Losses: make([]float64, n), TokenBytes: make([]int, n)}
	for i := range n {
		in.Losses[i] = floatIn(r, 0.05, 6)
		in.TokenBytes[i] = intIn(r, 1, maxBytes)
	}
	in.TokenBytes[intIn(r, 0, n-1)] = intIn(r, 2, maxBytes)
	return in
}

var bitsSpec = Register(&Exercise[func(losses []float64, tokenBytes []int) float64, BitsIn, float64]{
	ID: "bits-per-byte", Title: "bits per byte from a loss per token", Points: 2,
	Signature: "func BitsPerByte(losses []float64, tokenBytes []int) float64",
	Task:      exercise.BitsPerByte,
	Reference: bitsVariant(reference.BitsVariant{}),
	Cases: func() []Case[BitsIn] {
		ln2 := math.Ln2
		return []Case[BitsIn]{
			{"2 tokens: 2 nats on 3 bytes, 1 nat on 1 byte (3 nats / 4 bytes)", BitsIn{Losses: []float64{2, 1}, TokenBytes: []int{3, 1}}},
			{"one byte per token (a byte-level model): bits per character", BitsIn{Losses: []float64{1.2, 0.8, 2.0, 0.4}, TokenBytes: []int{1, 1, 1, 1}}},
			{"ln 2 nats per byte: 1 bit per byte", BitsIn{Losses: []float64{4 * ln2, 2 * ln2, 3 * ln2}, TokenBytes: []int{4, 2, 3}}},
			{"8 tokens of 1 to 6 bytes", bitsIn(random.New(121), 8, 6)},
		}
	},
	Hidden: func(r *random.Source) []Case[BitsIn] {
		n := intIn(r, 8, 40)
		return []Case[BitsIn]{
			{fmt.Sprintf("%d tokens of 1 to 8 bytes", n), bitsIn(r, n, 8)},
			{"a few long tokens", bitsIn(r, intIn(r, 3, 6), 16)},
			{"500 tokens of 1 to 12 bytes", bitsIn(r, 500, 12)},
		}
	},
	// lib/bpe converts a mean loss per token; lib/gpt's scores give bits
	// per byte of a text.
	Deny:    []string{"lib/bpe", "lib/gpt"},
	Allow:   StdOnly,
	Compare: compareBits,
	Hints: []Hint[BitsIn, float64]{
		{Name: "no-ln2", Message: "the losses are in nats: divide by ln 2 (math.Ln2) to make them bits — this is nats per byte",
			Wrong: bitsVariant(reference.BitsVariant{NoLn2: true})},
		{Name: "per-token", Message: "divide by the text's bytes (the sum of tokenBytes), not by the number of tokens — this is bits per token",
			Wrong: bitsVariant(reference.BitsVariant{PerToken: true})},
		{Name: "mean-of-ratios", Message: "divide the total loss by the total bytes, not average each token's loss/bytes: a long token's loss covers more of the text, so it weighs more",
			Wrong: bitsVariant(reference.BitsVariant{MeanOfRatios: true})},
		{Name: "log10", Message: "one bit is ln 2 nats, the natural logarithm math.Ln2 = math.Log(2), not log10(2)",
			Wrong: bitsVariant(reference.BitsVariant{Log10: true})},
		{Name: "ln2-times", Message: "divide by ln 2, do not multiply: a bit is ln 2 ≈ 0.69 nats, so a loss in bits is larger than in nats",
			Wrong: bitsVariant(reference.BitsVariant{Ln2Times: true})},
	},
})

// BitsPerByte checks the learner's BitsPerByte: the total loss in nats
// over ln 2 times the total bytes.
func BitsPerByte(f func(losses []float64, tokenBytes []int) float64) *Result {
	return bitsSpec.Check(f)
}
