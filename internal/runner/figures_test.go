package runner

import (
	"testing"

	"github.com/attention-in-go/course/internal/notebook"
)

func TestMissingFigures(t *testing.T) {
	png := notebook.Output{Type: notebook.DisplayData, Data: map[string]string{"image/png": "iVBORw0KGgo="}}
	text := notebook.Output{Type: notebook.Stream, Name: "stdout", Text: "hello\n"}
	errOut := notebook.Output{Type: notebook.ErrorOutput, EName: "ERROR", EValue: "exit status 2"}
	nb := &notebook.Notebook{Cells: []notebook.Cell{
		{Type: notebook.Markdown, Source: "viz.Show(x) in prose does not count"},
		{Type: notebook.Code, Source: "%%\nviz.Show(a)", Outputs: []notebook.Output{png}},                           // In[1]: fine
		{Type: notebook.Code, Source: "%%\nviz.Show(a)\nviz.Show(b)", Outputs: []notebook.Output{png, text}},        // In[2]: one lost
		{Type: notebook.Code, Source: "%%\n// viz.Show(a) is commented out\nfmt.Println(1)"},                        // In[3]: no call
		{Type: notebook.Code, Source: "%%\nfor range 3 { viz.Show(a) }", Outputs: []notebook.Output{png, png, png}}, // In[4]: loop
		{Type: notebook.Code, Source: "%%\nviz.Show(a)", Outputs: []notebook.Output{text}},                          // In[5]: lost
		{Type: notebook.Code, Source: "%%\nviz.Show(a)", Outputs: []notebook.Output{errOut}},                        // In[6]: failed anyway
	}}
	got := MissingFigures(nb, "viz.Show")
	want := []int{2, 5}
	if len(got) != len(want) {
		t.Fatalf("MissingFigures found cells %v, want In%v", cellsOf(got), want)
	}
	for i, f := range got {
		if f.Cell != want[i] {
			t.Errorf("missing figure %d in cell In[%d], want In[%d]", i, f.Cell, want[i])
		}
	}
}

func cellsOf(fs []Failure) []int {
	var n []int
	for _, f := range fs {
		n = append(n, f.Cell)
	}
	return n
}
