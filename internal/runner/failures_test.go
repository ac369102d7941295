package runner

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/notebook"
)

// TestFailuresProbe scans the executed probe notebook, a real nbconvert +
// GoNB output (see internal/notebook/testdata/README.md).
func TestFailuresProbe(t *testing.T) {
	nb, err := notebook.ReadFile(filepath.Join("..", "notebook", "testdata", "probe.executed.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		cell      int
		firstLine string
		text      []string // substrings of Text
		notText   []string // must not appear in Text
	}
	wants := []want{
		{2, `panic("boom")`, []string{"panic: boom", "[[ Cell [2] Line 2 ]]", "exit status 2"},
			[]string{"\x1b", "<", "Cell[2]: Line 2"}}, // GoNB's HTML copy of the stack is left out
		{3, `fmt.Println(undefinedVar)`, []string{"Cell[3]: Line 2 ./main.go:11:13: undefined: undefinedVar"},
			[]string{"<style>", "gonb-err", "flag.Parse()", "# gonb_", "failed to run"}},
		{4, `import "os"`, []string{"exit status 3"}, nil},
		{11, `import "log"`, []string{"fatal thing", "exit status 1"}, nil},
		{12, `var m map[string]int`, []string{"panic: assignment to entry in nil map", "[[ Cell [12] Line 3 ]]"}, []string{"gonb-err"}},
		{13, `func f() int { return "x" }`, []string{`cannot use "x" (untyped string constant) as int value in return statement`}, []string{"&#34;"}},
	}
	got := Failures(nb)
	var gotCells, wantCells []int
	for _, f := range got {
		gotCells = append(gotCells, f.Cell)
	}
	for _, w := range wants {
		wantCells = append(wantCells, w.cell)
	}
	if !reflect.DeepEqual(gotCells, wantCells) {
		t.Fatalf("failed cells = %v, want %v", gotCells, wantCells)
	}
	for i, w := range wants {
		f := got[i]
		if f.FirstLine() != w.firstLine {
			t.Errorf("In[%d] FirstLine = %q, want %q", w.cell, f.FirstLine(), w.firstLine)
		}
		if nb.Cells[f.Index].Source != f.Source || nb.Cells[f.Index].Type != notebook.Code {
			t.Errorf("In[%d] Index %d does not point at the cell", w.cell, f.Index)
		}
		for _, s := range w.text {
			if !strings.Contains(f.Text, s) {
				t.Errorf("In[%d] text lacks %q:\n%s", w.cell, s, f.Text)
			}
		}
		for _, s := range w.notText {
			if strings.Contains(f.Text, s) {
				t.Errorf("In[%d] text contains %q:\n%s", w.cell, s, f.Text)
			}
		}
	}
	if got, want := nb.CodeCells(), 14; got != want {
		t.Errorf("CodeCells = %d, want %d", got, want)
	}
	// A PNG, an SVG (which GoNB sends as HTML) and an HTML <img>.
	if got, want := Images(nb), 3; got != want {
		t.Errorf("Images = %d, want %d", got, want)
	}
}

func TestFailures(t *testing.T) {
	stderr := func(s string) notebook.Output { return notebook.Output{Type: notebook.Stream, Name: "stderr", Text: s} }
	stdout := func(s string) notebook.Output { return notebook.Output{Type: notebook.Stream, Name: "stdout", Text: s} }
	tests := []struct {
		name     string
		outputs  []notebook.Output
		wantFail bool
		wantText string
	}{
		{"no outputs", nil, false, ""},
		{"stdout only", []notebook.Output{stdout("panic: not really, just printed\n")}, false, ""},
		{"harmless stderr", []notebook.Output{stderr("warning: something\n")}, false, ""},
		{"exit status 0", []notebook.Output{stderr("exit status 0\n")}, false, ""},
		{"exit status 10", []notebook.Output{stderr("exit status 10\n")}, true, "exit status 10"},
		{"panic on stderr", []notebook.Output{stderr("panic: x\n")}, true, "panic: x"},
		{"fatal error", []notebook.Output{stderr("fatal error: all goroutines are asleep - deadlock!\n")}, true, "fatal error: all goroutines are asleep - deadlock!"},
		{"cell marker in colour", []notebook.Output{stderr("\x1b[7m[[ Cell [1] Line 2 ]]\x1b[0m oops\n")}, true, "[[ Cell [1] Line 2 ]] oops"},
		{"error output with ANSI traceback", []notebook.Output{{Type: notebook.ErrorOutput, EName: "NameError", EValue: "x",
			Traceback: []string{"\x1b[0;31mNameError\x1b[0m: x", "line 2"}}}, true, "NameError: x\nline 2"},
		{"error output without traceback", []notebook.Output{{Type: notebook.ErrorOutput, EName: "ERROR", EValue: "exit status 1"}}, true, "ERROR: exit status 1"},
		{"stderr preferred over the error value", []notebook.Output{stderr("boom\nexit status 1\n"),
			{Type: notebook.ErrorOutput, EName: "ERROR", EValue: "exit status 1", Traceback: []string{"exit status 1"}}}, true, "boom\nexit status 1"},
		{"GoNB error HTML beside unrelated stderr", []notebook.Output{stderr("log line\n"),
			{Type: notebook.DisplayData, Data: map[string]string{"text/html": `<style>.gonb-err-location{}</style><div class="jp-RenderedText" data-mime-type="application/vnd.jupyter.stderr"><div> # gonb_abc123</div><div><span class="gonb-err-hover-area"><span class="gonb-cell-line-info">Cell[2]: Line 1</span> <span class="gonb-err-location">./main.go:7:3: </span></span>x declared and not used<div class="gonb-err-context">` + "\nx := 1\n" + `<div class="gonb-err-line">x := 1</div></div></div></div>`}},
			{Type: notebook.ErrorOutput, EName: "ERROR", EValue: "failed to run go build"}}, true, "log line\nCell[2]: Line 1 ./main.go:7:3: x declared and not used"},
		{"GoNB error HTML repeating a panic's stderr is left out", []notebook.Output{stderr("panic: x\n\t\x1b[7m[[ Cell [2] Line 4 ]]\x1b[0m main.go:9\n"),
			{Type: notebook.DisplayData, Data: map[string]string{"text/html": `<div class="gonb-err-hover-area"><span class="gonb-cell-line-info">Cell[2]: Line 4</span></div>`}}},
			true, "panic: x\n\t[[ Cell [2] Line 4 ]] main.go:9"},
		{"plain HTML output is not error text", []notebook.Output{{Type: notebook.DisplayData, Data: map[string]string{"text/html": "<b>table</b>"}},
			{Type: notebook.ErrorOutput, EName: "ERROR", EValue: "exit status 2"}}, true, "ERROR: exit status 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nb := &notebook.Notebook{Cells: []notebook.Cell{
				{Type: notebook.Markdown, Source: "# T"},
				{Type: notebook.Code, Source: "%%\nfmt.Println(1)"},
				{Type: notebook.Code, Source: "\n%%\n\nx := 1", Outputs: tt.outputs},
			}}
			got := Failures(nb)
			if !tt.wantFail {
				if len(got) != 0 {
					t.Errorf("Failures = %+v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("Failures = %+v, want one", got)
			}
			f := got[0]
			if f.Cell != 2 || f.Index != 2 || f.FirstLine() != "x := 1" {
				t.Errorf("failure at Cell %d, Index %d, FirstLine %q; want 2, 2, %q", f.Cell, f.Index, f.FirstLine(), "x := 1")
			}
			if f.Text != tt.wantText {
				t.Errorf("Text = %q, want %q", f.Text, tt.wantText)
			}
		})
	}
}

func TestIsImage(t *testing.T) {
	tests := []struct {
		name string
		o    notebook.Output
		want bool
	}{
		{"png", notebook.Output{Type: notebook.DisplayData, Data: map[string]string{"image/png": "iVBOR", "text/plain": "<Figure>"}}, true},
		{"svg mime", notebook.Output{Type: notebook.DisplayData, Data: map[string]string{"image/svg+xml": "<svg/>"}}, true},
		{"jpeg result", notebook.Output{Type: notebook.ExecuteResult, Data: map[string]string{"image/jpeg": "/9j/"}}, true},
		{"html img", notebook.Output{Type: notebook.DisplayData, Data: map[string]string{"text/html": `<p>x</p><IMG src="a.png">`}}, true},
		{"html svg (GoNB DisplaySVG)", notebook.Output{Type: notebook.DisplayData, Data: map[string]string{"text/html": `<div><svg width="1"></svg></div>`}}, true},
		{"html without image", notebook.Output{Type: notebook.DisplayData, Data: map[string]string{"text/html": "<b>imgs: 0</b>"}}, false},
		{"text", notebook.Output{Type: notebook.ExecuteResult, Data: map[string]string{"text/plain": "<img>"}}, false},
		{"stream", notebook.Output{Type: notebook.Stream, Name: "stdout", Text: "<img>"}, false},
	}
	for _, tt := range tests {
		if got := isImage(tt.o); got != tt.want {
			t.Errorf("%s: isImage = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestHTMLText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"entities and tags", "<p>a &lt;b&gt; &amp; &#34;c&#34;</p>", `a <b> & "c"`},
		{"blocks and br become lines", "<div>one</div><div>two<br>three</div>", "one\ntwo\nthree"},
		{"style and script dropped", "<style>\n.x { color: red }\n</style>text<script>alert(1)</script>", "text"},
		{"comments dropped", "a<!-- hidden -->b", "ab"},
		{"GoNB context dropped, nested divs", `<div>err<div class="gonb-err-context">ctx<div class="gonb-err-line">line</div>more</div></div><div>after</div>`, "err\nafter"},
		{"go build header of GoNB's package dropped", "<div> # gonb_1a2b3c4d</div><div># github.com/x/y</div><div>  e  </div><div> </div>", "# github.com/x/y\ne"},
		{"attributes with single quotes and newlines", "<div\nclass='gonb-err-context'>hidden</div>shown", "shown"},
		{"a tag inside a script is script", "<script>if (a < b) { x = '</div>' }</script><p>kept</p>", "kept"},
		{"upper-case tags", "<DIV>one</DIV><STYLE>p {}</STYLE><BR/>two", "one\ntwo"},
		{"void and self-closing elements open nothing", `<div>a<img src="x.png"><svg><path d="M0"/></svg>b</div>c`, "ab\nc"},
		{"a bare less-than sign is text", "<pre>1 < 2 &amp;&amp; 3 &gt; 2</pre>", "1 < 2 && 3 > 2"},
		{"named and numeric entities, no-break space trimmed", "<p>&nbsp;caf&eacute; &#x263A;&#8203;</p>", "café \u263a\u200b"},
		{"progress line with image", "<pre>step 100/100 loss 0.0123 (3.2 s)</pre><img src=\"data:image/png;base64,AAAA\">", "step 100/100 loss 0.0123 (3.2 s)"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := htmlText(tt.in); got != tt.want {
			t.Errorf("%s: htmlText = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestStripANSI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\x1b[7m[[ Cell [2] Line 2 ]]\x1b[0m", "[[ Cell [2] Line 2 ]]"},
		{"\x1b[7;39;32m[ae55557e]\x1b[0m ok", "[ae55557e] ok"},
		{"\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"},
		{"plain [text]", "plain [text]"},
	}
	for _, tt := range tests {
		if got := stripANSI(tt.in); got != tt.want {
			t.Errorf("stripANSI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
