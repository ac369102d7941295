package runner

import (
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/notebook"
)

func TestCheckFailures(t *testing.T) {
	checkCell := func(stdout string) notebook.Cell {
		c := notebook.Cell{Type: notebook.Code, Source: "%%\ncheck.F(F)"}
		coursemeta.SetCell(&c, coursemeta.Cell{Check: "f"})
		if stdout != "" {
			c.Outputs = []notebook.Output{{Type: notebook.Stream, Name: "stdout", Text: stdout}}
		}
		return c
	}
	tests := []struct {
		name   string
		out    string
		full   bool
		failed string // "" when the cell passes
	}{
		{"full marks in a solution", "Exercise f\n  ✓ a\npoints: 2/2  — all cases pass\n", true, ""},
		{"partial in a solution", "Exercise f\n  ✗ a: wrong\npoints: 1.5/2\n", true, "scores 1.5/2, want full points"},
		{"not done in an exercise", "Exercise f\n  ✗ 3 cases not run\npoints: 0/2  — not done yet\n", false, ""},
		{"no report", "hello\n", false, `printed no "points: X/Y" line`},
		{"no output", "", true, `printed no "points: X/Y" line`},
	}
	for _, tc := range tests {
		nb := &notebook.Notebook{Cells: []notebook.Cell{{Type: notebook.Code, Source: "x := 1"}, checkCell(tc.out)}}
		fs := checkFailures(nb, tc.full)
		switch {
		case tc.failed == "" && len(fs) > 0:
			t.Errorf("%s: got failure %q, want none", tc.name, fs[0].Text)
		case tc.failed != "" && (len(fs) != 1 || !strings.Contains(fs[0].Text, tc.failed) || fs[0].Cell != 2):
			t.Errorf("%s: got %+v, want one failure in cell 2 containing %q", tc.name, fs, tc.failed)
		}
	}
}
