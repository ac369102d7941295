// Package atomicfile writes a file so that no reader, and no crash, ever
// sees half of it: the data goes to a temporary file in the target's
// folder, which is synced to disk and then renamed over the target. A
// failed write leaves the old file as it was and no temporary file behind.
//
// It is the course's one atomic write: figures a learner saves, recorded
// experiments and training histories (lib/), and the tooling's notebooks,
// grader cache, reports and gradebooks (internal/) all go through it, so
// that nothing a learner or an instructor made is lost to an interrupted
// run. It sits at the bottom of lib/, with the standard library only
// below it, so that both lib/ and the tooling above it can import it.
// (github.com/google/renameio does the same, but does not build on
// Windows, where lib/ must still compile.)
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically, with permissions perm (not
// reduced by the umask, as they would be by os.WriteFile). The folder
// must exist.
func WriteFile(path string, data []byte, perm fs.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil { // CreateTemp makes it 0600
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
