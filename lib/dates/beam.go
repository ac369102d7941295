package dates

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/train"
)

// Hypothesis is one decoded date with the model's log-probability of it,
// log P(output | source) = Σ_t log P(y_t | y_<t, source), in nats.
//
// Introduced in lesson 09.
type Hypothesis struct {
	Output  string
	LogProb float64
}

// BeamSearch decodes examples with beam search of width k: at every step
// each of the k best partial outputs is extended by every token, and the
// k best of the candidates by total log-probability are kept (ties: the
// earlier beam, then the lower token id); after the ten steps the best
// beam is the output. k = 1 is greedy decoding. Every date has ten
// characters, so the hypotheses compared always have the same length and
// length normalisation (dividing the log-probability by a power of the
// length, as Wu et al. 2016 do for translations of different lengths)
// would change nothing here.
//
// Each step runs the teacher-forced decoder on every beam's prefix (the
// causal mask keeps the positions after it from mattering): ten calls of
// the whole model per batch of dates, where [transformer.EncoderDecoder]'s
// greedy graph decodes in one.
//
// Introduced in lesson 09.
func (x TransformerExperiment) BeamSearch(store *model.Store, examples []Example, k int) ([]Hypothesis, error) {
	if k < 1 {
		return nil, fmt.Errorf("dates.BeamSearch: beam width %d: give k ≥ 1", k)
	}
	a, err := ToArrays(examples)
	if err != nil {
		return nil, err
	}
	p, err := train.NewPredictor(store, x.Config().InspectModel())
	if err != nil {
		return nil, err
	}
	V := TargetVocab.Size()
	out := make([]Hypothesis, 0, len(examples))
	per := max(1, chunk/k) // dates per call: k rows each
	for from := 0; from < len(examples); from += per {
		n := min(per, len(examples)-from)
		src := make([]int32, 0, n*k*SourceWidth)
		for e := range n {
			for range k {
				src = append(src, a.Src[from+e]...)
			}
		}
		// next runs the decoder on every beam's prefix (row e·k+j: Start,
		// then beam j's tokens) and reads the log-probabilities at the
		// prefix's end; rows of missing beams repeat beam 0.
		next := func(beams [][][]int32) ([][][]float64, error) {
			t := len(beams[0][0])
			in := make([]int32, n*k*TargetWidth)
			for e := range n {
				for j := range k {
					row := in[(e*k+j)*TargetWidth:]
					row[0] = TargetVocab.Start
					copy(row[1:], beams[e][min(j, len(beams[e])-1)])
				}
			}
			res, err := p.Predict(tensors.FromFlatDataAndDimensions(src, n*k, SourceWidth), tensors.FromFlatDataAndDimensions(in, n*k, TargetWidth))
			if err != nil {
				return nil, err
			}
			logits := tensors.MustCopyFlatData[float32](res[0]) // [n·k, 10, V]
			lp := make([][][]float64, n)
			for e := range n {
				for j := range beams[e] {
					lp[e] = append(lp[e], logSoftmax(logits[((e*k+j)*TargetWidth+t)*V:][:V]))
				}
			}
			return lp, nil
		}
		best, err := beamSearch(n, k, TargetWidth, next)
		if err != nil {
			return nil, fmt.Errorf("dates.BeamSearch: %w", err)
		}
		for _, b := range best {
			out = append(out, Hypothesis{Output: TargetVocab.Decode(b.ids), LogProb: b.score})
		}
	}
	return out, nil
}

// beam is a partial output and its log-probability.
type beam struct {
	ids   []int32
	score float64
}

// beamSearch runs n independent beam searches of width k for steps
// tokens and returns the best beam of each. next returns, for the beams
// of every search (beams[e][j], all of length t at step t), the
// log-probabilities of each next token (lp[e][j][v]). Each step keeps
// the k best extensions of a search's beams by total log-probability,
// ties to the earlier beam, then the lower token.
func beamSearch(n, k, steps int, next func(beams [][][]int32) ([][][]float64, error)) ([]beam, error) {
	beams := make([][]beam, n)
	for e := range beams {
		beams[e] = []beam{{ids: []int32{}}}
	}
	prefixes := make([][][]int32, n)
	for range steps {
		for e, bs := range beams {
			prefixes[e] = prefixes[e][:0]
			for _, b := range bs {
				prefixes[e] = append(prefixes[e], b.ids)
			}
		}
		lp, err := next(prefixes)
		if err != nil {
			return nil, err
		}
		for e, bs := range beams {
			var cands []beam // in order of beam, then token
			for j, b := range bs {
				for v, l := range lp[e][j] {
					cands = append(cands, beam{append(slices.Clip(b.ids), int32(v)), b.score + l})
				}
			}
			// Best first; a stable sort keeps the order of beam, then token,
			// among ties.
			slices.SortStableFunc(cands, func(p, q beam) int { return cmp.Compare(q.score, p.score) })
			beams[e] = cands[:min(k, len(cands))]
		}
	}
	best := make([]beam, n)
	for e := range beams {
		best[e] = beams[e][0]
	}
	return best, nil
}

// LogProbs returns the model's log-probability of each example's target,
// log P(target | source), read with teacher forcing: what beam search
// would have to find for its output to be right.
//
// Introduced in lesson 09.
func (x TransformerExperiment) LogProbs(store *model.Store, examples []Example) ([]float64, error) {
	return x.logProbs(store, examples)
}

// logProbs is LogProbs of each example's Target, which may be any
// date-shaped output (a decoder's) in place of the right one.
func (x TransformerExperiment) logProbs(store *model.Store, examples []Example) ([]float64, error) {
	out := make([]float64, len(examples))
	err := x.forced(store, examples, func(i int, target []int32, logits [][]float32) {
		for t, want := range target {
			out[i] += logSoftmax(logits[t])[want]
		}
	})
	if err != nil {
		return nil, fmt.Errorf("dates.LogProbs: %w", err)
	}
	return out, nil
}

// logSoftmax returns log softmax(z) in float64.
func logSoftmax(z []float32) []float64 {
	m := float64(slices.Max(z))
	sum := 0.0
	for _, x := range z {
		sum += math.Exp(float64(x) - m)
	}
	lse := m + math.Log(sum)
	out := make([]float64, len(z))
	for i, x := range z {
		out[i] = float64(x) - lse
	}
	return out
}

// BeamResult is beam search of one width on test dates. A wrong output is
// a search error when the model gives the right date a higher
// log-probability than the output (a wider search could find it), and a
// model error when it does not (the model prefers its wrong date): the
// distinction of Stahlberg and Byrne (On NMT Search Errors and Model
// Errors, 2019).
//
// Introduced in lesson 09.
type BeamResult struct {
	Width        int
	Exact        float64 // share of dates decoded right
	Changed      int     // outputs that differ from greedy decoding's (width 1)
	SearchErrors int
	ModelErrors  int
}

// CompareBeams decodes examples with beam search of each width and
// counts, against their targets, what [BeamResult] holds.
//
// Introduced in lesson 09.
func (x TransformerExperiment) CompareBeams(store *model.Store, examples []Example, widths []int) ([]BeamResult, error) {
	target, err := x.LogProbs(store, examples)
	if err != nil {
		return nil, err
	}
	// Width 1 is greedy decoding: the one-graph decoder's outputs, with
	// their log-probabilities read by teacher forcing on them.
	ts, err := x.TranslateTransformer(store, examples)
	if err != nil {
		return nil, err
	}
	outputs := make([]Example, len(ts))
	for i, t := range ts {
		outputs[i] = Example{Source: examples[i].Source, Target: t.Output}
	}
	lp, err := x.logProbs(store, outputs)
	if err != nil {
		return nil, err
	}
	greedy := make([]Hypothesis, len(ts))
	for i, t := range ts {
		greedy[i] = Hypothesis{Output: t.Output, LogProb: lp[i]}
	}
	var out []BeamResult
	for _, k := range widths {
		hs := greedy
		if k != 1 {
			if hs, err = x.BeamSearch(store, examples, k); err != nil {
				return nil, err
			}
		}
		r := BeamResult{Width: k}
		right := 0
		for i, h := range hs {
			switch {
			case h.Output == examples[i].Target:
				right++
			case target[i] > h.LogProb:
				r.SearchErrors++
			default:
				r.ModelErrors++
			}
			if h.Output != greedy[i].Output {
				r.Changed++
			}
		}
		r.Exact = float64(right) / float64(len(examples))
		out = append(out, r)
	}
	return out, nil
}

// BeamTable formats beam results, one width per line.
//
// Introduced in lesson 09.
func BeamTable(rs []BeamResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%5s  %11s  %15s  %13s  %12s\n", "width", "exact match", "changed outputs", "search errors", "model errors")
	for _, r := range rs {
		fmt.Fprintf(&b, "%5d  %10.1f%%  %15d  %13d  %12d\n", r.Width, 100*r.Exact, r.Changed, r.SearchErrors, r.ModelErrors)
	}
	return b.String()
}
