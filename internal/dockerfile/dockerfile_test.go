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

// TestIgnore checks which dockerignore pattern, if any, excludes a path
// from the build context, as Docker decides.
func TestIgnore(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		want       map[string]string // path → the pattern that excludes it, or ""
	}{{
		name: "course",
		file: ".git\nbuild\n**/.ipynb_checkpoints\n*.test\ndocs/*.md\n!docs/keep.md\n",
		want: map[string]string{
			".git/config":                  ".git",
			"build/site/index.html":        "build",
			".ipynb_checkpoints/a.ipynb":   "**/.ipynb_checkpoints",
			"notebooks/.ipynb_checkpoints": "**/.ipynb_checkpoints",
			"x.test":                       "*.test",
			"cmd/x.test":                   "", // * does not cross a /
			"docs/a.md":                    "docs/*.md",
			"docs/keep.md":                 "",
			"scripts/install.sh":           "",
			"buildx/file":                  "",
		},
	}, {
		name: "trailing slash and leading slash",
		file: "build/\n/cache/\n",
		want: map[string]string{
			"build":          "build",
			"build/a/b":      "build",
			"buildx":         "",
			"cache/x":        "cache",
			"docs/build/a":   "", // patterns are anchored at the context
			"docs/cache/x/y": "",
		},
	}, {
		name: "exception inside an excluded folder",
		file: "docs\n!docs/keep.md\n",
		want: map[string]string{
			"docs/a.md":      "docs",
			"docs/keep.md":   "",
			"docs/sub/b.md":  "docs",
			"docs/keep.md.x": "docs",
		},
	}, {
		name: "an exception before its pattern does nothing",
		file: "!docs/keep.md\ndocs\n",
		want: map[string]string{"docs/keep.md": "docs"},
	}, {
		name: "everything but",
		file: "**\n!scripts\n!go.mod\n",
		want: map[string]string{
			"scripts/install.sh": "",
			"go.mod":             "",
			"lib/x.go":           "**",
			"go.sum":             "**",
		},
	}, {
		name: "double star",
		file: "**/*.tmp\ndocs/**/*.md\n",
		want: map[string]string{
			"a.tmp":           "**/*.tmp", // ** matches no folder too
			"a/b/c.tmp":       "**/*.tmp",
			"a.tmpx":          "",
			"docs/a.md":       "docs/**/*.md",
			"docs/x/y/z.md":   "docs/**/*.md",
			"other/docs/a.md": "",
		},
	}, {
		name: "byte order mark and comments",
		file: "\ufeff.git\n# build\n\n  *.out  \n",
		want: map[string]string{
			".git/HEAD": ".git",
			"build/x":   "",
			"a.out":     "*.out",
		},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			ig, err := parseIgnore(strings.NewReader(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for rel, want := range tt.want {
				if got := ig.excludedBy(rel); got != want {
					t.Errorf("excludedBy(%q) = %q, want %q", rel, got, want)
				}
			}
		})
	}
	for _, bad := range []string{"[z-a]\n", "!\n", "a/[\n"} {
		if _, err := parseIgnore(strings.NewReader(bad)); err == nil {
			t.Errorf("the bad dockerignore file %q was accepted", bad)
		}
	}
	var none *ignoreFile
	if got := none.excludedBy("a"); got != "" {
		t.Errorf("without a dockerignore file, excludedBy(a) = %q, want \"\"", got)
	}
}

func TestGoDirective(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ gomod, want string }{
		{"module x\n\ngo 1.26.5\n", "1.26.5"},
		{"module x\n\ngo 1.26.5 // the first with the fix\n\ntoolchain go1.26.8\n", "1.26.5"},
		{"// go 1.2 was long ago\nmodule x\n\ngo 1.26\n", "1.26"},
		{"module x\n", ""},
	} {
		p := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(p, []byte(tt.gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := goDirective(p); err != nil || got != tt.want {
			t.Errorf("goDirective(%q) = %q, %v; want %q", tt.gomod, got, err, tt.want)
		}
	}
	if got, err := goDirective(filepath.Join(dir, "missing", "go.mod")); err != nil || got != "" {
		t.Errorf("goDirective of a missing file = %q, %v; want \"\", nil", got, err)
	}
	p := filepath.Join(dir, "go.mod")
	if err := os.WriteFile(p, []byte("module x\ngo 1.26.5\nrequire (\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := goDirective(p); err == nil {
		t.Error("a go.mod with an unclosed block parsed")
	}
}

// TestGoImageVersion checks the comparison of the golang image's version
// with go.mod's, where a comparison of strings would go wrong.
func TestGoImageVersion(t *testing.T) {
	for _, tt := range []struct {
		tag, minGo string
		older      bool
	}{
		{"1.26.5", "1.26.5", false},
		{"1.26.8", "1.26.5", false},
		{"1.26.10", "1.26.9", false},
		{"1.26.9", "1.26.10", true},
		{"1.26.0", "1.26", false},
		{"1.25.9", "1.26", true},
		{"1.9.0", "1.10", true},
		{"1.27.0", "1.26.5", false},
	} {
		ins, err := Parse(strings.NewReader("COPY --from=golang:" + tt.tag + " /usr/local/go /usr/local/go\n"))
		if err != nil {
			t.Fatal(err)
		}
		c := &checker{minGo: tt.minGo, vars: map[string]string{}, globals: map[string]string{}}
		c.copyFrom(ins[0], "golang:"+tt.tag)
		if got := len(c.problems) > 0; got != tt.older {
			t.Errorf("golang:%s with go %s in go.mod: problems %v, want older = %v", tt.tag, tt.minGo, c.problems, tt.older)
		}
	}
}
