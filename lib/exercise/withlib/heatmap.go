package withlib

import (
	"time"

	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/viz"
)

// The task of lesson 03's heat map exercise.

// HeatmapIn is an input of the heat map exercise.
type HeatmapIn struct {
	W             [][]float64
	Queries, Keys []string
	Title         string
}

// HeatmapOut is what the check reads from the learner's heat map (a
// *viz.Heatmap holds a palette, which cannot be sent to the grader): its
// fields, whether it was nil, the error, and whether it draws.
type HeatmapOut struct {
	Nil, Err              bool
	ErrText, DrawErr      string
	Values                [][]float64
	Rows, Cols            []string
	Title, XLabel, YLabel string
	FixedRange            bool
	Min, Max              float64
}

// HeatmapResult reads h (or err) into a HeatmapOut; draw also draws h,
// recording an error.
func HeatmapResult(h *viz.Heatmap, err error, draw bool) HeatmapOut {
	if err != nil {
		return HeatmapOut{Err: true, ErrText: err.Error()}
	}
	if h == nil {
		return HeatmapOut{Nil: true}
	}
	out := HeatmapOut{Values: h.Values, Rows: h.Rows, Cols: h.Cols, Title: h.Title, XLabel: h.XLabel, YLabel: h.YLabel,
		FixedRange: h.FixedRange, Min: h.Min, Max: h.Max}
	if draw {
		if _, err := viz.PNG(h); err != nil {
			out.DrawErr = err.Error()
		}
	}
	return out
}

// AttentionHeatmap: func AttentionHeatmap(w [][]float64, queries, keys []string, title string) (*viz.Heatmap, error).
var AttentionHeatmap = &exercise.Task[func(w [][]float64, queries, keys []string, title string) (*viz.Heatmap, error), HeatmapIn, HeatmapOut]{
	ID: "heatmap",
	Call: func(f func(w [][]float64, queries, keys []string, title string) (*viz.Heatmap, error), in HeatmapIn) HeatmapOut {
		h, err := f(in.W, in.Queries, in.Keys, in.Title)
		return HeatmapResult(h, err, true)
	},
}

// The task of the appendix's interactive attention tool: its
// non-interactive core, a sentence to the heat map the widget shows.

// SentenceIn is an input of the sentence heat map exercise.
type SentenceIn struct {
	Sentence string
	MaxLen   int
}

// SentenceHeatmap: func SentenceHeatmap(sentence string, maxLen int) (*viz.Heatmap, error).
var SentenceHeatmap = &exercise.Task[func(sentence string, maxLen int) (*viz.Heatmap, error), SentenceIn, HeatmapOut]{
	ID: "sentence-heatmap",
	Call: func(f func(sentence string, maxLen int) (*viz.Heatmap, error), in SentenceIn) HeatmapOut {
		h, err := f(in.Sentence, in.MaxLen)
		return HeatmapResult(h, err, true)
	},
	Timeout: 30 * time.Second, // attention.Explain compiles its first graph
}
