package explore

import (
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
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
		return showStill(s, fig)
	}
	x := &explorer{id: "explore_" + gonbui.UniqueId(), s: s}
	x.showRows()
	c, err := x.awaitControls()
	if err != nil {
		return fmt.Errorf("explore: %w", err)
	}
	x.draw()
	return x.follow(c, o.follow())
}

// follow is how long Run follows the widgets.
func (o Options) follow() time.Duration {
	if o.Follow == 0 {
		return 10 * time.Minute
	}
	return o.Follow
}

// showStill shows the starting picture fig of s and its analysis,
// without widgets: what a headless notebook gets, since GoNB's widgets
// wait for a browser to answer.
func showStill(s Settings, fig viz.Figure) error {
	a, err := s.Analyze()
	if err != nil {
		return err
	}
	fmt.Println("explore: no browser (COURSE_HEADLESS is set): the starting settings, without widgets, and their analysis.")
	viz.Show(fig)
	fmt.Print(a)
	return nil
}

// explorer is one Run of the explorer in a cell: the settings its
// widgets have set, and whether the analysis is shown.
type explorer struct {
	id       string // the prefix of its elements' ids, unique in the page
	s        Settings
	analysed bool
}

// label is the id of the explorer's element name.
func (x *explorer) label(name string) string { return x.id + "_" + name }

// showRows shows the explorer's rows, one per widget: its text, a place
// for the widget, and one for its value.
func (x *explorer) showRows() {
	row := func(name, text string) string {
		return fmt.Sprintf(`<div style="display:flex;align-items:center;gap:8px;margin:2px 0">`+
			`<span style="width:170px">%s</span><span id="%s"></span><b id="%s_value"></b></div>`,
			html.EscapeString(text), x.label(name), x.label(name))
	}
	gonbui.DisplayHTML(`<div style="font-family:sans-serif">` +
		row("heads", "number of heads") + row("sentence", "sentence (Enter to apply)") +
		row("len", "sequence length") + row("vocab", "vocabulary size (synthetic)") +
		row("count", "sentences (synthetic)") + row("pelen", "PE positions") + row("pedim", "PE dimensions") +
		row("run", "") + `</div>`)
}

// controls are the explorer's widgets. The first slider is the heads:
// moving it changes every heat map (the browser test moves the first
// slider it finds).
type controls struct {
	heads, maxLen, vocab, count, peLen, peDim *widgets.SliderBuilder
	sentence                                  *widget.TextInputBuilder
	run                                       *widgets.ButtonBuilder
}

// awaitControls puts the widgets, set to x's settings, in their rows, and
// waits for the browser to answer them (widget.Await).
func (x *explorer) awaitControls() (controls, error) {
	s := x.s
	headIndex := 0
	for i, h := range HeadChoices {
		if h == s.Heads {
			headIndex = i
		}
	}
	return widget.Await(widget.AnswerWait, func() controls {
		return controls{
			heads:    widgets.Slider(0, len(HeadChoices)-1, headIndex).AppendTo(x.label("heads")).Done(),
			sentence: widget.TextInput(s.Sentence).WithPlaceholder("empty: synthetic tokens").WithSize(40).AppendTo(x.label("sentence")).Done(),
			maxLen:   widgets.Slider(1, 16, s.MaxLen).AppendTo(x.label("len")).Done(),
			vocab:    widgets.Slider(2, 1000, s.VocabSize).AppendTo(x.label("vocab")).Done(),
			count:    widgets.Slider(1, 100, s.Count).AppendTo(x.label("count")).Done(),
			peLen:    widgets.Slider(1, 200, s.PELen).AppendTo(x.label("pelen")).Done(),
			peDim:    widgets.Slider(2, 512, s.PEDim).AppendTo(x.label("pedim")).Done(),
			run:      widgets.Button("Run analysis").AppendTo(x.label("run")).Done(),
		}
	})
}

// draw shows the sliders' values, and the picture with, once asked for,
// the analysis; an error in their place if the settings cannot be drawn.
func (x *explorer) draw() {
	s := x.s
	for name, v := range map[string]int{"heads": s.Heads, "len": s.MaxLen, "vocab": s.VocabSize,
		"count": s.Count, "pelen": s.PELen, "pedim": s.PEDim} {
		dom.SetInnerText(x.label(name)+"_value", fmt.Sprint(v))
	}
	view, err := s.view(x.analysed)
	if err != nil {
		view = "<pre>" + html.EscapeString(err.Error()) + "</pre>"
	}
	// One output block holds the picture and, beside it, the analysis.
	gonbui.UpdateHTML(x.label("view"), view)
}

// follow redraws the explorer after each change of a widget, for d, then
// says that it stopped.
func (x *explorer) follow(c controls, d time.Duration) error {
	l := c.listen()
	defer l.close()
	deadline := time.After(d)
	for {
		select {
		case v := <-l.heads.C:
			x.s.Heads = HeadChoices[min(max(v, 0), len(HeadChoices)-1)]
		case v := <-l.sentence.C:
			x.s.Sentence = v
		case v := <-l.maxLen.C:
			x.s.MaxLen = v
		case v := <-l.vocab.C:
			x.s.VocabSize = v
		case v := <-l.count.C:
			x.s.Count = v
		case v := <-l.peLen.C:
			x.s.PELen = v
		case v := <-l.peDim.C:
			x.s.PEDim = v
		case <-l.run.C:
			x.analysed = true
		case <-deadline:
			fmt.Printf("explore: stopped following the widgets after %v; run the cell again to explore again.\n", d)
			gonbui.Sync()
			return nil
		}
		x.draw()
	}
}

// listeners are the channels of the widgets' values, each keeping only
// the latest: a redraw is slower than a slider moves.
type listeners struct {
	heads, maxLen, vocab, count, peLen, peDim, run *comms.AddressChan[int]
	sentence                                       *comms.AddressChan[string]
}

func (c controls) listen() listeners {
	return listeners{
		heads:    c.heads.Listen().LatestOnly(),
		sentence: c.sentence.Listen().LatestOnly(),
		maxLen:   c.maxLen.Listen().LatestOnly(),
		vocab:    c.vocab.Listen().LatestOnly(),
		count:    c.count.Listen().LatestOnly(),
		peLen:    c.peLen.Listen().LatestOnly(),
		peDim:    c.peDim.Listen().LatestOnly(),
		run:      c.run.Listen().LatestOnly(),
	}
}

// close stops the listening.
func (l listeners) close() {
	l.heads.Close()
	l.sentence.Close()
	l.maxLen.Close()
	l.vocab.Close()
	l.count.Close()
	l.peLen.Close()
	l.peDim.Close()
	l.run.Close()
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
