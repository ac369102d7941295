package text

import (
	"reflect"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"We walk when wearing what?", []string{"we", "walk", "when", "wearing", "what", "?"}},
		{"Sphinx of Black Quartz, Judge My Vow", []string{"sphinx", "of", "black", "quartz", ",", "judge", "my", "vow"}},
		{"Man bites dog.", []string{"man", "bites", "dog", "."}},
		{"DOG   bites\tMAN\n", []string{"dog", "bites", "man"}},
		{"don't stop; the dog's bone", []string{"don't", "stop", ";", "the", "dog's", "bone"}},
		{"'quoted' text", []string{"'", "quoted", "'", "text"}},
		{"well-known (sort of)...", []string{"well", "-", "known", "(", "sort", "of", ")", ".", ".", "."}},
		{"route 66, 2 cats", []string{"route", "66", ",", "2", "cats"}},
		{"Éclair à la crème", []string{"éclair", "à", "la", "crème"}},
		{"", nil},
		{"  \n ", nil},
	}
	for _, tc := range tests {
		if got := Tokenize(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestVocab(t *testing.T) {
	v := NewVocab([]string{"The dog bites.", "A man bites the dog!"})
	want := []string{"<pad>", "<unk>", "!", ".", "a", "bites", "dog", "man", "the"}
	if got := v.Tokens(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Tokens() = %q, want %q", got, want)
	}
	if v.Len() != len(want) {
		t.Errorf("Len() = %d, want %d", v.Len(), len(want))
	}
	// The order of the sentences does not change the ids.
	if got := NewVocab([]string{"A man bites the dog!", "The dog bites."}).Tokens(); !reflect.DeepEqual(got, want) {
		t.Errorf("Tokens() with the sentences swapped = %q, want %q", got, want)
	}
	ids := []struct {
		token string
		want  int
	}{{"<pad>", PadID}, {"<unk>", UnkID}, {"dog", 6}, {"DOG", 6}, {"cat", UnkID}, {"", UnkID}}
	for _, tc := range ids {
		if got := v.ID(tc.token); got != tc.want {
			t.Errorf("ID(%q) = %d, want %d", tc.token, got, tc.want)
		}
	}
	if !v.Has("Man") || v.Has("woman") {
		t.Errorf("Has(Man) = %v, Has(woman) = %v, want true, false", v.Has("Man"), v.Has("woman"))
	}
}

func TestEncodeDecode(t *testing.T) {
	v := NewVocab([]string{"The dog bites.", "A man bites the dog!"})
	tests := []struct {
		sentence string
		ids      []int
		decoded  []string
	}{
		{"Man bites dog.", []int{7, 5, 6, 3}, []string{"man", "bites", "dog", "."}},
		{"The cat bites the factorio", []int{8, UnkID, 5, 8, UnkID}, []string{"the", "<unk>", "bites", "the", "<unk>"}},
		{"", []int{}, []string{}},
	}
	for _, tc := range tests {
		ids := v.Encode(tc.sentence)
		if !reflect.DeepEqual(ids, tc.ids) {
			t.Errorf("Encode(%q) = %v, want %v", tc.sentence, ids, tc.ids)
		}
		got, err := v.Decode(ids)
		if err != nil || !reflect.DeepEqual(got, tc.decoded) {
			t.Errorf("Decode(%v) = %q, %v, want %q", ids, got, err, tc.decoded)
		}
	}
	if got := v.EncodeTokens([]string{"Man", "factorio", "!"}); !reflect.DeepEqual(got, []int{7, UnkID, 2}) {
		t.Errorf("EncodeTokens = %v, want [7 1 2]", got)
	}
	got, err := v.Decode([]int{7, PadID, PadID})
	if err != nil || !reflect.DeepEqual(got, []string{"man", "<pad>", "<pad>"}) {
		t.Errorf("Decode with padding = %q, %v", got, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	v := NewVocab([]string{"one two"})
	for _, ids := range [][]int{{2, 4}, {-1}} {
		_, err := v.Decode(ids)
		if err == nil || !strings.Contains(err.Error(), "not in the vocabulary") || !strings.Contains(err.Error(), "0 to 3") {
			t.Errorf("Decode(%v) error = %v, want it to say the id is not in the vocabulary of ids 0 to 3", ids, err)
		}
	}
}

func TestPad(t *testing.T) {
	batch := [][]int{{5, 7, 9}, {3}, {}}
	tests := []struct {
		length int
		want   [][]int
	}{
		{0, [][]int{{5, 7, 9}, {3, 0, 0}, {0, 0, 0}}},
		{3, [][]int{{5, 7, 9}, {3, 0, 0}, {0, 0, 0}}},
		{5, [][]int{{5, 7, 9, 0, 0}, {3, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}},
	}
	for _, tc := range tests {
		got, err := Pad(batch, tc.length)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Pad(%v, %d) = %v, %v, want %v", batch, tc.length, got, err, tc.want)
		}
	}
	// Pad copies: the input is not changed, the output does not alias it.
	out, _ := Pad(batch, 4)
	out[0][0] = 42
	if batch[0][0] != 5 || len(batch[1]) != 1 {
		t.Errorf("Pad changed its input: %v", batch)
	}
}

func TestPadErrors(t *testing.T) {
	tests := []struct {
		name   string
		batch  [][]int
		length int
		want   string
	}{
		{"too long", [][]int{{1, 2}, {1, 2, 3, 4}}, 3, "sequence 1 has 4 tokens, more than the length 3"},
		{"negative length", [][]int{{1}}, -2, "length must be ≥ 0"},
	}
	for _, tc := range tests {
		_, err := Pad(tc.batch, tc.length)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Pad error = %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

func TestEncodeBatch(t *testing.T) {
	v := NewVocab([]string{"The dog bites.", "A man bites the dog!"})
	got, err := v.EncodeBatch([]string{"Man bites dog.", "the cat"}, 0)
	want := [][]int{{7, 5, 6, 3}, {8, UnkID, PadID, PadID}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("EncodeBatch = %v, %v, want %v", got, err, want)
	}
	if _, err := v.EncodeBatch([]string{"Man bites dog."}, 2); err == nil {
		t.Error("EncodeBatch of 4 tokens to length 2 = nil error, want one")
	}
}

func TestSample(t *testing.T) {
	v := NewVocab([]string{"The dog bites.", "A man bites the dog!"})
	a, b := v.Sample(50, 7), v.Sample(50, 7)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("Sample with the same seed differs: %q vs %q", a, b)
	}
	if c := v.Sample(50, 8); reflect.DeepEqual(a, c) {
		t.Errorf("Sample with seeds 7 and 8 gives the same words %q", a)
	}
	counts := map[string]int{}
	for _, w := range v.Sample(2000, 1) {
		if w == PadToken || w == UnkToken || !v.Has(w) {
			t.Fatalf("Sample returned %q, want a word of the vocabulary, never a reserved token", w)
		}
		counts[w]++
	}
	// 7 words, 2000 draws: every word about 286 times.
	if len(counts) != v.Len()-2 {
		t.Errorf("Sample drew %d distinct words, want all %d", len(counts), v.Len()-2)
	}
	for w, n := range counts {
		if n < 200 || n > 380 {
			t.Errorf("word %q drawn %d times in 2000, want about 286 (uniform)", w, n)
		}
	}
	if got := NewVocab(nil).Sample(0, 1); len(got) != 0 {
		t.Errorf("Sample(0) = %q, want nothing", got)
	}
}

func TestEmptyVocab(t *testing.T) {
	v := NewVocab(nil)
	if v.Len() != 2 {
		t.Errorf("Len() = %d, want 2 (the reserved tokens)", v.Len())
	}
	if got := v.Encode("any words"); !reflect.DeepEqual(got, []int{UnkID, UnkID}) {
		t.Errorf("Encode = %v, want [1 1]", got)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "no words") {
			t.Errorf("Sample on an empty vocabulary: recover() = %v, want a panic about no words", r)
		}
	}()
	v.Sample(1, 1)
}
