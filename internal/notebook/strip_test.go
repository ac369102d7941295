package notebook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// withoutOutputs decodes JSON and empties every cell's outputs, as
// StripOutputs should have: the independent way to the same result.
func withoutOutputs(t testing.TB, data []byte) any {
	v, err := decodeAny(data)
	if err != nil {
		t.Fatalf("decoding: %v", err)
	}
	if nb, ok := v.(map[string]any); ok {
		if cells, ok := nb["cells"].([]any); ok {
			for _, c := range cells {
				if cm, ok := c.(map[string]any); ok {
					if _, has := cm["outputs"]; has {
						cm["outputs"] = []any{}
					}
				}
			}
		}
	}
	return v
}

// decodeAny decodes JSON with numbers kept as written (1E700 is valid
// JSON, and no float64).
func decodeAny(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func checkStrip(t testing.TB, in []byte) {
	out := StripOutputs(bytes.Clone(in))
	if !json.Valid(in) {
		return // returned as it is, or stripped: the decoder judges it
	}
	if !json.Valid(out) {
		t.Fatalf("StripOutputs made valid JSON invalid:\n%.300s", out)
	}
	got, _ := decodeAny(out)
	if want := withoutOutputs(t, in); !reflect.DeepEqual(got, want) {
		t.Fatalf("StripOutputs changed more, or less, than the outputs:\n%.300s\n→\n%.300s", in, out)
	}
}

// TestStripOutputs: on every notebook of the course, only the outputs go
// (the decoded notebook is otherwise the same), and the executed ones
// shrink.
func TestStripOutputs(t *testing.T) {
	paths, _ := filepath.Glob("../../notebooks/*.ipynb")
	more, _ := filepath.Glob("../../solutions/*.ipynb")
	paths = append(paths, more...)
	if len(paths) == 0 {
		t.Fatal("no notebooks")
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkStrip(t, data)
		nb, _, err := UnmarshalLenient(StripOutputs(bytes.Clone(data)))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		full, _, _ := UnmarshalLenient(data)
		for i := range nb.Cells {
			if nb.Cells[i].Source != full.Cells[i].Source || len(nb.Cells[i].Outputs) != 0 {
				t.Errorf("%s: cell %d differs after StripOutputs", p, i+1)
			}
		}
	}
	for _, tc := range []struct{ name, in, want string }{
		{"outputs emptied", `{"cells": [{"cell_type": "code", "outputs": [{"text": "x \"]}"}], "source": "a"}], "outputs": 1}`,
			`{"cells": [{"cell_type": "code", "outputs": [], "source": "a"}], "outputs": 1}`},
		{"a key that only looks like outputs", `{"cells": [{"metadata": {"outputs": [1]}, "source": "\"outputs\": [2]"}]}`,
			`{"cells": [{"metadata": {"outputs": [1]}, "source": "\"outputs\": [2]"}]}`},
		{"not a notebook", `[1, 2]`, `[1, 2]`},
		{"broken", `{"cells": [{"outputs": [1, }]}`, `{"cells": [{"outputs": [1, }]}`},
		{"too deep", `{"cells": [{"outputs": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}]}`, ""},
	} {
		got := string(StripOutputs([]byte(tc.in)))
		if tc.want == "" {
			tc.want = tc.in
		}
		if got != tc.want {
			t.Errorf("%s: StripOutputs(%.80q) = %.80q, want %.80q", tc.name, tc.in, got, tc.want)
		}
	}
}

func FuzzStripOutputs(f *testing.F) {
	for _, s := range []string{`{"cells": [{"outputs": [{"a": "b"}], "source": "x"}]}`, `{"cells": []}`, `{}`, `{"cells": [{"outputs": "\u0022"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkStrip(t, in) })
}
