// Package courseroot locates the course on disk: the folder of the go.mod
// of its module, from which the commands and the repository-wide tests
// find lessons/, notebooks/ and lib/ wherever they run.
package courseroot

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// ModulePath is the course's Go module, whose go.mod marks the course root.
const ModulePath = "github.com/attention-in-go/course"

// Find returns the course root: the closest folder at or above dir whose
// go.mod declares ModulePath. (Nested modules, such as tools/, are skipped.)
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil && modfile.ModulePath(data) == ModulePath {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("not inside the course: no go.mod of module %s in %s or above", ModulePath, dir)
		}
	}
}

// Resolve resolves a directory flag: relative paths are relative to root.
func Resolve(root, dir string) string {
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir)
	}
	return filepath.Join(root, dir)
}

// Rel returns path relative to root, slash-separated, for messages; or
// path itself if it is outside root.
func Rel(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return filepath.ToSlash(rel)
}
