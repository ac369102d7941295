package dockerfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// ignoreFile is a dockerignore file, read and matched with the packages
// Docker's own build uses.
type ignoreFile struct {
	patterns []string // as ignorefile.ReadAll returns them ("!" kept)
	m        *patternmatcher.PatternMatcher
}

// readIgnore reads the dockerignore file that applies to dockerfile: its
// own NAME.dockerignore, as BuildKit reads it, else context/.dockerignore,
// else none (nil).
func readIgnore(dockerfile, context string) (*ignoreFile, error) {
	for _, p := range []string{dockerfile + ".dockerignore", filepath.Join(context, ".dockerignore")} {
		f, err := os.Open(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		defer f.Close()
		ig, err := parseIgnore(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return ig, nil
	}
	return nil, nil
}

// parseIgnore reads and compiles a dockerignore file.
func parseIgnore(r io.Reader) (*ignoreFile, error) {
	patterns, err := ignorefile.ReadAll(r)
	if err != nil {
		return nil, err
	}
	m, err := patternmatcher.New(patterns)
	if err != nil {
		return nil, fmt.Errorf("bad dockerignore pattern: %w", err)
	}
	// The matcher compiles a pattern on its first use: compile them all
	// now, so that a bad one is reported here rather than ignored later.
	for _, p := range patterns {
		if _, err := patternmatcher.MatchesOrParentMatches("x", []string{strings.TrimPrefix(p, "!")}); err != nil {
			return nil, fmt.Errorf("bad dockerignore pattern %q: %w", p, err)
		}
	}
	return &ignoreFile{patterns: patterns, m: m}, nil
}

// excludedBy returns a pattern that excludes rel, a slash-separated path
// relative to the context, from the context; or "" if rel is in the
// context. A path is excluded when it or one of its parent folders
// matches a pattern and no later "!" exception matches it, as Docker
// decides.
func (ig *ignoreFile) excludedBy(rel string) string {
	if ig == nil {
		return ""
	}
	if excluded, err := ig.m.MatchesOrParentMatches(rel); err != nil || !excluded {
		return ""
	}
	// Name the last pattern that matches on its own.
	for _, p := range slices.Backward(ig.patterns) {
		if ok, _ := patternmatcher.MatchesOrParentMatches(rel, []string{p}); ok {
			return p
		}
	}
	return "(the dockerignore file)"
}
