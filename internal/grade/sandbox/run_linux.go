package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// closeInherited marks every descriptor above 2 close-on-exec. Go opens
// its own so, but the descriptors this process inherited (a CI runner's,
// a terminal's) are not, and would reach every sandboxed command.
func closeInherited() {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}

// probe runs bwrap once per kind of command the grader runs.
func probe() (string, error) {
	p, err := exec.LookPath("bwrap")
	if err != nil {
		return "", fmt.Errorf("no sandbox: bwrap is not installed; %s", Advice)
	}
	bwrapPath = p
	tr, err := exec.LookPath("true")
	if err != nil {
		return "", err
	}
	for _, noFork := range []bool{false, true} {
		var stderr bytes.Buffer
		// The host's file system, read-only, so that the dynamically
		// linked true(1) finds its libraries: this only asks whether the
		// namespaces and the filter can be set up.
		r := Run(context.Background(), Command{Args: []string{tr}, NoFork: noFork,
			Binds: []Bind{{Host: "/", Sandbox: "/"}}, Stderr: &stderr,
			Limits: Limits{Wall: 10 * time.Second, Memory: 1 << 30, TmpSize: 1 << 20, FileSize: 1 << 20}})
		if r.Err != nil {
			who := "the grader's user"
			if noFork && SlotUID(0) >= 0 {
				who = "a slot user (uid " + strconv.Itoa(SlotUID(0)) + ")"
			}
			return "", fmt.Errorf("no sandbox: bwrap cannot create namespaces as %s (%v: %s); %s",
				who, r.Err, strings.TrimSpace(stderr.String()), Advice)
		}
	}
	return p, nil
}

// Run runs c in a sandbox and waits for it, at most c.Limits.Wall (then
// it kills the whole sandbox) or until ctx is done. Call [Check] first.
func Run(ctx context.Context, c Command) Result {
	if !unsafeMode && bwrapPath == "" {
		return Result{Err: errors.New("sandbox: Run before a successful Check")}
	}
	// bwrap tells the host pid of the sandbox's init on --info-fd: killing
	// it ends the whole PID namespace, and bwrap, still alive, reaps it
	// (killing bwrap first would leave the init a zombie of the host's).
	var infoR, infoW *os.File
	if !unsafeMode {
		var err error
		if infoR, infoW, err = os.Pipe(); err != nil {
			return Result{Err: err}
		}
		defer infoR.Close()
		c.ExtraFiles = append(append([]*os.File{}, c.ExtraFiles...), infoW)
	}
	args, extra, err := c.argv(infoW != nil)
	if err != nil {
		if infoW != nil {
			infoW.Close()
		}
		return Result{Err: err}
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	if unsafeMode {
		host := c.hostPaths()
		for _, e := range c.Env {
			cmd.Env = append(cmd.Env, host.Replace(e))
		}
		cmd.Dir = host.Replace(c.Dir)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Stdin, c.Stdout, c.Stderr
	if cmd.Stdout == nil {
		cmd.Stdout = io.Discard
	}
	if cmd.Stderr == nil {
		cmd.Stderr = io.Discard
	}
	cmd.ExtraFiles = append(append([]*os.File{}, c.ExtraFiles...), extra...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if uid := SlotUID(c.Slot); c.NoFork && uid >= 0 && !unsafeMode {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid), NoSetGroups: false}
	}
	defer func() {
		for _, f := range extra {
			f.Close()
		}
	}()
	err = cmd.Start()
	if infoW != nil {
		infoW.Close()
	}
	if err != nil {
		return Result{Err: err}
	}
	initPid := make(chan int, 1)
	if infoR != nil {
		go func() {
			var info struct {
				ChildPid int `json:"child-pid"`
			}
			json.NewDecoder(io.LimitReader(infoR, 4096)).Decode(&info)
			initPid <- info.ChildPid
		}()
	} else {
		initPid <- 0
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var exited error
	var first int // the sandbox's first process, once bubblewrap has said
	kill := func() {
		select {
		case pid := <-initPid:
			first = pid
			if pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
				select {
				case exited = <-done:
					done <- exited
					return
				case <-time.After(2 * time.Second):
				}
			}
		default:
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	timer := time.NewTimer(c.Limits.Wall)
	defer timer.Stop()
	var res Result
	select {
	case res.Err = <-done:
	case <-timer.C:
		res.TimedOut = true
		kill()
		res.Err = <-done
	case <-ctx.Done():
		kill()
		res.Err = <-done
		if res.Err == nil {
			res.Err = ctx.Err()
		}
	}
	if unsafeMode {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // anything left in the process group
	}
	if first == 0 {
		select {
		case first = <-initPid:
		default:
		}
	}
	res.Pid = first
	return res
}

// argv is the command line that runs c: prlimit, then bwrap with its
// namespaces, binds and environment, then the command. extra are files
// the command line refers to by descriptor (the seccomp program).
func (c Command) argv(info bool) (args []string, extra []*os.File, err error) {
	l := c.Limits
	cpu := l.CPU
	if cpu == 0 {
		cpu = l.Wall + time.Second
	}
	args = []string{"prlimit",
		"--data=" + strconv.FormatInt(l.Memory, 10),
		"--cpu=" + strconv.Itoa(int(cpu.Seconds()+0.999)),
		"--fsize=" + strconv.FormatInt(l.FileSize, 10),
		"--core=0"}
	if l.Procs > 0 {
		args = append(args, "--nproc="+strconv.Itoa(l.Procs))
	}
	args = append(args, "--")
	if p, err := exec.LookPath("prlimit"); err == nil {
		args[0] = p
	} else {
		return nil, nil, errors.New("sandbox: prlimit (util-linux) is not installed")
	}
	if unsafeMode {
		host := c.hostPaths()
		for _, a := range c.Args {
			args = append(args, host.Replace(a))
		}
		return args, nil, nil
	}
	dir := c.Dir
	if dir == "" {
		dir = "/tmp"
	}
	args = append(args, bwrapPath,
		"--unshare-all", "--unshare-user", "--disable-userns",
		"--uid", "65534", "--gid", "65534", "--hostname", "sandbox",
		"--die-with-parent", "--new-session", "--clearenv",
		"--proc", "/proc", "--dev", "/dev",
		"--size", strconv.FormatInt(max(l.TmpSize, 4096), 10), "--tmpfs", "/tmp")
	for _, e := range c.Env {
		k, v, _ := strings.Cut(e, "=")
		args = append(args, "--setenv", k, v)
	}
	for _, b := range c.Binds {
		flag := "--ro-bind"
		if b.Writable {
			flag = "--bind"
		}
		args = append(args, flag, b.Host, b.Sandbox)
	}
	args = append(args, "--chdir", dir)
	if info { // the last of c.ExtraFiles
		args = append(args, "--info-fd", strconv.Itoa(2+len(c.ExtraFiles)))
	}
	if c.NoFork {
		prog, err := noForkFilter()
		if err != nil {
			return nil, nil, err
		}
		f, err := programFile(prog)
		if err != nil {
			return nil, nil, err
		}
		extra = append(extra, f)
		args = append(args, "--seccomp", strconv.Itoa(3+len(c.ExtraFiles))) // after c.ExtraFiles
	}
	// bwrap's own process stays the sandbox's init, visible in its /proc:
	// its options, which name the host's paths, come from a file (--args),
	// so that its command line shows only the command's, in the sandbox's
	// terms.
	start := slices.Index(args, bwrapPath) + 1
	var list bytes.Buffer
	for _, a := range args[start:] {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, nil, fmt.Errorf("sandbox: an argument holds a NUL byte: %q", a)
		}
		list.WriteString(a)
		list.WriteByte(0)
	}
	f, err := programFile(list.Bytes())
	if err != nil {
		return nil, nil, err
	}
	extra = append(extra, f)
	args = append(args[:start:start], "--args", strconv.Itoa(2+len(c.ExtraFiles)+len(extra)), "--")
	return append(args, c.Args...), extra, nil
}

// hostPaths maps the sandbox paths of c's binds, wherever they appear in
// an argument, the working folder or the environment, to their host
// paths: without a sandbox, the command runs on the host's file system.
func (c Command) hostPaths() *strings.Replacer {
	var pairs []string
	for _, b := range c.Binds {
		if b.Host != b.Sandbox {
			pairs = append(pairs, b.Sandbox, b.Host)
		}
	}
	return strings.NewReplacer(pairs...)
}

// programFile returns a file to read the seccomp program (or the
// arguments) from: an unlinked temporary file, as bwrap reads it to its
// end.
func programFile(prog []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "course-seccomp-")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	if _, err := f.Write(prog); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
