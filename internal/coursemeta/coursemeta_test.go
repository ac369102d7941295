package coursemeta

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/notebook"
)

// TestRead: the course's objects are read into the typed fields, and every
// other key, inside "course" or not, is written back.
func TestRead(t *testing.T) {
	in := `{"nbformat": 4, "nbformat_minor": 5,
	  "metadata": {"course": {"source": "lessons/exercises/01-x.md", "generated": "g", "flavour": "solution", "future": [1, 2.5]},
	               "kernelspec": {"name": "gonb"}},
	  "cells": [
	    {"id": "a", "cell_type": "code", "source": "func F() {}", "execution_count": 3, "outputs": [],
	     "metadata": {"course": {"exercise": "softmax", "points": 2, "hint": "x"}, "collapsed": true}},
	    {"id": "b", "cell_type": "code", "source": "check.F(F)", "execution_count": null, "outputs": [], "metadata": {"course": {"check": "softmax"}}},
	    {"id": "c", "cell_type": "markdown", "source": "It is 50.7%.", "metadata": {"course": {"claims": ["\"50.7%\" = 50.7"]}}},
	    {"id": "d", "cell_type": "markdown", "source": "plain", "metadata": {}}
	  ]}`
	nb, err := notebook.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	m, cells, err := Read(nb)
	if err != nil {
		t.Fatal(err)
	}
	wantNotebook := Notebook{Source: "lessons/exercises/01-x.md", Generated: "g", Flavour: FlavourSolution, other: map[string]any{"future": []any{json.Number("1"), json.Number("2.5")}}}
	if !reflect.DeepEqual(m, wantNotebook) {
		t.Errorf("Notebook = %+v, want %+v", m, wantNotebook)
	}
	wantCells := []Cell{
		{Exercise: "softmax", Points: 2, other: map[string]any{"hint": "x"}},
		{Check: "softmax"},
		{Claims: []string{`"50.7%" = 50.7`}},
		{},
	}
	if !reflect.DeepEqual(cells, wantCells) {
		t.Errorf("cells = %+v, want %+v", cells, wantCells)
	}

	// Stored again, what was read gives the same JSON.
	Set(nb, m)
	for i := range nb.Cells {
		SetCell(&nb.Cells[i], cells[i])
	}
	out, err := notebook.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(in), &want)
	for _, c := range want.(map[string]any)["cells"].([]any) { // Marshal writes sources as lists of lines
		c := c.(map[string]any)
		c["source"] = []any{c["source"]}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stored again:\n%s\nwant the same JSON as\n%s", out, in)
	}
}

// TestSet: Set and SetCell store what Read reads, replace the metadata's
// map instead of changing it, and remove the key for the zero value.
func TestSet(t *testing.T) {
	shared := map[string]any{"tags": []any{"x"}}
	nb := &notebook.Notebook{Metadata: map[string]any{"kernelspec": "k"}, Cells: []notebook.Cell{{ID: "a", Type: notebook.Code, Metadata: shared}}}
	Set(nb, Notebook{Source: "lessons/a.md", Flavour: FlavourExercise})
	SetCell(&nb.Cells[0], Cell{Exercise: "e", Points: 3})
	if _, ok := shared[Key]; ok {
		t.Error("SetCell changed the map the cell had")
	}
	data, err := notebook.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	back, err := notebook.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	m, cells, err := Read(back)
	if err != nil || m.Source != "lessons/a.md" || m.Flavour != FlavourExercise || cells[0].Exercise != "e" || cells[0].Points != 3 {
		t.Errorf("Read after Set = %+v, %+v, %v", m, cells, err)
	}
	if !strings.Contains(string(data), `"points": 3`) || !strings.Contains(string(data), `"kernelspec": "k"`) {
		t.Errorf("stored:\n%s", data)
	}
	// Read takes what Set stored, before any encoding, too.
	if _, cells, err := Read(nb); err != nil || cells[0].Points != 3 {
		t.Errorf("Read of what SetCell stored = %+v, %v", cells, err)
	}
	Set(nb, Notebook{})
	SetCell(&nb.Cells[0], Cell{})
	if _, ok := nb.Metadata[Key]; ok {
		t.Error("Set of the zero Notebook kept the key")
	}
	if _, ok := nb.Cells[0].Metadata[Key]; ok {
		t.Error("SetCell of the zero Cell kept the key")
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"course a list", `{"nbformat": 4, "metadata": {"course": []}}`, "metadata.course: want an object, got a list"},
		{"source a number", `{"nbformat": 4, "metadata": {"course": {"source": 5}}}`, "metadata.course.source: want a string, got 5"},
		{"exercise a number", `{"nbformat": 4, "cells": [{"metadata": {"course": {"exercise": 7}}}]}`, "cell 1: metadata.course.exercise: want a string, got 7"},
		{"points fractional", `{"nbformat": 4, "cells": [{"metadata": {"course": {"exercise": "e", "points": 2.5}}}]}`, "cell 1: metadata.course.points: want a whole number, got 2.5"},
		{"points a string", `{"nbformat": 4, "cells": [{}, {"metadata": {"course": {"points": "2"}}}]}`, `cell 2: metadata.course.points: want a whole number, got "2"`},
		{"claims not strings", `{"nbformat": 4, "cells": [{"metadata": {"course": {"claims": ["a", 1]}}}]}`, `cell 1: metadata.course.claims: want a list of strings, got ["a",1]`},
	}
	for _, tt := range tests {
		nb, err := notebook.Unmarshal([]byte(tt.in))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		_, _, err = Read(nb)
		var de *notebook.DecodeError
		if err == nil || err.Error() != tt.want || !errors.As(err, &de) {
			t.Errorf("%s: Read error %v, want the DecodeError %q", tt.name, err, tt.want)
		}
	}
}

// TestReadLenient: a field of the wrong type is left at its zero value,
// and the others are read, as the grader needs of a learner's notebook.
func TestReadLenient(t *testing.T) {
	in := `{"metadata": {"course": {"source": 5, "flavour": "exercise"}}, "cells": [{"cell_type": "code", "source": "x", "metadata": {"course": {"exercise": 7, "points": "2", "check": "c"}}}]}`
	nb, _, err := notebook.UnmarshalLenient([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	m, cells, err := Read(nb)
	if err == nil {
		t.Error("Read: no error, want the first field of the wrong type")
	}
	if m.Source != "" || m.Flavour != FlavourExercise {
		t.Errorf("Notebook = %+v, want the flavour alone", m)
	}
	if want := (Cell{Check: "c"}); !reflect.DeepEqual(cells[0], want) {
		t.Errorf("cell 1 = %+v, want %+v", cells[0], want)
	}
}
