package explore

import (
	"fmt"
	"html"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/widgets"

	"github.com/attention-in-go/course/lib/viz"
)

// Options configure [Run].
//
// Introduced in the appendix.
type Options struct {
	// Start are the settings shown first (Default("") when zero).
	Start Settings
	// Follow is how long the cell follows the sliders before it returns
	// (10 minutes when zero); run the cell again to explore again.
	Follow time.Duration
}

// Run shows the explorer in a GoNB cell: four sliders — heads (1, 2, 4,
// 8), sequence length, PE length, PE dimension — above the picture of
// [Settings.Figure], redrawn when a slider moves. The sentence is
// Options.Start.Sentence: edit it in the cell and run it again.
//
// Outside a notebook Run does nothing; in a notebook run headless
// (COURSE_HEADLESS set) it shows the starting picture without sliders, since
// GoNB's sliders wait for a browser to answer.
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
	if headless() {
		fmt.Println("explore: no browser (COURSE_HEADLESS is set): the starting settings, without sliders.")
		viz.Show(fig)
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
			`<span style="width:150px">%s</span><span id="%s"></span><b id="%s_value"></b></div>`,
			html.EscapeString(text), label(name), label(name))
	}
	gonbui.DisplayHTML(`<div style="font-family:sans-serif">` +
		row("heads", "number of heads") + row("len", "sequence length") +
		row("pelen", "PE positions") + row("pedim", "PE dimensions") +
		fmt.Sprintf(`<div id="%s"></div></div>`, label("plot")))

	// The first slider is the heads: moving it changes every heat map.
	heads := widgets.Slider(0, len(HeadChoices)-1, headIndex).AppendTo(label("heads")).Done()
	maxLen := widgets.Slider(1, 16, s.MaxLen).AppendTo(label("len")).Done()
	peLen := widgets.Slider(1, 200, s.PELen).AppendTo(label("pelen")).Done()
	peDim := widgets.Slider(2, 512, s.PEDim).AppendTo(label("pedim")).Done()

	draw := func() {
		gonbui.UpdateHTML(label("heads")+"_value", fmt.Sprint(s.Heads))
		gonbui.UpdateHTML(label("len")+"_value", fmt.Sprint(s.MaxLen))
		gonbui.UpdateHTML(label("pelen")+"_value", fmt.Sprint(s.PELen))
		gonbui.UpdateHTML(label("pedim")+"_value", fmt.Sprint(s.PEDim))
		fig, err := s.Figure()
		if err != nil {
			gonbui.UpdateHTML(label("plot"), "<pre>"+html.EscapeString(err.Error())+"</pre>")
			return
		}
		src, err := pngSrc(fig)
		if err != nil {
			gonbui.UpdateHTML(label("plot"), "<pre>"+html.EscapeString(err.Error())+"</pre>")
			return
		}
		gonbui.UpdateHTML(label("plot"), fmt.Sprintf(`<img src="%s" alt="%s">`, src,
			html.EscapeString(fmt.Sprintf("attention with %d heads, length %d; positional encoding %d×%d", s.Heads, s.MaxLen, s.PELen, s.PEDim))))
	}
	draw()

	hc, lc, pc, dc := heads.Listen().LatestOnly(), maxLen.Listen().LatestOnly(), peLen.Listen().LatestOnly(), peDim.Listen().LatestOnly()
	defer func() { hc.Close(); lc.Close(); pc.Close(); dc.Close() }()
	deadline := time.After(follow)
	for {
		select {
		case v := <-hc.C:
			s.Heads = HeadChoices[min(max(v, 0), len(HeadChoices)-1)]
		case v := <-lc.C:
			s.MaxLen = v
		case v := <-pc.C:
			s.PELen = v
		case v := <-dc.C:
			s.PEDim = v
		case <-deadline:
			fmt.Printf("explore: stopped following the sliders after %v; run the cell again to explore again.\n", follow)
			gonbui.Sync()
			return nil
		}
		draw()
	}
}
