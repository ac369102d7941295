package gpt

import (
	"fmt"
	"math"
	"sync"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/bpe"
	"github.com/attention-in-go/course/lib/corpus"
	"github.com/attention-in-go/course/lib/train"
)

// Experiment is one training of a GPT on the corpus: the model, the
// examples (windows of Context tokens every Stride tokens of the training
// text) and the optimisation. The tokens are bytes, or those of a BPE
// tokenizer (lesson 12, [Experiment.WithTokens]).
//
// Introduced in lesson 10.
type Experiment struct {
	Name         string // checkpoint name
	Model        Config
	Stride       int
	Steps, Batch int
	LearningRate float64
	Seed         uint64
	Tokens       *bpe.Tokenizer // nil: the model reads bytes

	// Warmup, Decay, ClipNorm and WeightDecay are lesson 09's training
	// recipe ([train.Config]); zero, Adam at a constant rate.
	Warmup                int
	Decay                 train.Decay
	ClipNorm, WeightDecay float64
}

// Lesson10 is the GPT lesson 10 trains.
//
// Introduced in lesson 10.
var Lesson10 = Experiment{Name: "lesson10-gpt",
	Model:  Config{Vocab: 256, DModel: 64, Heads: 4, Layers: 2, DFF: 128, Context: 64, Positions: Sinusoidal},
	Stride: 32, Steps: 550, Batch: 16, LearningRate: 0.005, Seed: 10}

// Dataset returns the training windows of text for lib/train: of its
// bytes, or of its tokens when e.Tokens is set.
func (e Experiment) Dataset(text []byte) *train.Dataset {
	var in, tg []int32
	if e.Tokens == nil {
		in, tg, _ = corpus.Windows(text, e.Model.Context, e.Stride)
	} else {
		in, tg, _ = corpus.Windows(int32s(e.Tokens.Encode(text)), e.Model.Context, e.Stride)
	}
	return &train.Dataset{Name: e.Name, Inputs: []train.Column{train.Ints(in, e.Model.Context)},
		Labels: []train.Column{train.Ints(tg, e.Model.Context)}}
}

// Train trains the model from scratch on the training text and saves it
// under e.Name.
//
// Introduced in lesson 10.
func (e Experiment) Train(s *corpus.Split) (*train.Trained, error) {
	return train.Fit(e.config(), e.Model.Model(), train.CrossEntropy, e.Dataset(s.Train))
}

// LoadOrTrain loads the model saved under e.Name, or trains it.
//
// Introduced in lesson 10.
func (e Experiment) LoadOrTrain(s *corpus.Split) (*train.Trained, error) {
	return train.LoadOrFit(e.config(), e.Model.Model(), train.CrossEntropy, e.Dataset(s.Train))
}

func (e Experiment) config() train.Config {
	return train.Config{Name: e.Name, Steps: e.Steps, BatchSize: e.Batch,
		LearningRate: e.LearningRate, Seed: e.Seed,
		Warmup: e.Warmup, Decay: e.Decay, ClipNorm: e.ClipNorm, WeightDecay: e.WeightDecay}
}

// Scores are a model's predictions of every scored byte (or token) of a
// text.
//
// Introduced in lesson 10.
type Scores struct {
	Index []int     // position in the text of each scored byte (of a token's first byte)
	Log2P []float64 // log₂ P(byte or token | what came before in its window)
	Top   []int32   // the model's most likely byte (or token) there
	// Context is how many bytes of the text the model read before each
	// scored byte or token, in its window.
	Context []int
	// Bytes is the length of each scored token (nil when every token is
	// one byte). Set by [EvaluateTokens].
	Bytes []int
}

// BitsPerChar is −mean(Log2P): the bits per byte of a byte-level model,
// the bits per token of a token-level one (see [Scores.BitsPerByte]).
func (s *Scores) BitsPerChar() float64 { return corpus.BitsPerChar(s.Log2P) }

// BitsPerByte is the scored text's cost in bits divided by its length in
// bytes, −ΣLog2P / ΣBytes: the unit that compares models whose tokens
// differ (lesson 12). For a byte-level model it is [Scores.BitsPerChar].
//
// Introduced in lesson 12.
func (s *Scores) BitsPerByte() float64 {
	return -sum(s.Log2P) / float64(s.ScoredBytes())
}

// ScoredBytes is how many bytes of the text the scored bytes or tokens
// cover.
//
// Introduced in lesson 12.
func (s *Scores) ScoredBytes() int {
	if s.Bytes == nil {
		return len(s.Log2P)
	}
	return int(sum(s.Bytes))
}

// MeanContext is the mean of Context: how many bytes, on average, the
// model read before what it predicted.
//
// Introduced in lesson 12.
func (s *Scores) MeanContext() float64 {
	if len(s.Context) == 0 {
		return 0
	}
	return sum(s.Context) / float64(len(s.Context))
}

func sum[T int | float64](x []T) float64 {
	t := 0.0
	for _, v := range x {
		t += float64(v)
	}
	return t
}

// Evaluate scores text with the model of store on windows of seq bytes
// that overlap by half (a sliding window of stride seq/2): window w reads
// text[w·stride : w·stride+seq] and predicts the byte after each of its
// bytes, and only the predictions of its last stride bytes count — the
// first window's all of them — so every byte is scored once (but the
// first, and a tail shorter than stride), and each, past the first
// seq/2, with at least seq−stride bytes of context before
// it in its window (seq−stride+1 … seq; (3·seq/2+1)/2 on average for an
// even seq, against (seq+1)/2 for windows one after the other). An
// n-gram model always has its whole history; this gives the GPT most of
// its own.
//
// Introduced in lesson 10.
func Evaluate(store *model.Store, c Config, text []byte, seq int) (*Scores, error) {
	s, err := evaluate(store, c, text, seq, max(seq/2, 1))
	if err != nil {
		return nil, fmt.Errorf("gpt.Evaluate: %w", err)
	}
	return s, nil
}

// EvaluateTokens is [Evaluate] for a model that reads the tokens of tok:
// it encodes text, scores the tokens on windows of seq tokens that overlap
// by half, and gives each scored token's first byte in Index, its length
// in Bytes and the bytes before it in its window in Context, so that
// [Scores.BitsPerByte] compares it with a byte-level model.
//
// Introduced in lesson 12.
func EvaluateTokens(store *model.Store, c Config, tok *bpe.Tokenizer, text []byte, seq int) (*Scores, error) {
	if tok.VocabSize() != c.Vocab {
		return nil, fmt.Errorf("gpt.EvaluateTokens: the tokenizer has %d tokens, the model %d: evaluate the model with the tokenizer it was trained on", tok.VocabSize(), c.Vocab)
	}
	enc := tok.Encode(text)
	offset := make([]int, len(enc)+1) // offset[i]: the first byte of token i
	for i, id := range enc {
		offset[i+1] = offset[i] + len(tok.Token(id))
	}
	s, err := evaluate(store, c, int32s(enc), seq, max(seq/2, 1))
	if err != nil {
		return nil, fmt.Errorf("gpt.EvaluateTokens: %w", err)
	}
	// evaluate counted in tokens; turn positions and contexts into bytes.
	s.Bytes = make([]int, len(s.Index))
	for j, i := range s.Index {
		first := i - s.Context[j] // the window's first token
		s.Index[j] = offset[i]
		s.Bytes[j] = offset[i+1] - offset[i]
		s.Context[j] = offset[i] - offset[first]
	}
	return s, nil
}

// evaluate scores text (bytes or token ids) on windows of seq every
// stride, each window's last stride predictions (the first window's all;
// with stride = seq, every window's all).
func evaluate[T byte | int32](store *model.Store, c Config, text []T, seq, stride int) (*Scores, error) {
	in, tg, n := corpus.Windows(text, seq, stride)
	if n == 0 {
		return nil, fmt.Errorf("the text (%d tokens) is shorter than one window of %d", len(text), seq+1)
	}
	p, err := train.NewPredictor(store, c.Model())
	if err != nil {
		return nil, err
	}
	const batch = 16
	// The host scores each batch (a log-softmax over the vocabulary per
	// byte) while the model predicts the next one; parts keeps the order.
	parts := make([]Scores, (n+batch-1)/batch)
	var scoring sync.WaitGroup
	defer scoring.Wait()
	for k := range parts {
		w0 := k * batch
		ids := make([]int32, batch*seq) // a last, short batch is padded with window 0: one compiled shape
		for b := range batch {
			w := w0 + b
			if w >= n {
				w = 0
			}
			copy(ids[b*seq:], in[w*seq:(w+1)*seq])
		}
		out, err := p.Predict(tensors.FromFlatDataAndDimensions(ids, batch, seq))
		if err != nil {
			return nil, err
		}
		logits := tensors.MustCopyFlatData[float32](out[0]) // [batch, seq, vocab]
		// At most one batch is scored beside a prediction.
		scoring.Wait()
		scoring.Go(func() {
			for b := range min(batch, n-w0) {
				w := w0 + b
				from := seq - stride // the window's new bytes
				if w == 0 {
					from = 0
				}
				part := scoreWindow(logits[b*seq*c.Vocab:(b+1)*seq*c.Vocab], tg[w*seq:(w+1)*seq], from, c.Vocab, w*stride)
				p := &parts[k]
				p.Index = append(p.Index, part.Index...)
				p.Log2P = append(p.Log2P, part.Log2P...)
				p.Top = append(p.Top, part.Top...)
				p.Context = append(p.Context, part.Context...)
			}
		})
	}
	scoring.Wait()
	s := &Scores{}
	for _, part := range parts {
		s.Index = append(s.Index, part.Index...)
		s.Log2P = append(s.Log2P, part.Log2P...)
		s.Top = append(s.Top, part.Top...)
		s.Context = append(s.Context, part.Context...)
	}
	return s, nil
}

// scoreWindow scores one window's logits [seq, vocab] against its
// targets from position from on: for each position, log₂ of the
// softmax's probability of its target, and the most likely token. start
// is the window's first token in the text (the token position j scores is
// start+j+1, read after j+1 tokens of the window).
func scoreWindow(logits []float32, targets []int32, from, vocab, start int) Scores {
	var s Scores
	for i := from; i < len(targets); i++ {
		z := logits[i*vocab : (i+1)*vocab]
		top, best := 0, z[0]
		m := math.Inf(-1)
		for v, x := range z {
			m = max(m, float64(x))
			if x > best {
				top, best = v, x
			}
		}
		sum := 0.0
		for _, x := range z {
			sum += math.Exp(float64(x) - m)
		}
		lp := float64(z[targets[i]]) - m - math.Log(sum) // log softmax
		s.Index = append(s.Index, start+i+1)
		s.Log2P = append(s.Log2P, lp/math.Ln2)
		s.Top = append(s.Top, int32(top))
		s.Context = append(s.Context, i+1)
	}
	return s
}

// Baselines returns the bits per character of the unigram, the bigram and
// the 4-gram ([corpus.NGram], discount 0.75) trained on s.Train, on the
// bytes of s.Test the GPT was scored on (idx, from [Scores]).
//
// Introduced in lesson 10.
func Baselines(s *corpus.Split, idx []int) (names []string, bits []float64, err error) {
	for _, order := range []int{1, 2, 4} {
		m, err := corpus.NewNGram(s.Train, order, 0.75)
		if err != nil {
			return nil, nil, err
		}
		all := m.Log2Probs(s.Test)
		picked := make([]float64, len(idx))
		for j, i := range idx {
			picked[j] = all[i]
		}
		names = append(names, m.String())
		bits = append(bits, corpus.BitsPerChar(picked))
	}
	return names, bits, nil
}
