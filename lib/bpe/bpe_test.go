package bpe

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/attention-in-go/course/lib/corpus"
)

// Lesson 10's text, loaded once; the tests that need it skip without a Go
// installation's sources, as lib/corpus's do.
var (
	corpusOnce  sync.Once
	corpusSplit *corpus.Split
	corpusErr   error
)

func lesson10(t testing.TB) *corpus.Split {
	t.Helper()
	corpusOnce.Do(func() { corpusSplit, corpusErr = corpus.Load() })
	if corpusErr != nil {
		t.Skip(corpusErr)
	}
	return corpusSplit
}

// Tokenizers trained on lesson 10's training text, trained once per
// vocabulary size and pre-split.
var (
	trainedMu sync.Mutex
	trained   = map[string]*Tokenizer{}
)

func trainedOn10(t testing.TB, vocab int, preSplit bool) *Tokenizer {
	t.Helper()
	text := lesson10(t).Train
	trainedMu.Lock()
	defer trainedMu.Unlock()
	key := fmt.Sprint(vocab, preSplit)
	if tok, ok := trained[key]; ok {
		return tok
	}
	tok, err := Train(text, vocab, Options{PreSplit: preSplit})
	if err != nil {
		t.Fatal(err)
	}
	trained[key] = tok
	return tok
}

// m is shorthand for a merge in the hand-worked tables.
func m(left, right, id, count int) Merge {
	return Merge{Left: left, Right: right, ID: id, Count: count}
}

// TestHandWorked checks training on texts small enough to work out on
// paper; both trainers must give the merges written here.
func TestHandWorked(t *testing.T) {
	const (
		sp, comma  = ' ', ','
		a, b, c, d = 'a', 'b', 'c', 'd'
		g, o       = 'g', 'o'
	)
	tests := []struct {
		name     string
		text     string
		preSplit bool
		merges   []Merge
		encode   string // a text to encode with the result,
		want     []int  // and its ids
	}{
		// Wikipedia's example. Pairs of "aaabdaaabac", counted at every
		// position: aa 4 (two in each "aaa"), ab 2, bd 1, da 1, ba 1, ac 1.
		// Merge aa→256: "aaa" → [256 a], so Z a b d Z a b a c.
		// Now Za 2 and ab 2 tie; (a,b) = (97,98) < (256,97): ab→257,
		// giving Z Y d Z Y a c. ZY 2, the rest 1: (256,257)→258, giving
		// X d X a c, where every pair occurs once: training stops at 259
		// tokens although 300 were asked for. Wikipedia merges the same.
		{"wikipedia", "aaabdaaabac", false,
			[]Merge{m(a, a, 256, 4), m(a, b, 257, 2), m(256, 257, 258, 2)},
			"aaabdaaabac", []int{258, d, 258, a, c}},
		// Overlap: "aaa" holds (a,a) twice, but the merge replaces it once,
		// left to right: [256 a]; (256,a) occurs once, stop.
		{"aaa", "aaa", false,
			[]Merge{m(a, a, 256, 2)},
			"aaaaa", []int{256, 256, a}},
		// "aaaa": (a,a) three times → [256 256]; (256,256) once, stop.
		{"aaaa", "aaaa", false,
			[]Merge{m(a, a, 256, 3)},
			"aaa", []int{256, a}},
		// "aaaaaaaa": (a,a) 7 → 4×256; (256,256) 3 → 2×257; (257,257) 1.
		{"a×8", "aaaaaaaa", false,
			[]Merge{m(a, a, 256, 7), m(256, 256, 257, 3)},
			"aaaaaaa", []int{257, 256, a}},
		// The tie rule, not the order in the text: cd and ab both occur
		// twice and cd comes first, but (97,98) < (99,100). Then
		// c d c d Y Y: cd 2 → Z Z Y Y, every pair once.
		{"tie", "cdcdabab", false,
			[]Merge{m(a, b, 256, 2), m(c, d, 257, 2)},
			"abcd", []int{256, 257}},
		// Without the pre-split: go 3, "o," 2, ", " 2, " g" 2 → 256;
		// then (256,','), (',',' ') and (' ',256) tie at 2, the smallest
		// is (32,256) → 257: [256 , 257 , 257]; then (',',257) 2 → 258.
		{"go, go, go", "go, go, go", false,
			[]Merge{m(g, o, 256, 3), m(sp, 256, 257, 2), m(comma, 257, 258, 2)},
			"go, go", []int{256, 258}},
		// With it the chunks are "go" "," " go" "," " go": go 3 → 256,
		// then (' ',256) 2 → 257; the comma is a chunk alone.
		{"go, go, go split", "go, go, go", true,
			[]Merge{m(g, o, 256, 3), m(sp, 256, 257, 2)},
			"go, go", []int{256, comma, 257}},
		// Nothing occurs twice: no merges.
		{"abc", "abc", false, nil, "abc", []int{a, b, c}},
		{"empty", "", true, nil, "", []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plain, _ := trainPlain([]byte(tt.text), 300, tt.preSplit)
			tok, err := Train([]byte(tt.text), 300, Options{PreSplit: tt.preSplit})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(plain, tt.merges) {
				t.Errorf("trainPlain: merges %v, want %v", plain, tt.merges)
			}
			if got := tok.Merges(); !slices.Equal(got, tt.merges) {
				t.Errorf("Train: merges %v, want %v", got, tt.merges)
			}
			if got := tok.VocabSize(); got != 256+len(tt.merges) {
				t.Errorf("VocabSize() = %d, want %d", got, 256+len(tt.merges))
			}
			if got := tok.Encode([]byte(tt.encode)); !slices.Equal(got, tt.want) {
				t.Errorf("Encode(%q) = %v, want %v", tt.encode, got, tt.want)
			}
			if got := tok.encodePlain([]byte(tt.encode)); !slices.Equal(got, tt.want) {
				t.Errorf("encodePlain(%q) = %v, want %v", tt.encode, got, tt.want)
			}
		})
	}
}

func TestMerge(t *testing.T) {
	tests := []struct{ in, want []int }{
		{[]int{1, 1, 1}, []int{9, 1}},
		{[]int{1, 1, 1, 1}, []int{9, 9}},
		{[]int{2, 1, 1, 2, 1}, []int{2, 9, 2, 1}},
		{[]int{1}, []int{1}},
		{nil, nil},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.in)
		if got := merge(in, [2]int{1, 1}, 9); !slices.Equal(got, tt.want) {
			t.Errorf("merge(%v, (1,1), 9) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// randomText draws n bytes from alphabet; small alphabets make long runs
// and overlapping pairs.
func randomText(r *rand.Rand, alphabet string, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = alphabet[r.IntN(len(alphabet))]
	}
	return out
}

var alphabets = []string{"a", "ab", "abc", "ab a\n", "aab  \t\nx1_.,", "\x00\xff\xc3\xa9 é\u00a0a"}

// TestTrainFastEqualsPlainRandom: the incremental trainer learns the
// reference's merges, counts included, on random texts.
func TestTrainFastEqualsPlainRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		alphabet := alphabets[i%len(alphabets)]
		text := randomText(r, alphabet, r.IntN(300))
		preSplit := i%2 == 1
		vocab := 256 + r.IntN(60)
		want, seqs := trainPlain(text, vocab, preSplit)
		got := trainFast(text, vocab, preSplit)
		if !slices.Equal(got, want) {
			t.Fatalf("text %q, vocab %d, pre-split %v:\nfast  %v\nplain %v", text, vocab, preSplit, got, want)
		}
		// Encoding the training text gives training's last sequence.
		tok := newTokenizer(got, preSplit)
		if enc := tok.Encode(text); !slices.Equal(enc, slices.Concat(seqs...)) {
			t.Fatalf("text %q, vocab %d, pre-split %v: Encode %v, training ended with %v", text, vocab, preSplit, enc, seqs)
		}
	}
}

// TestTrainFastEqualsPlainLesson10: the same on lesson 10's training text
// (1 MB of Go), 256 merges, with and without the pre-split.
func TestTrainFastEqualsPlainLesson10(t *testing.T) {
	text := lesson10(t).Train
	for _, preSplit := range []bool{false, true} {
		t.Run(fmt.Sprint("preSplit=", preSplit), func(t *testing.T) {
			t.Parallel()
			want, seqs := trainPlain(text, 512, preSplit)
			got := trainFast(text, 512, preSplit)
			if len(want) != 256 {
				t.Fatalf("trainPlain learned %d merges, want 256", len(want))
			}
			if !slices.Equal(got, want) {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Fatalf("fast and plain merges differ from merge %d on: fast %v, plain %v", i, got[i:min(i+3, len(got))], want[i:min(i+3, len(want))])
			}
			enc := newTokenizer(got, preSplit).Encode(text)
			if !slices.Equal(enc, slices.Concat(seqs...)) {
				t.Errorf("Encode(training text) differs from training's last sequence (%d vs %d tokens)", len(enc), len(slices.Concat(seqs...)))
			}
		})
	}
}

// TestEncodeEqualsPlain: the priority-queue encoder gives minbpe's result
// on lesson 10's held-out text (a prefix without the pre-split, where the
// plain loop is slow) and on random texts with random tokenizers.
func TestEncodeEqualsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		alphabet := alphabets[i%len(alphabets)]
		preSplit := i%2 == 1
		tok := newTokenizer(trainFast(randomText(r, alphabet, 200), 256+r.IntN(40), preSplit), preSplit)
		text := randomText(r, alphabet, r.IntN(100))
		if got, want := tok.Encode(text), tok.encodePlain(text); !slices.Equal(got, want) {
			t.Fatalf("%v on %q: Encode %v, encodePlain %v", tok, text, got, want)
		}
	}
	test := lesson10(t).Test
	for _, tc := range []struct {
		vocab    int
		preSplit bool
		text     []byte
	}{
		{4096, true, test},
		{4096, false, test[:20000]},
		{1024, false, test[:20000]},
	} {
		tok := trainedOn10(t, tc.vocab, tc.preSplit)
		if got, want := tok.Encode(tc.text), tok.encodePlain(tc.text); !slices.Equal(got, want) {
			t.Errorf("%v: Encode and encodePlain differ on held-out text (%d vs %d tokens)", tok, len(got), len(want))
		}
	}
}

// TestDeterministic: training twice gives the same merges; with the
// pre-split, the order of the files does not matter (each file ends with
// a newline and starts with a comment or a word, so a chunk never spans
// two files: the chunks, and their counts, are the same).
func TestDeterministic(t *testing.T) {
	s := lesson10(t)
	a := trainedOn10(t, 1024, true).Merges()
	b, err := Train(s.Train, 1024, Options{PreSplit: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b.Merges()) {
		t.Error("two trainings on the same text differ")
	}

	files := make([][]byte, len(corpus.TrainFiles))
	for i, f := range corpus.TrainFiles {
		data, err := os.ReadFile(filepath.Join(s.Root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 || bytes.IndexFunc(data[:1], unicode.IsSpace) == 0 || !bytes.HasSuffix(data, []byte("\n")) {
			t.Fatalf("%s: the test expects a Go file that starts with a word or punctuation and ends with a newline", f)
		}
		files[i] = data
	}
	slices.Reverse(files)
	reversed := bytes.Join(files, nil)
	if len(reversed) != len(s.Train) {
		t.Fatalf("the reversed files have %d bytes, the training text %d", len(reversed), len(s.Train))
	}
	c, err := Train(reversed, 1024, Options{PreSplit: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, c.Merges()) {
		t.Error("with the pre-split, training on the files in reverse order changed the merges")
	}
}

// TestLargerVocabExtends: merges are greedy, so a smaller vocabulary is a
// prefix of a larger one, and encoding the training text takes fewer
// tokens at each larger size.
func TestLargerVocabExtends(t *testing.T) {
	text := lesson10(t).Train
	for _, preSplit := range []bool{false, true} {
		big := trainedOn10(t, 4096, preSplit)
		if big.VocabSize() != 4096 {
			t.Fatalf("%v: want 4096 tokens", big)
		}
		prevTokens := len(text) + 1
		for _, vocab := range []int{256, 257, 300, 512, 1024, 4096} {
			tok := trainedOn10(t, vocab, preSplit)
			if !slices.Equal(tok.Merges(), big.Merges()[:vocab-256]) {
				t.Errorf("pre-split %v: the %d merges of vocab %d are not the first ones of vocab 4096", preSplit, vocab-256, vocab)
			}
			n := len(tok.Encode(text))
			if vocab == 256 && n != len(text) {
				t.Errorf("pre-split %v: no merges, %d tokens for %d bytes", preSplit, n, len(text))
			}
			if n >= prevTokens {
				t.Errorf("pre-split %v: vocab %d encodes the training text in %d tokens, not fewer than %d", preSplit, vocab, n, prevTokens)
			}
			prevTokens = n
		}
	}
}

// TestTokens: a merged token's bytes are its parts', and the tokens of an
// encoding concatenate to the text.
func TestTokens(t *testing.T) {
	for _, preSplit := range []bool{false, true} {
		tok := trainedOn10(t, 1024, preSplit)
		for _, m := range tok.Merges() {
			if got, want := tok.Token(m.ID), append(tok.Token(m.Left), tok.Token(m.Right)...); !bytes.Equal(got, want) {
				t.Fatalf("Token(%d) = %q, want %q + %q", m.ID, got, tok.Token(m.Left), tok.Token(m.Right))
			}
		}
		for b := range 256 {
			if got := tok.Token(b); len(got) != 1 || got[0] != byte(b) {
				t.Fatalf("Token(%d) = %q", b, got)
			}
		}
		text := lesson10(t).Test
		ids := tok.Encode(text)
		var joined []byte
		for _, id := range ids {
			joined = append(joined, tok.Token(id)...)
		}
		if !bytes.Equal(joined, text) {
			t.Errorf("pre-split %v: the tokens of the held-out text do not concatenate to it", preSplit)
		}
		if got := strings.Join(tok.Pieces(ids), ""); got != string(text) {
			t.Errorf("pre-split %v: Pieces do not concatenate to the text", preSplit)
		}
		// Token returns a copy.
		tok.Token(300)[0] = 'X'
		if tok.Token(300)[0] == 'X' {
			t.Error("Token returned the tokenizer's own bytes")
		}
	}
}

func TestInvalidIDs(t *testing.T) {
	tok, err := Train([]byte("aaabdaaabac"), 300, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tok.Decode([]int{258, 'd', 257, 0, 255}); string(got) != "aaabdab\x00\xff" {
		t.Errorf("Decode = %q", got)
	}
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"Decode", func() { tok.Decode([]int{97, 259}) }, "bpe: Tokenizer.Decode: token id 259 is not in the vocabulary [0, 259)"},
		{"Decode", func() { tok.Decode([]int{-1}) }, "token id -1 is not"},
		{"Token", func() { tok.Token(1000) }, "Tokenizer.Token: token id 1000"},
		{"Pieces", func() { tok.Pieces([]int{259}) }, "Tokenizer.Pieces: token id 259"},
	} {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tc.want) {
					t.Errorf("%s: panic %v, want one saying %q", tc.name, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}

func TestTrainErrors(t *testing.T) {
	if _, err := Train([]byte("abc"), 255, Options{}); err == nil {
		t.Error("vocabSize 255: no error")
	}
	tok, err := Train(nil, 256, Options{PreSplit: true})
	if err != nil {
		t.Fatal(err)
	}
	if tok.VocabSize() != 256 || len(tok.Encode(nil)) != 0 || len(tok.Decode(nil)) != 0 {
		t.Errorf("empty text: %v, Encode(nil) = %v", tok, tok.Encode(nil))
	}
}

func TestBitsPerByte(t *testing.T) {
	tests := []struct {
		loss          float64
		tokens, bytes int
		want          float64
	}{
		{math.Ln2, 100, 100, 1},       // ln 2 nats per byte-token is one bit per byte
		{2 * math.Ln2, 100, 400, 0.5}, // two bits per token, four bytes per token
		{1, 1, 1, 1 / math.Ln2},       // one nat is 1.4427 bits
		{0, 10, 10, 0},
	}
	for _, tt := range tests {
		if got := BitsPerByte(tt.loss, tt.tokens, tt.bytes); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("BitsPerByte(%v, %d, %d) = %v, want %v", tt.loss, tt.tokens, tt.bytes, got, tt.want)
		}
	}
}

func TestBytesPerToken(t *testing.T) {
	tok, err := Train([]byte("aaabdaaabac"), 300, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 11 bytes in 5 tokens (TestHandWorked).
	if got := tok.BytesPerToken([]byte("aaabdaaabac")); got != 11.0/5 {
		t.Errorf("BytesPerToken = %v, want 2.2", got)
	}
	if got := tok.BytesPerToken(nil); got != 0 {
		t.Errorf("BytesPerToken(nil) = %v, want 0", got)
	}
	none, _ := Train([]byte("abc"), 256, Options{})
	if got := none.BytesPerToken([]byte("hello, world")); got != 1 {
		t.Errorf("no merges: BytesPerToken = %v, want 1", got)
	}
}

// trainingText is lesson 10's training text, or this package's own source
// if there is none, so that the fuzz test always has a trained tokenizer.
func trainingText(t testing.TB) []byte {
	if s, err := corpus.Load(); err == nil {
		return s.Train
	}
	var text []byte
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text = append(text, data...)
	}
	return text
}

// FuzzRoundTrip: on any bytes, Decode(Encode(text)) is text and every id
// is a token, with and without the pre-split; on short texts, Encode
// agrees with encodePlain.
func FuzzRoundTrip(f *testing.F) {
	text := trainingText(f)
	var toks []*Tokenizer
	for _, preSplit := range []bool{false, true} {
		tok, err := Train(text, 1024, Options{PreSplit: preSplit})
		if err != nil {
			f.Fatal(err)
		}
		toks = append(toks, tok)
	}
	for _, seed := range []string{
		"", "a", "aaa", "func main() {\n\tfmt.Println(\"héllo\")\n}\n",
		"\xff\xfe\x00 \xc3", "x  := 0x7F // ünïcode\u00a0\u2028 ",
		"\t\t\treturn nil, err\n\n\n", string(text[:min(len(text), 2000)]),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, tok := range toks {
			ids := tok.Encode(data)
			for _, id := range ids {
				if id < 0 || id >= tok.VocabSize() {
					t.Fatalf("%v: Encode(%q) gave id %d", tok, data, id)
				}
			}
			if got := tok.Decode(ids); !bytes.Equal(got, data) {
				t.Fatalf("%v: Decode(Encode(%q)) = %q", tok, data, got)
			}
			if len(data) <= 256 {
				if want := tok.encodePlain(data); !slices.Equal(ids, want) {
					t.Fatalf("%v: Encode(%q) = %v, encodePlain %v", tok, data, ids, want)
				}
			}
		}
	})
}
