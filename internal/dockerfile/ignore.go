package dockerfile

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// ignorePattern is one line of a dockerignore file.
type ignorePattern struct {
	text   string // as written
	negate bool   // a "!" exception
	re     *regexp.Regexp
}

// readIgnore reads the dockerignore file that applies to dockerfile: its
// own NAME.dockerignore, as BuildKit reads it, else context/.dockerignore,
// else none.
func readIgnore(dockerfile, context string) ([]ignorePattern, error) {
	for _, p := range []string{dockerfile + ".dockerignore", filepath.Join(context, ".dockerignore")} {
		f, err := os.Open(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		defer f.Close()
		var pats []ignorePattern
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			pat, err := compileIgnore(line)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			pats = append(pats, pat)
		}
		return pats, sc.Err()
	}
	return nil, nil
}

// compileIgnore compiles a dockerignore pattern: Go's filepath.Match
// syntax, on paths relative to the context, where ** matches any number of
// folders and "!" makes an exception.
func compileIgnore(line string) (ignorePattern, error) {
	p := ignorePattern{text: line}
	if strings.HasPrefix(line, "!") {
		p.negate, line = true, strings.TrimSpace(line[1:])
	}
	line = path.Clean(strings.TrimPrefix(line, "/"))
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(line); i++ {
		switch ch := line[i]; {
		case strings.HasPrefix(line[i:], "**/"):
			re.WriteString("(.*/)?")
			i += 2
		case strings.HasPrefix(line[i:], "**"):
			re.WriteString(".*")
			i++
		case ch == '*':
			re.WriteString("[^/]*")
		case ch == '?':
			re.WriteString("[^/]")
		case ch == '[':
			if j := strings.IndexByte(line[i:], ']'); j > 0 {
				re.WriteString(strings.Replace(line[i:i+j+1], "[!", "[^", 1))
				i += j
			} else {
				re.WriteString(`\[`)
			}
		case ch == '\\' && i+1 < len(line):
			i++
			re.WriteString(regexp.QuoteMeta(line[i : i+1]))
		default:
			re.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	re.WriteString("$")
	var err error
	if p.re, err = regexp.Compile(re.String()); err != nil {
		return p, fmt.Errorf("bad pattern %q: %w", p.text, err)
	}
	return p, nil
}
