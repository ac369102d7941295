package notebook

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// firstDiff describes the first differing line of got and want.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + gl + "\n want " + wl
		}
	}
	return "(no difference)"
}

func TestSplitLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\n", []string{"a\n"}},
		{"a\nb", []string{"a\n", "b"}},
		{"a\n\nb\n", []string{"a\n", "\n", "b\n"}},
		{"a\r\nb\rc", []string{"a\r\n", "b\r", "c"}},
		{"a\u2028b\fc\x1ed", []string{"a\u2028", "b\f", "c\x1e", "d"}},
	}
	for _, tt := range tests {
		got := splitLines(tt.in)
		var gs []string
		for _, s := range got {
			gs = append(gs, s.(string))
		}
		if strings.Join(gs, "|") != strings.Join(tt.want, "|") || len(gs) != len(tt.want) {
			t.Errorf("splitLines(%q) = %q, want %q", tt.in, gs, tt.want)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, `"plain"`},
		{`<a href="x">&</a>`, `"<a href=\"x\">&</a>"`},
		{"tab\tnl\ncr\rbs\\", `"tab\tnl\ncr\rbs\\"`},
		{"\b\f\x00\x1b\x1f\x7f", `"\b\f\u0000\u001b\u001f` + "\x7f" + `"`},
		{"señal ∑ 注意 \u2028", "\"señal ∑ 注意 \u2028\""},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		quote(&b, tt.in)
		if b.String() != tt.want {
			t.Errorf("quote(%q) = %s, want %s", tt.in, b.String(), tt.want)
		}
	}
}

// oddNotebook exercises the encoder on everything a notebook can hold.
func oddNotebook() *Notebook {
	one, two := 1, 2
	nb := &Notebook{
		Metadata: map[string]any{
			"kernelspec":    map[string]any{"display_name": "Go (gonb)", "language": "go", "name": "gonb"},
			"language_info": map[string]any{"name": "go", "version": "go1.26", "codemirror_mode": ""},
		},
		NBFormatMinor: 5,
	}
	nb.Metadata["course"] = map[string]any{"source": "lessons/odd.md", "generated": "do not edit", "flavour": "solution"}
	nb.Metadata["extra"] = map[string]any{"empty": map[string]any{}, "list": []any{}, "flag": true, "none": nil, "n": 3, "x": 0.5}
	nb.Cells = []Cell{
		{ID: "m1", Type: Markdown, Source: "# Odd «cell» <b>&amp;</b>\n\nline\u2028sep\fform\r\nwindows\rmac\n"},
		{ID: "c1", Type: Code, Source: "", ExecutionCount: &one, Outputs: []Output{
			{Type: Stream, Name: "stdout", Text: "a\nb\n"},
			{Type: Stream, Name: "stderr", Text: "\x1b[7mcolour\x1b[0m\n"},
			{Type: DisplayData, Data: map[string]string{
				"text/plain":       "x\ny",
				"text/html":        "<b>x</b>\n<i>y</i>\n",
				"image/png":        "iVBORw0KGgo=\n",
				"image/svg+xml":    "<svg>\n</svg>",
				"application/json": `{"b": [1, 2.5, "s"], "a": null}`,
			}, Metadata: map[string]any{"isolated": true}},
			{Type: ExecuteResult, ExecutionCount: &one, Data: map[string]string{"text/plain": "42"}},
			{Type: ErrorOutput, EName: "ERROR", EValue: "exit status 2", Traceback: []string{"exit status 2"}},
		}},
		{ID: "c2", Type: Code, Source: "%%\nfmt.Println(\"\\t\")", ExecutionCount: &two},
		{ID: "r1", Type: Raw, Source: "raw text"},
		{ID: "e1", Type: Code, Source: "func F() {}", Metadata: map[string]any{"tags": []any{"x"}, "course": map[string]any{"exercise": "f", "points": 2}}},
		{ID: "k1", Type: Code, Source: "check.F(F)", Metadata: map[string]any{"course": map[string]any{"check": "f"}}},
		{ID: "m2", Type: Markdown, Source: "It is 50.7%.", Metadata: map[string]any{"course": map[string]any{"claims": []string{`"50.7%" = 50.7`}}}},
	}
	return nb
}

func TestMarshalUnmarshal(t *testing.T) {
	data, err := Marshal(oddNotebook())
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, again) {
		t.Errorf("Marshal(Unmarshal(Marshal(nb))) differs:\n%s", firstDiff(string(again), string(data)))
	}
}

func TestMarshalNeedsIDs(t *testing.T) {
	nb := &Notebook{Cells: []Cell{{Type: Markdown, Source: "x"}}}
	if _, err := Marshal(nb); err == nil {
		t.Error("Marshal of a cell without id succeeded, want an error")
	}
}

// TestExecutedRoundTrip checks the reader and writer together on a notebook
// that Python's nbformat wrote (nbconvert's output): rewriting it must
// reproduce it byte for byte.
func TestExecutedRoundTrip(t *testing.T) {
	path := filepath.Join("testdata", "probe.executed.ipynb")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Unmarshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("rewriting %s changes it:\n%s", path, firstDiff(string(got), string(want)))
	}
}

// nbformatCheck validates a notebook file with Python's nbformat and checks
// that nbformat writes it back byte for byte (nbformat.write adds a final
// newline to what nbformat.writes returns).
const nbformatCheck = `
import json, sys, nbformat
path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    text = f.read()
# Validate the file as stored, before the repairs nbformat.read may make
# (validate itself would silently repair duplicate cell ids).
raw = json.loads(text)
ids = [c.get("id") for c in raw["cells"]]
if len(set(ids)) != len(ids):
    sys.exit("duplicate cell ids")
nbformat.validate(raw)
nb = nbformat.reads(text, as_version=4)
nbformat.validate(nb)
s = nbformat.writes(nb)
if not s.endswith("\n"):
    s += "\n"
if s != text:
    sys.exit("nbformat writes it differently")
print("ok")
`

// python returns the Python that has nbformat, or skips the test.
func python(t *testing.T) string {
	t.Helper()
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skipf("no %s: cannot check with nbformat", py)
	}
	if err := exec.Command(py, "-c", "import nbformat").Run(); err != nil {
		t.Skipf("%s has no nbformat module: cannot check with it", py)
	}
	return py
}

func TestNbformatCompatible(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	// The odd notebook as this package writes it, and the builder's golden
	// notebooks, which its tests hold byte for byte to what it writes.
	paths := map[string]string{
		"odd.ipynb":    filepath.Join(dir, "odd.ipynb"),
		"golden.ipynb": filepath.Join("..", "build", "testdata", "golden.ipynb"),
		"probe.ipynb":  filepath.Join("..", "build", "testdata", "probe.ipynb"),
	}
	if _, err := WriteFile(paths["odd.ipynb"], oddNotebook()); err != nil {
		t.Fatal(err)
	}
	for name, path := range paths {
		t.Run(name, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := exec.Command(py, "-c", nbformatCheck, path)
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || strings.TrimSpace(string(out)) != "ok" {
				t.Errorf("nbformat check of %s failed: %v\n%s%s", name, err, out, stderr.Bytes())
			}
		})
	}
}
