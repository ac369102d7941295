package dockerfile

import (
	"cmp"
	"fmt"
	"go/version"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// Problem is a rule the Dockerfile breaks.
type Problem struct {
	Line int // 1-based line of the instruction, 0 for the whole file
	Msg  string
}

func (p Problem) String() string {
	if p.Line == 0 {
		return p.Msg
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Msg)
}

// The course's conventions that Check enforces.
const (
	// InstallScript is the one install path (make setup, CI, the image).
	InstallScript = "scripts/install.sh"
	// CourseRootEnv tells the notebooks' setup cell where the course is.
	CourseRootEnv = "COURSE_ROOT"
	// JupyterPort is the port Jupyter serves on.
	JupyterPort = "8888"
)

// notebookUsers are the values of a final USER that mean docker-stacks'
// notebook user (jovyan, UID 1000).
var notebookUsers = []string{"${NB_UID}", "$NB_UID", "${NB_USER}", "$NB_USER", "jovyan", "1000"}

// otherInstalls are ways of installing GoNB, its tools or Jupyter other
// than the install script.
var otherInstalls = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`\bgo\s+(install|get)\b[^;&|\n]*(janpfeifer/gonb|gopls|goimports)`), "installs GoNB or its tools with go install/get"},
	{regexp.MustCompile(`\bgonb\s+-{1,2}install\b`), "registers the GoNB kernel itself"},
	{regexp.MustCompile(`\b(pip3?|conda|mamba|micromamba|uv\s+pip)\s+install\b[^;&|\n]*\b(notebook|jupyter\w*|nbconvert|nbclient|jupyterlab|gonb)\b`), "installs Jupyter with a package manager"},
	{regexp.MustCompile(`\bapt(-get)?\s+install\b[^;&|\n]*\b(jupyter[\w-]*|python3-notebook|python3-nbconvert|python3-nbclient)\b`), "installs Jupyter with apt"},
}

// Check applies the course's rules to the Dockerfile at dockerfile, built
// with the build context folder context. The dockerignore file is the
// Dockerfile's own (NAME.dockerignore next to it, as BuildKit reads it) or
// else context/.dockerignore. The minimum Go version is the go directive of
// context/go.mod. Problems are returned in line order; err is for files that
// cannot be read.
func Check(dockerfile, context string) ([]Problem, error) {
	ins, err := ParseFile(dockerfile)
	if err != nil {
		return nil, err
	}
	ignore, err := readIgnore(dockerfile, context)
	if err != nil {
		return nil, err
	}
	minGo, err := goDirective(filepath.Join(context, "go.mod"))
	if err != nil {
		return nil, err
	}
	c := &checker{context: context, ignore: ignore, minGo: minGo, vars: map[string]string{}}
	c.run(ins)
	slices.SortStableFunc(c.problems, func(a, b Problem) int { return a.Line - b.Line })
	return c.problems, nil
}

type checker struct {
	context  string
	ignore   *ignoreFile
	minGo    string
	problems []Problem

	vars      map[string]string // ARG defaults and ENV values in scope
	globals   map[string]string // ARGs declared before the first FROM
	workdir   string
	copies    []copyMap // directories copied from the context, in order
	user      string    // the last USER of the current stage
	userLine  int
	stages    []string // names of the stages so far
	exposed   bool
	installed bool // a RUN runs the install script
	goCopied  bool // Go is copied from the official golang image

	stageImages map[string]string // stage name → its base image
	root        string
	rootLine    int
}

// copyMap records that the context folder src was copied to the image
// folder dst.
type copyMap struct{ dst, src string }

func (c *checker) report(line int, format string, args ...any) {
	c.problems = append(c.problems, Problem{line, fmt.Sprintf(format, args...)})
}

func (c *checker) run(ins []Instruction) {
	c.globals = map[string]string{}
	seenFrom := false
	for _, in := range ins {
		switch in.Cmd {
		case "ARG":
			for _, w := range in.Words() {
				name, def, _ := strings.Cut(w, "=")
				if sha256Hex.MatchString(def) {
					c.report(in.Line, "ARG %s is a checksum typed into the Dockerfile, which nobody here could take from the real file: take the file from a source verified otherwise (an image, a module in go.sum)", name)
				}
				if !seenFrom {
					c.globals[name] = def
				} else if g, ok := c.globals[name]; ok && def == "" {
					c.vars[name] = g // ARG NAME redeclares a global
				} else {
					c.vars[name] = c.expand(def)
				}
			}
		case "ENV":
			for name, value := range envPairs(in) {
				c.vars[name] = c.expand(value)
				if name == CourseRootEnv {
					c.root, c.rootLine = path.Clean(c.vars[name]), in.Line
				}
			}
		case "FROM":
			seenFrom = true
			c.from(in)
		case "WORKDIR":
			c.workdir = c.abs(c.expand(in.Args))
		case "USER":
			c.user, c.userLine = strings.TrimSpace(in.Args), in.Line
		case "EXPOSE":
			for _, w := range in.Words() {
				if strings.TrimSuffix(w, "/tcp") == JupyterPort {
					c.exposed = true
				}
			}
		case "COPY", "ADD":
			c.copy(in)
		case "RUN":
			c.runInstruction(in)
		}
	}
	c.final()
}

// from checks that a base image is pinned, and starts a stage.
func (c *checker) from(in Instruction) {
	words := in.Words()
	if len(words) == 0 {
		c.report(in.Line, "FROM without an image")
		return
	}
	image := expand(words[0], c.globals)
	if len(words) >= 3 && strings.EqualFold(words[1], "AS") {
		if c.stageImages == nil {
			c.stageImages = map[string]string{}
		}
		c.stageImages[words[2]] = image
		defer func() { c.stages = append(c.stages, words[2]) }()
	}
	// A new stage: its own ARGs, ENVs, user and working directory.
	c.vars, c.workdir, c.user, c.userLine = map[string]string{}, "/", "", 0
	switch {
	case slices.Contains(c.stages, image), image == "scratch":
	case strings.Contains(image, "$"):
		c.report(in.Line, "base image %s is not resolved by the ARG defaults: pin it", words[0])
	default:
		name, digest, hasDigest := strings.Cut(image, "@")
		tag := ""
		if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
			tag = name[i+1:]
		}
		switch {
		case hasDigest && strings.HasPrefix(digest, "sha256:"):
		case tag == "":
			c.report(in.Line, "base image %s has no tag: pin it to a version or date tag", image)
		case tag == "latest":
			c.report(in.Line, "base image %s uses the latest tag: pin it to a version or date tag", image)
		}
	}
}

// copy checks the sources of COPY and ADD and records what they copy.
func (c *checker) copy(in Instruction) {
	if from, ok := in.Flag("from"); ok {
		c.copyFrom(in, from)
		return // from another stage or image, not the context
	}
	words := in.Words()
	if len(words) < 2 {
		c.report(in.Line, "%s needs a source and a destination", in.Cmd)
		return
	}
	if strings.Contains(in.Args, "<<") {
		return // a here-document: the source is inline
	}
	srcs, dst := words[:len(words)-1], c.expand(words[len(words)-1])
	dstAbs := c.abs(dst)
	chmod, _ := in.Flag("chmod")
	for _, src := range srcs {
		src = c.expand(src)
		if strings.Contains(src, "://") || strings.HasPrefix(src, "git@") {
			c.report(in.Line, "%s %s downloads without a checksum: download it in a RUN and verify it", in.Cmd, src)
			continue
		}
		rel := path.Clean(strings.TrimPrefix(src, "/"))
		matches, _ := filepath.Glob(filepath.Join(c.context, filepath.FromSlash(rel)))
		if len(matches) == 0 {
			c.report(in.Line, "%s source %s does not exist in the build context", in.Cmd, src)
			continue
		}
		if p := c.ignore.excludedBy(rel); p != "" {
			c.report(in.Line, "%s source %s is excluded from the build context by the dockerignore pattern %q", in.Cmd, src, p)
			continue
		}
		info, err := os.Stat(matches[0])
		if err != nil {
			continue
		}
		target := dstAbs
		if !info.IsDir() && !strings.HasSuffix(dst, "/") && len(srcs) == 1 && len(matches) == 1 {
			// A file copied to a file name.
		} else if !info.IsDir() {
			target = path.Join(dstAbs, path.Base(rel))
		}
		if info.IsDir() {
			c.copies = append(c.copies, copyMap{dst: dstAbs, src: rel})
			continue
		}
		c.copies = append(c.copies, copyMap{dst: target, src: rel})
		if isHookOrBin(target) && info.Mode()&0o111 == 0 && !executableMode(chmod) {
			c.report(in.Line, "%s is copied to %s, where it is run, but is not executable: chmod +x it or use --chmod=0755", src, target)
		}
	}
}

// runInstruction checks what a RUN runs.
func (c *checker) runInstruction(in Instruction) {
	cmd := c.expand(in.Args)
	if strings.Contains(cmd, InstallScript) {
		c.installed = true
	}
	for _, o := range otherInstalls {
		if m := o.re.FindString(cmd); m != "" {
			c.report(in.Line, "RUN %s (%q): GoNB and Jupyter come from %s, the one install path", o.what, m, InstallScript)
		}
	}
	c.goDownload(in.Line, cmd)
	for _, script := range scriptRefs(cmd) {
		c.script(in.Line, script)
	}
}

// goDownloadURL matches a download of the official Go tarball.
var goDownloadURL = regexp.MustCompile(`https://(?:go\.dev/dl|dl\.google\.com/go|golang\.org/dl)/go`)

// sha256Hex matches a SHA-256 written out in hex.
var sha256Hex = regexp.MustCompile(`\b[0-9a-f]{64}\b`)

// goImage matches the official Go image with a release tag; $1 is the
// version ("golang:1.26.8", "golang:1.26.8-bookworm",
// "docker.io/library/golang:1.26.8@sha256:…").
var goImage = regexp.MustCompile(`^(?:(?:docker\.io/)?library/)?golang:([^@-]+)`)

// goRelease matches the version of a Go release such as 1.26.8.
var goRelease = regexp.MustCompile(`^1\.\d+\.\d+$`)

// goDownload reports a RUN that downloads the Go tarball: its integrity
// would rest on a checksum typed into the Dockerfile, which nobody here
// can take from the real tarball. Go comes from the official image.
func (c *checker) goDownload(line int, cmd string) {
	if goDownloadURL.MatchString(cmd) {
		c.report(line, "the RUN downloads the Go tarball, checked (if at all) against a checksum typed here: copy Go from the official image instead (COPY --from=golang:VERSION /usr/local/go /usr/local/go)")
	}
}

// copyFrom checks a COPY --from: Go copied from the official golang image
// (directly or through a stage built on it), with a release version at
// least go.mod's.
func (c *checker) copyFrom(in Instruction, from string) {
	words := in.Words()
	if len(words) != 2 || path.Clean(words[0]) != "/usr/local/go" {
		return
	}
	image := expand(c.expand(from), c.globals)
	if img, ok := c.stageImages[image]; ok {
		image = img
	}
	m := goImage.FindStringSubmatch(image)
	if m == nil {
		c.report(in.Line, "Go is copied from %s, not from the official golang image", image)
		return
	}
	if path.Clean(c.abs(c.expand(words[1]))) != "/usr/local/go" {
		c.report(in.Line, "Go is copied to %s: the image's PATH and GOROOT expect /usr/local/go", words[1])
	}
	c.goCopied = true
	switch v := m[1]; {
	case !goRelease.MatchString(v):
		c.report(in.Line, "the golang image's tag %q is not a release such as 1.26.8: pin it", v)
	case c.minGo != "" && version.Compare("go"+v, "go"+c.minGo) < 0:
		c.report(in.Line, "the image installs Go %s, older than the go %s of go.mod", v, c.minGo)
	}
}

// script checks that a script a RUN runs is in the image, copied from the
// context, and executable there.
func (c *checker) script(line int, ref string) {
	abs := c.abs(ref)
	var cm *copyMap
	for i := range c.copies {
		m := &c.copies[i]
		if (abs == m.dst || strings.HasPrefix(abs, strings.TrimSuffix(m.dst, "/")+"/")) && (cm == nil || len(m.dst) >= len(cm.dst)) {
			cm = m
		}
	}
	if cm == nil {
		if !path.IsAbs(ref) {
			c.report(line, "RUN runs %s (%s), which is not copied from the build context before it", ref, abs)
		}
		return
	}
	rel := cm.src
	if abs != cm.dst {
		rel = path.Join(cm.src, strings.TrimPrefix(abs, strings.TrimSuffix(cm.dst, "/")+"/"))
	}
	info, err := os.Stat(filepath.Join(c.context, filepath.FromSlash(rel)))
	switch {
	case err != nil:
		c.report(line, "RUN runs %s, but %s does not exist in the build context", ref, rel)
	case info.IsDir():
	case info.Mode()&0o111 == 0:
		c.report(line, "RUN runs %s, but %s is not executable", ref, rel)
	}
}

// final checks what concerns the whole file.
func (c *checker) final() {
	if !c.installed {
		c.report(0, "no RUN runs %s: the image must be installed by the one install path", InstallScript)
	}
	if !c.goCopied {
		c.report(0, "Go does not come from the official golang image: COPY --from=golang:VERSION /usr/local/go /usr/local/go")
	}
	if !c.exposed {
		c.report(0, "no EXPOSE %s (Jupyter's port)", JupyterPort)
	}
	switch {
	case c.user == "":
		c.report(0, "the image does not end with USER set to the notebook user (${NB_UID})")
	case !slices.Contains(notebookUsers, strings.SplitN(c.user, ":", 2)[0]):
		c.report(c.userLine, "the image ends as USER %s, not the notebook user (${NB_UID})", c.user)
	}
	switch {
	case c.root == "":
		c.report(0, "no ENV %s: the notebooks' setup cell finds the course through it", CourseRootEnv)
	case !c.copiedCourseTo(c.root):
		c.report(c.rootLine, "%s=%s, but the course (COPY . or go.mod) is not copied there", CourseRootEnv, c.root)
	}
}

// copiedCourseTo reports whether the context's root (the course) or its
// go.mod was copied to dir.
func (c *checker) copiedCourseTo(dir string) bool {
	for _, m := range c.copies {
		if (m.src == "." && path.Clean(m.dst) == dir) || (m.src == "go.mod" && m.dst == path.Join(dir, "go.mod")) {
			return true
		}
	}
	return false
}

// expand substitutes the variables in scope in s.
func (c *checker) expand(s string) string { return expand(s, c.vars) }

// abs returns p made absolute with the current WORKDIR.
func (c *checker) abs(p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(cmp.Or(c.workdir, "/"), p)
}

var variable = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// expand substitutes the variables of vars in s, with ${NAME:-default}
// taking its default for an empty or unknown NAME; others stay as written.
func expand(s string, vars map[string]string) string {
	return variable.ReplaceAllStringFunc(s, func(m string) string {
		sub := variable.FindStringSubmatch(m)
		name := sub[1] + sub[3]
		if v, ok := vars[name]; ok && v != "" {
			return v
		}
		if sub[2] != "" {
			return sub[2][2:]
		}
		return m
	})
}

// envPairs returns the variables an ENV instruction sets: NAME=value
// pairs (values may be quoted) or the old "ENV NAME value" form.
func envPairs(in Instruction) map[string]string {
	out := make(map[string]string)
	args := strings.TrimSpace(in.Args)
	if !strings.Contains(strings.SplitN(args, " ", 2)[0], "=") {
		name, value, _ := strings.Cut(args, " ")
		out[name] = strings.TrimSpace(value)
		return out
	}
	for _, w := range splitQuoted(args) {
		if name, value, ok := strings.Cut(w, "="); ok {
			out[name] = value
		}
	}
	return out
}

// splitQuoted splits s at white space outside double or single quotes,
// removing the quotes.
func splitQuoted(s string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// scriptRef matches what looks like a script in a command: a path ending
// in .sh, .bash or .py, or a path under scripts/ or docker/.
var scriptRef = regexp.MustCompile(`(?:^|[\s;&|(="'\[,])((?:\.{0,2}/)?(?:[\w.-]+/)*(?:[\w.-]+\.(?:sh|bash|py)|(?:scripts|docker)/[\w.-]+))\b`)

// scriptRefs returns the scripts a command mentions.
func scriptRefs(cmd string) []string {
	var out []string
	for _, m := range scriptRef.FindAllStringSubmatch(cmd, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// isHookOrBin reports whether an image path is a place from which files
// are run: a bin folder or a docker-stacks hook folder.
func isHookOrBin(p string) bool {
	return strings.Contains(p, "/bin/") || strings.Contains(p, "-notebook.d/")
}

// executableMode reports whether a --chmod value gives execute permission.
func executableMode(chmod string) bool {
	if chmod == "" {
		return false
	}
	if n, err := strconv.ParseUint(chmod, 8, 32); err == nil {
		return n&0o111 != 0
	}
	return strings.Contains(chmod, "x")
}

// goDirective returns the version of the go directive of a go.mod file, or
// "" if the file does not exist or has no go directive.
func goDirective(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	f, err := modfile.ParseLax(gomod, data, nil)
	if err != nil {
		return "", err
	}
	if f.Go == nil {
		return "", nil
	}
	return f.Go.Version, nil
}
