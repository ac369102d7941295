package gpt

import (
	"fmt"
	"math"
	"sync"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/corpus"
	"github.com/attention-in-go/course/lib/train"
)

// Experiment is one training of a GPT on the corpus: the model, the
// examples (windows of Context bytes every Stride bytes of the training
// text) and the optimisation.
//
// Introduced in lesson 10.
type Experiment struct {
	Name         string // checkpoint name
	Model        Config
	Stride       int
	Steps, Batch int
	LearningRate float64
	Seed         uint64
}

// Lesson10 is the GPT lesson 10 trains.
//
// Introduced in lesson 10.
var Lesson10 = Experiment{Name: "lesson10-gpt",
	Model:  Config{Vocab: 256, DModel: 64, Heads: 4, Layers: 2, DFF: 128, Context: 64, Positions: Sinusoidal},
	Stride: 32, Steps: 550, Batch: 16, LearningRate: 0.005, Seed: 10}

// Dataset returns the training windows of text for lib/train.
func (e Experiment) Dataset(text []byte) *train.Dataset {
	in, tg, _ := corpus.Windows(text, e.Model.Context, e.Stride)
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
		LearningRate: e.LearningRate, Seed: e.Seed}
}

// Scores are a model's predictions of every scored byte of a text.
//
// Introduced in lesson 10.
type Scores struct {
	Index []int     // position in the text of each scored byte
	Log2P []float64 // log₂ P(byte | what came before in its window)
	Top   []byte    // the model's most likely byte there
}

// BitsPerChar is −mean(Log2P).
func (s *Scores) BitsPerChar() float64 { return corpus.BitsPerChar(s.Log2P) }

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
	return evaluate(store, c, text, seq, max(seq/2, 1))
}

// evaluate scores text on windows of seq bytes every stride bytes, each
// window's last stride predictions (the first window's all; with stride
// = seq, every window's all).
func evaluate(store *model.Store, c Config, text []byte, seq, stride int) (*Scores, error) {
	in, tg, n := corpus.Windows(text, seq, stride)
	if n == 0 {
		return nil, fmt.Errorf("gpt.Evaluate: the text (%d bytes) is shorter than one window of %d", len(text), seq+1)
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
				parts[k].Index = append(parts[k].Index, part.Index...)
				parts[k].Log2P = append(parts[k].Log2P, part.Log2P...)
				parts[k].Top = append(parts[k].Top, part.Top...)
			}
		})
	}
	scoring.Wait()
	s := &Scores{}
	for _, part := range parts {
		s.Index = append(s.Index, part.Index...)
		s.Log2P = append(s.Log2P, part.Log2P...)
		s.Top = append(s.Top, part.Top...)
	}
	return s, nil
}

// scoreWindow scores one window's logits [seq, vocab] against its
// targets from position from on: for each position, log₂ of the
// softmax's probability of its target, and the most likely byte. start is
// the window's first byte in the text (the byte position j scores is
// start+j+1).
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
		s.Top = append(s.Top, byte(top))
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
