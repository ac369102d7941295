package lesson

import (
	"strings"
	"testing"
)

func TestParseExerciseCells(t *testing.T) {
	src := "# T\n\n```go exercise=soft-max points=2\nfunc F() int {\n\t// BEGIN SOLUTION\n\treturn 1\n\t// END SOLUTION\n}\n```\n\n```go check=soft-max\ncheck.F(F)\n```\n"
	l, err := Parse("lessons/exercises/01-x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Cells) != 3 {
		t.Fatalf("got %d cells, want 3: %+v", len(l.Cells), l.Cells)
	}
	ex, ck := l.Cells[1], l.Cells[2]
	if ex.Kind != Code || ex.Exercise != "soft-max" || ex.Points != 2 || ex.Line != 3 {
		t.Errorf("exercise cell = %+v, want code, soft-max, 2 points, line 3", ex)
	}
	if ck.Kind != Code || ck.Check != "soft-max" || ck.Exercise != "" {
		t.Errorf("check cell = %+v, want code, check soft-max", ck)
	}
}

func TestParseExerciseErrors(t *testing.T) {
	body := "func F() int {\n// BEGIN SOLUTION\nreturn 1\n// END SOLUTION\n}"
	tests := []struct {
		name, info, body, want string
	}{
		{"no points", "go exercise=a", body, "an exercise cell is"},
		{"bad points", "go exercise=a points=two", body, "points=two: want a positive integer"},
		{"zero points", "go exercise=a points=0", body, "want a positive integer"},
		{"bad id", "go exercise=Soft_Max points=1", body, `exercise id "Soft_Max"`},
		{"no region", "go exercise=a points=1", "func F() int { return 1 }", "has no // BEGIN SOLUTION"},
		{"unclosed region", "go exercise=a points=1", "// BEGIN SOLUTION\nreturn 1", "without // END SOLUTION"},
		{"end without begin", "go exercise=a points=1", "// END SOLUTION", "without // BEGIN SOLUTION"},
		{"check with extra", "go check=a points=1", "x", "a check cell is"},
		{"attribute twice", "go exercise=a exercise=b points=1", body, "exercise given twice"},
	}
	for _, tc := range tests {
		src := "# T\n\n```" + tc.info + "\n" + tc.body + "\n```\n"
		_, err := Parse("x.md", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x.md:3:") {
			t.Errorf("%s: error %v, want x.md:3: … %q", tc.name, err, tc.want)
		}
	}
}

func TestExerciseAndSolution(t *testing.T) {
	src := "# T\n\n```go exercise=a points=3\n// F doubles.\nfunc F(x int) int {\n\ty := x\n\t// BEGIN SOLUTION\n\ty *= 2\n\t// END SOLUTION\n\treturn y\n}\n```\n\n" +
		"```go exercise=b points=1\nfunc G() []int {\n\t// BEGIN SOLUTION\n\t// STUB: return nil\n\treturn []int{1}\n\t// END SOLUTION\n}\n```\n\n```go check=a\ncheck.F(F)\n```\n"
	l, err := Parse("x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tr   Transform
		a, b string
	}{
		{"exercise", Exercise,
			"// Exercise a (3 points) — keep this line\n// F doubles.\nfunc F(x int) int {\n\ty := x\n\t// TODO: write your code here\n\tpanic(\"TODO: exercise a — write your code here\")\n\treturn y\n}",
			"// Exercise b (1 point) — keep this line\nfunc G() []int {\n\treturn nil\n}"},
		{"solution", Solution,
			"// Exercise a (3 points) — keep this line\n// F doubles.\nfunc F(x int) int {\n\ty := x\n\ty *= 2\n\treturn y\n}",
			"// Exercise b (1 point) — keep this line\nfunc G() []int {\n\treturn []int{1}\n}"},
	}
	for _, tc := range tests {
		out, err := l.Apply(tc.tr)
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Cells[1].Source; got != tc.a {
			t.Errorf("%s: cell a =\n%s\nwant\n%s", tc.name, got, tc.a)
		}
		if got := out.Cells[2].Source; got != tc.b {
			t.Errorf("%s: cell b =\n%s\nwant\n%s", tc.name, got, tc.b)
		}
		if out.Cells[3].Source != "check.F(F)" || out.Cells[1].Exercise != "a" {
			t.Errorf("%s: check cell or metadata changed: %+v", tc.name, out.Cells)
		}
	}
	if l.Cells[1].Source == tests[0].a {
		t.Error("Apply changed the parsed lesson")
	}
	// A check of an exercise that does not exist.
	bad, _ := Parse("x.md", []byte("# T\n\n```go check=zz\nx\n```\n"))
	if _, err := bad.Apply(Exercise); err == nil || !strings.Contains(err.Error(), "unknown exercise zz") {
		t.Errorf("check of unknown exercise: error %v", err)
	}
}

func TestParseMarker(t *testing.T) {
	tests := []struct {
		line   string
		id     string
		points int
		ok     bool
	}{
		{MarkerLine("causal-mask", 1), "causal-mask", 1, true},
		{"  // Exercise softmax (2 points) — keep this line", "softmax", 2, true},
		{"// Exercise softmax", "", 0, false},
		{"func F()", "", 0, false},
	}
	for _, tc := range tests {
		id, p, ok := ParseMarker(tc.line)
		if id != tc.id || p != tc.points || ok != tc.ok {
			t.Errorf("ParseMarker(%q) = %q, %d, %v; want %q, %d, %v", tc.line, id, p, ok, tc.id, tc.points, tc.ok)
		}
	}
}
