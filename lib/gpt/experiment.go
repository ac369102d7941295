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

// Evaluate scores text with the model of store: windows of seq bytes, one
// after the other, each read from its start, so a byte's context is the
// bytes of its window up to it (1 … seq of them; (seq+1)/2 on average).
// Every byte but the first of each window… is a target: the windows are
// text[i : i+seq] predicting text[i+1 : i+seq+1], for i = 0, seq, 2·seq, …
//
// Introduced in lesson 10.
func Evaluate(store *model.Store, c Config, text []byte, seq int) (*Scores, error) {
	in, tg, n := corpus.Windows(text, seq, seq)
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
			parts[k] = scoreWindows(logits, tg[w0*seq:], min(batch, n-w0), seq, c.Vocab, w0*seq)
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

// scoreWindows scores the first windows windows of logits [·, seq, vocab]
// against their targets: for each position, log₂ of the softmax's
// probability of its target, and the most likely byte. index is the first
// window's first target's index in Windows's targets (the byte it scores
// is one further in the text).
func scoreWindows(logits []float32, targets []int32, windows, seq, vocab, index int) Scores {
	var s Scores
	for i := range windows * seq {
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
		s.Index = append(s.Index, index+i+1)
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
