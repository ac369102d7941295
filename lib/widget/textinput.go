// Package widget holds the notebook widgets the course adds to GoNB's
// (github.com/janpfeifer/gonb/gonbui/widgets, which has sliders, selects
// and buttons): a text input for a sentence the reader types.
//
// It is built the way GoNB builds its own widgets: a builder configured
// with With… methods, Done to show it, an HTML element in the cell's
// output, a little JavaScript that binds the element to a GoNB comms
// address (gonb_comm.newSyncedVariable), and a Go channel of the values
// (comms.Listen). Like GoNB's widgets, Done waits for the browser's first
// message: in a notebook run without a browser it would wait forever, so
// callers check [Headless] first.
//
// Introduced in the appendix (masks, synthetic data and an interactive
// explorer).
package widget

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"sync"
	"text/template"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/dom"
)

//go:embed textinput.js
var textInputJS string

// The template's values are JSON-encoded, which makes them JavaScript
// string literals whatever they hold (quotes, "</script>").
var textInputTmpl = template.Must(template.New("textinput.js").Parse(textInputJS))

// Headless reports whether the notebook runs without a browser: the
// course's runners (cmd/course run, make site, the Docker build) set
// COURSE_HEADLESS=1, and a widget's Done would wait for a browser that
// never answers.
//
// Introduced in the appendix's exercises.
func Headless() bool { return os.Getenv("COURSE_HEADLESS") != "" }

// TextInputBuilder configures and then shows a text input; see [TextInput].
//
// Introduced in the appendix.
type TextInputBuilder struct {
	address, htmlID, parentHTMLID, placeholder string
	size                                       int
	built                                      bool

	mu      sync.Mutex
	value   string
	updates *comms.AddressChan[string]
	first   chan struct{} // closed at the browser's first message
	once    sync.Once
}

// TextInput returns a builder of a one-line text input holding value.
// The program receives the text when the reader presses Enter or leaves
// the box. Configure it with the With… methods and AppendTo, then call
// Done to show it:
//
//	box := widget.TextInput("The cat sat on the mat").WithSize(40).Done()
//	texts := box.Listen().LatestOnly()
//	defer texts.Close()
//	for sentence := range texts.C { … }
//
// Introduced in the appendix.
func TextInput(value string) *TextInputBuilder {
	return &TextInputBuilder{
		value:   value,
		address: "/text_input/" + gonbui.UniqueId(),
		htmlID:  "course_text_input_" + gonbui.UniqueId(),
		size:    40,
		first:   make(chan struct{}),
	}
}

func (b *TextInputBuilder) mustNotBeBuilt(method string) {
	if b.built {
		panic(fmt.Sprintf("widget: TextInputBuilder.%s called after Done: configure the input before showing it", method))
	}
}

// WithHtmlId sets the id of the input element (a unique one by default;
// HtmlId reads it). It panics after Done.
func (b *TextInputBuilder) WithHtmlId(id string) *TextInputBuilder {
	b.mustNotBeBuilt("WithHtmlId")
	b.htmlID = id
	return b
}

// WithAddress sets the GoNB comms address that carries the text (a
// unique one by default). It panics after Done.
func (b *TextInputBuilder) WithAddress(address string) *TextInputBuilder {
	b.mustNotBeBuilt("WithAddress")
	b.address = address
	return b
}

// WithPlaceholder sets the grey hint shown while the input is empty. It
// panics after Done.
func (b *TextInputBuilder) WithPlaceholder(text string) *TextInputBuilder {
	b.mustNotBeBuilt("WithPlaceholder")
	b.placeholder = text
	return b
}

// WithSize sets the input's width in characters (40 by default). It
// panics after Done.
func (b *TextInputBuilder) WithSize(chars int) *TextInputBuilder {
	b.mustNotBeBuilt("WithSize")
	b.size = max(chars, 1)
	return b
}

// AppendTo shows the input inside the element with the given id instead
// of at the end of the cell's output. It panics after Done.
func (b *TextInputBuilder) AppendTo(parentID string) *TextInputBuilder {
	b.mustNotBeBuilt("AppendTo")
	b.parentHTMLID = parentID
	return b
}

// html is the input element.
func (b *TextInputBuilder) html() string {
	placeholder := ""
	if b.placeholder != "" {
		placeholder = fmt.Sprintf(` placeholder="%s"`, html.EscapeString(b.placeholder))
	}
	return fmt.Sprintf(`<input type="text" id="%s" value="%s" size="%d"%s/>`,
		html.EscapeString(b.htmlID), html.EscapeString(b.value), b.size, placeholder)
}

// javascript binds the element to the comms address.
func (b *TextInputBuilder) javascript() (string, error) {
	id, err := json.Marshal(b.htmlID)
	if err != nil {
		return "", err
	}
	address, err := json.Marshal(b.address)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	err = textInputTmpl.Execute(&buf, struct{ HtmlId, Address string }{string(id), string(address)})
	return buf.String(), err
}

// Done shows the input, starts following its value and waits for the
// browser's first message (the input's starting value), as GoNB's
// widgets do. After Done the With… methods panic. Outside a notebook it
// only marks the builder done.
func (b *TextInputBuilder) Done() *TextInputBuilder {
	b.mustNotBeBuilt("Done")
	b.built = true
	if !gonbui.IsNotebook {
		return b
	}
	js, err := b.javascript()
	if err != nil {
		panic(fmt.Sprintf("widget: the text input's JavaScript: %v", err))
	}
	b.updates = comms.Listen[string](b.address)
	go func() {
		for v := range b.updates.C {
			b.mu.Lock()
			b.value = v
			b.mu.Unlock()
			b.once.Do(func() { close(b.first) })
		}
	}()
	if b.parentHTMLID == "" {
		gonbui.DisplayHtml(b.html())
	} else {
		dom.Append(b.parentHTMLID, b.html())
	}
	dom.TransientJavascript(js)
	<-b.first
	return b
}

// Listen returns a channel of the texts the reader commits (Enter, or
// leaving the box). Close it (its Close method) when done. It panics
// before Done.
func (b *TextInputBuilder) Listen() *comms.AddressChan[string] {
	if !b.built {
		panic("widget: TextInputBuilder.Listen called before Done")
	}
	return comms.Listen[string](b.address)
}

// Value returns the input's latest text.
func (b *TextInputBuilder) Value() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.value
}

// SetValue replaces the input's text, in the browser too.
func (b *TextInputBuilder) SetValue(text string) {
	b.mu.Lock()
	b.value = text
	b.mu.Unlock()
	if b.built && gonbui.IsNotebook {
		comms.Send(b.address, text)
	}
}

// HtmlId returns the id of the input element.
func (b *TextInputBuilder) HtmlId() string { return b.htmlID }

// Address returns the comms address that carries the text.
func (b *TextInputBuilder) Address() string { return b.address }
