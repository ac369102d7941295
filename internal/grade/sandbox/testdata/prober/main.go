// Command prober tries to cross one wall of the sandbox and prints what
// happened; the sandbox tests run it inside and read its output.
package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Println("usage: prober ACTION [ARG…]")
		os.Exit(2)
	}
	arg := func(i int) string {
		if len(os.Args) > i+1 {
			return os.Args[i+1]
		}
		return ""
	}
	switch os.Args[1] {
	case "id":
		fmt.Printf("uid=%d euid=%d gid=%d pid=%d\n", os.Getuid(), os.Geteuid(), os.Getgid(), os.Getpid())
	case "dial": // dial ADDR: connect to a listener of the host
		c, err := net.DialTimeout("tcp", arg(1), 2*time.Second)
		if err == nil {
			c.Write([]byte("escaped"))
			c.Close()
		}
		fmt.Println("dial:", err)
	case "read": // read PATH
		b, err := os.ReadFile(arg(1))
		fmt.Printf("read: %d bytes, %v\n", len(b), err)
	case "write": // write PATH
		err := os.WriteFile(arg(1), []byte("escaped"), 0o644)
		fmt.Println("write:", err)
	case "ls": // ls DIR
		ents, err := os.ReadDir(arg(1))
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		fmt.Printf("ls: %s %v\n", strings.Join(names, " "), err)
	case "kill": // kill PID
		pid, _ := strconv.Atoi(arg(1))
		fmt.Println("kill:", syscall.Kill(pid, syscall.SIGKILL))
	case "procs": // how many processes are visible
		ents, _ := os.ReadDir("/proc")
		n := 0
		for _, e := range ents {
			if _, err := strconv.Atoi(e.Name()); err == nil {
				n++
			}
		}
		fmt.Printf("procs: %d\n", n)
	case "cmdlines": // the command line of every visible process
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			if _, err := strconv.Atoi(e.Name()); err == nil {
				b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
				fmt.Printf("cmdline %s: %q\n", e.Name(), b)
			}
		}
	case "exec": // exec PROGRAM [ARG…]: start a process
		err := exec.Command(arg(1), os.Args[3:]...).Start()
		fmt.Println("exec:", err)
	case "fork": // the raw fork system call
		_, _, errno := syscall.RawSyscall(syscall.SYS_FORK, 0, 0, 0)
		fmt.Println("fork:", errno)
	case "daemon": // setsid then start a long sleeper that outlives us
		syscall.Setsid()
		err := exec.Command(os.Args[0], "sleep", arg(1)).Start()
		fmt.Println("daemon:", err)
	case "sleep": // sleep SECONDS, writing a file in HOSTDIR each second if given
		n, _ := strconv.Atoi(arg(1))
		for range n {
			time.Sleep(time.Second)
		}
	case "alloc": // alloc MiB: touch that much memory
		n, _ := strconv.Atoi(arg(1))
		var keep [][]byte
		for range n {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
		}
		fmt.Println("alloc: done", len(keep))
	case "spin": // burn CPU forever
		x := 0
		for {
			x++
		}
	case "flood": // write MiB to standard output
		n, _ := strconv.Atoi(arg(1))
		b := make([]byte, 1<<20)
		for range n {
			os.Stdout.Write(b)
		}
	case "bigfile": // bigfile MiB: write a file of that size in /tmp
		n, _ := strconv.Atoi(arg(1))
		f, _ := os.Create("/tmp/big")
		b := make([]byte, 1<<20)
		var err error
		for range n {
			if _, err = f.Write(b); err != nil {
				break
			}
		}
		fmt.Println("bigfile:", err)
	case "fd3": // write to the inherited descriptor 3
		_, err := os.NewFile(3, "fd3").Write([]byte("hello"))
		fmt.Println("fd3:", err)
	case "fds": // the open file descriptors and what they are
		ents, _ := os.ReadDir("/proc/self/fd")
		var fds []string
		for _, e := range ents {
			target, _ := os.Readlink("/proc/self/fd/" + e.Name())
			fds = append(fds, e.Name()+"="+target)
		}
		fmt.Println("fds:", strings.Join(fds, " "))
	case "env":
		fmt.Println("env:", strings.Join(os.Environ(), " "))
	default:
		fmt.Println("unknown action", os.Args[1])
		os.Exit(2)
	}
}
