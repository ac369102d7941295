package main

import (
	"strings"
	"testing"
)

func TestSiteUsage(t *testing.T) {
	root := newCourse(t, map[string]string{"01-a.md": "# A\n"})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"site", "extra"}, "unexpected arguments: extra"},
		{[]string{"site", "-out", "."}, "-out . would replace the course"},
		{[]string{"site", "-out", ".."}, "would replace the course"},
		{[]string{"site", "-out", "lessons"}, "holds files that site did not write (no .course-site)"},
		{[]string{"site", "-timeout", "1ms"}, "too short"},
	} {
		code, _, stderr := runCourse(t, root, tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tt.args, code, stderr, exitUsage, tt.want)
		}
	}
}
