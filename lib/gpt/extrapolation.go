package gpt

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/attention-in-go/course/lib/corpus"
	"github.com/attention-in-go/course/lib/train"
)

// Extrapolation is lesson 10's positions experiment measured on one
// kernel class: for each kind of positions and each seed, the bits per
// character at every position of windows twice the training context
// (the context itself for learned positions, which have no row beyond
// it).
//
// Introduced in lesson 10.
type Extrapolation struct {
	Kernels string             `json:"kernels"` // backend.KernelsWith's name of the class
	Context int                `json:"context"` // T, the training windows' length
	Seeds   []uint64           `json:"seeds"`
	Rows    []ExtrapolationRow `json:"rows"`
}

// ExtrapolationRow is one kind of positions: Bits[s][i] is the mean bits
// per character at position i of the evaluation windows for seed Seeds[s].
type ExtrapolationRow struct {
	Positions Positions   `json:"positions"`
	Bits      [][]float64 `json:"bits"`
}

// Within and Beyond return the mean bits per character of each seed over
// the positions the model was trained on (0 … T−1) and over those beyond
// (T … 2T−1; nil for learned positions).
func (r ExtrapolationRow) Within(context int) []float64 { return r.means(0, context) }
func (r ExtrapolationRow) Beyond(context int) []float64 {
	if len(r.Bits) == 0 || len(r.Bits[0]) <= context {
		return nil
	}
	return r.means(context, 2*context)
}

func (r ExtrapolationRow) means(from, to int) []float64 {
	out := make([]float64, len(r.Bits))
	for s, bits := range r.Bits {
		out[s] = PositionResult{Bits: bits}.Mean(from, to)
	}
	return out
}

// RunExtrapolation trains e with each kind of positions from each seed
// (the initial weights and the order of the windows), as many at a time
// as the machine has cores, and reads every model on the held-out text in
// windows of 2·Context (Context for learned positions). Nothing is saved;
// kernels labels the result.
//
// Introduced in lesson 10.
func (e Experiment) RunExtrapolation(s *corpus.Split, kinds []Positions, seeds []uint64, kernels string) (*Extrapolation, error) {
	T := e.Model.Context
	bits, err := train.Concurrently(len(kinds)*len(seeds), func(i int) ([]float64, error) {
		x := e.WithPositions(kinds[i/len(seeds)])
		x.Name, x.Seed = "", seeds[i%len(seeds)]
		t, err := train.Fit(x.config(), x.Model.Model(), train.CrossEntropy, x.Dataset(s.Train))
		if err != nil {
			return nil, err
		}
		seq := 2 * T
		if x.Model.Positions == Learned {
			seq = T
		}
		r, err := ByPosition(t.Store, x.Model, s.Test, seq)
		return r.Bits, err
	})
	if err != nil {
		return nil, err
	}
	x := &Extrapolation{Kernels: kernels, Context: T, Seeds: seeds}
	for k, kind := range kinds {
		x.Rows = append(x.Rows, ExtrapolationRow{Positions: kind, Bits: bits[k*len(seeds) : (k+1)*len(seeds)]})
	}
	return x, nil
}

//go:embed testdata/extrapolation.json
var extrapolationJSON []byte

// Extrapolations returns lesson 10's positions experiment as measured on
// each kernel class (testdata/extrapolation.json, written by `go test
// ./lib/gpt -run TestExtrapolation -extrapolation`, a few minutes per
// kernel class on two cores).
//
// Introduced in lesson 10.
func Extrapolations() ([]*Extrapolation, error) {
	var xs []*Extrapolation
	if err := json.Unmarshal(extrapolationJSON, &xs); err != nil {
		return nil, fmt.Errorf("gpt: testdata/extrapolation.json: %w", err)
	}
	return xs, nil
}

// ExtrapolationTable prints, for each kind of positions, the bits per
// character within the training context and beyond it: per kernel class
// the mean over the seeds, then the range over every seed and class.
//
// Introduced in lesson 10.
func ExtrapolationTable(xs []*Extrapolation) string {
	var b strings.Builder
	T := xs[0].Context
	fmt.Fprintf(&b, "%-11s %-9s", "positions", "where")
	for _, x := range xs {
		fmt.Fprintf(&b, "  %-9s", x.Kernels)
	}
	fmt.Fprintf(&b, "  %s\n", "all seeds and classes")
	for i, r := range xs[0].Rows {
		for _, part := range []string{fmt.Sprintf("0–%d", T-1), fmt.Sprintf("%d–%d", T, 2*T-1)} {
			lo, hi, any := math.Inf(1), math.Inf(-1), false
			var cells []string
			for _, x := range xs {
				v := x.Rows[i].Within(T)
				if part != fmt.Sprintf("0–%d", T-1) {
					v = x.Rows[i].Beyond(T)
				}
				if v == nil {
					cells = append(cells, "—")
					continue
				}
				any = true
				m := 0.0
				for _, b := range v {
					m += b
					lo, hi = min(lo, b), max(hi, b)
				}
				cells = append(cells, fmt.Sprintf("%.2f", m/float64(len(v))))
			}
			if !any {
				continue
			}
			fmt.Fprintf(&b, "%-11s %-9s", r.Positions, part)
			for _, c := range cells {
				fmt.Fprintf(&b, "  %-9s", c)
			}
			fmt.Fprintf(&b, "  %.2f–%.2f\n", lo, hi)
		}
	}
	return b.String()
}

// Curves returns, for each kind of positions, the bits per character at
// each position averaged over the seeds, for [ExtrapolationFigure].
//
// Part of the library behind lesson 10; the lesson does not name it.
func (x *Extrapolation) Curves() []PositionResult {
	var out []PositionResult
	for _, r := range x.Rows {
		mean := make([]float64, len(r.Bits[0]))
		for _, bits := range r.Bits {
			for i, b := range bits {
				mean[i] += b / float64(len(r.Bits))
			}
		}
		out = append(out, PositionResult{Positions: r.Positions, Seq: len(mean), Bits: mean})
	}
	return out
}
