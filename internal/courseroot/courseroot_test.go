package courseroot

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "// The course.\nmodule github.com/attention-in-go/course // comment\n\ngo 1.26\n")
	writeFile(t, filepath.Join(root, "tools", "go.mod"), "module github.com/attention-in-go/course/tools\n")
	writeFile(t, filepath.Join(root, "quoted", "go.mod"), "module \"github.com/attention-in-go/course\"\n")
	deep := filepath.Join(root, "tools", "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ dir, want string }{
		{root, root},
		{deep, root}, // tools/go.mod is another module
		{filepath.Join(root, "tools"), root},
		{filepath.Join(root, "quoted"), filepath.Join(root, "quoted")},
	}
	for _, tt := range tests {
		got, err := Find(tt.dir)
		if err != nil || got != tt.want {
			t.Errorf("Find(%s) = %q, %v; want %q", tt.dir, got, err, tt.want)
		}
	}
	if got, err := Find(t.TempDir()); err == nil {
		t.Errorf("Find outside the course = %q, want an error", got)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
