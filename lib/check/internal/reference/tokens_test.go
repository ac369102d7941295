package reference

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/bpe"
)

// These tests hold the references of lesson 12's exercises against values
// worked out by hand and against lib/bpe (written separately: incremental
// training, a priority-queue encoder).

func TestPairCountsByHand(t *testing.T) {
	a := 97
	tests := []struct {
		ids       []int
		noOverlap bool
		want      int // the count of (a, a)
	}{
		{[]int{a, a, a}, false, 2}, {[]int{a, a, a}, true, 1},
		{[]int{a, a, a, a}, false, 3}, {[]int{a, a, a, a}, true, 2},
		{[]int{a, a, 1, a, a, a}, true, 2}, {[]int{a, a, a, a, a}, true, 2},
	}
	for _, tt := range tests {
		if got := PairCounts(tt.ids, tt.noOverlap)[[2]int{a, a}]; got != tt.want {
			t.Errorf("PairCounts(%v, noOverlap %v)[(a, a)] = %d, want %d", tt.ids, tt.noOverlap, got, tt.want)
		}
	}
}

func TestMergeStepByHand(t *testing.T) {
	const a, b, c, d = 97, 98, 99, 100
	const z = 256
	tests := []struct {
		name        string
		ids         []int
		vr          MergeVariant
		want        []int
		left, right int
	}{
		// Wikipedia's example: aaabdaaabac → ZabdZabac with Z = aa.
		{"aaabdaaabac", ids("aaabdaaabac"), MergeVariant{}, []int{z, a, b, d, z, a, b, a, c}, a, a},
		{"aaa", ids("aaa"), MergeVariant{}, []int{z, a}, a, a},
		{"aaaa", ids("aaaa"), MergeVariant{}, []int{z, z}, a, a},
		// (c, d), (d, a) and (a, b) twice each: the smallest is (a, b).
		{"cdab-cdab", ids("cdab-cdab"), MergeVariant{}, []int{c, d, z, '-', c, d, z}, a, b},
		{"two ids", []int{5, 7}, MergeVariant{}, []int{z}, 5, 7},
		// The usual mistakes.
		{"aaa overlapping", ids("aaa"), MergeVariant{Replace: Overlapping}, []int{z, z}, a, a},
		{"aaab overlapping", ids("aaab"), MergeVariant{Replace: Overlapping}, []int{z, z, b}, a, a},
		{"aaa right kept", ids("aaa"), MergeVariant{Replace: RightKept}, []int{z, z, a}, a, a},
		{"aaaa first only", ids("aaaa"), MergeVariant{Replace: FirstOnly}, []int{z, a, a}, a, a},
		// (c, c) 3 times and (a, b) twice; without overlap 2 and 2.
		{"ccccabab", ids("ccccabab"), MergeVariant{}, []int{z, z, a, b, a, b}, c, c},
		{"ccccabab without overlap", ids("ccccabab"), MergeVariant{CountNoOverlap: true}, []int{c, c, c, c, z, z}, a, b},
		{"cdab-cdab first seen", ids("cdab-cdab"), MergeVariant{TieFirstSeen: true}, []int{z, a, b, '-', z, a, b}, c, d},
		{"cdab-cdab largest", ids("cdab-cdab"), MergeVariant{TieLargest: true}, []int{c, z, b, '-', c, z, b}, d, a},
	}
	for _, tt := range tests {
		got, l, r := MergeStep(tt.ids, z, tt.vr)
		if !slices.Equal(got, tt.want) || l != tt.left || r != tt.right {
			t.Errorf("%s: MergeStep = %v (%d, %d), want %v (%d, %d)", tt.name, got, l, r, tt.want, tt.left, tt.right)
		}
	}
}

func ids(s string) []int { return Bytes([]byte(s)) }

var bpeTexts = []string{
	"aaabdaaabac",
	"the newer hear ever",
	"aaaa aaaa aaaa",
	"low lower lowest newer wider newest",
	"func main() {\n\tfmt.Println(\"hello\")\n}\nfunc f() {}\n",
	strings.Repeat("ab", 9) + strings.Repeat("a", 7) + "bcbcbc",
}

// TestTrainMatchesLibrary: repeated merge steps learn lib/bpe's merges.
func TestTrainMatchesLibrary(t *testing.T) {
	for _, text := range bpeTexts {
		tok, err := bpe.Train([]byte(text), 256+40, bpe.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var want [][2]int
		for _, m := range tok.Merges() {
			want = append(want, [2]int{m.Left, m.Right})
		}
		if got := Train([]byte(text), 40); !slices.Equal(got, want) {
			t.Errorf("%q: Train = %v, lib/bpe learns %v", text, got, want)
		}
	}
	if got, want := Train([]byte("aaabdaaabac"), 10), [][2]int{{97, 97}, {97, 98}, {256, 257}}; !slices.Equal(got, want) {
		t.Errorf("Train(aaabdaaabac) = %v, want %v (aa, ab, aaab)", got, want)
	}
}

func TestEncodeByHand(t *testing.T) {
	wiki := [][2]int{{97, 97}, {97, 98}, {256, 257}}
	her := [][2]int{{'e', 'r'}, {'h', 'e'}}
	tests := []struct {
		name   string
		text   string
		merges [][2]int
		vr     BPEVariant
		want   []int
	}{
		{"aaabdaaabac", "aaabdaaabac", wiki, BPEVariant{}, []int{258, 'd', 258, 'a', 'c'}},
		{"aaab reversed", "aaab", wiki, BPEVariant{Reversed: true}, []int{256, 257}},
		{"abacab", "abacab", wiki, BPEVariant{}, []int{257, 'a', 'c', 257}},
		{"abacab, stopped at aa", "abacab", wiki, BPEVariant{BreakAtAbsent: true}, ids("abacab")},
		{"aaab", "aaab", wiki, BPEVariant{}, []int{258}},
		{"aaab, one merge", "aaab", wiki, BPEVariant{OneMerge: true}, []int{256, 'a', 'b'}},
		{"aaaab", "aaaab", wiki, BPEVariant{}, []int{256, 256, 'b'}},
		{"her", "her", her, BPEVariant{}, []int{'h', 256}},
		{"her, longest match", "her", her, BPEVariant{LongestMatch: true}, []int{257, 'r'}},
		{"aaa overlapping", "aaa", wiki, BPEVariant{Replace: Overlapping}, []int{256, 256}},
		{"no merges", "hé", nil, BPEVariant{}, []int{'h', 0xc3, 0xa9}},
		{"empty", "", wiki, BPEVariant{}, []int{}},
	}
	for _, tt := range tests {
		if got := Encode([]byte(tt.text), tt.merges, tt.vr); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Encode = %v, want %v", tt.name, got, tt.want)
		}
	}
	if v := Vocab(wiki); string(v[258]) != "aaab" {
		t.Errorf("token 258 of aa, ab, aaab is %q", v[258])
	}
}

// TestEncodeMatchesLibrary: the reference encodes the training text and
// other texts as lib/bpe's tokenizer does.
func TestEncodeMatchesLibrary(t *testing.T) {
	for _, train := range bpeTexts {
		tok, err := bpe.Train([]byte(train), 256+40, bpe.Options{})
		if err != nil {
			t.Fatal(err)
		}
		merges := Train([]byte(train), 40)
		for _, text := range append(slices.Clone(bpeTexts), "aaaaaaaaaaa", "abababab", "") {
			if got, want := Encode([]byte(text), merges, BPEVariant{}), tok.Encode([]byte(text)); !slices.Equal(got, want) {
				t.Errorf("merges of %q, text %q: Encode = %v, lib/bpe %v", train, text, got, want)
			}
		}
	}
}

func TestBitsPerByteByHand(t *testing.T) {
	// 2 nats on 3 bytes and 1 nat on 1 byte: 3 nats on 4 bytes.
	losses, lens := []float64{2, 1}, []int{3, 1}
	tests := []struct {
		name string
		vr   BitsVariant
		want float64
	}{
		{"right", BitsVariant{}, 3 / (4 * math.Ln2)},
		{"nats per byte", BitsVariant{NoLn2: true}, 0.75},
		{"bits per token", BitsVariant{PerToken: true}, 3 / (2 * math.Ln2)},
		{"mean of ratios", BitsVariant{MeanOfRatios: true}, (2.0/3 + 1) / 2 / math.Ln2},
		{"log10", BitsVariant{Log10: true}, 3 / (4 * math.Log10(2))},
		{"times ln 2", BitsVariant{Ln2Times: true}, 3 * math.Ln2 / 4},
	}
	for _, tt := range tests {
		if got := BitsPerByte(losses, lens, tt.vr); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: BitsPerByte = %v, want %v", tt.name, got, tt.want)
		}
	}
	// lib/bpe converts the mean loss per token of n tokens on so many bytes.
	if got, want := BitsPerByte(losses, lens, BitsVariant{}), bpe.BitsPerByte(1.5, 2, 4); math.Abs(got-want) > 1e-12 {
		t.Errorf("BitsPerByte = %v, lib/bpe %v", got, want)
	}
}
