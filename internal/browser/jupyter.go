//go:build unix

package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/attention-in-go/course/internal/excerpt"
	"github.com/attention-in-go/course/internal/jupyter"
	"github.com/attention-in-go/course/internal/proctree"
)

// JupyterOptions configures [StartJupyter].
type JupyterOptions struct {
	// Jupyter is the jupyter program; empty means [jupyter.Find].
	Jupyter string
	// Dir is the server's root folder, where the notebooks are.
	Dir string
	// Temp is a folder for the server's runtime and config folders, so that
	// nothing of the user's Jupyter configuration applies. Kernel specs are
	// still found in the usual data folders.
	Temp string
	// Env is the server's environment, which its kernels inherit; nil means
	// os.Environ().
	Env []string
	// StartTimeout limits how long the server may take to answer; 0 means
	// one minute.
	StartTimeout time.Duration
}

// Jupyter is a running Jupyter Notebook server.
type Jupyter struct {
	// URL is the server's base URL, http://127.0.0.1:PORT, without a
	// trailing slash.
	URL string
	// Token is the server's authentication token.
	Token string
	// Dir is the server's root folder.
	Dir string

	cmd  *exec.Cmd
	log  *excerpt.Tail // the end of the server's stdout and stderr
	done chan struct{} // closed when the server has exited
	err  error         // why it exited, once done is closed
}

// StartJupyter starts a Jupyter Notebook server (notebook 6's `jupyter
// notebook`) on a free port of 127.0.0.1 with a random token, and waits until
// it answers. The server runs in a process group of its own, so that a
// Ctrl-C meant for the caller does not reach it; on Linux it also gets
// SIGTERM if the caller dies. Stop it with [Jupyter.Stop].
func StartJupyter(ctx context.Context, opts JupyterOptions) (*Jupyter, error) {
	program := opts.Jupyter
	if program == "" {
		var err error
		if program, err = jupyter.Find(); err != nil {
			return nil, fmt.Errorf("%v: %s", err, jupyter.SetupAdvice)
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	token, err := randomToken()
	if err != nil {
		return nil, err
	}
	runtimeDir, configDir := filepath.Join(opts.Temp, "runtime"), filepath.Join(opts.Temp, "config")
	for _, d := range []string{runtimeDir, configDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	args := []string{"notebook",
		"--no-browser",
		"--ip=127.0.0.1",
		"--port=" + strconv.Itoa(port),
		"--port-retries=0",
		"--notebook-dir=" + opts.Dir,
		"--NotebookApp.token=" + token,
		"--NotebookApp.password=",
	}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root")
	}
	cmd := exec.Command(program, args...)
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(withoutKeys(env, "JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR"),
		"JUPYTER_RUNTIME_DIR="+runtimeDir, "JUPYTER_CONFIG_DIR="+configDir)
	cmd.Dir = opts.Dir
	log := excerpt.NewTail(logLimit)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s notebook: %w", program, err)
	}
	j := &Jupyter{
		URL:   "http://127.0.0.1:" + strconv.Itoa(port),
		Token: token,
		Dir:   opts.Dir,
		cmd:   cmd,
		log:   log,
		done:  make(chan struct{}),
	}
	go func() {
		j.err = cmd.Wait()
		close(j.done)
	}()
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = time.Minute
	}
	if err := j.waitReady(ctx, timeout); err != nil {
		j.Stop()
		return nil, err
	}
	return j, nil
}

// waitReady polls the server's status API until it answers.
func (j *Jupyter) waitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	status := j.URL + "/api/status?token=" + url.QueryEscape(j.Token)
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, status, nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-j.done:
			return fmt.Errorf("jupyter notebook exited (%v) before answering; its log:\n%s", j.err, j.Log())
		case <-ctx.Done():
			return fmt.Errorf("jupyter notebook did not answer on %s within %v: %v; its log:\n%s", j.URL, timeout, ctx.Err(), j.Log())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// PID returns the server's process id.
func (j *Jupyter) PID() int { return j.cmd.Process.Pid }

// NotebookURL returns the URL that opens the notebook at rel, a
// slash-separated path relative to the server's root, logging in with the
// token.
func (j *Jupyter) NotebookURL(rel string) string {
	return j.URL + "/notebooks/" + (&url.URL{Path: rel}).EscapedPath() + "?token=" + url.QueryEscape(j.Token)
}

// logLimit bounds the part of the server's log a Jupyter keeps: a server
// that runs for the whole browser test logs every request and every
// kernel message, and only its end explains a failure.
const logLimit = 64 << 10

// Log returns the end of what the server has written to its stdout and
// stderr (at most 64 KiB).
func (j *Jupyter) Log() string { return j.log.String() }

// Stop stops the server and every process it started (its kernels and
// theirs), by process id: SIGTERM, then SIGKILL after a grace period. A
// kernel that outlived its server is no longer its descendant, so Stop also
// stops every process still working in the server's folder (kernels start
// in their notebook's folder). It returns the processes it signalled; [Alive]
// of those is empty once Stop has returned, unless one could not be killed.
func (j *Jupyter) Stop() []int {
	var pids []int
	select {
	case <-j.done:
	default:
		pids = proctree.Stop([]int{j.PID()}, j.PID(), 10*time.Second)
		select {
		case <-j.done:
		case <-time.After(5 * time.Second):
		}
	}
	if left := ProcessesIn(j.Dir); len(left) > 0 {
		pids = append(pids, proctree.Stop(left, 0, 5*time.Second)...)
	}
	return pids
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// randomToken returns 24 random bytes in hex.
func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// withoutKeys returns env without the variables named keys.
func withoutKeys(env []string, keys ...string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, key := range keys {
			if k == key {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

// sysProcAttr puts a child in its own process group and, on Linux, asks the
// kernel to send it SIGTERM when its parent dies.
func sysProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(attr)
	return attr
}
