package notebook

import (
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/lesson"
)

// TestClaimsBuiltAndChecked: a lesson's ```claims block reaches the built
// notebook's metadata, and the claims are held to what the executed
// notebook printed, in stdout and in a training's HTML progress line.
func TestClaimsBuiltAndChecked(t *testing.T) {
	src := "# T\n\nThe accuracy is 50.7%, trained in 26–37 s.\n\n```claims\n" +
		"\"50.7%\" ~ /length 12: ([\\d.]+)%/\n\"26–37 s\" ~ /in ([\\d.]+)s/ ×1.5\n```\n\n```go\nrun()\n```\n"
	l, err := lesson.Parse("lessons/t.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Default.Build(l)
	if err != nil {
		t.Fatal(err)
	}
	md := nb.Cells[0]
	if strings.Contains(md.Source, "claims") || !strings.Contains(md.Source, "trained in 26–37 s.") {
		t.Fatalf("the claims block is not removed from the Markdown:\n%s", md.Source)
	}
	code := len(nb.Cells) - 1
	tests := []struct {
		name    string
		outputs []Output
		flavour string
		want    []string // parts of the failures, in order
	}{
		{"both hold", []Output{{Type: Stream, Name: "stdout", Text: "length 12: 50.7%\n"},
			{Type: DisplayData, Data: map[string]string{"text/html": "<pre>plain: 600 steps in 31.2s (2s compiling)</pre><img src=\"data:image/png;base64,AAAA\">"}}}, "", nil},
		{"drifted", []Output{{Type: Stream, Name: "stdout", Text: "length 12: 48.0%\n"},
			{Type: DisplayData, Data: map[string]string{"text/html": "<pre>plain: 600 steps in 61.2s</pre>"}}}, "",
			[]string{"the text says 50.7, the notebook computed 48", "the text says 26–37, the notebook computed 61.2"}},
		{"not printed", nil, "", []string{"printed nothing that matches", "printed nothing that matches"}},
		{"exercise notebooks compute nothing", nil, "exercise", nil},
	}
	for _, tt := range tests {
		nb.Cells[code].Outputs = tt.outputs
		nb.Course.Flavour = tt.flavour
		fs := ClaimFailures(nb, 10)
		if len(fs) != len(tt.want) {
			t.Errorf("%s: %d failures %+v, want %d", tt.name, len(fs), fs, len(tt.want))
			continue
		}
		for i, f := range fs {
			if !strings.Contains(f.Text, tt.want[i]) || f.Index != 0 || f.Cell != 1 {
				t.Errorf("%s: failure %+v, want %q on the Markdown cell before In[1]", tt.name, f, tt.want[i])
			}
		}
	}
}

// TestUnclaimedFigureFailsTheBuild: a figure without a claim, and a claim
// whose text the prose lost, stop the build with the lesson's line.
func TestUnclaimedFigureFailsTheBuild(t *testing.T) {
	for src, want := range map[string]string{
		"# T\n\nIntro.\n\nIt took 3.8 s.\n":                                     `lessons/t.md:5: figures without a claim: ["3.8 s"]`,
		"# T\n\nIt took 4 s.\n\n```claims\n\"3.8 s\" ~ /in ([\\d.]+) s/\n```\n": `does not contain "3.8 s"`,
		"# T\n\nIt took 4 s.\n\n```claims\n\"4 s\" given\n```\n":                "",
	} {
		l, err := lesson.Parse("lessons/t.md", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Default.Build(l)
		if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%q: Build error %v, want %q", src, err, want)
		}
	}
}

// TestTimed: a notebook is timed when one of its claims is a timing (a
// printed figure within ×f, or the notebook's run time), whatever else it
// claims; the built notebook carries the claims that say so.
func TestTimed(t *testing.T) {
	tests := []struct {
		claims string
		want   bool
	}{
		{"\"50.7%\" ~ /length 12: ([\\d.]+)%/\n\"26–37 s\" ~ /in ([\\d.]+)s/ ×1.5\n", true},
		{"\"117–145 s\" ~ notebook ×2\n", true},
		{"\"50.7%\" ~ /length 12: ([\\d.]+)%/\n\"12 s\" given\n\"0.5\" ~ /x ([\\d.]+)/ ±0.1\n", false},
		{"", false},
	}
	for _, tt := range tests {
		src := "# T\n\nFigures: 50.7%, 26–37 s, 117–145 s, 12 s, 0.5.\n\n"
		if tt.claims != "" {
			src += "```claims\n" + tt.claims + "```\n\n"
		}
		src += "```go\nrun()\n```\n"
		l, err := lesson.Parse("lessons/t.md", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		nb, err := (&Builder{}).Build(l)
		if err != nil {
			t.Fatal(err)
		}
		if got := Timed(nb); got != tt.want {
			t.Errorf("Timed(a notebook claiming %q) = %v, want %v", tt.claims, got, tt.want)
		}
	}
}
