package check

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/check/internal/reference"
)

// Learner-style solutions of lesson 12's exercises, written separately
// from the references, and the usual mistakes, each of which must get its
// hint and less than full points on every grading seed.

// expectHintsEverySeed grades each wrong implementation on the hidden
// cases of as many seeds as expectKilled does and requires its hint on
// a hidden case of every one: the learner who makes the mistake is told
// which, whatever the seed the grader draws.
func expectHintsEverySeed[F, In, Out any](t *testing.T, e *Exercise[F, In, Out], wrong []hintCase[F]) {
	t.Helper()
	for _, w := range wrong {
		for seed := range uint64(mutationSeeds()) {
			res := e.RunSeed(w.f, seed+1)
			if !slices.ContainsFunc(res.Cases, func(c CaseResult) bool { return c.Hidden && c.HintName == w.hint }) {
				t.Errorf("%s, wrong implementation %q: no hidden case of seed %d gets the hint %q:\n%s", e.ID, w.name, seed+1, w.hint, res.Report())
				break
			}
		}
	}
}

// mergeSolution counts the pairs in a map and picks the winner by
// comparing counts, then pairs.
func mergeSolution(ids []int, next int) (merged []int, left, right int) {
	type pair struct{ a, b int }
	counts := map[pair]int{}
	for i := 1; i < len(ids); i++ {
		counts[pair{ids[i-1], ids[i]}]++
	}
	var best pair
	most := 0
	for p, n := range counts {
		if n > most || n == most && (p.a < best.a || p.a == best.a && p.b < best.b) {
			best, most = p, n
		}
	}
	for i := 0; i < len(ids); i++ {
		if i+1 < len(ids) && ids[i] == best.a && ids[i+1] == best.b {
			merged = append(merged, next)
			i++
			continue
		}
		merged = append(merged, ids[i])
	}
	return merged, best.a, best.b
}

// secondSmallest breaks ties by taking the second smallest of the tied
// pairs: neither the pair seen first nor the largest in the hidden ties.
func secondSmallest(ids []int, next int) ([]int, int, int) {
	counts := reference.PairCounts(ids, false)
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	var tied [][2]int
	for p, n := range counts {
		if n == most {
			tied = append(tied, p)
		}
	}
	slices.SortFunc(tied, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	p := tied[min(1, len(tied)-1)]
	var out []int
	for i := 0; i < len(ids); i++ {
		if i+1 < len(ids) && ids[i] == p[0] && ids[i+1] == p[1] {
			out = append(out, next)
			i++
		} else {
			out = append(out, ids[i])
		}
	}
	return out, p[0], p[1]
}

func TestMergeStepHints(t *testing.T) {
	variant := func(vr reference.MergeVariant) mergeFunc {
		return func(ids []int, next int) ([]int, int, int) { return reference.MergeStep(ids, next, vr) }
	}
	wrong := []hintCase[mergeFunc]{
		{"a a a → next next", "overlapping", variant(reference.MergeVariant{Replace: reference.Overlapping})},
		{"the right id kept", "right-kept", variant(reference.MergeVariant{Replace: reference.RightKept})},
		{"the first occurrence only", "first-only", variant(reference.MergeVariant{Replace: reference.FirstOnly})},
		{"counted without overlap", "count-no-overlap", variant(reference.MergeVariant{CountNoOverlap: true})},
		{"ties: the first seen", "ties-first-seen", variant(reference.MergeVariant{TieFirstSeen: true})},
		{"ties: the largest", "ties-largest", variant(reference.MergeVariant{TieLargest: true})},
		{"ties: another tied pair", "ties", secondSmallest},
	}
	expectHints(t, mergeSpec, mergeSolution, wrong)
	expectHintsEverySeed(t, mergeSpec, wrong)
}

// encodeSolution is minbpe's loop: merge the present pair of lowest rank
// until no pair is a merge.
func encodeSolution(text []byte, merges [][2]int) []int {
	rank := map[[2]int]int{}
	for i, m := range merges {
		rank[m] = i
	}
	ids := make([]int, 0, len(text))
	for _, b := range text {
		ids = append(ids, int(b))
	}
	for {
		first := -1
		for i := 0; i+1 < len(ids); i++ {
			if r, ok := rank[[2]int{ids[i], ids[i+1]}]; ok && (first < 0 || r < first) {
				first = r
			}
		}
		if first < 0 {
			return ids
		}
		m := merges[first]
		var out []int
		for i := 0; i < len(ids); i++ {
			if i+1 < len(ids) && ids[i] == m[0] && ids[i+1] == m[1] {
				out = append(out, 256+first)
				i++
			} else {
				out = append(out, ids[i])
			}
		}
		ids = out
	}
}

// wordPiece cuts the longest known token off the front of the text, a
// learner's greedy matcher written apart from the reference's.
func wordPiece(text []byte, merges [][2]int) []int {
	tokens := map[string]int{}
	vocab := make([]string, 256, 256+len(merges))
	for b := range 256 {
		vocab[b] = string([]byte{byte(b)})
	}
	for i, m := range merges {
		vocab = append(vocab, vocab[m[0]]+vocab[m[1]])
		if _, ok := tokens[vocab[256+i]]; !ok {
			tokens[vocab[256+i]] = 256 + i
		}
	}
	var out []int
	for s := string(text); s != ""; {
		n := len(s)
		for ; n > 1; n-- {
			if id, ok := tokens[s[:n]]; ok {
				out = append(out, id)
				break
			}
		}
		if n == 1 {
			out = append(out, int(s[0]))
		}
		s = s[n:]
	}
	return out
}

func TestBPEEncodeHints(t *testing.T) {
	type f = func([]byte, [][2]int) []int
	variant := func(vr reference.BPEVariant) f {
		return func(text []byte, merges [][2]int) []int { return reference.Encode(text, merges, vr) }
	}
	wrong := []hintCase[f]{
		{"longest match (the reference's variant)", "longest-match", variant(reference.BPEVariant{LongestMatch: true})},
		{"longest match (a learner's)", "longest-match", wordPiece},
		{"newest merge first", "reversed", variant(reference.BPEVariant{Reversed: true})},
		{"a a a → 256 256", "overlapping", variant(reference.BPEVariant{Replace: reference.Overlapping})},
		{"the right token kept", "right-kept", variant(reference.BPEVariant{Replace: reference.RightKept})},
		{"the first occurrence only", "first-only", variant(reference.BPEVariant{Replace: reference.FirstOnly})},
		{"stops at an absent merge", "stops-early", variant(reference.BPEVariant{BreakAtAbsent: true})},
		{"one merge only", "stops-early", variant(reference.BPEVariant{OneMerge: true})},
	}
	expectHints(t, encodeSpec, encodeSolution, wrong)
	expectHintsEverySeed(t, encodeSpec, wrong)
}

// bitsSolution sums in one loop and converts at the end.
func bitsSolution(losses []float64, tokenBytes []int) float64 {
	nats, n := 0.0, 0
	for i := range losses {
		nats += losses[i]
		n += tokenBytes[i]
	}
	return nats / math.Ln2 / float64(n)
}

func TestBitsPerByteHints(t *testing.T) {
	type f = func([]float64, []int) float64
	variant := func(vr reference.BitsVariant) f {
		return func(l []float64, b []int) float64 { return reference.BitsPerByte(l, b, vr) }
	}
	// Bits per token computed from log2 probabilities, as a learner might.
	perToken := func(l []float64, _ []int) float64 {
		s := 0.0
		for _, x := range l {
			s += x * math.Log2E
		}
		return s / float64(len(l))
	}
	wrong := []hintCase[f]{
		{"nats per byte", "no-ln2", variant(reference.BitsVariant{NoLn2: true})},
		{"bits per token", "per-token", variant(reference.BitsVariant{PerToken: true})},
		{"bits per token, via log2 e", "per-token", perToken},
		{"the mean of the ratios", "mean-of-ratios", variant(reference.BitsVariant{MeanOfRatios: true})},
		{"log10 2", "log10", variant(reference.BitsVariant{Log10: true})},
		{"times ln 2", "ln2-times", variant(reference.BitsVariant{Ln2Times: true})},
	}
	expectHints(t, bitsSpec, bitsSolution, wrong)
	expectHintsEverySeed(t, bitsSpec, wrong)
}

// TestTokensCasesShowTheMistakes: every visible case of the merge and
// encoding exercises that is meant to show a mistake does (a case
// renamed or redrawn would silently stop showing it), and the hidden
// cases of many seeds draw what their names say.
func TestTokensCasesShowTheMistakes(t *testing.T) {
	differs := func(name string, a, b any) bool {
		t.Helper()
		switch a := a.(type) {
		case MergeOut:
			return compareMerge(a, b.(MergeOut)) != nil
		case []int:
			return compareInts(a, b.([]int)) != nil
		}
		t.Fatalf("%s: unexpected type %T", name, a)
		return false
	}
	// Visible: which mistakes each case shows.
	mv := func(vr reference.MergeVariant) func(MergeIn) MergeOut { return mergeVariant(vr) }
	mergeShows := map[string][]reference.MergeVariant{
		"aaabdaaabac": {{Replace: reference.Overlapping}, {Replace: reference.FirstOnly}, {Replace: reference.RightKept}},
		"aaa":         {{Replace: reference.Overlapping}, {Replace: reference.RightKept}},
		"cdab-cdab":   {{TieFirstSeen: true}, {TieLargest: true}},
		"ccccabab":    {{CountNoOverlap: true}},
	}
	for _, c := range mergeSpec.Cases() {
		for key, vrs := range mergeShows {
			if strings.HasPrefix(c.Name, `"`+key+`"`) {
				for _, vr := range vrs {
					if !differs(c.Name, mv(vr)(c.In), mergeSpec.Reference(c.In)) {
						t.Errorf("visible case %q: the mistake %+v gives the right answer", c.Name, vr)
					}
				}
			}
		}
	}
	// Hidden: every seed's tie has four pairs, and its run beats (b, c)
	// only when counted at every position.
	for seed := range uint64(200) {
		cs := mergeSpec.hidden(seed + 1)
		tie, run := cs[0].In, cs[1].In
		best, n := reference.BestPair(tie.IDs, reference.MergeVariant{})
		tied := 0
		for _, m := range reference.PairCounts(tie.IDs, false) {
			if m == n {
				tied++
			}
		}
		first, _ := reference.BestPair(tie.IDs, reference.MergeVariant{TieFirstSeen: true})
		largest, _ := reference.BestPair(tie.IDs, reference.MergeVariant{TieLargest: true})
		if tied != 4 || n < 2 || first == best || largest == best || first == largest {
			t.Errorf("seed %d: the tie case %v has %d pairs of count %d; best %v, first %v, largest %v", seed+1, tie.IDs, tied, n, best, first, largest)
		}
		if a, _ := reference.BestPair(run.IDs, reference.MergeVariant{}); a[0] != a[1] {
			t.Errorf("seed %d: the run case %v merges %v, not the run", seed+1, run.IDs, a)
		}
		if b, _ := reference.BestPair(run.IDs, reference.MergeVariant{CountNoOverlap: true}); b[0] == b[1] {
			t.Errorf("seed %d: the run case %v merges the run when counted without overlap", seed+1, run.IDs)
		}
		for _, c := range encodeSpec.hidden(seed + 1) {
			if len(c.In.Merges) == 0 {
				t.Errorf("seed %d: %s learned no merge", seed+1, c.Name)
			}
		}
	}
}
