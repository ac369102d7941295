package gpt

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/bpe"
	"github.com/attention-in-go/course/lib/corpus"
)

// Lesson 10's GPT, by hand: per block 4 projections of 64×64, 2
// feed-forward layers of 64×128 and the scores and mix over 64 positions
// of width 64, then the output layer 256×64 — in multiply–adds per token
// 2·(16,384 + 16,384 + 8,192) + 16,384 = 98,304, so 196,608 FLOPs forward
// and 589,824 for a training step.
func TestTrainingFLOPsPerToken(t *testing.T) {
	if got := Lesson10.Model.TrainingFLOPsPerToken(); got != 589_824 {
		t.Errorf("lesson 10: %v FLOPs per token, want 589,824", got)
	}
	// Each added token of the vocabulary is one more row of the output
	// layer: d multiply–adds forward, 6·d FLOPs in training.
	c := Lesson10.Model
	c.Vocab += 10
	if d := c.TrainingFLOPsPerToken() - Lesson10.Model.TrainingFLOPsPerToken(); d != 6*10*64 {
		t.Errorf("10 more tokens add %v FLOPs, want %v", d, 6*10*64)
	}
	// Doubling the context doubles only the scores' share: 2·2·64·64 per
	// block, 2 blocks, ×3.
	c = Lesson10.Model
	c.Context *= 2
	if d := c.TrainingFLOPsPerToken() - Lesson10.Model.TrainingFLOPsPerToken(); d != 3*2*4*64*64 {
		t.Errorf("twice the context adds %v FLOPs, want %v", d, 3*2*4*64*64)
	}
}

func TestWithTokensKeepsTheCompute(t *testing.T) {
	text := []byte(strings.Repeat("func (b *Buffer) Len() int { return len(b.buf) }\n", 20))
	for _, vocab := range []int{300, 512} {
		for _, split := range []bool{false, true} {
			tok, err := bpe.Train(text, vocab, bpe.Options{PreSplit: split})
			if err != nil {
				t.Fatal(err)
			}
			e := Lesson10.WithTokens(tok)
			if e.Model.Vocab != tok.VocabSize() || e.Tokens != tok || e.Name == Lesson10.Name {
				t.Errorf("WithTokens(%v): vocabulary %d, name %q", tok, e.Model.Vocab, e.Name)
			}
			// Equal within half a step of the new experiment.
			step := float64(e.Batch*e.Model.Context) * e.Model.TrainingFLOPsPerToken()
			if d := math.Abs(e.TrainingFLOPs() - Lesson10.TrainingFLOPs()); d > step/2 {
				t.Errorf("WithTokens(%v): %v FLOPs against %v, more than half a step (%v) apart", tok, e.TrainingFLOPs(), Lesson10.TrainingFLOPs(), step)
			}
			if e.Steps >= Lesson10.Steps {
				t.Errorf("WithTokens(%v): %d steps, want fewer than %d (a larger output layer)", tok, e.Steps, Lesson10.Steps)
			}
			e2 := Lesson10.WithTokens(tok)
			if e2.Name != e.Name {
				t.Errorf("names differ between two calls: %q %q", e.Name, e2.Name)
			}
		}
	}
	a, _ := bpe.Train(text, 300, bpe.Options{})
	b, _ := bpe.Train(text, 300, bpe.Options{PreSplit: true})
	if Lesson10.WithTokens(a).Name == Lesson10.WithTokens(b).Name {
		t.Error("with and without the pre-split, the same checkpoint name")
	}
}

// A tokenizer without merges has the bytes as its tokens: a model trained
// on them scores a text exactly as Evaluate does. With merges, every
// scored token is a whole token of the text, and its context is the bytes
// of the whole tokens before it in its window.
func TestEvaluateTokens(t *testing.T) {
	t.Setenv("COURSE_CACHE", t.TempDir())
	const seq = 8
	const code = "func main() {\n\tif err != nil {\n\t\treturn err\n\t}\n}\n"
	text := []byte(strings.Repeat(code, 6))
	small := Config{Vocab: 256, DModel: 8, Heads: 2, Layers: 1, DFF: 16, Context: seq, Positions: Sinusoidal}
	e := Experiment{Name: "gpt-tokens-test", Model: small, Stride: 4, Steps: 3, Batch: 8, LearningRate: 0.01, Seed: 1}

	bytesOnly, err := bpe.Train(text, 256, bpe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := e.WithTokens(bytesOnly).Train(&corpus.Split{Train: text})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Evaluate(tr.Store, small, text, seq)
	if err != nil {
		t.Fatal(err)
	}
	got, err := EvaluateTokens(tr.Store, small, bytesOnly, text, seq)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Log2P, want.Log2P) || !slices.Equal(got.Index, want.Index) || !slices.Equal(got.Context, want.Context) {
		t.Fatalf("byte tokens: EvaluateTokens differs from Evaluate:\n got %v %v\nwant %v %v", got.Index, got.Context, want.Index, want.Context)
	}
	if got.BitsPerByte() != want.BitsPerByte() || got.ScoredBytes() != want.ScoredBytes() {
		t.Errorf("byte tokens: %v bits per byte over %d bytes, want %v over %d", got.BitsPerByte(), got.ScoredBytes(), want.BitsPerByte(), want.ScoredBytes())
	}

	tok, err := bpe.Train(text, 300, bpe.Options{PreSplit: true})
	if err != nil {
		t.Fatal(err)
	}
	te := e.WithTokens(tok)
	tr, err = te.Train(&corpus.Split{Train: text})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := EvaluateTokens(tr.Store, small, tok, text, seq); err == nil || !strings.Contains(err.Error(), "the tokenizer it was trained on") {
		t.Errorf("a model of 256 tokens with a tokenizer of %d: %v", tok.VocabSize(), err)
	}
	s, err := EvaluateTokens(tr.Store, te.Model, tok, text, seq)
	if err != nil {
		t.Fatal(err)
	}
	ids := tok.Encode(text)
	starts := map[int]bool{} // the first byte of each token
	at := 0
	for _, id := range ids {
		starts[at] = true
		at += len(tok.Token(id))
	}
	total := 0
	for j, i := range s.Index {
		if !starts[i] || !starts[i-s.Context[j]] {
			t.Fatalf("score %d: token at byte %d, context from byte %d: not token boundaries", j, i, i-s.Context[j])
		}
		if j > 0 && i != s.Index[j-1]+s.Bytes[j-1] {
			t.Fatalf("score %d at byte %d does not follow the last (%d + %d bytes)", j, i, s.Index[j-1], s.Bytes[j-1])
		}
		n := len(tok.Encode(text[i-s.Context[j] : i])) // the window's tokens before it
		if n < 1 || n > seq || (j > seq && n < seq/2) {
			t.Fatalf("score %d: %d tokens of context in a window of %d", j, n, seq)
		}
		piece := text[i : i+s.Bytes[j]]
		if !bytes.Equal(tok.Decode(tok.Encode(piece)), piece) || len(tok.Encode(piece)) != 1 {
			t.Fatalf("score %d: %q is not one token", j, piece)
		}
		total += s.Bytes[j]
	}
	if s.ScoredBytes() != total || total < len(text)/2 {
		t.Errorf("%d scored bytes, counted %d, of %d", s.ScoredBytes(), total, len(text))
	}
	if bpb := s.BitsPerByte(); math.Abs(bpb-(-sumOf(s.Log2P)/float64(total))) > 1e-12 || bpb >= s.BitsPerChar() {
		t.Errorf("bits per byte %v, per token %v: want Σ bits / Σ bytes, below the bits per token", bpb, s.BitsPerChar())
	}
}

func sumOf(x []float64) float64 {
	t := 0.0
	for _, v := range x {
		t += v
	}
	return t
}

// NextProbs at a prefix of the text's first window gives the probability
// Evaluate scored the next token with, and a distribution.
func TestNextProbsMatchesEvaluate(t *testing.T) {
	t.Setenv("COURSE_CACHE", t.TempDir())
	const seq = 8
	text := []byte(strings.Repeat("func main() {\n\tif err != nil {\n\t\treturn err\n\t}\n}\n", 6))
	tok, err := bpe.Train(text, 290, bpe.Options{PreSplit: true})
	if err != nil {
		t.Fatal(err)
	}
	e := Experiment{Name: "gpt-next-test", Model: Config{Vocab: 256, DModel: 8, Heads: 2, Layers: 1, DFF: 16, Context: seq, Positions: Sinusoidal},
		Stride: 4, Steps: 3, Batch: 8, LearningRate: 0.01, Seed: 1}.WithTokens(tok)
	tr, err := e.Train(&corpus.Split{Train: text})
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.Evaluate(tr.Store, text)
	if err != nil {
		t.Fatal(err)
	}
	ids := tok.Encode(text)
	var prompts [][]int
	for i := range seq {
		prompts = append(prompts, ids[:i+1])
	}
	probs, err := NextProbs(tr.Store, e.Model, prompts)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range probs {
		total := 0.0
		for _, x := range p {
			total += x
		}
		if math.Abs(total-1) > 1e-9 || len(p) != tok.VocabSize() {
			t.Fatalf("prompt %d: %d probabilities summing to %v", i, len(p), total)
		}
		if got, want := math.Log2(p[ids[i+1]]), s.Log2P[i]; math.Abs(got-want) > 1e-4 {
			t.Errorf("token %d: log₂ P = %v by NextProbs, %v by Evaluate", i+1, got, want)
		}
	}
	// A prompt longer than the context reads its last seq tokens.
	long, err := NextProbs(tr.Store, e.Model, [][]int{ids[:3*seq], ids[2*seq : 3*seq]})
	if err != nil {
		t.Fatal(err)
	}
	for v := range long[0] {
		if math.Abs(long[0][v]-long[1][v]) > 1e-6 {
			t.Fatalf("a long prompt: P(%d) = %v, its last %d tokens give %v", v, long[0][v], seq, long[1][v])
		}
	}
	for _, bad := range [][]int{{}, {5, 9999}} {
		if _, err := NextProbs(tr.Store, e.Model, [][]int{bad}); err == nil {
			t.Errorf("prompt %v: no error", bad)
		}
	}
}
