package claim

import (
	"fmt"
	"go/constant"
	"go/scanner"
	"go/token"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// figureRE matches what reads as a figure: a number with a unit of
// percent or time ("50.7%", "26–37 s", "43 ms", "3 min"), a decimal
// ("0.97", "3.8"), or a large integer written with thousands separators
// ("24,034,304 parameters"). Small integers without a unit are counts and
// settings (600 steps, 12 digits) and are not figures.
var figureRE = regexp.MustCompile(`(?:` + numberRE.String() + `)(?:\s?(?:%|ms\b|s\b|min\b|minutes?\b|seconds?\b))?`)

var unitRE = regexp.MustCompile(`(%|s|min|minutes?|seconds?)$`)

// groupedRE matches an integer written with thousands separators
// ("24,034,304", "16 493"): a parameter count or a data size.
var groupedRE = regexp.MustCompile(`\d[,  ]\d{3}`)

// notProse matches what is not prose: fenced blocks, inline code, display
// and inline math, HTML comments, link targets and image sources.
var notProse = regexp.MustCompile("(?s)(```.*?```|~~~.*?~~~|`[^`\n]*`|\\$\\$.*?\\$\\$|\\$[^$\n]+\\$|<!--.*?-->|\\]\\([^)\n]*\\))")

// Settings are the numbers a lesson's code writes: values the learner
// sees set, which the prose may repeat without a claim ("σ = 0.1", "a
// learning rate of 0.003", "5,000 random pairs"). A figure the notebook
// computes is not among them, so it still needs its claim.
type Settings map[float64]bool

// CodeSettings returns the numeric literals of Go sources (a notebook's
// code cells, without GoNB's %% and ! lines).
func CodeSettings(sources ...string) Settings {
	set := Settings{}
	for _, src := range sources {
		lines := strings.Split(src, "\n")
		for i, l := range lines {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") {
				lines[i] = "" // GoNB's special commands, and shell lines
			}
		}
		src = strings.Join(lines, "\n")
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile("", -1, len(src)), []byte(src), func(token.Position, string) {}, 0)
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.INT && tok != token.FLOAT {
				continue
			}
			v, _ := constant.Float64Val(constant.MakeFromLiteral(lit, tok, 0))
			set[v] = true
		}
	}
	return set
}

// With returns the settings and the numbers of the claims' arithmetic:
// the inputs of a figure the text derives ("for 8,192 tokens … 256 MiB",
// with "256 MiB" = 8192*8192*4/1048576.0) are settings of the text.
func (set Settings) With(claims ...Claim) Settings {
	out := Settings{}
	for v := range set {
		out[v] = true
	}
	for _, c := range claims {
		if c.Kind == Arithmetic {
			for v := range CodeSettings(c.Expr) {
				out[v] = true
			}
		}
	}
	return out
}

// has reports whether the settings hold every number of the figure text:
// as written, or as a fraction for a percentage ("20 %" is 0.2).
func (set Settings) has(text string) bool {
	ns := Numbers(text)
	if len(ns) == 0 {
		return false
	}
	pct := strings.Contains(text, "%")
	in := func(v float64) bool {
		for _, w := range []float64{v, v / 100} {
			if w != v && !pct {
				continue
			}
			for s := range set {
				if math.Abs(s-w) <= 1e-9*math.Max(1, math.Abs(w)) {
					return true
				}
			}
		}
		return false
	}
	for _, r := range ns {
		if !in(r.Lo) || !in(r.Hi) {
			return false
		}
	}
	return true
}

// Unclaimed returns the figures of the Markdown md that no claim covers (a
// figure is covered when it lies inside an occurrence of a claim's text,
// white space matching any white space) and that are not settings of the
// lesson's code, and the claims whose text md does not contain.
func Unclaimed(md string, claims []Claim, set Settings) (figures []string, stale []Claim) {
	md = strings.Join(strings.Fields(md), " ") // a claim's text may span lines
	var covered [][2]int
	for _, c := range claims {
		found := false
		for i := 0; ; {
			j := strings.Index(md[i:], c.Text)
			if j < 0 {
				break
			}
			found = true
			covered = append(covered, [2]int{i + j, i + j + len(c.Text)})
			i += j + len(c.Text)
		}
		if !found {
			stale = append(stale, c)
		}
	}
	var skip [][2]int
	for _, s := range notProse.FindAllStringIndex(md, -1) {
		skip = append(skip, [2]int{s[0], s[1]})
	}
	inside := func(spans [][2]int, a, b int) bool {
		for _, s := range spans {
			if s[0] <= a && b <= s[1] {
				return true
			}
		}
		return false
	}
	for _, m := range figureRE.FindAllStringIndex(md, -1) {
		a, b := m[0], m[1]
		text := md[a:b]
		if !strings.Contains(text, ".") && !unitRE.MatchString(text) && !groupedRE.MatchString(text) {
			continue // a small integer without a unit: a count or a setting
		}
		if r, _ := utf8.DecodeLastRuneInString(md[:a]); a > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '§' || r == '^' || r == '/') {
			continue // part of a name (W_1, GRU64), a section (§3.1), a version or a path
		}
		if r, _ := utf8.DecodeRuneInString(md[b:]); b < len(md) && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			continue // "2D", "10x", "1st"
		}
		if inside(skip, a, b) || inside(covered, a, b) || set.has(text) {
			continue
		}
		figures = append(figures, strings.TrimSpace(text))
	}
	for _, m := range minuteRE.FindAllStringIndex(md, -1) {
		if before := strings.TrimRight(md[:m[0]], " "); before != "" && isDigit(before[len(before)-1]) {
			continue // "5 minutes": a figure in digits, found above
		}
		if !inside(skip, m[0], m[1]) && !inside(covered, m[0], m[1]) {
			figures = append(figures, md[m[0]:m[1]]+" (state it in digits)")
		}
	}
	return figures, stale
}

// minuteRE finds times written in words ("about a minute and a half"),
// which must be stated in digits so that they can be checked.
var minuteRE = regexp.MustCompile(`\b(?:[a-z]+ )?minutes?\b`)

// Block returns the claims of a claims block's lines (blank lines and
// lines starting with # are skipped).
func Block(lines []string) ([]Claim, error) {
	var out []Claim
	for _, l := range lines {
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		c, err := Parse(l)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Unlabelled returns the timings among claims whose machine the Markdown
// md does not name: its kernel class ("AVX-512", "AVX2", "plain") and its
// number of cores, in digits or in words ("on two AVX-512 cores", "a
// 2-core machine"). A learner reads a timing as a promise unless the text
// says where it was measured.
func Unlabelled(md string, claims []Claim) []Claim {
	md = strings.Join(strings.Fields(md), " ")
	var out []Claim
	for _, c := range claims {
		if !c.Timing() {
			continue
		}
		if !strings.Contains(md, c.On.kernelsWord()) || !coresRE(c.On.Cores).MatchString(md) {
			out = append(out, c)
		}
	}
	return out
}

// coresRE matches "2 cores", "two cores", "two AVX-512 cores", "2-core".
func coresRE(n int) *regexp.Regexp {
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"}
	alt := strconv.Itoa(n)
	if n < len(words) {
		alt += "|" + words[n]
	}
	return regexp.MustCompile(`(?i)\b(?:` + alt + `)(?:[\s-]+[\w-]+){0,3}?[\s-]+cores?\b`)
}

// Describe says what is wrong with the figures, stale claims and
// unlabelled timings of a Markdown cell, for a build error; "" if nothing
// is.
func Describe(figures []string, stale []Claim, unlabelled ...Claim) string {
	var b strings.Builder
	if len(figures) > 0 {
		fmt.Fprintf(&b, "figures without a claim: %q; say where each comes from in a claims block after them (<!-- claims … -->): \"TEXT\" ~ LABEL [#n] (the notebook prints it after LABEL), ~ notebook (its run time), = EXPR (arithmetic) or quoted SOURCE; a setting needs no claim once the lesson's code writes it", figures)
	}
	for _, c := range stale {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "claim %q: the cell's text does not contain %q", c.Line, c.Text)
	}
	for _, c := range unlabelled {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "claim %q: say in the text which machine the timing was measured on (%s)", c.Line, c.On)
	}
	return b.String()
}
