package docker

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/attention-in-go/course/internal/dockerfile"
)

// TestDockerfile checks docker/Dockerfile with the repository as its build
// context.
func TestDockerfile(t *testing.T) {
	problems, err := dockerfile.Check("Dockerfile", "..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("docker/Dockerfile: %s", p)
	}
}

// installEnv returns the environment for running scripts/install.sh as a
// new user whose home is home: nothing of ours that says where Jupyter or
// Go keep their files, except the module and build caches, shared so that
// the run is quick and works offline (GOPROXY=off).
func installEnv(t *testing.T, home string, extra ...string) []string {
	t.Helper()
	goenv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || strings.HasPrefix(k, "GO") || strings.HasPrefix(k, "JUPYTER") ||
			strings.HasPrefix(k, "XDG_") || strings.HasPrefix(k, "COURSE_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"GOPATH="+filepath.Join(home, "go"),
		"GOMODCACHE="+goenv("GOMODCACHE"),
		"GOCACHE="+goenv("GOCACHE"),
		"GOFLAGS="+goenv("GOFLAGS"),
		"GOTOOLCHAIN=local",
		"GOPROXY=off",
		"COURSE_SKIP_APT=1",
	)
	return append(env, extra...)
}

// requireInstallable skips the test unless Go and Jupyter are installed,
// as `make setup` leaves them.
func requireInstallable(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs scripts/install.sh: skipped in -short mode")
	}
	if _, err := exec.LookPath("jupyter"); err != nil {
		if _, err := os.Stat("/usr/bin/jupyter"); err != nil {
			t.Skip("Jupyter is not installed: run `make setup`")
		}
	}
}

// runInstall runs scripts/install.sh with env, wrapped in wrap (a command
// and its arguments, before the script) if not nil.
func runInstall(t *testing.T, env []string, wrap ...string) (stdout, stderr string, err error) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "scripts", "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	args := append(wrap, "bash", script)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// checkKernel checks that the kernel spec at path runs gobin/gonb, or the
// copy that gonb --install makes next to the spec when it lives under
// /tmp, as in these tests.
func checkKernel(t *testing.T, path, gobin string) {
	t.Helper()
	got := kernelArgv0(t, path)
	if got != filepath.Join(gobin, "gonb") && got != filepath.Join(filepath.Dir(path), "gonb") {
		t.Errorf("kernel spec %s runs %s, want %s", path, got, filepath.Join(gobin, "gonb"))
	}
}

// kernelArgv0 returns the program of the kernel spec at path.
func kernelArgv0(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no kernel spec: %v", err)
	}
	var spec struct{ Argv []string }
	if err := json.Unmarshal(data, &spec); err != nil || len(spec.Argv) == 0 {
		t.Fatalf("bad kernel spec %s: %v", path, err)
	}
	return spec.Argv[0]
}

// TestInstallFreshHome runs the install script as a user who has nothing
// yet (a fresh HOME and GOPATH), offline, with Jupyter present: it must
// install GoNB and its tools in the new GOPATH, register the kernel in the
// new user's Jupyter data folder, and never need apt or the network.
func TestInstallFreshHome(t *testing.T) {
	requireInstallable(t)
	home := t.TempDir()
	stdout, stderr, err := runInstall(t, installEnv(t, home))
	if err != nil {
		t.Fatalf("install.sh: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	for _, want := range []string{"==> [2/6] Jupyter Notebook and nbconvert", "==> [6/6]", "setup done in"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	checkKernel(t, filepath.Join(home, ".local", "share", "jupyter", "kernels", "gonb", "kernel.json"), filepath.Join(home, "go", "bin"))
	for _, tool := range []string{"gonb", "gopls", "goimports"} {
		if _, err := os.Stat(filepath.Join(home, "go", "bin", tool)); err != nil {
			t.Errorf("%s not installed in the new GOPATH: %v", tool, err)
		}
	}
}

// withoutDebianJupyter returns the command prefix that runs a command in a
// mount namespace where /usr/bin/jupyter is not executable, as in images
// where Jupyter comes from conda. It skips the test where that cannot be
// done (not Linux, not root, no unshare, no mount namespaces).
func withoutDebianJupyter(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("hiding /usr/bin/jupyter needs root on Linux (a mount namespace)")
	}
	// An empty, non-executable file over it: as root, [ -x ] is true for
	// /dev/null.
	empty := filepath.Join(t.TempDir(), "no-jupyter")
	writeFile(t, empty, "")
	hide := "set -e; if [ -e /usr/bin/jupyter ]; then mount --bind " + empty + " /usr/bin/jupyter; fi; exec \"$@\""
	if err := exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c", hide, "sh", "true").Run(); err != nil {
		t.Skipf("cannot make a mount namespace (unshare --mount): %v", err)
	}
	return []string{"unshare", "--mount", "--propagation", "private", "sh", "-c", hide, "sh"}
}

// TestInstallDockerStacksJupyter runs the install script as the Docker
// image does: Jupyter is not Debian's but a conda-like prefix's, whose
// jupyter command runs that prefix's python3 while another python3 (here
// one that cannot import anything) comes first on the PATH, and the kernel
// spec goes to JUPYTER_DATA_DIR. The script must find that Jupyter through
// its jupyter command, use no apt, and register the kernel there.
func TestInstallDockerStacksJupyter(t *testing.T) {
	requireInstallable(t)
	wrap := withoutDebianJupyter(t)
	tmp := t.TempDir()
	home, conda, decoy := filepath.Join(tmp, "home"), filepath.Join(tmp, "conda"), filepath.Join(tmp, "decoy")
	python := filepath.Join(conda, "bin", "python3")
	mkdirs(t, home, filepath.Join(conda, "bin"), decoy)
	if err := os.Symlink("/usr/bin/python3", python); err != nil {
		t.Fatal(err)
	}
	// conda's jupyter: Debian's script with conda's interpreter.
	debian, err := os.ReadFile("/usr/bin/jupyter")
	if err != nil {
		t.Skip("no /usr/bin/jupyter to make a conda-like jupyter from")
	}
	_, body, _ := strings.Cut(string(debian), "\n")
	writeExecutable(t, filepath.Join(conda, "bin", "jupyter"), "#!"+python+"\n"+body)
	writeExecutable(t, filepath.Join(decoy, "python3"), "#!/bin/sh\necho 'decoy python3: not the one of jupyter' >&2\nexit 1\n")

	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(conda, "share", "jupyter")
	env := installEnv(t, home, "JUPYTER_DATA_DIR="+dataDir)
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + strings.Join([]string{decoy, filepath.Join(conda, "bin"), filepath.Dir(goBin), "/usr/local/bin", "/usr/bin", "/bin"}, ":")
		}
	}
	stdout, stderr, err := runInstall(t, env, wrap...)
	if err != nil {
		t.Fatalf("install.sh: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	if want := "ok: " + filepath.Join(conda, "bin", "jupyter") + " (notebook "; !strings.Contains(stdout, want) {
		t.Errorf("install.sh did not use the conda-like Jupyter (want %q):\n%s", want, stdout)
	}
	if want := "Python " + python + ")"; !strings.Contains(stdout, want) {
		t.Errorf("install.sh did not use the python of jupyter's #! line (want %q):\n%s", want, stdout)
	}
	if strings.Contains(stdout+stderr, "installing Debian packages") {
		t.Error("install.sh tried apt although Jupyter is present")
	}
	checkKernel(t, filepath.Join(dataDir, "kernels", "gonb", "kernel.json"), filepath.Join(home, "go", "bin"))
	if _, err := os.Stat(filepath.Join(home, ".local", "share", "jupyter", "kernels", "gonb")); err == nil {
		t.Error("kernel spec also written to the home folder, not only to JUPYTER_DATA_DIR")
	}
}

// TestInstallWithoutJupyter: with no Jupyter and no apt allowed, the
// script stops at its Jupyter step and says what to install.
func TestInstallWithoutJupyter(t *testing.T) {
	requireInstallable(t)
	wrap := withoutDebianJupyter(t)
	home := t.TempDir()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	env := installEnv(t, home)
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin"
		}
	}
	stdout, stderr, err := runInstall(t, env, wrap...)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("install.sh without Jupyter: %v, want exit status 1\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	for _, want := range []string{
		"setup failed: Jupyter is missing (no jupyter command found) and cannot be installed from here",
		"sudo apt-get install jupyter-notebook",
		"python3 -m pip install --user notebook nbconvert nbclient",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stdout, "[3/6]") {
		t.Errorf("install.sh went on after the Jupyter step:\n%s", stdout)
	}
}

// TestCourseNotebooksHook runs the start hook: it copies the notebooks
// into the work folder, and a second run keeps the reader's changes.
func TestCourseNotebooksHook(t *testing.T) {
	tmp := t.TempDir()
	course, home := filepath.Join(tmp, "course"), filepath.Join(tmp, "home")
	mkdirs(t, filepath.Join(course, "notebooks"), home)
	for _, name := range []string{"01-a.ipynb", "02-b.ipynb"} {
		writeFile(t, filepath.Join(course, "notebooks", name), "{\"name\": \""+name+"\"}\n")
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "COURSE_ROOT=" + course, "NB_USER=no-such-user-here"}
	if os.Geteuid() == 0 {
		env = append(env, "NB_UID=4321", "NB_GID=4322")
	}
	hook := func() string {
		t.Helper()
		cmd := exec.Command("./course-notebooks.sh")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("course-notebooks.sh: %v\n%s", err, out)
		}
		return string(out)
	}
	dest := filepath.Join(home, "work", "attention-in-go")
	if out := hook(); !strings.Contains(out, "2 new notebook(s) in "+dest) {
		t.Errorf("first run: %s", out)
	}
	mine := filepath.Join(dest, "01-a.ipynb")
	writeFile(t, mine, "the reader's changes\n")
	os.Remove(filepath.Join(dest, "02-b.ipynb"))
	if out := hook(); !strings.Contains(out, "1 new notebook(s)") {
		t.Errorf("second run: %s", out)
	}
	if data, _ := os.ReadFile(mine); string(data) != "the reader's changes\n" {
		t.Errorf("the reader's notebook was overwritten: %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(dest, "02-b.ipynb")); !strings.Contains(string(data), "02-b") {
		t.Errorf("a deleted notebook was not restored: %q", data)
	}
	if os.Geteuid() == 0 {
		// As root (a container started as root), what the hook creates
		// belongs to the notebook user; the home folder itself is not
		// the hook's to change.
		for _, p := range []string{filepath.Join(home, "work"), dest, filepath.Join(dest, "02-b.ipynb")} {
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if st := info.Sys().(*syscall.Stat_t); st.Uid != 4321 || st.Gid != 4322 {
				t.Errorf("%s belongs to %d:%d, want 4321:4322", p, st.Uid, st.Gid)
			}
		}
		if st, _ := os.Stat(home); st.Sys().(*syscall.Stat_t).Uid == 4321 {
			t.Error("the hook changed the owner of the home folder")
		}
	}
	info, err := os.Stat("course-notebooks.sh")
	if err != nil || info.Mode()&0o111 == 0 {
		t.Errorf("docker/course-notebooks.sh is not executable: %v", err)
	}
}

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeExecutable(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}
