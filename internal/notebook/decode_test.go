package notebook

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestMetadataRoundTrip: metadata, the notebook's and the cells', is kept
// as read, whatever its keys (the course's own object among them), and
// written back.
func TestMetadataRoundTrip(t *testing.T) {
	in := `{"nbformat": 4, "nbformat_minor": 5,
	  "metadata": {"course": {"source": "lessons/exercises/01-x.md", "generated": "g", "flavour": "solution", "future": [1, 2.5]},
	               "kernelspec": {"name": "gonb"}, "jupytext": {"formats": "ipynb,md"}},
	  "cells": [
	    {"id": "a", "cell_type": "code", "source": ["func F() {\n", "}"], "execution_count": 3, "outputs": [],
	     "metadata": {"course": {"exercise": "softmax", "points": 2, "hint": "x"}, "collapsed": true, "tags": ["t"]}},
	    {"id": "b", "cell_type": "code", "source": "check.F(F)", "execution_count": null, "outputs": [], "metadata": {"course": {"check": "softmax"}}},
	    {"id": "c", "cell_type": "markdown", "source": "It is 50.7%.", "metadata": {"course": {"claims": ["\"50.7%\" = 50.7"]}}},
	    {"id": "d", "cell_type": "markdown", "source": "plain", "metadata": {}}
	  ]}`
	nb, err := Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	wantCourse := map[string]any{"source": "lessons/exercises/01-x.md", "generated": "g", "flavour": "solution", "future": []any{json.Number("1"), json.Number("2.5")}}
	if got := nb.Metadata["course"]; !reflect.DeepEqual(got, wantCourse) {
		t.Errorf(`Metadata["course"] = %#v, want %#v`, got, wantCourse)
	}
	if got, want := nb.Cells[0].Metadata["course"], map[string]any{"exercise": "softmax", "points": json.Number("2"), "hint": "x"}; !reflect.DeepEqual(got, want) {
		t.Errorf(`cell 1: Metadata["course"] = %#v, want %#v`, got, want)
	}
	out, err := Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(in), &want)
	// Marshal adds what nbformat always writes: a markdown cell has no
	// outputs, so only the source's form may differ.
	want.(map[string]any)["cells"].([]any)[0].(map[string]any)["source"] = []any{"func F() {\n", "}"}
	want.(map[string]any)["cells"].([]any)[1].(map[string]any)["source"] = []any{"check.F(F)"}
	want.(map[string]any)["cells"].([]any)[2].(map[string]any)["source"] = []any{"It is 50.7%."}
	want.(map[string]any)["cells"].([]any)[3].(map[string]any)["source"] = []any{"plain"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Marshal(Unmarshal(in)) =\n%s\nwant the same JSON as\n%s", out, in)
	}
}

func TestUnmarshalErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not JSON", `{"cells": [`, "not valid JSON: unexpected end of JSON input"},
		{"empty", ``, "not valid JSON: unexpected end of JSON input"},
		{"trailing data", `{"nbformat": 4} x`, "not valid JSON"},
		{"not an object", `[1]`, "not a notebook: want a JSON object, got a list"},
		{"cells not a list", `{"nbformat": 4, "cells": 5}`, "not a notebook: cells: want a list, got a number"},
		{"cell not an object", `{"nbformat": 4, "cells": ["x"]}`, "not a notebook: cell 1: want an object, got a string"},
		{"no nbformat", `{"cells": []}`, "nbformat (none) not supported, want 4"},
		{"nbformat 3", `{"nbformat": 3}`, "nbformat 3 not supported, want 4"},
		{"source a number", `{"nbformat": 4, "cells": [{"cell_type": "code", "source": 42}]}`, "cell 1: source: want a string or a list of strings, got a number"},
		{"cell type a list", `{"nbformat": 4, "cells": [{}, {"cell_type": []}]}`, "cell 2: cell_type: want a string, got a list"},
		{"metadata a string", `{"nbformat": 4, "metadata": "x"}`, "metadata: want an object, got a string"},
		{"cell metadata a list", `{"nbformat": 4, "cells": [{"metadata": []}]}`, "cell 1: metadata: want an object, got a list"},
		{"execution count a string", `{"nbformat": 4, "cells": [{"execution_count": "1"}]}`, "cell 1: execution_count: want a whole number or null, got a string"},
		{"output text a number", `{"nbformat": 4, "cells": [{"outputs": [{"output_type": "stream", "text": 1}]}]}`, "cell 1: outputs[0].text: want a string or a list of strings, got a number"},
		{"outputs an object", `{"nbformat": 4, "cells": [{"outputs": {}}]}`, "cell 1: outputs: want a list, got an object"},
	}
	for _, tt := range tests {
		_, err := Unmarshal([]byte(tt.in))
		if err == nil || err.Error() != tt.want && !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: Unmarshal error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestUnmarshalLenient(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		source  string   // of the first cell
		ignored []string // what was ignored, in order
		err     string   // "" when it succeeds
	}{
		{"no nbformat, source as lines", `{"cells": [{"cell_type": "code", "source": ["a\n", "b"]}]}`, "a\nb", nil, ""},
		{"source a number", `{"cells": [{"cell_type": "code", "source": 42, "metadata": {"course": {"exercise": "softmax"}}}]}`, "",
			[]string{"cell 1: source: want a string or a list of strings, got a number"}, ""},
		{"odd field types", `{"metadata": {"course": {"source": 5}}, "cells": [{"cell_type": "code", "source": "x", "execution_count": "n", "metadata": {"course": {"exercise": 7}}}]}`,
			"x", []string{"cell 1: execution_count: want a whole number or null, got a string"}, ""},
		{"metadata not an object", `{"cells": [{"cell_type": "code", "source": "x", "metadata": [], "outputs": [5, {"output_type": "stream", "text": {}}]}]}`, "x",
			[]string{"cell 1: metadata: want an object, got a list", "cell 1: outputs[0]: want an object, got a number", "cell 1: outputs[1].text: want a string or a list of strings, got an object"}, ""},
		{"not JSON", `{"cells": [{"cell_type": "code", "source": "func`, "", nil, "not valid JSON: unexpected end of JSON input"},
		{"cells not a list", `{"cells": 5, "metadata": {}}`, "", nil, "not a notebook: cells: want a list, got a number"},
	}
	for _, tt := range tests {
		nb, ignored, err := UnmarshalLenient([]byte(tt.in))
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var got []string
		for _, e := range ignored {
			got = append(got, e.Error())
		}
		// The order of keys within an object is not kept.
		if !sameSet(got, tt.ignored) {
			t.Errorf("%s: ignored %q, want %q", tt.name, got, tt.ignored)
		}
		if c := nb.Cells[0]; c.Source != tt.source {
			t.Errorf("%s: cell 1 has source %q, want %q", tt.name, c.Source, tt.source)
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		count[s]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}
