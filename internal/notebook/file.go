package notebook

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	return true, writeAtomic(path, data)
}

// writeAtomic writes data to a temporary file next to path and renames it
// to path, so that readers never see a partial file.
func writeAtomic(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
