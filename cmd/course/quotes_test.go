package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildChecksQuotes: the build reads a ```go noexec quote=PATH block's
// file relative to the course root, wherever it runs from, and fails on a
// quote that no longer matches it, naming the lesson's line.
func TestBuildChecksQuotes(t *testing.T) {
	const lib = "package a\n\nfunc F(x int) int {\n\ty := x * 2 // double\n\treturn y + 1\n}\n"
	tests := []struct {
		name       string
		block      string // the block's info string and content, after the fences' opening ```
		wantCode   int
		wantStderr string
	}{
		{"matching quote", "go noexec quote=lib/a/a.go\ny := x*2\nreturn y + 1 // and one", 0, ""},
		{"sketch", "go noexec sketch\nanything(at all)", 0, ""},
		{"drifted quote", "go noexec quote=lib/a/a.go\ny := x * 3\nreturn y + 1", 1,
			`lessons/01-a.md:6: quote=lib/a/a.go: "y := x * 3" is not in the library; the library is the truth: copy the lines from lib/a/a.go again`},
		{"missing file", "go noexec quote=lib/b/b.go\ny := x * 2", 1,
			"lessons/01-a.md:5: quote=lib/b/b.go: no such file"},
		{"unmarked block", "go noexec\ny := x * 2", 1,
			"lessons/01-a.md:5: a block that is not run says what it is"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newCourse(t, map[string]string{"01-a.md": "# A\n\nText.\n\n```" + tt.block + "\n```\n"})
			writeFile(t, filepath.Join(root, "lib", "a", "a.go"), lib)
			code, _, stderr := runCourse(t, filepath.Join(root, "lessons"), "build")
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("build: status %d, stderr %q; want %d and %q", code, stderr, tt.wantCode, tt.wantStderr)
			}
		})
	}
}
