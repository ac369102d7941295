package notebook

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/attention-in-go/course/lib/atomicfile"
)

// WriteFile writes nb to path atomically (a temporary file in the same
// folder renamed over path), unless the file already holds exactly those
// bytes. It reports whether it wrote. The path must end in ".ipynb", which
// keeps it from overwriting a lesson source by mistake.
func WriteFile(path string, nb *Notebook) (written bool, err error) {
	if filepath.Ext(path) != ".ipynb" {
		return false, fmt.Errorf("notebook: refusing to write %s: not an .ipynb file", path)
	}
	data, err := Marshal(nb)
	if err != nil {
		return false, err
	}
	old, err := os.ReadFile(path)
	if err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	return true, atomicfile.WriteFile(path, data, 0o644)
}
