// Package record keeps experiments too long for a lesson cell, measured
// once per kernel class, in a JSON file under a package's testdata: a
// test run with a flag measures the class it runs on and replaces that
// class's entry, the other classes' entries stay, and the lesson prints
// the file.
//
// Part of the library behind lessons 09 and 10; the lessons do not name
// it.
package record

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/attention-in-go/course/lib/atomicfile"
	"github.com/attention-in-go/course/lib/backend"
)

// Replace reads the entries of path (a JSON list; a missing file is an
// empty list), replaces the one of entry's kernel class (kernels names an
// entry's class) or adds it, orders them fastest class first (AVX-512,
// AVX2, plain Go, whatever the machine that records) and
// writes the file atomically: a temporary file in the same folder,
// renamed over the old one, so a failed run never leaves half a file.
func Replace[T any](path string, entry T, kernels func(T) string) error {
	var entries []T
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &entries); err != nil {
			return fmt.Errorf("record: %s: %w", path, err)
		}
	case !os.IsNotExist(err):
		return err
	}
	entries = slices.DeleteFunc(entries, func(e T) bool { return kernels(e) == kernels(entry) })
	entries = append(entries, entry)
	order := map[string]int{backend.AVX512: 0, backend.AVX2: 1, backend.Plain: 2}
	slices.SortStableFunc(entries, func(a, b T) int { return order[kernels(a)] - order[kernels(b)] })
	out, err := json.MarshalIndent(entries, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(out, '\n'), 0o644)
}
