package build

import (
	"path/filepath"
	"testing"

	"github.com/attention-in-go/course/internal/courseroot"
)

// TestCommittedNotebooksUpToDate builds the course's lessons and exercise
// sources in memory and compares them with the committed notebooks,
// exercises and solutions, like `build -check`.
func TestCommittedNotebooksUpToDate(t *testing.T) {
	root, err := courseroot.Find(".")
	if err != nil {
		t.Fatal(err)
	}
	if sources, _ := filepath.Glob(filepath.Join(root, "lessons", "*.md")); len(sources) == 0 {
		t.Skip("no lessons/*.md yet")
	}
	for _, tg := range Targets(root, "lessons", "notebooks", "lessons/exercises", ".", true) {
		builds, err := tg.BuildAll()
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := tg.Problems(builds)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			t.Error(m)
		}
		if len(msgs) > 0 {
			t.Log(StaleAdvice)
		}
	}
}
