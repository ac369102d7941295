package check

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

func TestDemo(t *testing.T) {
	// A stub's TODO panic is caught and reported.
	r, w, _ := os.Pipe()
	stdout := os.Stdout
	os.Stdout = w
	Demo(func() { panic("TODO: exercise pe — write your code here") })
	ran := false
	Demo(func() { ran = true })
	os.Stdout = stdout
	w.Close()
	var buf bytes.Buffer
	io.Copy(&buf, r)
	if !strings.Contains(buf.String(), "not done yet: TODO: exercise pe") || !ran {
		t.Errorf("Demo printed %q, ran %v", buf.String(), ran)
	}
	// Any other panic goes through.
	defer func() {
		if r := recover(); r != "index out of range" {
			t.Errorf("recovered %v, want the original panic", r)
		}
	}()
	Demo(func() { panic("index out of range") })
}
