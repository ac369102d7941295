package explore

import (
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/widgets"

	"github.com/attention-in-go/course/lib/viz"
	"github.com/attention-in-go/course/lib/widget"
)

// Options configure [Run].
//
// Introduced in the appendix.
type Options struct {
	// Start are the settings shown first (Default("") when zero).
	Start Settings
	// Follow is how long the cell follows the widgets before it returns
	// (10 minutes when zero); run the cell again to explore again.
	Follow time.Duration
}

// Run shows the explorer in a GoNB cell: a text box for the sentence
// (empty: synthetic tokens), six sliders — heads (1, 2, 4, 8), sequence
// length, vocabulary size and number of synthetic sentences, PE length,
// PE dimension — and a "run analysis" button, above the picture of
// [Settings.Figure], redrawn when a widget changes. After the button is
// pressed, [Settings.Analyze]'s report (validation, padded batch and mask,
// summary statistics, each head's pattern metrics) is shown beside the
// picture and follows the widgets too.
//
// Each widget waits for the browser's first message; if the browser has
// not answered them within [widget.AnswerWait], Run returns an error
// wrapping [widget.ErrNoAnswer] that says to run the cell again.
//
// Outside a notebook Run does nothing; in a notebook run headless
// (COURSE_HEADLESS set, [widget.Headless]) it shows the starting picture
// and analysis without widgets, since GoNB's widgets wait for a browser
// to answer.
func Run(o Options) error {
	s := o.Start
	if s == (Settings{}) {
		s = Default("")
	}
	if err := s.Validate(); err != nil {
		return err
	}
	if !gonbui.IsNotebook {
		return nil
	}
	fig, err := s.Figure()
	if err != nil {
		return err
	}
	if widget.Headless() {
		a, err := s.Analyze()
		if err != nil {
			return err
		}
		fmt.Println("explore: no browser (COURSE_HEADLESS is set): the starting settings, without widgets, and their analysis.")
		viz.Show(fig)
		fmt.Print(a)
		return nil
	}
	follow := o.Follow
	if follow == 0 {
		follow = 10 * time.Minute
	}

	id := "explore_" + gonbui.UniqueId()
	label := func(name string) string { return id + "_" + name }
	headIndex := 0
	for i, h := range HeadChoices {
		if h == s.Heads {
			headIndex = i
		}
	}
	row := func(name, text string) string {
		return fmt.Sprintf(`<div style="display:flex;align-items:center;gap:8px;margin:2px 0">`+
			`<span style="width:170px">%s</span><span id="%s"></span><b id="%s_value"></b></div>`,
			html.EscapeString(text), label(name), label(name))
	}
	gonbui.DisplayHTML(`<div style="font-family:sans-serif">` +
		row("heads", "number of heads") + row("sentence", "sentence (Enter to apply)") +
		row("len", "sequence length") + row("vocab", "vocabulary size (synthetic)") +
		row("count", "sentences (synthetic)") + row("pelen", "PE positions") + row("pedim", "PE dimensions") +
		row("run", "") + `</div>`)

	// The first slider is the heads: moving it changes every heat map
	// (the browser test moves the first slider it finds).
	type controls struct {
		heads, maxLen, vocab, count, peLen, peDim *widgets.SliderBuilder
		sentence                                  *widget.TextInputBuilder
		run                                       *widgets.ButtonBuilder
	}
	c, err := widget.Await(widget.AnswerWait, func() controls {
		return controls{
			heads:    widgets.Slider(0, len(HeadChoices)-1, headIndex).AppendTo(label("heads")).Done(),
			sentence: widget.TextInput(s.Sentence).WithPlaceholder("empty: synthetic tokens").WithSize(40).AppendTo(label("sentence")).Done(),
			maxLen:   widgets.Slider(1, 16, s.MaxLen).AppendTo(label("len")).Done(),
			vocab:    widgets.Slider(2, 1000, s.VocabSize).AppendTo(label("vocab")).Done(),
			count:    widgets.Slider(1, 100, s.Count).AppendTo(label("count")).Done(),
			peLen:    widgets.Slider(1, 200, s.PELen).AppendTo(label("pelen")).Done(),
			peDim:    widgets.Slider(2, 512, s.PEDim).AppendTo(label("pedim")).Done(),
			run:      widgets.Button("Run analysis").AppendTo(label("run")).Done(),
		}
	})
	if err != nil {
		return fmt.Errorf("explore: %w", err)
	}

	analysed := false
	draw := func() {
		for name, v := range map[string]int{"heads": s.Heads, "len": s.MaxLen, "vocab": s.VocabSize,
			"count": s.Count, "pelen": s.PELen, "pedim": s.PEDim} {
			dom.SetInnerText(label(name)+"_value", fmt.Sprint(v))
		}
		view, err := s.view(analysed)
		if err != nil {
			view = "<pre>" + html.EscapeString(err.Error()) + "</pre>"
		}
		// One output block holds the picture and, beside it, the analysis.
		gonbui.UpdateHTML(label("view"), view)
	}
	draw()

	hc, tc, lc := c.heads.Listen().LatestOnly(), c.sentence.Listen().LatestOnly(), c.maxLen.Listen().LatestOnly()
	vc, cc, pc, dc := c.vocab.Listen().LatestOnly(), c.count.Listen().LatestOnly(), c.peLen.Listen().LatestOnly(), c.peDim.Listen().LatestOnly()
	rc := c.run.Listen().LatestOnly()
	defer func() {
		hc.Close()
		tc.Close()
		lc.Close()
		vc.Close()
		cc.Close()
		pc.Close()
		dc.Close()
		rc.Close()
	}()
	deadline := time.After(follow)
	for {
		select {
		case v := <-hc.C:
			s.Heads = HeadChoices[min(max(v, 0), len(HeadChoices)-1)]
		case v := <-tc.C:
			s.Sentence = v
		case v := <-lc.C:
			s.MaxLen = v
		case v := <-vc.C:
			s.VocabSize = v
		case v := <-cc.C:
			s.Count = v
		case v := <-pc.C:
			s.PELen = v
		case v := <-dc.C:
			s.PEDim = v
		case <-rc.C:
			analysed = true
		case <-deadline:
			fmt.Printf("explore: stopped following the widgets after %v; run the cell again to explore again.\n", follow)
			gonbui.Sync()
			return nil
		}
		draw()
	}
}

// view is the HTML of the explorer's picture and, when analysed, the
// analysis beside it. The picture's alt text names the tokens, so that a
// reader without the picture, and the browser test, can tell what is
// drawn.
func (s Settings) view(analysed bool) (string, error) {
	tokens, _, err := s.Tokens()
	if err != nil {
		return "", err
	}
	fig, err := s.Figure()
	if err != nil {
		return "", err
	}
	src, err := pngSrc(fig)
	if err != nil {
		return "", err
	}
	alt := fmt.Sprintf("attention over: %s; %d heads, length %d; positional encoding %d×%d",
		strings.Join(tokens, " "), s.Heads, s.MaxLen, s.PELen, s.PEDim)
	report := ""
	if analysed {
		a, err := s.Analyze()
		if err != nil {
			return "", err
		}
		report = `<pre style="font-size:11px;margin:0">` + html.EscapeString(a.String()) + `</pre>`
	}
	return fmt.Sprintf(`<div style="display:flex;align-items:flex-start;gap:16px;flex-wrap:wrap"><img src="%s" alt="%s">%s</div>`,
		src, html.EscapeString(alt), report), nil
}
