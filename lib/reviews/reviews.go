// Package reviews generates the course's sentiment data set for lesson 8:
// one-line film reviews where word order decides the label, written by the
// course (no licence to worry about) and small enough to train on a CPU in
// seconds.
//
// A review is "the SUBJECT was C" or "the SUBJECT was C1 but C2", where a
// clause C is an adjective, possibly negated: "good", "not good". The
// label is the sentiment of the last clause, since "but" overrides what
// came before:
//
//	label = polarity(adjective of the last clause) XOR (last clause negated)
//
// So "was good but not great" is negative and "was not good but great" is
// positive; "was bad but not awful" and "was not awful but bad" have the
// same words and opposite labels. A model that sees only which words occur
// (a bag of words, or attention without positions) cannot tell such pairs
// apart: [Set.Ambiguous] counts them.
//
// Introduced in lesson 8 (a Transformer classifier, trained).
package reviews

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/attention-in-go/course/lib/random"
)

// The vocabulary of the reviews.
var (
	Subjects = []string{"movie", "film", "plot", "acting", "story", "ending"}
	Positive = []string{"good", "great", "fun", "clever", "moving", "brilliant"}
	Negative = []string{"bad", "dull", "boring", "silly", "weak", "awful"}
)

// Review is one sentence and its label (1 = positive, 0 = negative).
type Review struct {
	Words []string
	Label int
}

// String returns the review's words separated by spaces.
func (r Review) String() string { return strings.Join(r.Words, " ") }

// clause is an adjective, possibly negated.
type clause struct {
	adj     string
	negated bool
}

func (c clause) words() []string {
	if c.negated {
		return []string{"not", c.adj}
	}
	return []string{c.adj}
}

// positive is the sentiment of the clause.
func (c clause) positive() bool {
	pos := false
	for _, p := range Positive {
		pos = pos || p == c.adj
	}
	return pos != c.negated
}

// All returns every review the grammar can write, in a fixed order: 144
// one-clause and 3456 two-clause reviews.
func All() []Review {
	var clauses []clause
	for _, adj := range append(append([]string(nil), Positive...), Negative...) {
		clauses = append(clauses, clause{adj, false}, clause{adj, true})
	}
	label := func(c clause) int {
		if c.positive() {
			return 1
		}
		return 0
	}
	var out []Review
	for _, s := range Subjects {
		head := []string{"the", s, "was"}
		for _, c := range clauses {
			out = append(out, Review{Words: append(append([]string(nil), head...), c.words()...), Label: label(c)})
		}
		for _, c1 := range clauses {
			for _, c2 := range clauses {
				w := append(append([]string(nil), head...), c1.words()...)
				w = append(append(w, "but"), c2.words()...)
				out = append(out, Review{Words: w, Label: label(c2)})
			}
		}
	}
	return out
}

// Set is a train/test split of the reviews.
type Set struct {
	Train, Test []Review
}

// Split shuffles [All] with seed and keeps the fraction test (0 < test < 1)
// of the reviews for testing: no sentence is in both parts.
//
// Introduced in lesson 8.
func Split(test float64, seed uint32) (Set, error) {
	if !(test > 0 && test < 1) {
		return Set{}, fmt.Errorf("reviews: the test fraction must be between 0 and 1 (got %g)", test)
	}
	all := All()
	r := random.New(seed)
	for i := len(all) - 1; i > 0; i-- { // Fisher–Yates
		j := min(int(r.Float64()*float64(i+1)), i)
		all[i], all[j] = all[j], all[i]
	}
	n := int(float64(len(all)) * test)
	return Set{Test: all[:n], Train: all[n:]}, nil
}

// bag returns the sorted words of r: what a bag of words sees.
func bag(r Review) string {
	w := append([]string(nil), r.Words...)
	sort.Strings(w)
	return strings.Join(w, " ")
}

// Ambiguous returns the fraction of reviews in rs that are [IsAmbiguous].
//
// Introduced in lesson 8.
func Ambiguous(rs []Review) float64 {
	n := 0
	for _, r := range rs {
		if IsAmbiguous(r) {
			n++
		}
	}
	return float64(n) / float64(len(rs))
}

// IsAmbiguous reports whether r's bag of words also belongs, in All, to a
// review with the other label: no model blind to word order can get more
// than about half of such reviews right.
//
// Part of the library behind lesson 8; the lesson does not name it.
func IsAmbiguous(r Review) bool {
	return bagLabels()[bag(r)] == 3
}

// bagLabels maps every bag of words in All to the labels it occurs with:
// bit 1 for negative, bit 2 for positive. It is built once (All has 3,600
// reviews; building it per review made evaluating a test set take seconds).
var bagLabels = sync.OnceValue(func() map[string]int {
	labels := map[string]int{}
	for _, r := range All() {
		labels[bag(r)] |= 1 << r.Label
	}
	return labels
})

// Vocab maps the words of the reviews to ids: 0 is padding, then "the",
// "was", "not", "but", the subjects and the adjectives.
type Vocab struct {
	Words []string
	ids   map[string]int
}

// NewVocab returns the reviews' vocabulary.
func NewVocab() *Vocab {
	words := []string{"<pad>", "the", "was", "not", "but"}
	words = append(append(append(words, Subjects...), Positive...), Negative...)
	v := &Vocab{Words: words, ids: map[string]int{}}
	for i, w := range words {
		v.ids[w] = i
	}
	return v
}

// MaxLen is the longest review: "the movie was not good but not bad".
const MaxLen = 9

// Encode returns the ids of the reviews padded with 0 to MaxLen, and their
// labels, flat and row-major for a tensor [len(rs), MaxLen].
func (v *Vocab) Encode(rs []Review) (ids []int32, labels []int32, err error) {
	ids = make([]int32, 0, len(rs)*MaxLen)
	for i, r := range rs {
		if len(r.Words) > MaxLen {
			return nil, nil, fmt.Errorf("reviews: review %d has %d words, more than %d", i, len(r.Words), MaxLen)
		}
		for j := range MaxLen {
			id := 0
			if j < len(r.Words) {
				var ok bool
				if id, ok = v.ids[r.Words[j]]; !ok {
					return nil, nil, fmt.Errorf("reviews: review %d: %q is not in the vocabulary", i, r.Words[j])
				}
			}
			ids = append(ids, int32(id))
		}
		labels = append(labels, int32(r.Label))
	}
	return ids, labels, nil
}

// Parse splits a typed sentence into words for Encode: lower case, spaces
// and commas as separators.
func Parse(sentence string) Review {
	f := strings.FieldsFunc(strings.ToLower(sentence), func(r rune) bool { return r == ' ' || r == ',' || r == '.' })
	return Review{Words: f}
}
