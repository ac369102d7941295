package dockerfile

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const ctx = "testdata/ctx"

// TestCheckGood: a Dockerfile that follows every rule has no problems.
func TestCheckGood(t *testing.T) {
	problems, err := Check("testdata/good.Dockerfile", ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("unexpected problem: %s", p)
	}
}

// TestCheckBad checks each bad Dockerfile of testdata against the problems
// its "# want: …" lines list: each want is a substring of one problem (as
// "line N: message"), and every problem is wanted.
func TestCheckBad(t *testing.T) {
	files, err := filepath.Glob("testdata/*.Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Base(f) == "good.Dockerfile" {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			wants := wantLines(t, f)
			if len(wants) == 0 {
				t.Fatal("no # want: lines")
			}
			problems, err := Check(f, ctx)
			if err != nil {
				t.Fatal(err)
			}
			used := make([]bool, len(problems))
		want:
			for _, w := range wants {
				for i, p := range problems {
					if !used[i] && strings.Contains(p.String(), w) {
						used[i] = true
						continue want
					}
				}
				t.Errorf("no problem matches %q", w)
			}
			for i, p := range problems {
				if !used[i] {
					t.Errorf("unexpected problem: %s", p)
				}
			}
		})
	}
}

func wantLines(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var wants []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if w, ok := strings.CutPrefix(sc.Text(), "# want: "); ok {
			wants = append(wants, w)
		}
	}
	return wants
}

func TestParse(t *testing.T) {
	src := "# syntax=docker/dockerfile:1\n# escape=`\n" +
		"FROM --platform=linux/amd64 golang:1.26.5 AS build\n" +
		"RUN echo a && `\n" +
		"  # a comment in the middle\n" +
		"\n" +
		"  echo b\n" +
		"copy --chown=1000:100 --chmod=0755 [\"a b\", \"/dst/\"]\n" +
		"RUN <<EOF\n" +
		"echo in a heredoc\n" +
		"FROM not-an-instruction\n" +
		"EOF\n" +
		"ENV A=1 B=\"two words\"\n" +
		"CMD [\"start-notebook.py\"]\n"
	ins, err := Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range ins {
		got = append(got, in.Cmd)
	}
	if want := []string{"FROM", "RUN", "COPY", "RUN", "ENV", "CMD"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("instructions %v, want %v", got, want)
	}
	if in := ins[0]; in.Line != 3 || !reflect.DeepEqual(in.Flags, []string{"--platform=linux/amd64"}) || in.Args != "golang:1.26.5 AS build" {
		t.Errorf("FROM: %+v", in)
	}
	if in := ins[1]; in.Line != 4 || in.Args != "echo a && \n  echo b" {
		t.Errorf("RUN with a continuation (escape `): %q at line %d", in.Args, in.Line)
	}
	if in := ins[2]; !reflect.DeepEqual(in.JSON, []string{"a b", "/dst/"}) {
		t.Errorf("COPY in JSON form: %+v", in)
	} else if v, ok := in.Flag("chmod"); !ok || v != "0755" {
		t.Errorf("COPY --chmod = %q, %v", v, ok)
	}
	if in := ins[3]; !strings.Contains(in.Args, "FROM not-an-instruction") || in.Line != 9 {
		t.Errorf("heredoc: %+v", in)
	}
	if got := envPairs(ins[4]); !reflect.DeepEqual(got, map[string]string{"A": "1", "B": "two words"}) {
		t.Errorf("ENV pairs %v", got)
	}
	if _, err := Parse(strings.NewReader("RUN <<EOF\necho\n")); err == nil {
		t.Error("an unterminated heredoc parsed")
	}
}

func TestExpand(t *testing.T) {
	vars := map[string]string{"A": "x", "E": ""}
	for in, want := range map[string]string{
		"$A/${A}":        "x/x",
		"${B:-def}":      "def",
		"${E:-def}":      "def",
		"${NB_UID}:$GID": "${NB_UID}:$GID",
	} {
		if got := expand(in, vars); got != want {
			t.Errorf("expand(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIgnore(t *testing.T) {
	c := &checker{}
	for _, line := range []string{".git", "build", "**/.ipynb_checkpoints", "*.test", "docs/*.md", "!docs/keep.md"} {
		p, err := compileIgnore(line)
		if err != nil {
			t.Fatal(err)
		}
		c.ignore = append(c.ignore, p)
	}
	for rel, want := range map[string]string{
		".git/config":                  ".git",
		"build/site/index.html":        "build",
		".ipynb_checkpoints/a.ipynb":   "**/.ipynb_checkpoints",
		"notebooks/.ipynb_checkpoints": "**/.ipynb_checkpoints",
		"x.test":                       "*.test",
		"cmd/x.test":                   "",
		"docs/a.md":                    "docs/*.md",
		"docs/keep.md":                 "",
		"scripts/install.sh":           "",
		"buildx/file":                  "",
	} {
		if got := c.ignored(rel); got != want {
			t.Errorf("ignored(%q) = %q, want %q", rel, got, want)
		}
	}
	if _, err := compileIgnore("[z-a]"); err == nil {
		t.Error("a bad pattern compiled")
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		sign int
	}{{"1.26.5", "1.26.5", 0}, {"1.26.8", "1.26.5", 1}, {"1.26", "1.26.5", -1}, {"1.27", "1.26.5", 1}, {"1.9", "1.10", -1}} {
		got := compareVersions(tt.a, tt.b)
		if (got > 0) != (tt.sign > 0) || (got < 0) != (tt.sign < 0) {
			t.Errorf("compareVersions(%s, %s) = %d, want sign %d", tt.a, tt.b, got, tt.sign)
		}
	}
}
