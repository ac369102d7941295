// Package dockerfile reads Dockerfiles and checks the course's image
// recipe (docker/Dockerfile) without building it: hadolint is not available
// offline, and the image cannot be built where the tests run.
//
// [Parse] splits a Dockerfile into instructions (comments, line
// continuations, parser directives, heredocs and the JSON form are
// handled); [Check] applies the course's rules to it and its build context:
// every COPY/ADD source exists and is not excluded by the dockerignore file,
// the base images are pinned, Go is copied from the official golang image
// of a release at least go.mod's (never downloaded against a checksum
// typed into the file, which nobody here could have taken from the real
// tarball), no ARG holds such a checksum, the course is installed by scripts/install.sh and GoNB and Jupyter by nothing
// else, every script it runs is in the image and executable, COURSE_ROOT
// points at the copied course, port 8888 is exposed, and the image ends as
// the notebook user.
package dockerfile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// Instruction is one instruction of a Dockerfile.
type Instruction struct {
	// Cmd is the instruction's keyword in upper case: FROM, RUN, COPY, …
	Cmd string
	// Flags are the leading --name=value options of FROM, RUN, COPY and
	// ADD, such as --chown=1000:100 or --from=build.
	Flags []string
	// Args is the rest of the instruction, its continuation lines joined
	// with their line breaks; for a heredoc, the here-document follows
	// after a line break.
	Args string
	// JSON is set when Args is in JSON (exec) form: the array's strings.
	JSON []string
	// Line is the 1-based line where the instruction starts.
	Line int
}

// Flag returns the value of the flag --name, and whether it is set.
func (in Instruction) Flag(name string) (string, bool) {
	for _, f := range in.Flags {
		k, v, _ := strings.Cut(strings.TrimPrefix(f, "--"), "=")
		if k == name {
			return v, true
		}
	}
	return "", false
}

// Words returns the arguments of an instruction in shell form split at
// white space, or its JSON form's strings.
func (in Instruction) Words() []string {
	if in.JSON != nil {
		return in.JSON
	}
	return strings.Fields(in.Args)
}

// ParseFile parses the Dockerfile at path.
func ParseFile(path string) ([]Instruction, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ins, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ins, nil
}

var (
	directive = regexp.MustCompile(`^#\s*([a-zA-Z]+)\s*=\s*(\S+)\s*$`)
	heredoc   = regexp.MustCompile(`<<-?\s*["']?([A-Za-z_][A-Za-z0-9_]*)["']?`)
)

// Parse splits a Dockerfile into its instructions.
func Parse(r io.Reader) ([]Instruction, error) {
	var lines []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	escape := `\`
	i := 0
	// Parser directives: comment lines of the form "# name=value" at the
	// very top.
	for ; i < len(lines); i++ {
		m := directive.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			break
		}
		if strings.EqualFold(m[1], "escape") {
			if m[2] != `\` && m[2] != "`" {
				return nil, fmt.Errorf("line %d: invalid escape character %q", i+1, m[2])
			}
			escape = m[2]
		}
	}
	var out []Instruction
	for i < len(lines) {
		trimmed := strings.TrimSpace(lines[i])
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			i++
			continue
		}
		start := i
		var text strings.Builder
		for {
			line := strings.TrimRight(lines[i], " \t")
			i++
			cont := strings.HasSuffix(line, escape)
			if cont {
				line = strings.TrimSuffix(line, escape)
			}
			text.WriteString(line)
			// Comment and empty lines inside a continuation are dropped.
			for cont && i < len(lines) {
				t := strings.TrimSpace(lines[i])
				if t != "" && !strings.HasPrefix(t, "#") {
					break
				}
				i++
			}
			if !cont || i >= len(lines) {
				break
			}
			text.WriteString("\n")
		}
		in, err := instruction(text.String(), start+1)
		if err != nil {
			return nil, err
		}
		// Here-documents: the lines up to each terminator belong to the
		// instruction.
		if in.Cmd == "RUN" || in.Cmd == "COPY" || in.Cmd == "ADD" {
			for _, m := range heredoc.FindAllStringSubmatch(in.Args, -1) {
				end := m[1]
				var doc []string
				for ; i < len(lines) && strings.TrimSpace(lines[i]) != end; i++ {
					doc = append(doc, lines[i])
				}
				if i >= len(lines) {
					return nil, fmt.Errorf("line %d: here-document %s is not terminated", start+1, end)
				}
				i++
				in.Args += "\n" + strings.Join(doc, "\n")
			}
		}
		out = append(out, in)
	}
	return out, nil
}

// instruction parses the text of one instruction, starting at line.
func instruction(text string, line int) (Instruction, error) {
	text = strings.TrimSpace(text)
	cmd, rest, _ := strings.Cut(text, " ")
	if i := strings.IndexAny(cmd, "\t\n"); i >= 0 {
		cmd, rest = text[:i], text[i+1:]
	}
	in := Instruction{Cmd: strings.ToUpper(cmd), Line: line}
	rest = strings.TrimSpace(rest)
	switch in.Cmd {
	case "FROM", "RUN", "COPY", "ADD":
		for strings.HasPrefix(rest, "--") {
			flag, after, _ := strings.Cut(rest, " ")
			if i := strings.IndexAny(flag, "\t\n"); i >= 0 {
				flag, after = rest[:i], rest[i+1:]
			}
			in.Flags = append(in.Flags, flag)
			rest = strings.TrimSpace(after)
		}
	}
	in.Args = rest
	if strings.HasPrefix(rest, "[") {
		var words []string
		if err := json.Unmarshal([]byte(rest), &words); err == nil {
			in.JSON = words
		}
	}
	if in.Cmd == "" {
		return in, fmt.Errorf("line %d: empty instruction", line)
	}
	return in, nil
}
