package claim

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Name points at printed values by the label the notebook prints before
// them: the line that starts with Label, and the numbers that follow the
// label on that line, counted from 1 (Cols; none means the first ones, as
// many as needed).
//
//	transformer        100.0%   100.0%   9842        "transformer #1 #3" is 100.0 and 9842
//	GPT: 1.93 bits per character                     "GPT" is 1.93
//
// A line starts with the label when, after its leading spaces, it begins
// with it (a space in the label matches any white space) and the label is followed by the end of the line, a colon, a
// "|", two spaces, or a space and a number: "transformer" names the first
// line above but not "transformer (max pooling)  …". The first such line
// in what the notebook printed with a number after the label is the one
// named.
type Name struct {
	Label string
	Cols  []int
	// Under, if set, is where to start looking: the first line that
	// starts with it, for a table printed under a heading ("the #2 under
	// weights = softmax of each row"). In a list of names it holds for
	// the names after it too ("2 #1 under length; 4 #1").
	Under string
}

func (n Name) String() string {
	var b strings.Builder
	b.WriteString(n.Label)
	for _, c := range n.Cols {
		fmt.Fprintf(&b, " #%d", c)
	}
	if n.Under != "" {
		b.WriteString(" under " + n.Under)
	}
	return b.String()
}

// parseNames parses "LABEL [#n …] [under HEADING] [; …]".
func parseNames(s string) ([]Name, error) {
	var out []Name
	for _, part := range strings.Split(s, ";") {
		var n Name
		if head, under, ok := strings.Cut(part, " under "); ok {
			part, n.Under = head, strings.Join(strings.Fields(under), " ")
			if n.Under == "" {
				return nil, fmt.Errorf("%q: want the line to look under after \"under\"", strings.TrimSpace(part))
			}
		}
		f := strings.Fields(part)
		for len(f) > 0 && strings.HasPrefix(f[len(f)-1], "#") {
			c, err := strconv.Atoi(f[len(f)-1][1:])
			if err != nil || c < 1 {
				return nil, fmt.Errorf("column %q: want #1, #2, …", f[len(f)-1])
			}
			n.Cols = append([]int{c}, n.Cols...)
			f = f[:len(f)-1]
		}
		if n.Under == "" && len(out) > 0 {
			n.Under = out[len(out)-1].Under // "2 #1 under length; 4 #1": both under it
		}
		n.Label = strings.Join(f, " ")
		if n.Label == "" {
			return nil, fmt.Errorf("%q: want LABEL [#n …], the text the notebook prints at the start of the line", strings.TrimSpace(part))
		}
		out = append(out, n)
	}
	return out, nil
}

// cut returns what follows n's label on line, if line starts with it
// (white space in the label matches any white space).
func (n Name) cut(line string) (string, bool) {
	rest, ok := n.startsWith(line)
	return rest, ok && afterLabel.MatchString(rest)
}

// startsWith returns what follows n's label on line, if line starts with
// its words, whatever follows them.
func (n Name) startsWith(line string) (string, bool) {
	line = strings.TrimLeft(line, " \t")
	for i, w := range strings.Fields(n.Label) {
		if i > 0 {
			t := strings.TrimLeft(line, " \t")
			if len(t) == len(line) {
				return "", false
			}
			line = t
		}
		var ok bool
		if line, ok = strings.CutPrefix(line, w); !ok {
			return "", false
		}
	}
	return line, true
}

// afterLabel matches what may follow a label on its line.
var afterLabel = regexp.MustCompile(`^(?:$|:|\s*\||\s{2}|\s[−-]?\d)`)

// printedNumberRE matches a number as a program prints it, or a Go
// duration ("1m21.5s", "850ms").
var printedNumberRE = regexp.MustCompile(`(?:\d+(?:\.\d+)?(?:h|ms|µs|ns|m|s))+\b|[−-]?\d[\d,]*(?:\.\d+)?`)

// values returns the numbers n names in printed, as strings: the
// columns asked for, or the first want.
func (n Name) values(printed string, want int) ([]string, error) {
	lines := strings.Split(printed, "\n")
	if n.Under != "" {
		head := Name{Label: n.Under}
		i := slices.IndexFunc(lines, func(l string) bool { _, ok := head.startsWith(l); return ok })
		if i < 0 {
			return nil, fmt.Errorf("the notebook printed no line that starts with %q", n.Under)
		}
		lines = lines[i+1:]
	}
	for _, line := range lines {
		rest, ok := n.cut(line)
		if !ok {
			continue
		}
		var nums []string
		for _, m := range printedNumberRE.FindAllString(rest, -1) {
			nums = append(nums, strings.TrimRight(m, ","))
		}
		if len(nums) == 0 {
			continue // a table's header, say, whose first column is the label
		}
		cols := n.Cols
		if len(cols) == 0 {
			for i := range want {
				cols = append(cols, i+1)
			}
		}
		var out []string
		for _, c := range cols {
			if c > len(nums) {
				return nil, fmt.Errorf("the line %q has %d numbers after %q, the claim asks for #%d", strings.TrimSpace(line), len(nums), n.Label, c)
			}
			out = append(out, nums[c-1])
		}
		return out, nil
	}
	if n.Under != "" {
		return nil, fmt.Errorf("the notebook printed no line that starts with %q under %q", n.Label, n.Under)
	}
	return nil, fmt.Errorf("the notebook printed no line that starts with %q", n.Label)
}

// parseValue reads a printed number, or a Go duration in seconds.
func parseValue(g string) (float64, error) {
	if d, err := time.ParseDuration(strings.TrimSpace(g)); err == nil && durationRE.MatchString(g) {
		return d.Seconds(), nil // "1m21s", as Go prints a time.Duration
	}
	ns := Numbers(g)
	if len(ns) != 1 {
		return 0, fmt.Errorf("%q is not one number", g)
	}
	return ns[0].Lo, nil
}
