package widget

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/viz"
)

func TestTextInputHTMLEscapes(t *testing.T) {
	b := TextInput(`say "hi" <b>&`).WithHtmlId("box").WithPlaceholder(`a "sentence"`).WithSize(12)
	got := b.html()
	want := `<input type="text" id="box" value="say &#34;hi&#34; &lt;b&gt;&amp;" size="12" placeholder="a &#34;sentence&#34;"/>`
	if got != want {
		t.Errorf("html() =\n%s\nwant\n%s", got, want)
	}
}

func TestTextInputJavaScriptQuotes(t *testing.T) {
	b := TextInput("").WithHtmlId(`x"); alert("y`).WithAddress("/a</script>")
	js, err := b.javascript()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`document.getElementById("x\"); alert(\"y")`,
		`newSyncedVariable("/a\u003c/script\u003e", input.value)`,
	} {
		if !strings.Contains(js, want) {
			t.Errorf("javascript() lacks %s:\n%s", want, js)
		}
	}
	if strings.Contains(js, "{{") {
		t.Errorf("javascript() has an unexpanded template action:\n%s", js)
	}
}

func TestTextInputBuilder(t *testing.T) {
	b := TextInput("the cat")
	if !strings.HasPrefix(b.HtmlId(), "course_text_input_") || !strings.HasPrefix(b.Address(), "/text_input/") {
		t.Errorf("default id %q, address %q", b.HtmlId(), b.Address())
	}
	if other := TextInput(""); other.HtmlId() == b.HtmlId() || other.Address() == b.Address() {
		t.Errorf("two inputs share id %q or address %q", b.HtmlId(), b.Address())
	}
	b.Done() // outside a notebook: only marks it built
	if b.Value() != "the cat" {
		t.Errorf("Value() = %q", b.Value())
	}
	b.SetValue("a dog")
	if b.Value() != "a dog" {
		t.Errorf("after SetValue: %q", b.Value())
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "after Done") {
			t.Errorf("WithSize after Done: recover() = %v, want a panic saying so", r)
		}
	}()
	b.WithSize(3)
}

func TestFigureHTML(t *testing.T) {
	h := &viz.Heatmap{Values: [][]float64{{0.25, 0.75}, {1, 0}}, Rows: []string{"a", "b"}, Cols: []string{"a", "b"}, Title: "two tokens"}
	got, err := figureHTML(h, `weights of "a b"`)
	if err != nil {
		t.Fatal(err)
	}
	png, err := viz.PNG(h)
	if err != nil {
		t.Fatal(err)
	}
	want := `<img src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(png) + `" alt="weights of &#34;a b&#34;">`
	if got != want {
		t.Errorf("figureHTML = %.120s…, want %.120s…", got, want)
	}
	if err := NewFigureView().Show(h, "x"); err != nil {
		t.Errorf("Show outside a notebook: %v", err)
	}
	if _, err := figureHTML(&viz.Heatmap{}, ""); err == nil {
		t.Error("an empty heat map drew")
	}
}
