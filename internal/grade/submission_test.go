package grade

import (
	"reflect"
	"testing"
)

// TestCells: the grader reads learners' notebooks leniently, and says what
// it skipped.
func TestCells(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		source  string
		cells   []codeCell
		ignored []string
		err     string
	}{
		{"lines, metadata and marker", `{"metadata": {"course": {"source": "lessons/exercises/01-x.md"}}, "cells": [
			{"cell_type": "markdown", "source": "# T"},
			{"cell_type": "code", "source": ["func Softmax() {\n", "}"], "metadata": {"course": {"exercise": "softmax", "points": 2}}},
			{"cell_type": "code", "source": "// Exercise causal-mask (1 point) — keep this line\nfunc CausalMask() {}"},
			{"cell_type": "code", "source": "check.Softmax(Softmax)", "metadata": {"course": {"check": "softmax"}}}]}`,
			"lessons/exercises/01-x.md",
			[]codeCell{{number: 2, source: "func Softmax() {\n}", exercise: "softmax"},
				{number: 3, source: "// Exercise causal-mask (1 point) — keep this line\nfunc CausalMask() {}", exercise: "causal-mask"},
				{number: 4, source: "check.Softmax(Softmax)", check: "softmax"}}, nil, ""},
		{"source not text", `{"cells": [{"cell_type": "code", "source": 42, "metadata": {"course": {"exercise": "softmax"}}}, {"cell_type": "code", "source": "x"}]}`,
			"", []codeCell{{number: 2, source: "x"}},
			[]string{"code cell 1: source: want a string or a list of strings, got a number: the cell was ignored"}, ""},
		{"odd metadata: the marker line counts", `{"metadata": {"course": 5}, "cells": [{"cell_type": "code", "source": "// Exercise softmax (2 points)\nf", "metadata": {"course": {"exercise": ["x"]}}}]}`,
			"", []codeCell{{number: 1, source: "// Exercise softmax (2 points)\nf", exercise: "softmax"}}, nil, ""},
		{"not JSON", `{"cells": [ {"cell_type": "code", "source": "func`, "", nil, nil, "broken notebook (not valid JSON: unexpected end of JSON input)"},
		{"cells not a list", `{"cells": 5, "metadata": {}}`, "", nil, nil, "broken notebook (not a notebook: cells: want a list, got a number)"},
	}
	for _, tt := range tests {
		source, cells, ignored, err := cells([]byte(tt.in))
		if tt.err != "" || err != nil {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if source != tt.source || !reflect.DeepEqual(cells, tt.cells) || !reflect.DeepEqual(ignored, tt.ignored) {
			t.Errorf("%s: got %q, %+v, %q; want %q, %+v, %q", tt.name, source, cells, ignored, tt.source, tt.cells, tt.ignored)
		}
	}
}
