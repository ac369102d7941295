package build

import (
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/lesson"
)

// TestUnclaimedFigureFailsTheBuild: a figure without a claim, and a claim
// whose text the prose lost, stop the build with the lesson's line.
func TestUnclaimedFigureFailsTheBuild(t *testing.T) {
	for src, want := range map[string]string{
		"# T\n\nIntro.\n\nIt took 3.8 s.\n": `lessons/t.md:5: figures without a claim: ["3.8 s"]`,
		"# T\n\nIt took 4 s on two AVX2 cores.\n\n<!-- claims\n\"3.8 s\" ~ /in ([\\d.]+) s/ on AVX2/2\n-->\n": `does not contain "3.8 s"`,
		"# T\n\nIt took 4 s.\n\n<!-- claims\n\"4 s\" ~ /in ([\\d.]+) s/ on AVX2/2\n-->\n":                     `say in the text which machine the timing was measured on (AVX2, 2 cores)`,
		"# T\n\nIt took 4 s.\n\n<!-- claims\n\"4 s\" ~ /in ([\\d.]+) s/\n-->\n":                               `a timing depends on the machine`,
		"# T\n\nIt took 4 s.\n\n<!-- claims\n\"4 s\" given\n-->\n":                                            "a setting needs no claim",
		"# T\n\nIt took 4 s.\n\n```claims\n\"4 s\" = 4\n```\n":                                                "claims go in an HTML comment",
	} {
		l, err := lesson.Parse("lessons/t.md", []byte(src)) // a claim that does not parse fails here
		if err == nil {
			_, err = Default.Build(l)
		}
		if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%q: Build error %v, want %q", src, err, want)
		}
	}
}
