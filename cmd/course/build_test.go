package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/courseroot"
	"github.com/attention-in-go/course/internal/notebook"
)

// newCourse makes a course root in a temporary folder with the given
// lessons (file name → content) and returns it.
func newCourse(t *testing.T, lessons map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module "+courseroot.ModulePath+"\n\ngo 1.26\n")
	for name, content := range lessons {
		writeFile(t, filepath.Join(root, "lessons", name), content)
	}
	return root
}

var twoLessons = map[string]string{
	"01-a.md": "# Lesson A\n\nText.\n\n```go\n%%\nfmt.Println(\"a\")\n```\n",
	"02-b.md": "# Lesson B\n\n## Part\n\n```go\nx := 2\n```\n",
}

func TestBuildWritesThenUnchanged(t *testing.T) {
	root := newCourse(t, twoLessons)
	sub := filepath.Join(root, "lessons") // run from below the root
	code, stdout, stderr := runCourse(t, sub, "build")
	if want := "written   notebooks/01-a.ipynb\nwritten   notebooks/02-b.ipynb\n"; code != 0 || stdout != want {
		t.Fatalf("first build: status %d, stdout %q, want 0, %q (stderr %q)", code, stdout, want, stderr)
	}
	code, stdout, _ = runCourse(t, root, "build")
	if want := "unchanged notebooks/01-a.ipynb\nunchanged notebooks/02-b.ipynb\n"; code != 0 || stdout != want {
		t.Errorf("second build: status %d, stdout %q, want 0, %q", code, stdout, want)
	}
	nb, err := notebook.ReadFile(filepath.Join(root, "notebooks", "01-a.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if m, _, _ := coursemeta.Read(nb); m.Source != "lessons/01-a.md" {
		t.Errorf("metadata course.source = %v, want lessons/01-a.md", m.Source)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(root, "notebooks", ".*")); len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

func TestBuildCheck(t *testing.T) {
	tests := []struct {
		name       string
		change     func(t *testing.T, root string) // after a fresh build
		wantCode   int
		wantStderr []string
	}{
		{
			name:     "fresh build passes",
			change:   func(*testing.T, string) {},
			wantCode: exitOK,
		},
		{
			name: "notebook edited by hand",
			change: func(t *testing.T, root string) {
				p := filepath.Join(root, "notebooks", "01-a.ipynb")
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, p, strings.Replace(string(data), "Text.", "Text!", 1))
			},
			wantCode:   exitFailed,
			wantStderr: []string{"stale   notebooks/01-a.ipynb (differs from what lessons/01-a.md builds)", "run `make notebooks` and commit the result"},
		},
		{
			name: "lesson edited, notebook not rebuilt",
			change: func(t *testing.T, root string) {
				writeFile(t, filepath.Join(root, "lessons", "02-b.md"), twoLessons["02-b.md"]+"\nMore.\n")
			},
			wantCode:   exitFailed,
			wantStderr: []string{"stale   notebooks/02-b.ipynb"},
		},
		{
			name: "new lesson not built",
			change: func(t *testing.T, root string) {
				writeFile(t, filepath.Join(root, "lessons", "03-c.md"), "# C\n")
			},
			wantCode:   exitFailed,
			wantStderr: []string{"missing notebooks/03-c.ipynb (built from lessons/03-c.md)"},
		},
		{
			name: "notebook without a source",
			change: func(t *testing.T, root string) {
				if err := os.Remove(filepath.Join(root, "lessons", "01-a.md")); err != nil {
					t.Fatal(err)
				}
			},
			wantCode:   exitFailed,
			wantStderr: []string{"orphan  notebooks/01-a.ipynb (no source lessons/01-a.md)"},
		},
		{
			name: "broken lesson",
			change: func(t *testing.T, root string) {
				writeFile(t, filepath.Join(root, "lessons", "02-b.md"), "# B\n\n```go\nx := 1\n")
			},
			wantCode:   exitFailed,
			wantStderr: []string{"lessons/02-b.md:3: unclosed code fence ```"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newCourse(t, twoLessons)
			if code, _, stderr := runCourse(t, root, "build"); code != 0 {
				t.Fatalf("build: status %d: %s", code, stderr)
			}
			tt.change(t, root)
			before := snapshot(t, root)
			code, stdout, stderr := runCourse(t, root, "build", "-check")
			if code != tt.wantCode {
				t.Errorf("build -check: status %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, stdout, stderr)
			}
			for _, want := range tt.wantStderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if after := snapshot(t, root); after != before {
				t.Errorf("build -check changed files:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// snapshot describes every file under root, to detect writes.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		b.WriteString(path + "=" + string(data) + ";")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestBuildFlags(t *testing.T) {
	root := newCourse(t, nil)
	writeFile(t, filepath.Join(root, "src", "05-e.md"), "# E\n")
	out := t.TempDir() // absolute -out
	code, stdout, stderr := runCourse(t, root, "build", "-lessons", "src", "-out", out)
	if code != 0 || !strings.Contains(stdout, "written   "+filepath.Join(out, "05-e.ipynb")) {
		t.Errorf("build -lessons src -out %s: status %d, stdout %q, stderr %q", out, code, stdout, stderr)
	}
	if code, _, stderr := runCourse(t, root, "build", "-out", "lessons"); code != exitUsage || !strings.Contains(stderr, "-out must not be the lessons folder") {
		t.Errorf("build -out lessons: status %d, stderr %q; want %d and a refusal", code, stderr, exitUsage)
	}
}

func TestBuildWarnsAboutOrphans(t *testing.T) {
	root := newCourse(t, twoLessons)
	writeFile(t, filepath.Join(root, "notebooks", "09-old.ipynb"), "{}")
	code, _, stderr := runCourse(t, root, "build")
	if want := "warning: notebooks/09-old.ipynb has no source: add lessons/09-old.md or delete it"; code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("build: status %d, stderr %q; want 0 and %q", code, stderr, want)
	}
}
