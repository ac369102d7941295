package explore

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/bpe"
	"github.com/attention-in-go/course/lib/viz"
)

func TestValidate(t *testing.T) {
	good := Default("the cat sat")
	if err := good.Validate(); err != nil {
		t.Fatalf("Default: %v", err)
	}
	tests := []struct {
		change func(*Settings)
		want   string
	}{
		{func(s *Settings) { s.Heads = 3 }, "3 heads: choose one of [1 2 4 8]"},
		{func(s *Settings) { s.MaxLen = 0 }, "max length 0"},
		{func(s *Settings) { s.MaxLen = 17 }, "max length 17"},
		{func(s *Settings) { s.PELen = 0 }, "PE length 0"},
		{func(s *Settings) { s.PEDim = 1 }, "PE dimension 1"},
	}
	for _, tt := range tests {
		s := good
		tt.change(&s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%+v) = %v, want an error containing %q", s, err, tt.want)
		}
		if _, err := s.Figure(); err == nil {
			t.Errorf("Figure(%+v) drew invalid settings", s)
		}
	}
}

func TestTokensPadAndCut(t *testing.T) {
	s := Default("The cat sat on the mat")
	s.MaxLen = 8
	tokens, mask, err := s.Tokens()
	if err != nil {
		t.Fatal(err)
	}
	wantTokens := []string{"the", "cat", "sat", "on", "the", "mat", "<pad>", "<pad>"}
	if !reflect.DeepEqual(tokens, wantTokens) || !reflect.DeepEqual(mask, [][]float64{{0, 0, 0, 0, 0, 0, 1, 1}}) {
		t.Errorf("Tokens = %q, %v; want %q with the last two masked", tokens, mask, wantTokens)
	}
	s.MaxLen = 3
	tokens, mask, _ = s.Tokens()
	if !reflect.DeepEqual(tokens, []string{"the", "cat", "sat"}) || !reflect.DeepEqual(mask, [][]float64{{0, 0, 0}}) {
		t.Errorf("cut to 3: %q, %v", tokens, mask)
	}
	s.Sentence = ""
	s.MaxLen = 5
	tokens, mask, err = s.Tokens()
	if err != nil || len(tokens) != 5 || len(mask[0]) != 5 || !strings.HasPrefix(tokens[0], "t") {
		t.Errorf("synthetic: %q, %v, %v", tokens, mask, err)
	}
}

func TestAttentionWeights(t *testing.T) {
	for _, heads := range HeadChoices {
		s := Default("the movie was really great")
		s.Heads, s.MaxLen = heads, 7
		tokens, w, err := s.Attention()
		if err != nil {
			t.Fatal(err)
		}
		if len(w) != heads || len(w[0]) != len(tokens) || len(w[0][0]) != len(tokens) {
			t.Fatalf("%d heads: weights %d×%d×%d, want %d×7×7", heads, len(w), len(w[0]), len(w[0][0]), heads)
		}
		for h := range w {
			for i, row := range w[h] {
				sum := 0.0
				for j, x := range row {
					sum += x
					if j >= 5 && x != 0 {
						t.Errorf("%d heads, head %d: query %d gives weight %g to padding key %d", heads, h, i, x, j)
					}
				}
				if math.Abs(sum-1) > 1e-5 {
					t.Errorf("%d heads, head %d: row %d sums to %g", heads, h, i, sum)
				}
			}
		}
	}
}

func TestFigureFollowsSettings(t *testing.T) {
	s := Default("the cat sat on the mat")
	a, err := s.Figure()
	if err != nil {
		t.Fatal(err)
	}
	s.Heads = 8
	b, err := s.Figure()
	if err != nil {
		t.Fatal(err)
	}
	pa, err := viz.PNG(a)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := viz.PNG(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(pa) < 1000 || reflect.DeepEqual(pa, pb) {
		t.Errorf("2 and 8 heads give the same picture (%d and %d bytes)", len(pa), len(pb))
	}
	if heads := len(b.(*viz.Grid).Figures[0].(*viz.Grid).Figures); heads != 8 {
		t.Errorf("8 heads draw %d heat maps", heads)
	}
}

func TestRunOutsideANotebookDoesNothing(t *testing.T) {
	if err := Run(Options{}); err != nil {
		t.Errorf("Run outside a notebook: %v", err)
	}
	if err := Run(Options{Start: Settings{Heads: 5, MaxLen: 4, PELen: 10, PEDim: 8}}); err == nil {
		t.Error("Run with 5 heads gave no error")
	}
}

func TestAnalyzeSynthetic(t *testing.T) {
	s := Default("")
	s.Count, s.VocabSize, s.MaxLen = 12, 20, 6
	a, err := s.Analyze()
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Sentences) != 12 || a.Problem != nil || a.VocabSize != 20 {
		t.Fatalf("%d sentences, vocabulary %d, problem %v; want 12, 20, nil", len(a.Sentences), a.VocabSize, a.Problem)
	}
	longest, ids := 0, 0
	for i, sent := range a.Sentences {
		longest = max(longest, len(sent))
		ids += len(sent)
		for j := range a.Batch.IDs[i] {
			padded := j >= len(sent)
			if padded != (a.Batch.Mask[i][j] == 1) || padded != (a.Batch.IDs[i][j] == 0) {
				t.Errorf("sentence %d position %d: id %d, mask %g, length %d", i, j, a.Batch.IDs[i][j], a.Batch.Mask[i][j], len(sent))
			}
		}
	}
	if len(a.Batch.IDs[0]) != s.MaxLen || longest > s.MaxLen || a.Summary.Tokens.Count != ids || a.Summary.Lengths.Count != 12 {
		t.Errorf("batch width %d (want %d, longest %d), %d ids counted (want %d), %d lengths", len(a.Batch.IDs[0]), s.MaxLen, longest, a.Summary.Tokens.Count, ids, a.Summary.Lengths.Count)
	}
	// The heat maps show the first sentence: its tokens are the pattern's.
	if len(a.Tokens) != len(a.Sentences[0]) || len(a.Heads) != s.Heads {
		t.Errorf("patterns over %q (%d heads); the first sentence has %d ids, %d heads wanted", a.Tokens, len(a.Heads), len(a.Sentences[0]), s.Heads)
	}
	out := a.String()
	for _, want := range []string{"12 synthetic sentences, vocabulary 20", "Validation: ok", "Padded batch [12][", "… 4 more", "token id", "diagonal"} {
		if !strings.Contains(out, want) {
			t.Errorf("String() lacks %q:\n%s", want, out)
		}
	}
}

func TestAnalyzeSentence(t *testing.T) {
	s := Default("the cat sat on the mat")
	s.MaxLen = 5
	a, err := s.Analyze()
	if err != nil {
		t.Fatal(err)
	}
	// <pad> 0, <unk> 1, then the words in alphabetical order: cat 2, mat 3,
	// on 4, sat 5, the 6; "the cat sat on the" once cut to 5.
	if !reflect.DeepEqual(a.Sentences, [][]int{{6, 2, 5, 4, 6}}) || a.VocabSize != 7 || a.Problem != nil {
		t.Errorf("Data = %v, vocabulary %d, problem %v", a.Sentences, a.VocabSize, a.Problem)
	}
	_, weights, err := s.Attention()
	if err != nil {
		t.Fatal(err)
	}
	// The metrics are those of each head's weights, computed here by hand.
	for h, p := range a.Heads {
		diag := 0.0
		for i := range 5 {
			diag += weights[h][i][i] / 5
		}
		if math.Abs(p.Diagonal-diag) > 1e-9 {
			t.Errorf("head %d: diagonal %g, want %g", h+1, p.Diagonal, diag)
		}
	}
	if !reflect.DeepEqual(a.Batch.Mask, [][]float64{{0, 0, 0, 0, 0}}) {
		t.Errorf("mask of a sentence cut to MaxLen: %v", a.Batch.Mask)
	}
	s.MaxLen = 8
	if b, err := s.Analyze(); err != nil || !reflect.DeepEqual(b.Batch.IDs, [][]int{{6, 2, 5, 4, 6, 3, 0, 0}}) ||
		!reflect.DeepEqual(b.Batch.Mask, [][]float64{{0, 0, 0, 0, 0, 0, 1, 1}}) {
		t.Errorf("padded to 8: %v, mask %v, %v", b.Batch.IDs, b.Batch.Mask, err)
	}
	s.MaxLen = 5
	if !strings.Contains(a.String(), `the sentence "the cat sat on the mat": 5 tokens (at most 5)`) {
		t.Errorf("String():\n%s", a)
	}
	s.Count = 0
	if _, err := s.Analyze(); err == nil || !strings.Contains(err.Error(), "0 sentences") {
		t.Errorf("0 sentences: %v", err)
	}
}

func TestViewNamesTokensAndShowsAnalysis(t *testing.T) {
	s := Default(`the "dog" ran`) // cut to 4 tokens: the " dog "
	s.MaxLen = 4
	v, err := s.view(false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v, `alt="attention over: the &#34; dog &#34;; 2 heads`) || strings.Contains(v, "<pre") {
		t.Errorf("view(false) = %.300s…", v)
	}
	v, err = s.view(true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v, "<pre") || !strings.Contains(v, "Summary statistics") || !strings.Contains(v, "&lt;pad&gt; = 0") {
		t.Errorf("view(true) lacks the analysis: …%s", v[max(0, len(v)-800):])
	}
}

// With a tokenizer the explorer attends over BPE tokens, labelled so that
// spaces and white space show, and analyses their ids.
func TestTokensWithBPE(t *testing.T) {
	// Trained on repeats of one line: " err" and " nil" become tokens.
	tok, err := bpe.Train([]byte(strings.Repeat("\tif err != nil {\n", 8)), 270, bpe.Options{PreSplit: true})
	if err != nil {
		t.Fatal(err)
	}
	s := Default("if err != nil {\n\tx")
	s.Tokenizer = tok
	s.MaxLen = 10
	tokens, mask, err := s.Tokens()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"if", "·err", "·!=", "·nil", "·{", `\n\t`, "x", "<pad>", "<pad>", "<pad>"}
	if !reflect.DeepEqual(tokens, want) || !reflect.DeepEqual(mask, [][]float64{{0, 0, 0, 0, 0, 0, 0, 1, 1, 1}}) {
		t.Errorf("Tokens = %q, %v; want %q with the last three masked", tokens, mask, want)
	}
	a, err := s.Analyze()
	if err != nil {
		t.Fatal(err)
	}
	ids := tok.Encode([]byte(s.Sentence))
	if !reflect.DeepEqual(a.Sentences, [][]int{ids}) || a.VocabSize != tok.VocabSize() {
		t.Errorf("Data = %v of %d, want %v of %d", a.Sentences, a.VocabSize, ids, tok.VocabSize())
	}
	if !strings.Contains(a.String(), fmt.Sprintf("7 tokens (at most 10) of a byte-level BPE of %d", tok.VocabSize())) {
		t.Errorf("String():\n%s", a)
	}
	if _, err := s.Figure(); err != nil {
		t.Error(err)
	}
	// Without the tokenizer the same sentence is words, lower-cased.
	s.Tokenizer = nil
	if words, _, _ := s.Tokens(); words[1] != "err" || words[2] != "!" {
		t.Errorf("words: %q", words)
	}
}

func TestLabels(t *testing.T) {
	tok, err := bpe.Train(nil, 256, bpe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := Labels(tok, []int{' ', 'a', '\t', '\n', 0xff, 'é' >> 6})
	want := []string{"·", "a", `\t`, `\n`, `\xff`, `\x03`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Labels = %q, want %q", got, want)
	}
}
