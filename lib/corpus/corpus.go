// Package corpus is the text of lesson 10's language models: a fixed list
// of files of the Go standard library, read from the Go installation every
// learner already has ($(go env GOROOT)/src, BSD-licensed), split into
// training and test text by file, as bytes. It also holds the n-gram
// baselines the lesson measures the GPT against ([NGram], [KneserNey])
// and bits per character.
//
// Byte-level: every byte is a token, so the vocabulary is the 256 byte
// values and nothing is ever unknown.
//
// Introduced in lesson 10 (a GPT that writes Go).
package corpus

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// TrainFiles are the standard-library files of the training text, paths
// under $GOROOT/src. Test files are [TestFiles]; no file is in both.
//
// Introduced in lesson 10.
var TrainFiles = []string{
	"bufio/bufio.go",
	"bytes/buffer.go", "bytes/bytes.go", "bytes/iter.go", "bytes/reader.go",
	"container/heap/heap.go", "container/ring/ring.go",
	"encoding/base64/base64.go", "encoding/csv/writer.go", "encoding/hex/hex.go",
	"errors/errors.go", "errors/join.go", "errors/wrap.go",
	"io/io.go", "io/multi.go",
	"maps/iter.go", "maps/maps.go",
	"path/match.go", "path/path.go",
	"path/filepath/path.go", "path/filepath/path_unix.go", "path/filepath/symlink.go",
	"slices/iter.go", "slices/slices.go", "slices/sort.go", "slices/zsortanyfunc.go",
	"sort/search.go", "sort/slice.go", "sort/sort.go", "sort/zsortinterface.go",
	"strconv/doc.go", "strconv/number.go", "strconv/quote.go",
	"strings/builder.go", "strings/compare.go", "strings/iter.go", "strings/reader.go",
	"strings/search.go", "strings/strings.go",
	"text/tabwriter/tabwriter.go",
	"unicode/utf8/utf8.go",
}

// TestFiles are the held-out files: whole files the models never see in
// training, from packages whose other files they do see.
//
// Introduced in lesson 10.
var TestFiles = []string{
	"bufio/scan.go",
	"container/list/list.go",
	"encoding/csv/reader.go",
	"io/pipe.go",
	"path/filepath/match.go",
	"strings/replace.go",
}

// Split is the text of lesson 10: the training files and the test files,
// each list concatenated in order.
//
// Introduced in lesson 10.
type Split struct {
	Root        string // the folder the files were read from, $GOROOT/src
	Train, Test []byte
}

// Root returns $GOROOT/src: the GOROOT of the go command on the PATH
// (`go env GOROOT`), else the GOROOT environment variable.
//
// Part of the library behind lesson 10; the lesson does not name it.
func Root() (string, error) {
	goroot := ""
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goroot = strings.TrimSpace(string(out))
	}
	if goroot == "" {
		goroot = os.Getenv("GOROOT")
	}
	if goroot == "" {
		return "", fmt.Errorf("corpus: cannot find the Go installation: `go env GOROOT` failed and GOROOT is not set")
	}
	src := filepath.Join(goroot, "src")
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		return "", fmt.Errorf("corpus: no Go standard library source in %q: install Go with its sources (the official tarball has them) or set GOROOT", src)
	}
	return src, nil
}

// Load reads [TrainFiles] and [TestFiles] from the Go installation's
// source folder ([Root]).
//
// Introduced in lesson 10.
func Load() (*Split, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	return LoadFrom(root)
}

// LoadFrom reads [TrainFiles] and [TestFiles] under root. A missing file is
// an error naming it: the lesson's list was made for Go 1.26, and another
// release may have moved a file.
//
// Part of the library behind lesson 10; the lesson does not name it.
func LoadFrom(root string) (*Split, error) {
	read := func(files []string) ([]byte, error) {
		var b bytes.Buffer
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
			if err != nil {
				return nil, fmt.Errorf("corpus: %w — the lesson's file list was made for Go 1.26 (this is %s); use a Go 1.26 installation or edit corpus.TrainFiles/TestFiles", err, runtime.Version())
			}
			b.Write(data)
			if len(data) > 0 && data[len(data)-1] != '\n' {
				b.WriteByte('\n')
			}
		}
		return b.Bytes(), nil
	}
	train, err := read(TrainFiles)
	if err != nil {
		return nil, err
	}
	test, err := read(TestFiles)
	if err != nil {
		return nil, err
	}
	return &Split{Root: root, Train: train, Test: test}, nil
}

// String says how large each part is, with a fingerprint of the text, so
// that two machines can see they train on the same bytes.
func (s *Split) String() string {
	h := sha256.New()
	h.Write(s.Train)
	h.Write(s.Test)
	return fmt.Sprintf("train: %d files, %d bytes; test: %d files, %d bytes; sha256 %x",
		len(TrainFiles), len(s.Train), len(TestFiles), len(s.Test), h.Sum(nil)[:6])
}

// Windows cuts text into examples for a language model: inputs are
// text[i : i+seq] and targets text[i+1 : i+seq+1] (the next byte of every
// position), for i = 0, stride, 2·stride, … while a whole window fits.
// Both are returned flat, one example after the other, as int32 ids. The
// text is bytes (lesson 10) or token ids (lesson 12's BPE).
//
// Typical shapes: → inputs and targets [n·seq], n examples of [seq].
//
// Introduced in lesson 10.
func Windows[T byte | int32](text []T, seq, stride int) (inputs, targets []int32, n int) {
	if seq < 1 || stride < 1 {
		panic(fmt.Sprintf("corpus.Windows: seq and stride must be ≥ 1, got %d and %d", seq, stride))
	}
	for i := 0; i+seq+1 <= len(text); i += stride {
		for j := range seq {
			inputs = append(inputs, int32(text[i+j]))
			targets = append(targets, int32(text[i+j+1]))
		}
		n++
	}
	return inputs, targets, n
}
