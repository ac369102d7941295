package grade

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/attention-in-go/course/internal/coursemeta"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
)

// maxNotebook is the largest notebook the grader reads.
const maxNotebook = 64 << 20

// Submission is one learner's notebook.
type Submission struct {
	Learner string   // the file name without .ipynb, or the learner's folder
	Path    string   // the notebook, or "" when the folder has none
	Data    []byte   // the notebook, read by load when it is graded
	Problem string   // why the submission has no usable notebook
	Notes   []string // what the instructor should know (a name clash)
	name    string   // the entry of the submissions folder
}

// Find lists the submissions in dir: every *.ipynb file (one learner per
// file) and every folder (one learner per folder, holding one notebook;
// with several, the one named like the assignment, else a problem).
// Symbolic links are not followed. Two entries with the same learner
// name (alice.ipynb and alice/) keep both, told apart.
func Find(dir, slug string) ([]Submission, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var subs []Submission
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		switch {
		case e.Type()&os.ModeSymlink != 0:
			if strings.HasSuffix(name, ".ipynb") {
				subs = append(subs, Submission{Learner: strings.TrimSuffix(name, ".ipynb"), name: name,
					Problem: "the notebook is a symbolic link: copy the file itself into the submissions folder"})
			}
		case e.IsDir():
			s := Submission{Learner: name, name: name}
			nbs, _ := filepath.Glob(filepath.Join(path, "*.ipynb"))
			sort.Strings(nbs)
			switch {
			case len(nbs) == 0:
				s.Problem = "no notebook (.ipynb) in the folder"
			case len(nbs) == 1:
				s.Path = nbs[0]
			default:
				for _, nb := range nbs {
					if strings.TrimSuffix(filepath.Base(nb), ".ipynb") == slug {
						s.Path = nb
					}
				}
				if s.Path == "" {
					s.Problem = fmt.Sprintf("%d notebooks in the folder and none named %s.ipynb", len(nbs), slug)
				}
			}
			subs = append(subs, s)
		case strings.HasSuffix(name, ".ipynb"):
			subs = append(subs, Submission{Learner: strings.TrimSuffix(name, ".ipynb"), Path: path, name: name})
		}
	}
	byName := map[string][]int{}
	for i := range subs {
		byName[subs[i].Learner] = append(byName[subs[i].Learner], i)
		if subs[i].Path != "" {
			subs[i].Problem = checkNotebook(subs[i].Path)
		}
	}
	for learner, is := range byName {
		if len(is) < 2 {
			continue
		}
		for _, i := range is {
			subs[i].Learner = learner + " (" + subs[i].name + ")"
			subs[i].Notes = append(subs[i].Notes, fmt.Sprintf("%d submissions are named %q; this one is %s", len(is), learner, subs[i].name))
		}
	}
	return subs, nil
}

// checkNotebook says why the notebook at path cannot be read, or "": it
// is not a regular file (a symbolic link into the grader's files), or it
// is larger than the grader reads.
func checkNotebook(path string) string {
	st, err := os.Lstat(path)
	switch {
	case err != nil:
		return err.Error()
	case !st.Mode().IsRegular():
		return "the notebook is not a regular file (a symbolic link?): copy the file itself into the submissions folder"
	case st.Size() > maxNotebook:
		return fmt.Sprintf("the notebook is %d MiB, more than the %d MiB the grader reads", st.Size()>>20, maxNotebook>>20)
	}
	return ""
}

// load reads the submission's notebook into s.Data, once it is graded:
// the class's notebooks are never all in memory. A problem is set in
// s.Problem.
func (s *Submission) load() {
	if s.Path == "" || s.Problem != "" || s.Data != nil {
		return
	}
	if s.Problem = checkNotebook(s.Path); s.Problem != "" {
		return
	}
	f, err := os.Open(s.Path)
	if err != nil {
		s.Problem = err.Error()
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		s.Problem = err.Error()
		return
	}
	if st.Size() > 8<<20 {
		// Let the last large notebook go before reading this one: the
		// collector would free it only after this allocation.
		runtime.GC()
	}
	// One buffer of the file's size (and a byte to see it grew since):
	// a growing one would hold up to twice the notebook at its peak.
	data := make([]byte, min(st.Size(), maxNotebook)+1)
	n, err := io.ReadFull(f, data)
	switch {
	case err != nil && err != io.ErrUnexpectedEOF && err != io.EOF:
		s.Problem = err.Error()
	case n > maxNotebook:
		s.Problem = fmt.Sprintf("the notebook is more than the %d MiB the grader reads", maxNotebook>>20)
	default:
		s.Data = data[:n]
	}
}

// slim replaces s.Data with a copy without the cells' outputs, which
// grading never reads: the notebook's own bytes can then be let go.
func (s *Submission) slim() {
	if s.Data != nil {
		s.Data = bytes.Clone(notebook.StripOutputs(s.Data))
	}
}

// codeCell is one code cell of a submission.
type codeCell struct {
	number   int // 1-based position among all the notebook's cells
	source   string
	exercise string // from metadata, else from the marker line
	check    string
}

// cells decodes a notebook's code cells leniently (source as a string or
// a list of lines, nbformat not checked, fields of the wrong type
// ignored). A code cell whose source is not text is skipped, and said in
// ignored. It fails only when the file is not a JSON object with a list
// of objects as cells.
func cells(data []byte) (source string, out []codeCell, ignored []string, err error) {
	nb, problems, err := notebook.UnmarshalLenient(data)
	if err != nil {
		return "", nil, nil, fmt.Errorf("broken notebook (%v)", err)
	}
	unreadable := map[int]bool{}
	for _, p := range problems {
		if p.Field == "source" && nb.Cells[p.Cell-1].Type == notebook.Code {
			unreadable[p.Cell] = true
			ignored = append(ignored, fmt.Sprintf("code %v: the cell was ignored", p))
		}
	}
	// The course's metadata as far as it can be read: a field of the wrong
	// type is left out, as the decoder leaves out those of nbformat.
	meta, metas, _ := coursemeta.Read(nb)
	for i, c := range nb.Cells {
		if c.Type != notebook.Code || unreadable[i+1] {
			continue
		}
		cc := codeCell{number: i + 1, source: c.Source, exercise: metas[i].Exercise, check: metas[i].Check}
		if first, _, _ := strings.Cut(strings.TrimSpace(c.Source), "\n"); cc.exercise == "" {
			if id, _, ok := lesson.ParseMarker(first); ok {
				cc.exercise = id
			}
		}
		out = append(out, cc)
	}
	return meta.Source, out, ignored, nil
}
