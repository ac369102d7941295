package gpt

import (
	"fmt"
	"math"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/bpe"
	"github.com/attention-in-go/course/lib/train"
)

// Lesson12 is the byte-level side of lesson 12's comparison: lesson 10's
// GPT at half its training budget, 275 steps, so that it and the same
// model reading BPE tokens at equal compute ([Experiment.WithTokens])
// train in about the time of one lesson 10 training.
//
// Introduced in lesson 12.
var Lesson12 = Experiment{Name: "lesson12-bytes",
	Model:  Lesson10.Model,
	Stride: Lesson10.Stride, Steps: Lesson10.Steps / 2, Batch: Lesson10.Batch, LearningRate: Lesson10.LearningRate, Seed: 12}

// WithTokens returns the experiment reading the tokens of tok instead of
// bytes, at equal compute: the model's vocabulary is tok's, the name
// gets the vocabulary size, and the steps are scaled so that the training
// does the same arithmetic, [Experiment.TrainingFLOPs], as e's (a larger
// vocabulary makes each token's output layer dearer, so it gets fewer
// steps; the windows still hold Context tokens, now of several bytes
// each). Everything else — width, depth, batch, learning rate, seed — is
// e's.
//
// Introduced in lesson 12.
func (e Experiment) WithTokens(tok *bpe.Tokenizer) Experiment {
	budget := e.TrainingFLOPs()
	out := e
	out.Tokens = tok
	out.Model.Vocab = tok.VocabSize()
	out.Name = fmt.Sprintf("%s-bpe%d", e.Name, tok.VocabSize())
	if tok.PreSplit() {
		out.Name += "-split"
	}
	perStep := float64(e.Batch*e.Model.Context) * out.Model.TrainingFLOPsPerToken()
	out.Steps = max(1, int(math.Round(budget/perStep)))
	return out
}

// TrainingFLOPs is the arithmetic of the whole training: Steps · Batch ·
// Context token positions at [Config.TrainingFLOPsPerToken] each.
//
// Introduced in lesson 12.
func (e Experiment) TrainingFLOPs() float64 {
	return float64(e.Steps*e.Batch*e.Model.Context) * e.Model.TrainingFLOPsPerToken()
}

// TrainingFLOPsPerToken counts the floating-point operations (a multiply
// and an add are two) of one training step per token position, as
// Hoffmann et al. count them (Training Compute-Optimal Large Language
// Models, 2022, Appendix F): the backward pass costs about twice the
// forward, so
//
//	training ≈ 3 · forward,
//	forward  = Layers · (2·4·d² + 2·2·d·d_ff + 2·2·Context·d) + 2·Vocab·d
//
// per token: per block the four attention projections, the two
// feed-forward layers and the scores QKᵀ and their mix with V over the
// whole window (the course computes every score and masks half), then the
// output layer (logits = h·Eᵀ). The embedding lookup, the LayerNorms,
// the softmax and the biases are left out: they are a few per cent here.
// Kaplan et al.'s simpler count (Scaling Laws for Neural Language Models,
// 2020, §2.1, 2N + 2·Layers·Context·d) leaves the output layer out, so it
// would charge a model the same whatever its vocabulary; this one charges
// a larger vocabulary its larger output layer.
//
// Introduced in lesson 12.
func (c Config) TrainingFLOPsPerToken() float64 {
	d, ff, t := float64(c.DModel), float64(c.DFF), float64(c.Context)
	block := 2*4*d*d + 2*2*d*ff + 2*2*t*d
	return 3 * (float64(c.Layers)*block + 2*float64(c.Vocab)*d)
}

func int32s(ids []int) []int32 {
	out := make([]int32, len(ids))
	for i, id := range ids {
		out[i] = int32(id)
	}
	return out
}

// Evaluate scores text with the model of store on e's tokens: [Evaluate]
// for bytes, [EvaluateTokens] with e.Tokens, on windows of Context tokens
// that overlap by half.
//
// Introduced in lesson 12.
func (e Experiment) Evaluate(store *model.Store, text []byte) (*Scores, error) {
	if e.Tokens == nil {
		return Evaluate(store, e.Model, text, e.Model.Context)
	}
	return EvaluateTokens(store, e.Model, e.Tokens, text, e.Model.Context)
}

// NextProbs returns, for each prompt (token ids; its last c.Context are
// read), the model's probabilities of the token that comes next: the
// softmax of the logits at the prompt's last position. The prompts go in
// one batch of windows of c.Context tokens, each at the start of its
// window: the causal mask keeps the zeros that pad it from changing what
// the prompt's positions compute.
//
// Typical shapes: prompts [n][≤ Context] → [n][Vocab].
//
// Introduced in lesson 12.
func NextProbs(store *model.Store, c Config, prompts [][]int) ([][]float64, error) {
	seq := c.Context
	ids := make([]int32, len(prompts)*seq)
	for i, p := range prompts {
		if len(p) == 0 {
			return nil, fmt.Errorf("gpt.NextProbs: prompt %d is empty: give at least one token", i)
		}
		p = p[max(0, len(p)-seq):]
		for j, id := range p {
			if id < 0 || id >= c.Vocab {
				return nil, fmt.Errorf("gpt.NextProbs: prompt %d holds token %d, outside the model's vocabulary 0…%d", i, id, c.Vocab-1)
			}
			ids[i*seq+j] = int32(id)
		}
	}
	out, err := train.Predict(store, c.Model(), tensors.FromFlatDataAndDimensions(ids, len(prompts), seq))
	if err != nil {
		return nil, err
	}
	logits := tensors.MustCopyFlatData[float32](out[0]) // [n, seq, vocab]
	probs := make([][]float64, len(prompts))
	for i, p := range prompts {
		last := min(len(p), seq) - 1
		z := logits[(i*seq+last)*c.Vocab : (i*seq+last+1)*c.Vocab]
		m := float64(z[0])
		for _, x := range z {
			m = max(m, float64(x))
		}
		probs[i] = make([]float64, c.Vocab)
		sum := 0.0
		for v, x := range z {
			probs[i][v] = math.Exp(float64(x) - m)
			sum += probs[i][v]
		}
		for v := range probs[i] {
			probs[i][v] /= sum
		}
	}
	return probs, nil
}
