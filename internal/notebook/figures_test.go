package notebook

import "testing"

func TestMissingFigures(t *testing.T) {
	png := Output{Type: DisplayData, Data: map[string]string{"image/png": "iVBORw0KGgo="}}
	text := Output{Type: Stream, Name: "stdout", Text: "hello\n"}
	errOut := Output{Type: ErrorOutput, EName: "ERROR", EValue: "exit status 2"}
	nb := &Notebook{Cells: []Cell{
		{Type: Markdown, Source: "viz.Show(x) in prose does not count"},
		{Type: Code, Source: "%%\nviz.Show(a)", Outputs: []Output{png}},                           // In[1]: fine
		{Type: Code, Source: "%%\nviz.Show(a)\nviz.Show(b)", Outputs: []Output{png, text}},        // In[2]: one lost
		{Type: Code, Source: "%%\n// viz.Show(a) is commented out\nfmt.Println(1)"},               // In[3]: no call
		{Type: Code, Source: "%%\nfor range 3 { viz.Show(a) }", Outputs: []Output{png, png, png}}, // In[4]: loop
		{Type: Code, Source: "%%\nviz.Show(a)", Outputs: []Output{text}},                          // In[5]: lost
		{Type: Code, Source: "%%\nviz.Show(a)", Outputs: []Output{errOut}},                        // In[6]: failed anyway
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
