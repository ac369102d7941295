package widget

import (
	"encoding/base64"
	"fmt"
	"html"

	"github.com/janpfeifer/gonb/gonbui"

	"github.com/attention-in-go/course/lib/viz"
)

// FigureView is a place in a cell's output that shows one figure at a
// time: each Show replaces the previous picture in place, so a cell that
// follows a widget redraws instead of piling up pictures.
//
// Introduced in the appendix's exercises.
type FigureView struct {
	id string
}

// NewFigureView returns an empty view; it appears in the cell's output at
// its first Show.
//
// Introduced in the appendix's exercises.
func NewFigureView() *FigureView {
	return &FigureView{id: "course_figure_view_" + gonbui.UniqueId()}
}

// Show draws f in the view, with alt as the picture's text for readers
// (and tests) that cannot see it. Outside a notebook it does nothing.
func (v *FigureView) Show(f viz.Figure, alt string) error {
	h, err := figureHTML(f, alt)
	if err != nil {
		return err
	}
	if gonbui.IsNotebook {
		gonbui.UpdateHTML(v.id, h)
	}
	return nil
}

// ShowError replaces the picture with err's text.
func (v *FigureView) ShowError(err error) {
	if gonbui.IsNotebook {
		gonbui.UpdateHTML(v.id, "<pre>"+html.EscapeString(err.Error())+"</pre>")
	}
}

// figureHTML is an <img> of f's PNG as a data: URL.
func figureHTML(f viz.Figure, alt string) (string, error) {
	png, err := viz.PNG(f)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(`<img src="data:image/png;base64,%s" alt="%s">`,
		base64.StdEncoding.EncodeToString(png), html.EscapeString(alt)), nil
}
