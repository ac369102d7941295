package grade

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/attention-in-go/course/lib/atomicfile"
)

// cache keeps each submission's result under a key of everything that
// decides it, authenticated with a key of its own (an HMAC): an entry
// that was not written by this grader into this output folder — placed
// there by hand, copied from elsewhere, or changed — is not trusted and
// the submission is graded again.
type cache struct {
	dir string
	key []byte
}

// openCache opens the cache in dir, creating its secret key on first
// use (readable by the instructor only; sandboxed code never sees the
// output folder).
func openCache(dir string) (*cache, error) {
	path := filepath.Join(dir, "key")
	key, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			_, err = f.Write(key)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if errors.Is(err, fs.ErrExist) { // another grader created it first
			key, err = os.ReadFile(path)
		}
		if err != nil {
			return nil, fmt.Errorf("cache key: %v", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("cache key: %v", err)
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("cache key %s is damaged: delete the folder %s to regrade everything", path, dir)
	}
	return &cache{dir: dir, key: key}, nil
}

// entry is one cached result as stored.
type entry struct {
	Key    string          `json:"key"`
	Graded json.RawMessage `json:"graded"`
	MAC    string          `json:"mac"`
}

func (c *cache) mac(key string, graded []byte) string {
	m := hmac.New(sha256.New, c.key)
	io.WriteString(m, key)
	m.Write([]byte{0})
	m.Write(graded)
	return hex.EncodeToString(m.Sum(nil))
}

func (c *cache) path(key string) string {
	h := sha256.Sum256([]byte(key))
	return filepath.Join(c.dir, hex.EncodeToString(h[:16])+".json")
}

// read returns the cached result of key, if there is a trustworthy one.
func (c *cache) read(key string) (Graded, bool) {
	var g Graded
	ok := c.get(key, &g)
	return g, ok
}

// write stores the result of key.
func (c *cache) write(key string, g Graded) error { return c.put(key, g) }

// get decodes the value stored under key into v, and reports whether
// there is one that this grader wrote.
func (c *cache) get(key string, v any) bool {
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return false
	}
	var e entry
	var value bytes.Buffer
	if json.Unmarshal(data, &e) != nil || e.Key != key || json.Compact(&value, e.Graded) != nil ||
		!hmac.Equal([]byte(e.MAC), []byte(c.mac(key, value.Bytes()))) {
		return false
	}
	return json.Unmarshal(e.Graded, v) == nil
}

// put stores v under key.
func (c *cache) put(key string, v any) error {
	value, err := json.Marshal(v)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(entry{Key: key, Graded: value, MAC: c.mac(key, value)}, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(c.path(key), append(data, '\n'))
}

// classRecord is the last run's results of the whole class, which a run
// that regrades some learners (Options.Learners) starts from.
type classRecord struct {
	Source string `json:"source"`
	Seed   uint64 `json:"seed"`
	// How the class run graded: the grader's executable, the limits and
	// the sandbox mode, which a regrade should share.
	Engine      string        `json:"engine"`
	Timeout     time.Duration `json:"timeout"`
	Memory      int64         `json:"memory"`
	Unsandboxed bool          `json:"unsandboxed"`
	Graded      []Graded      `json:"graded"`
}

// classKey is the cache key of the class record.
const classKey = "class record"

// cacheKey is the hash of everything that decides a submission's
// result: the grader (its own executable, which changes with any change
// to the checks), the assignment, the seed, the limits, the sandbox
// mode, the learner's name and the notebook.
func cacheKey(engine string, s Submission, a *Assignment, o Options, run Run) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%v\x00%d\x00%v\x00%q\x00%q\x00", Version, engine, a.Source, run.Seed,
		o.Timeout, o.Memory, run.Unsandboxed, s.Learner, s.Problem)
	for _, e := range a.Exercises {
		fmt.Fprintf(h, "%s:%d:%q:%q:%v\x00", e.ID, e.Points, e.Deny, e.Allow, e.MinTimeout)
	}
	h.Write(s.Data)
	return hex.EncodeToString(h.Sum(nil))
}

var (
	engineOnce sync.Once
	engine     string
	engineErr  error
)

// engineID is the hash of the running grader's executable.
func engineID() (string, error) {
	engineOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			engineErr = err
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			engineErr = err
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			engineErr = err
			return
		}
		engine = hex.EncodeToString(h.Sum(nil))
	})
	return engine, engineErr
}

// writeFileAtomic makes path's folder and writes the file atomically.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}
