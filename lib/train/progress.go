package train

import (
	"encoding/base64"
	"fmt"
	"html"
	"os"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot/vg"

	"github.com/attention-in-go/course/lib/viz"
)

// progressEvery is the least time between two updates of the notebook
// display: often enough to look live, rarely enough to cost little. An
// update draws the loss curve (about 15 ms) and sends some 20 KB through
// Jupyter, on the cores the training runs on.
const progressEvery = time.Second

// progress shows a run: in a notebook one HTML output updated in place,
// elsewhere one summary line at the end.
type progress struct {
	cfg  Config
	name string
	id   string // GoNB display id, "" outside a notebook
	last time.Time
}

func newProgress(name string, cfg Config) *progress {
	p := &progress{cfg: cfg, name: name}
	if !cfg.Quiet && gonbui.IsNotebook {
		p.id = gonbui.UniqueId()
		gonbui.UpdateHTML(p.id, fmt.Sprintf("<pre>%s: compiling the training graph…</pre>", html.EscapeString(name)))
	}
	return p
}

func (p *progress) step(h *History, elapsed time.Duration) {
	if p.id == "" || time.Since(p.last) < progressEvery {
		return
	}
	p.last = time.Now()
	gonbui.UpdateHTML(p.id, progressHTML(h, elapsed, false))
}

func (p *progress) end(h *History) {
	if p.cfg.Quiet {
		return
	}
	if p.id != "" {
		gonbui.UpdateHTML(p.id, progressHTML(h, h.Wall, true))
		return
	}
	out := p.cfg.Out
	if out == nil {
		out = os.Stdout
	}
	fmt.Fprintln(out, h.String())
}

// progressHTML is a status line and, after a few steps, a small loss
// curve as an inline PNG (data URI: works offline, survives saving).
func progressHTML(h *History, elapsed time.Duration, done bool) string {
	n := len(h.Loss)
	status := fmt.Sprintf("%s: step %d/%d, loss %.4f, %s", h.Name, n, h.Steps, last(h.Loss), elapsed.Round(time.Second))
	if done {
		status = h.String()
	} else if n > 1 {
		per := (elapsed - h.Compile) / time.Duration(n-1)
		status += fmt.Sprintf(", about %s left", (per * time.Duration(h.Steps-n)).Round(time.Second))
	}
	s := "<pre>" + html.EscapeString(status) + "</pre>"
	if n >= 5 {
		if png, err := viz.PNG(LossCurve(h)); err == nil {
			s += `<img alt="loss curve" src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(png) + `">`
		}
	}
	return s
}

func last(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return x[len(x)-1]
}

// LossCurve is the figure of a run's loss per step (log scale), with its
// running mean over 20 steps drawn on top.
//
// Introduced in lesson 06.
func LossCurve(hs ...*History) *viz.Lines {
	fig := &viz.Lines{Title: "Training loss", XLabel: "step", YLabel: "loss (log scale)", LogY: true,
		Width: 12 * vg.Centimeter, Height: 7 * vg.Centimeter, Legend: viz.LegendBottomLeft}
	for _, h := range hs {
		fig.Series = append(fig.Series, viz.Series{Name: h.Name, X: steps(len(h.Loss)), Y: smooth(h.Loss, 20)})
	}
	return fig
}

func steps(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i + 1)
	}
	return x
}

// smooth returns the running mean over the last k values, kept positive
// for the log axis.
func smooth(y []float64, k int) []float64 {
	out := make([]float64, len(y))
	s := 0.0
	for i, v := range y {
		s += v
		if i >= k {
			s -= y[i-k]
		}
		out[i] = max(s/float64(min(i+1, k)), 1e-6)
	}
	return out
}

// RateCurves is the figure of the learning rate Fit uses at every step
// ([Config.Rate]) for each configuration, named by its Label.
//
// Introduced in lesson 09.
func RateCurves(cfgs ...Config) *viz.Lines {
	fig := &viz.Lines{Title: "Learning rate by step", XLabel: "step", YLabel: "learning rate",
		Width: 20 * vg.Centimeter, Height: 8 * vg.Centimeter, Legend: viz.LegendOutside}
	for i, cfg := range cfgs {
		y := make([]float64, cfg.Steps)
		for s := range y {
			y[s] = cfg.Rate(s + 1)
		}
		fig.Series = append(fig.Series, viz.Series{Name: cfg.Label, X: steps(cfg.Steps), Y: y, Dashed: i%2 == 1})
	}
	return fig
}
