package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
)

// parseLibrary parses the non-test Go files under root/lib with mode and
// calls fn with each file and its path relative to root, slash-separated
// (lib/attention/score.go).
func parseLibrary(root string, fset *token.FileSet, mode parser.Mode, fn func(rel string, f *ast.File) error) error {
	return filepath.WalkDir(filepath.Join(root, "lib"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, mode)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), f)
	})
}
