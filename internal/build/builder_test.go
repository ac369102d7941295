package build

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// buildFile parses a lesson file from testdata and builds it with b.
func buildFile(t *testing.T, b Builder, name string) *notebook.Notebook {
	t.Helper()
	l, err := lesson.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	l.Path = "internal/build/testdata/" + name // relative to the course root, as the course records it
	nb, err := b.Build(l)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// checkGolden compares data with the golden file testdata/name, or rewrites
// it with -update.
func checkGolden(t *testing.T, name string, data []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(data, want) {
		t.Errorf("the built notebook differs from %s (go test -update rewrites it):\n%s", path, firstDiff(string(data), string(want)))
	}
}

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

func TestGolden(t *testing.T) {
	tests := []struct {
		lesson  string
		builder Builder
		golden  string
	}{
		{"golden.md", Default, "golden.ipynb"},
		{"probe.md", Builder{}, "probe.ipynb"}, // the probe runs without setup
	}
	for _, tt := range tests {
		t.Run(tt.lesson, func(t *testing.T) {
			data, err := notebook.Marshal(buildFile(t, tt.builder, tt.lesson))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.golden, data)
		})
	}
}

func TestBuild(t *testing.T) {
	nb := buildFile(t, Default, "golden.md")
	var types []string
	for _, c := range nb.Cells {
		types = append(types, c.Type[:1])
	}
	// title, setup, hello, noexec, section, softmax, print, print, last section
	if got, want := strings.Join(types, ""), "mccmmcccm"; got != want {
		t.Errorf("cell types = %s, want %s", got, want)
	}
	if got := nb.Cells[1].Source; got != lesson.SetupCell {
		t.Errorf("second cell = %q, want the setup cell", got)
	}
	if got, want := nb.Cells[7].ID, nb.Cells[6].ID+"-2"; got != want {
		t.Errorf("repeated cell id = %q, want %q", got, want)
	}
	if m, _, _ := coursemeta.Read(nb); m.Source != "internal/build/testdata/golden.md" {
		t.Errorf("metadata course.source = %v, want internal/build/testdata/golden.md", m.Source)
	}
}

func TestCellIDs(t *testing.T) {
	const src = "# T\n\nintro\n\n```go\na := 1\n```\n\n## S\n\n```go\nb := 2\n```\n"
	build := func(src string) []string {
		l, err := lesson.Parse("lessons/01-t.md", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		nb, err := Default.Build(l)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, c := range nb.Cells {
			ids = append(ids, c.ID)
		}
		return ids
	}
	before := build(src)
	if again := build(src); strings.Join(again, " ") != strings.Join(before, " ") {
		t.Fatalf("ids not stable across builds: %v then %v", before, again)
	}
	after := build(strings.Replace(src, "b := 2", "b := 3", 1))
	if len(after) != len(before) {
		t.Fatalf("cell count changed: %v vs %v", before, after)
	}
	for i := range before {
		changed := before[i] != after[i]
		if want := i == len(before)-1; changed != want {
			t.Errorf("cell %d: id %s -> %s, changed = %v, want %v", i, before[i], after[i], changed, want)
		}
	}
	if want := CellID("01-t", "code", "a := 1"); before[2] != want {
		t.Errorf("id of the first code cell = %s, want %s", before[2], want)
	}
	if id := before[0]; len(id) != 8 || strings.Trim(id, "0123456789abcdef") != "" {
		t.Errorf("id %q is not 8 hex digits", id)
	}
}

func TestCellIDCollisions(t *testing.T) {
	l := &lesson.Lesson{Path: "lessons/x.md", Slug: "x", Title: "X", Cells: []lesson.Cell{
		{Kind: lesson.Markdown, Source: "# X"},
		{Kind: lesson.Code, Source: "f()"},
		{Kind: lesson.Code, Source: "f()"},
		{Kind: lesson.Markdown, Source: "f()"}, // same source, other type: no collision
		{Kind: lesson.Code, Source: "f()"},
	}}
	nb, err := Builder{}.Build(l)
	if err != nil {
		t.Fatal(err)
	}
	base := CellID("x", "code", "f()")
	want := []string{CellID("x", "markdown", "# X"), base, base + "-2", CellID("x", "markdown", "f()"), base + "-3"}
	for i, c := range nb.Cells {
		if c.ID != want[i] {
			t.Errorf("cell %d id = %s, want %s", i, c.ID, want[i])
		}
	}
}
