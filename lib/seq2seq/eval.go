package seq2seq

import (
	"fmt"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/train"
)

// Decoded is the greedy output of a model on some examples.
//
// Typical shapes: Tokens [n][width], Weights [n][width][width].
//
// Introduced in lesson 06.
type Decoded struct {
	Tokens  [][]int32
	Weights [][][]float64
}

// Decode runs greedy decoding ([Greedy]) for e.Width steps on every
// source of e, in batches of at most 256 (one compiled graph per batch
// size).
//
// Introduced in lesson 06.
func Decode(store *model.Store, cfg Config, e *Examples) (*Decoded, error) {
	p, err := train.NewPredictor(store, cfg.GreedyModel(e.Width))
	if err != nil {
		return nil, err
	}
	d := &Decoded{}
	const chunk = 256
	for from := 0; from < len(e.Src); from += chunk {
		to := min(from+chunk, len(e.Src))
		src := tensors.FromFlatDataAndDimensions(flat(e.Src[from:to]), to-from, e.Width)
		out, err := p.Predict(src)
		if err != nil {
			return nil, fmt.Errorf("seq2seq.Decode: %w", err)
		}
		toks := tensors.MustCopyFlatData[int32](out[0])
		ws := tensors.MustCopyFlatData[float32](out[1])
		w := e.Width
		for b := range to - from {
			d.Tokens = append(d.Tokens, toks[b*w:(b+1)*w])
			m := make([][]float64, w)
			for t := range w {
				m[t] = make([]float64, w)
				for s := range w {
					m[t][s] = float64(ws[(b*w+t)*w+s])
				}
			}
			d.Weights = append(d.Weights, m)
		}
	}
	return d, nil
}

// Correct is the accuracy of decoded outputs against the targets.
//
// Introduced in lesson 07.
type Correct struct {
	// Token is the fraction of target tokens (padding excluded) predicted
	// right; Sequence the fraction of sequences right in every token.
	Token, Sequence float64
	N               int
}

// Accuracy scores the decoded tokens against e's targets, over the first
// Lens[i] tokens of each example.
//
// Introduced in lesson 07.
func Accuracy(e *Examples, d *Decoded) Correct {
	right, total, seqs := 0, 0, 0
	for i, l := range e.Lens {
		ok := true
		for t := range l {
			if d.Tokens[i][t] == e.TgtOut[i][t] {
				right++
			} else {
				ok = false
			}
		}
		total += l
		if ok {
			seqs++
		}
	}
	return Correct{Token: float64(right) / float64(max(total, 1)), Sequence: float64(seqs) / float64(max(len(e.Lens), 1)), N: len(e.Lens)}
}

// LengthPoint is the accuracy of a model on sources of one length.
//
// Introduced in lesson 06.
type LengthPoint struct {
	Len int
	Correct
}

// AccuracyByLength decodes n fresh examples (seed) of every length of
// lens, padded to width, and scores each length: the curve of lesson 06.
//
// Typical shapes: lens 2…16, n 200, width 16.
//
// Introduced in lesson 06.
func AccuracyByLength(store *model.Store, cfg Config, lens []int, n, width int, seed uint32) ([]LengthPoint, error) {
	all := &Examples{Width: width}
	for k, l := range lens {
		e, err := ReverseTask(n, l, l, width, seed+uint32(k))
		if err != nil {
			return nil, err
		}
		all.Src, all.TgtIn, all.TgtOut = append(all.Src, e.Src...), append(all.TgtIn, e.TgtIn...), append(all.TgtOut, e.TgtOut...)
		all.Lens = append(all.Lens, e.Lens...)
	}
	d, err := Decode(store, cfg, all)
	if err != nil {
		return nil, err
	}
	pts := make([]LengthPoint, len(lens))
	for k, l := range lens {
		sub := &Examples{Width: width, TgtOut: all.TgtOut[k*n : (k+1)*n], Lens: all.Lens[k*n : (k+1)*n]}
		pts[k] = LengthPoint{Len: l, Correct: Accuracy(sub, &Decoded{Tokens: d.Tokens[k*n : (k+1)*n]})}
	}
	return pts, nil
}
