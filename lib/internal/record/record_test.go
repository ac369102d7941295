package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/backend"
)

type entry struct {
	Kernels string `json:"kernels"`
	Value   int    `json:"value"`
}

// TestReplace: a class's entry is replaced, the others kept, the order
// is fastest class first whatever the order of the runs (and whatever
// this machine's classes), and no temporary
// file is left behind.
func TestReplace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.json")
	last, first := backend.Plain, backend.AVX512
	k := func(e entry) string { return e.Kernels }
	for _, e := range []entry{{last, 1}, {first, 2}, {last, 3}} {
		if err := Replace(path, e, k); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(strings.Fields(string(data)), " ")
	want := `[ { "kernels": "` + first + `", "value": 2 }, { "kernels": "` + last + `", "value": 3 } ]`
	if got != want {
		t.Errorf("file %s, want %s", got, want)
	}
	if files, _ := os.ReadDir(filepath.Dir(path)); len(files) != 1 {
		t.Errorf("%d files in the folder, want only x.json", len(files))
	}
	if err := os.WriteFile(path, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Replace(path, entry{first, 4}, k); err == nil {
		t.Error("a file that is not JSON was overwritten; want an error")
	}
}
