package build

import (
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/lesson"
)

func TestUnnamedDeny(t *testing.T) {
	code := func(s string) lesson.Cell { return lesson.Cell{Kind: lesson.Code, Source: s} }
	tests := []struct {
		name  string
		intro string
		cells []lesson.Cell
		deny  []string
		want  []string
	}{
		{"package named", "", []lesson.Cell{md("Do not use `lib/attention` here.")}, []string{"lib/attention"}, nil},
		{"function named", "", []lesson.Cell{md("not `attention.LookAhead`")}, []string{"lib/attention.LookAhead"}, nil},
		{"intro counts", "Do not call `lib/synthetic`.", []lesson.Cell{md("Pad it.")}, []string{"lib/synthetic"}, nil},
		{"a longer name is another name", "", []lesson.Cell{md("not `attention.LookAheadMask`")},
			[]string{"lib/attention.LookAhead"}, []string{"attention.LookAhead"}},
		{"a qualified name is another name", "", []lesson.Cell{md("not `seq2seq.dates.AlignmentFigure`")},
			[]string{"lib/dates.AlignmentFigure"}, []string{"dates.AlignmentFigure"}},
		{"code does not tell", "", []lesson.Cell{md("Write it."), code("// do not call attention.Explain")},
			[]string{"lib/attention.Explain"}, []string{"attention.Explain"}},
		{"the package is not its function", "", []lesson.Cell{md("not `attention.Explain`")},
			[]string{"lib/attention"}, []string{"lib/attention"}},
		{"unexported skipped", "", []lesson.Cell{md("Write it.")}, []string{"lib/posenc.sinusoidalRow"}, nil},
		{"all missing listed", "", []lesson.Cell{md("not `text.Pad`")},
			[]string{"lib/synthetic", "lib/text.Pad", "lib/text.Vocab"}, []string{"lib/synthetic", "text.Vocab"}},
	}
	for _, tt := range tests {
		if got := unnamedDeny(tt.intro, tt.cells, tt.deny); !slices.Equal(got, tt.want) {
			t.Errorf("%s: unnamedDeny = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestUnnamedAllow(t *testing.T) {
	std := "Your code may use Go's standard library only."
	tests := []struct {
		name  string
		intro string
		cells []lesson.Cell
		allow []string
		want  []string
	}{
		{"standard library in the intro", std, []lesson.Cell{md("Write it.")}, []string{}, nil},
		{"nothing said", "", []lesson.Cell{md("Write it.")}, []string{}, []string{"the standard library"}},
		{"members and packages named", std, []lesson.Cell{md("Call `attention.Explain`; lib/viz draws it.")},
			[]string{"lib/attention.Explain", "lib/viz"}, nil},
		{"a member not named", std, []lesson.Cell{md("Call `attention.Explain`.")},
			[]string{"lib/attention.Explain", "lib/attention.Options"}, []string{"attention.Options"}},
		{"GoMLX's operations", std, []lesson.Cell{md("Use graph ops.")},
			[]string{"github.com/gomlx/gomlx/core/graph.Exp"}, []string{"GoMLX's graph operations"}},
		{"GoMLX named", std, []lesson.Cell{md("Use GoMLX's graph operations.")},
			[]string{"github.com/gomlx/gomlx/core/graph.Exp", "github.com/gomlx/compute/dtypes"}, nil},
	}
	for _, tt := range tests {
		if got := unnamedAllow(tt.intro, tt.cells, tt.allow); !slices.Equal(got, tt.want) {
			t.Errorf("%s: unnamedAllow = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestPreambleStopsAtFirstSection(t *testing.T) {
	cells := []lesson.Cell{md("# Title\n\nDo not call `lib/synthetic`.\n\n## Exercise 1\n\nDo not call `text.Pad`."), md("## Exercise 2")}
	got := preamble(cells)
	if !strings.Contains(got, "lib/synthetic") || strings.Contains(got, "text.Pad") {
		t.Errorf("preamble = %q: want the text before the first \"## \" only", got)
	}
}

// md is a Markdown cell.
func md(s string) lesson.Cell { return lesson.Cell{Kind: lesson.Markdown, Source: s} }
