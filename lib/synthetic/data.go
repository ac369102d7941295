// Package synthetic makes the synthetic token data of the course's appendix, as
// the source's interactive app does: sentences of random token ids,
// validated, padded into a batch with its padding mask, and summarised with
// the statistics pandas' describe() prints.
//
// Id 0 is padding everywhere, as in lib/text, so real tokens are 1 … V−1
// for a vocabulary of V ids; masks use lib/attention's convention, 1 =
// padding (masked).
//
// Introduced in the appendix (masks, synthetic data and an interactive
// explorer).
package synthetic

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/attention-in-go/course/lib/random"
)

// PadID is the id of padding, never drawn as a token.
const PadID = 0

// Config describes a synthetic data set: Count sentences of random token
// ids from a vocabulary of VocabSize ids, each 1 to MaxLen tokens long,
// drawn from Seed.
//
// Introduced in the appendix.
type Config struct {
	Count     int    // number of sentences, ≥ 1
	VocabSize int    // ids 0 … VocabSize−1, with 0 for padding: ≥ 2
	MaxLen    int    // the longest sentence, ≥ 1
	Seed      uint32 // the same seed gives the same sentences on every machine
}

// Validate says what is wrong with c, and what to do, or returns nil.
func (c Config) Validate() error {
	var problems []string
	if c.Count < 1 {
		problems = append(problems, fmt.Sprintf("count must be at least 1 (got %d): ask for one sentence or more", c.Count))
	}
	if c.VocabSize < 2 {
		problems = append(problems, fmt.Sprintf("vocab size must be at least 2 (got %d): id 0 is padding, so a vocabulary needs at least one real token", c.VocabSize))
	}
	if c.MaxLen < 1 {
		problems = append(problems, fmt.Sprintf("max length must be at least 1 (got %d): a sentence has at least one token", c.MaxLen))
	}
	if len(problems) > 0 {
		return fmt.Errorf("data: %s", strings.Join(problems, "; "))
	}
	return nil
}

// Sentences draws c.Count sentences: each a length uniform in 1 … MaxLen,
// then that many ids uniform in 1 … VocabSize−1. Bad parameters give an
// error that says which and what to do.
//
// Typical shapes: [count][1 … max_len] ids.
//
// Introduced in the appendix.
func Sentences(c Config) ([][]int, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	r := random.New(c.Seed)
	out := make([][]int, c.Count)
	for i := range out {
		n := 1 + intn(r, c.MaxLen)
		s := make([]int, n)
		for j := range s {
			s[j] = 1 + intn(r, c.VocabSize-1)
		}
		out[i] = s
	}
	return out, nil
}

// intn returns a uniform integer in 0 … n−1.
func intn(r *random.Source, n int) int {
	return min(int(r.Float64()*float64(n)), n-1)
}

// Check verifies data as a learner's generator must produce it: at least
// one sentence, every length in 1 … maxLen, every id in 1 … vocabSize−1.
// The error names the first sentence and position that break a rule.
//
// Introduced in the appendix.
func Check(sentences [][]int, vocabSize, maxLen int) error {
	if len(sentences) == 0 {
		return fmt.Errorf("data: no sentences")
	}
	for i, s := range sentences {
		if len(s) < 1 || len(s) > maxLen {
			return fmt.Errorf("data: sentence %d has %d tokens, want 1 … %d", i, len(s), maxLen)
		}
		for j, id := range s {
			if id < 1 || id >= vocabSize {
				return fmt.Errorf("data: sentence %d, position %d: id %d is outside 1 … %d (0 is padding)", i, j, id, vocabSize-1)
			}
		}
	}
	return nil
}

// Batch is a set of sentences padded to one length, with the padding mask
// attention needs.
//
// Introduced in the appendix.
type Batch struct {
	IDs     [][]int     // [count][len], PadID after each sentence's end
	Mask    [][]float64 // [count][len], 1 where IDs is padding (lib/attention's convention)
	Lengths []int       // the real length of each sentence
}

// Pad pads sentences with PadID to the longest one and marks the padding
// in Mask. A sentence of length 0 gives a fully padded row.
//
// Typical shapes: [count][≤ len] → IDs, Mask [count][len].
//
// Introduced in the appendix.
func Pad(sentences [][]int) Batch {
	longest := 0
	for _, s := range sentences {
		longest = max(longest, len(s))
	}
	b := Batch{IDs: make([][]int, len(sentences)), Mask: make([][]float64, len(sentences)), Lengths: make([]int, len(sentences))}
	for i, s := range sentences {
		b.IDs[i] = make([]int, longest)
		b.Mask[i] = make([]float64, longest)
		copy(b.IDs[i], s)
		for j := len(s); j < longest; j++ {
			b.IDs[i][j], b.Mask[i][j] = PadID, 1
		}
		b.Lengths[i] = len(s)
	}
	return b
}

// Stats are the summary statistics pandas' describe() prints.
//
// Part of the library behind the appendix; the lesson does not name it.
type Stats struct {
	Count                                 int
	Mean, Std, Min, Q25, Median, Q75, Max float64
}

// Describe summarises values: the mean, the sample standard deviation
// (divided by n−1, as pandas; 0 for one value), and the quartiles by linear
// interpolation between order statistics (numpy's and pandas' default):
// the q-quantile of sorted x is x[h] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]) with
// h = q(n−1).
//
// Part of the library behind the appendix; the lesson does not name it.
func Describe(values []float64) (Stats, error) {
	n := len(values)
	if n == 0 {
		return Stats{}, fmt.Errorf("data: no values to describe")
	}
	x := append([]float64(nil), values...)
	sort.Float64s(x)
	s := Stats{Count: n, Min: x[0], Max: x[n-1]}
	for _, v := range x {
		s.Mean += v
	}
	s.Mean /= float64(n)
	if n > 1 {
		for _, v := range x {
			s.Std += (v - s.Mean) * (v - s.Mean)
		}
		s.Std = math.Sqrt(s.Std / float64(n-1))
	}
	quantile := func(q float64) float64 {
		h := q * float64(n-1)
		lo := int(math.Floor(h))
		if lo >= n-1 {
			return x[n-1]
		}
		return x[lo] + (h-float64(lo))*(x[lo+1]-x[lo])
	}
	s.Q25, s.Median, s.Q75 = quantile(0.25), quantile(0.5), quantile(0.75)
	return s, nil
}

// Summary describes the token ids and the lengths of sentences.
//
// Introduced in the appendix.
type Summary struct {
	Tokens, Lengths Stats
}

// Summarize returns the statistics of the ids (padding excluded) and of the
// lengths of sentences.
//
// Introduced in the appendix.
func Summarize(sentences [][]int) (Summary, error) {
	var ids, lengths []float64
	for _, s := range sentences {
		lengths = append(lengths, float64(len(s)))
		for _, id := range s {
			ids = append(ids, float64(id))
		}
	}
	tokens, err := Describe(ids)
	if err != nil {
		return Summary{}, fmt.Errorf("data: the sentences have no tokens")
	}
	lens, err := Describe(lengths)
	if err != nil {
		return Summary{}, err
	}
	return Summary{Tokens: tokens, Lengths: lens}, nil
}

// String prints the summary as describe() does, one column per variable.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s %10s %10s\n", "", "token id", "length")
	row := func(name string, a, l float64) { fmt.Fprintf(&b, "%-6s %10.3f %10.3f\n", name, a, l) }
	fmt.Fprintf(&b, "%-6s %10d %10d\n", "count", s.Tokens.Count, s.Lengths.Count)
	row("mean", s.Tokens.Mean, s.Lengths.Mean)
	row("std", s.Tokens.Std, s.Lengths.Std)
	row("min", s.Tokens.Min, s.Lengths.Min)
	row("25%", s.Tokens.Q25, s.Lengths.Q25)
	row("50%", s.Tokens.Median, s.Lengths.Median)
	row("75%", s.Tokens.Q75, s.Lengths.Q75)
	row("max", s.Tokens.Max, s.Lengths.Max)
	return b.String()
}

// LengthCounts returns how many sentences have each length 1 … maxLen,
// for a bar chart.
//
// Introduced in the appendix.
func LengthCounts(sentences [][]int, maxLen int) []float64 {
	counts := make([]float64, maxLen)
	for _, s := range sentences {
		if n := len(s); n >= 1 && n <= maxLen {
			counts[n-1]++
		}
	}
	return counts
}
