package sandbox

import (
	"os"
	"os/exec"
	"testing"
)

// TestBuildsForOtherSystems vets the package for macOS and Windows: the
// sandbox runs only on Linux, but a learner on a Mac runs `go vet ./...`
// in `make test`, and the grader's packages must compile there (and
// say, when grading, that it needs Linux).
func TestBuildsForOtherSystems(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	for _, target := range [][2]string{{"darwin", "arm64"}, {"darwin", "amd64"}, {"windows", "amd64"}} {
		cmd := exec.Command("go", "vet", ".")
		cmd.Env = append(os.Environ(), "GOOS="+target[0], "GOARCH="+target[1])
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=%s GOARCH=%s go vet: %v\n%s", target[0], target[1], err, out)
		}
	}
}
