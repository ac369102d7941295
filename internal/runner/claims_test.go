package runner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/build"
	"github.com/attention-in-go/course/internal/claim"
	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
)

// buildLesson builds the notebook of a lesson whose Markdown is src.
func buildLesson(t *testing.T, src string) *notebook.Notebook {
	t.Helper()
	l, err := lesson.Parse("lessons/t.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := build.Default.Build(l)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// TestClaimsBuiltAndChecked: a lesson's claims block reaches the built
// notebook's metadata, and the claims are held to what the executed
// notebook printed, in stdout and in a training's HTML progress line.
func TestClaimsBuiltAndChecked(t *testing.T) {
	src := "# T\n\nThe accuracy is 50.7%, trained in 26–37 s on two AVX-512 cores.\n\n<!-- claims\n" +
		"\"50.7%\" ~ length 12: #1\n\"26–37 s\" ~ /in ([\\d.]+)s/ ×1.5 on AVX-512/2\n-->\n\n```go\nrun()\n```\n"
	nb := buildLesson(t, src)
	md := nb.Cells[0]
	if strings.Contains(md.Source, "claims") || !strings.Contains(md.Source, "trained in 26–37 s on two") {
		t.Fatalf("the claims block is not removed from the Markdown:\n%s", md.Source)
	}
	code := len(nb.Cells) - 1
	here := claim.Machine{Kernels: "AVX-512", Cores: 2}
	elsewhere := claim.Machine{Kernels: "AVX2", Cores: 8}
	tests := []struct {
		name    string
		outputs []notebook.Output
		flavour string
		on      claim.Machine
		shared  float64  // 0: the run had the machine to itself
		want    []string // parts of the failures, in order
	}{
		{"both hold", []notebook.Output{{Type: notebook.Stream, Name: "stdout", Text: "length 12: 50.7%\n"},
			{Type: notebook.DisplayData, Data: map[string]string{"text/html": "<pre>plain: 600 steps in 31.2s (2s compiling)</pre><img src=\"data:image/png;base64,AAAA\">"}}}, "", here, 0, nil},
		// Beside other notebooks, 31.2 s is within 2 × 26/1.5 = 34.7 s:
		// it could be a stale text's run slowed by the others.
		{"shared, too close to vouch", []notebook.Output{{Type: notebook.Stream, Name: "stdout", Text: "length 12: 50.7%\n"},
			{Type: notebook.DisplayData, Data: map[string]string{"text/html": "<pre>plain: 600 steps in 31.2s</pre>"}}}, "", here, 2,
			[]string{"this run took 31.2 beside other work, which may have slowed it up to 2 times: it may be stale — run it alone"}},
		{"slower", []notebook.Output{{Type: notebook.Stream, Name: "stdout", Text: "length 12: 50.7%\n"},
			{Type: notebook.DisplayData, Data: map[string]string{"text/html": "<pre>plain: 600 steps in 91.2s</pre>"}}}, "", here, 2, nil},
		{"drifted", []notebook.Output{{Type: notebook.Stream, Name: "stdout", Text: "length 12: 48.0%\n"},
			{Type: notebook.DisplayData, Data: map[string]string{"text/html": "<pre>plain: 600 steps in 11.2s</pre>"}}}, "", here, 2,
			[]string{"the text says 50.7, the notebook computed 48", "the text says 26–37 (on AVX-512, 2 cores), this run took 11.2"}},
		{"another machine", []notebook.Output{{Type: notebook.Stream, Name: "stdout", Text: "length 12: 48.0%\n"},
			{Type: notebook.DisplayData, Data: map[string]string{"text/html": "<pre>plain: 600 steps in 1.2s</pre>"}}}, "", elsewhere, 2,
			[]string{"the text says 50.7, the notebook computed 48"}},
		{"not printed", nil, "", here, 0, []string{"printed no line that starts with \"length 12:\"", "printed nothing that matches"}},
		{"not printed, another machine", nil, "", elsewhere, 0, []string{"printed no line that starts with"}},
		{"exercise notebooks compute nothing", nil, "exercise", here, 2, nil},
	}
	for _, tt := range tests {
		nb.Cells[code].Outputs = tt.outputs
		coursemeta.Set(nb, coursemeta.Notebook{Source: "lessons/t.md", Flavour: tt.flavour})
		fs := claimFailures(nb, 10, tt.on, tt.shared)
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

// TestTimed: a notebook is timed on a machine when one of its claims is a
// timing (a printed time, a figure within ×f, or the notebook's run time)
// measured there, whatever else it claims; the built notebook carries the
// claims that say so, and timedElsewhere names the other machines.
func TestTimed(t *testing.T) {
	here := claim.Machine{Kernels: "AVX-512", Cores: 2}
	tests := []struct {
		claims    string
		want      bool
		elsewhere string
	}{
		{"\"50.7%\" ~ /length 12: ([\\d.]+)%/\n\"26–37 s\" ~ /in ([\\d.]+)s/ ×1.5 on AVX-512/2\n", true, ""},
		{"\"117–145 s\" ~ notebook ×2 on AVX-512/2\n", true, ""},
		{"\"117–145 s\" ~ notebook ×2 on AVX2/2\n\"26–37 s\" ~ /in ([\\d.]+)s/ on plain/2\n", false, "[AVX2, 2 cores plain Go, 2 cores]"},
		{"\"117–145 s\" ~ notebook ×2 on AVX-512/1\n\"26–37 s\" ~ /in ([\\d.]+)s/ on AVX-512/2\n", true, "[AVX-512, 1 core]"},
		{"\"50.7%\" ~ /length 12: ([\\d.]+)%/\n\"12 s\" = 12\n\"0.5\" ~ /x ([\\d.]+)/ ±0.1\n", false, ""},
		{"", false, ""},
	}
	for _, tt := range tests {
		src := "# T\n\nFigures: 50.7%, 26–37 s, 117–145 s, 12 s, 0.5; on two or 2 cores or one core, AVX-512, AVX2 or plain Go.\n\n"
		if tt.claims != "" {
			src += "<!-- claims\n" + tt.claims + "-->\n\n"
		}
		src += "```go\nrun()\n```\n"
		l, err := lesson.Parse("lessons/t.md", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		nb, err := (&build.Builder{}).Build(l)
		if err != nil {
			t.Fatal(err)
		}
		if got := timedOn(nb, here); got != tt.want {
			t.Errorf("timedOn(a notebook claiming %q) = %v, want %v", tt.claims, got, tt.want)
		}
		if got := timedElsewhere(nb, here); fmt.Sprint(got) != tt.elsewhere && (len(got) > 0 || tt.elsewhere != "") {
			t.Errorf("timedElsewhere(a notebook claiming %q) = %v, want %s", tt.claims, got, tt.elsewhere)
		}
	}
}

// TestRetries: a run that shared the machine runs again alone only when
// every failure is a claim of the text that a run alone might satisfy —
// a timing that missed only the shared bound, a printed figure — never
// after a stale timing, a failed cell or an error, nor a run made alone.
func TestRetries(t *testing.T) {
	src := "# T\n\nThe accuracy is 50.7%, trained in 30 s on two AVX-512 cores.\n\n<!-- claims\n" +
		"\"50.7%\" ~ length 12: #1\n\"30 s\" ~ /in ([\\d.]+)s/ ×1.5 on AVX-512/2\n-->\n\n```go\nrun()\n```\n"
	here := claim.Machine{Kernels: "AVX-512", Cores: 2}
	stdout := func(s string) notebook.Output { return notebook.Output{Type: notebook.Stream, Name: "stdout", Text: s} }
	// Alone, the timing holds from 20 s; shared (slowdown 2), from 40 s.
	tests := []struct {
		name    string
		outputs []notebook.Output
		shared  float64
		err     error
		want    int
	}{
		{"passes shared", []notebook.Output{stdout("length 12: 50.7%\nin 45s\n")}, 2, nil, 0},
		{"timing too close to vouch", []notebook.Output{stdout("length 12: 50.7%\nin 25s\n")}, 2, nil, 1},
		{"the same, alone", []notebook.Output{stdout("length 12: 50.7%\nin 25s\n")}, 0, nil, 0},
		{"stale even alone", []notebook.Output{stdout("length 12: 50.7%\nin 15s\n")}, 2, nil, 0},
		{"a printed figure", []notebook.Output{stdout("length 12: 48.0%\nin 45s\n")}, 2, nil, 1},
		{"a figure and a close timing", []notebook.Output{stdout("length 12: 48.0%\nin 25s\n")}, 2, nil, 2},
		{"a figure and a stale timing", []notebook.Output{stdout("length 12: 48.0%\nin 15s\n")}, 2, nil, 0},
		{"a failed cell", []notebook.Output{stdout("length 12: 50.7%\nin 25s\n"), {Type: notebook.ErrorOutput, Text: "panic: x"}}, 2, nil, 0},
		{"an error", []notebook.Output{stdout("length 12: 50.7%\nin 25s\n")}, 2, fmt.Errorf("timed out"), 0},
	}
	for _, tt := range tests {
		nb := buildLesson(t, src)
		nb.Cells[len(nb.Cells)-1].Outputs = tt.outputs
		res := Result{Machine: here, Shared: tt.shared, Notebook: nb, Err: tt.err}
		if got := len(res.retries()); got != tt.want {
			t.Errorf("%s: retries() = %d, want %d; failures %+v", tt.name, got, tt.want, res.failures())
		}
	}
}
