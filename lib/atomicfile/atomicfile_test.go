package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gradebook.csv")
	for _, content := range []string{"first\n", "second, longer than the first\n", ""} {
		if err := WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q (%v), want %q", got, err, content)
		}
	}
	if runtime.GOOS != "windows" {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644 whatever the umask", info.Mode().Perm())
		}
	}
	checkOnly(t, dir, "gradebook.csv")
}

// TestWriteFileFailureKeepsTheOld: when the rename cannot happen (the
// target is a folder), the target is untouched and no temporary file is
// left; when the folder does not exist, nothing is created.
func TestWriteFileFailureKeepsTheOld(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report.html")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "kept"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, []byte("new"), 0o644); err == nil {
		t.Fatal("writing over a folder succeeded")
	}
	if _, err := os.Stat(filepath.Join(target, "kept")); err != nil {
		t.Errorf("the folder's content is gone: %v", err)
	}
	checkOnly(t, dir, "report.html")

	if err := WriteFile(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
	checkOnly(t, dir, "report.html")
}

// checkOnly fails unless dir holds exactly the named entries.
func checkOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("%s holds %q, want %q", dir, got, names)
	}
	for i := range names {
		if got[i] != names[i] {
			t.Fatalf("%s holds %q, want %q", dir, got, names)
		}
	}
}
