// Package claim keeps the figures a lesson's prose states true to what its
// notebook computes.
//
// A lesson states figures in its Markdown: "50.7% at length 12", "training
// took 26–37 s". Each figure is covered by a line of a claims block — an
// HTML comment, "<!-- claims" … "-->", in the same Markdown cell (the
// build removes it from the notebook; GitHub does not show it) — that
// says where the figure comes from:
//
//	"50.7%" ~ length 12 #2                      printed: the 2nd number after the label "length 12"
//	"0.29·0.50" ~ α #1; I #1                     the same, from two lines
//	"0.39" ~ the #1 under weights = softmax      the line "the …" below the line "weights = softmax…"
//	"98–100 %" ~ length 12                       a range: what every kernel class gives
//	"26–37 s" ~ attention #2 ×2.5 on AVX-512/2   a timing, and its machine
//	"117–145 s" ~ notebook ×2 on plain/2         the notebook's own run time
//	"0.5" ~ /\[(-?[\d.]+)/                       printed, where no label fits: a regular expression's groups
//	"1 − 0.72/2 ≈ 64 %" = 100*(1 - 0.72/2)       arithmetic: its last number
//	"6,000 sequences" in lib/seq2seq/experiment.go   a setting of the library: a literal of that file
//	"28.4 BLEU" quoted Vaswani et al. 2017       from a paper or the source
//
// A setting the lesson's code writes ("σ = 0.1" for Sigma: 0.1) needs no
// claim: [Unclaimed] finds it among the code's literals ([CodeSettings]),
// as it finds the inputs of a claim's arithmetic. A [Name] is what the
// notebook prints at the start of a line before the values: a named
// output, which a lesson's cell prints as "label  value …".
//
// The quoted text must appear in the cell (white space matches any white
// space). Its numbers — "26–37" is one range, "24,034,304" and "16 493"
// one number each, "18.9 million" is scaled — are compared in order with
// the values named (or the groups of the regular expressions, the whole
// match of one that has none, each matched against everything the
// notebook printed); a value may be a Go duration such as "1m21s", read
// in seconds. A text with one
// number or range is compared with every group ("each took 12–31 s").
//
// A tolerance is ±x (absolute) or ±x% (relative); without one a figure
// must equal the value rounded as the text shows it. A text that starts
// "below", "under", "at most", "less than", "up to" or "within" states an
// upper bound, one that starts "above", "over", "at least" or "more than"
// a lower bound; a bound holds exactly unless a tolerance is stated.
//
// A figure that comes out of a training moves with the order of its sums,
// which differs between the CPU classes the course runs on (the kernels
// of lib/backend.Classes, and arm64): the text states what every class
// gives, as a range or a bound, and the tests run the trained lessons
// under every class the machine can emulate.
//
// A timing depends on the machine, so it is a measurement of one: its
// line ends with the tolerance ×f and the machine, "on KERNELS/CORES" —
// the kernel class (AVX-512, AVX2 or plain, as lib/backend names them)
// and the number of cores — and the text must name that machine too
// ("on two AVX-512 cores"). It is checked only on a run of that class
// with that many cores, and only against being stale: a run more than f
// times faster than the text says fails, a slower one never does (a
// learner's machine may be slower, or busy). A timing is a value or a
// range, never a bound. What holds on every machine is a relative claim
// ("the cache is 12 times faster"), which a lesson checks within its run.
//
// [Unclaimed] finds the figures of a Markdown text that no claim covers —
// numbers with a unit (%, s, ms, min, minutes, seconds), decimals, and
// times in words, which must be written in digits — so that a figure
// cannot be added without saying where it comes from; the build fails on
// them. [Claim.Check] compares a printed or timed claim with an executed
// notebook; the runner does it on the notebooks it executes.
package claim

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Kind says where a claimed figure comes from.
type Kind string

const (
	Printed    Kind = "~"      // the notebook prints it
	RunTime    Kind = "time"   // the notebook's run time, in seconds
	Arithmetic Kind = "="      // computed from other figures
	Quoted     Kind = "quoted" // from a paper or the source material
	Source     Kind = "in"     // a setting a library file writes
)

// A Claim is one line of a ```claims block.
type Claim struct {
	Text   string           // the figure as the prose states it
	Kind   Kind             //
	Names  []Name           // Printed: the values by their printed labels
	Res    []*regexp.Regexp // Printed: what to find in the outputs, by regular expressions
	Expr   string           // Arithmetic: the expression; Quoted: the source
	Tol    Tolerance        //
	Values []Range          // the numbers of Text
	// Bound is +1 for a text that states an upper bound ("below 0.015",
	// "at most 0.19", "under 2 s"), -1 for a lower bound ("at least 90 %",
	// "above 0.99"), 0 for a value: a bound holds without tolerance.
	Bound int
	// On is the machine a timing was measured on; zero for other claims.
	On   Machine
	Line string // the line as written
}

// Machine is where a timing was measured, or where a notebook runs: the
// class of compute kernels, as lib/backend names them ("AVX-512", "AVX2"
// or "plain Go"), and the number of cores.
type Machine struct {
	Kernels string
	Cores   int
}

func (m Machine) String() string {
	if m.Cores == 1 {
		return m.Kernels + ", 1 core"
	}
	return fmt.Sprintf("%s, %d cores", m.Kernels, m.Cores)
}

// Label is m as a claim's line names it: "AVX-512/2", "plain/4".
func (m Machine) Label() string { return m.kernelsWord() + "/" + strconv.Itoa(m.Cores) }

// kernelsWord is the word for m's kernels in a claim's line and in the
// prose: "AVX-512", "AVX2" or "plain".
func (m Machine) kernelsWord() string { return strings.TrimSuffix(m.Kernels, " Go") }

// machineRE is the label that ends a timing's line: "on AVX-512/2".
var machineRE = regexp.MustCompile(`\s+on\s+(AVX-512|AVX2|plain)/(\d+)$`)

// A Range is a number of the text, or a range "26–37" (Lo < Hi), with the
// half-unit of its last digit: "50.7" is Range{50.7, 50.7, 0.05}.
type Range struct{ Lo, Hi, Half float64 }

// Tolerance is how far a measured value may be from the text's.
type Tolerance struct {
	Abs    float64 // ±x
	Rel    float64 // ±x%: a fraction of the value
	Factor float64 // ×f
}

// Within reports whether v agrees with r under t.
func (t Tolerance) Within(r Range, v float64) bool {
	lo, hi := r.Lo, r.Hi
	switch {
	case t.Factor > 0:
		lo, hi = min(lo/t.Factor, lo*t.Factor), max(hi/t.Factor, hi*t.Factor)
	case t.Rel > 0:
		lo, hi = lo-math.Abs(lo)*t.Rel, hi+math.Abs(hi)*t.Rel
	case t.Abs > 0:
		lo, hi = lo-t.Abs, hi+t.Abs
	default:
		lo, hi = lo-r.Half, hi+r.Half
	}
	const eps = 1e-9
	return v >= lo-eps && v <= hi+eps
}

func (t Tolerance) String() string {
	switch {
	case t.Factor > 0:
		return fmt.Sprintf("×%g", t.Factor)
	case t.Rel > 0:
		return fmt.Sprintf("±%g%%", t.Rel*100)
	case t.Abs > 0:
		return fmt.Sprintf("±%g", t.Abs)
	}
	return "as rounded"
}

// lineRE splits a claim line: "text", then the kind and the rest.
var lineRE = regexp.MustCompile(`^"([^"]+)"\s+(~|=|quoted|in)\s*(.*)$`)

// Parse parses one line of a ```claims block.
func Parse(line string) (Claim, error) {
	c, err := parse(strings.TrimSpace(line))
	switch {
	case err != nil:
		return Claim{}, err
	case c.Timing() && c.On == (Machine{}):
		return Claim{}, fmt.Errorf("claim %q: a timing depends on the machine: end the line with the one it was measured on, as \"on AVX-512/2\" (kernels AVX-512, AVX2 or plain, then cores)", c.Line)
	case c.Timing() && c.Bound != 0:
		return Claim{}, fmt.Errorf("claim %q: a timing is a measurement of one machine: state it as a value or a range (\"about 45 s\"), not a bound", c.Line)
	case !c.Timing() && c.On != (Machine{}):
		return Claim{}, fmt.Errorf("claim %q: only a timing (~ notebook, or a printed time or figure within ×f) is measured on a machine", c.Line)
	}
	return c, nil
}

// parse parses a line without checking that timings, and only they, name
// their machine.
func parse(line string) (Claim, error) {
	m := lineRE.FindStringSubmatch(line)
	if m == nil && givenRE.MatchString(line) {
		return Claim{}, fmt.Errorf(`claim %q: a setting needs no claim: write it in the lesson's code, where the figure check finds it`, line)
	}
	if m == nil {
		return Claim{}, fmt.Errorf(`claim %q: want "TEXT" ~ LABEL [#n …] [TOL], "TEXT" ~ /REGEXP/ [TOL], "TEXT" ~ notebook [TOL], "TEXT" = EXPR [TOL], "TEXT" in FILE.go or "TEXT" quoted SOURCE`, line)
	}
	c := Claim{Text: m[1], Kind: Kind(m[2]), Line: line, Values: Numbers(m[1]), Bound: bound(m[1])}
	rest := strings.TrimSpace(m[3])
	if len(c.Values) == 0 {
		return Claim{}, fmt.Errorf("claim %q: the text %q has no number", line, c.Text)
	}
	switch c.Kind {
	case Quoted:
		if rest == "" {
			return Claim{}, fmt.Errorf("claim %q: say whom it is quoted from", line)
		}
		c.Expr = rest
		return c, nil
	case Source:
		if !strings.HasSuffix(rest, ".go") || strings.ContainsAny(rest, " \t") {
			return Claim{}, fmt.Errorf("claim %q: after in want the Go file that sets it, from the repository's root (lib/train/fit.go)", line)
		}
		c.Expr = rest
		return c, nil
	}
	if m := machineRE.FindStringSubmatch(rest); m == nil && strings.Contains(rest, " on ") && !strings.HasSuffix(rest, "/") {
		return Claim{}, fmt.Errorf("claim %q: the machine must be on KERNELS/CORES, KERNELS one of AVX-512, AVX2 or plain (\"on AVX-512/2\")", line)
	} else if m != nil {
		c.On.Kernels = map[string]string{"plain": "plain Go"}[m[1]]
		if c.On.Kernels == "" {
			c.On.Kernels = m[1]
		}
		c.On.Cores, _ = strconv.Atoi(m[2])
		rest = strings.TrimSpace(rest[:len(rest)-len(m[0])])
		if c.On.Cores < 1 {
			return Claim{}, fmt.Errorf("claim %q: a machine has at least one core", line)
		}
	}
	rest, tol, err := splitTolerance(rest)
	if err != nil {
		return Claim{}, fmt.Errorf("claim %q: %v", line, err)
	}
	c.Tol = tol
	switch {
	case c.Kind == Arithmetic:
		v, err := Eval(rest)
		if err != nil {
			return Claim{}, fmt.Errorf("claim %q: %v", line, err)
		}
		if c.holds(c.Values[len(c.Values)-1], v) != nil {
			return Claim{}, fmt.Errorf("claim %q: %s = %.6g, which the text does not state (tolerance %s)", line, rest, v, tol)
		}
		c.Expr = rest
	case rest == "notebook":
		c.Kind = RunTime
		if len(c.Values) != 1 {
			return Claim{}, fmt.Errorf("claim %q: a run time is one number or one range", line)
		}
	case len(rest) >= 2 && rest[0] == '/' && rest[len(rest)-1] == '/':
		n := 0
		for _, r := range strings.Split(rest[1:len(rest)-1], "/ /") {
			re, err := regexp.Compile(r)
			if err != nil {
				return Claim{}, fmt.Errorf("claim %q: %v", line, err)
			}
			c.Res = append(c.Res, re)
			n += max(re.NumSubexp(), 1)
		}
		if n != len(c.Values) && len(c.Values) != 1 {
			return Claim{}, fmt.Errorf("claim %q: the text has %d numbers and the expressions capture %d", line, len(c.Values), n)
		}
	case rest == "":
		return Claim{}, fmt.Errorf("claim %q: after ~ want the label the notebook prints before the value (LABEL [#n]), /REGEXP/ or notebook", line)
	default:
		names, err := parseNames(rest)
		if err != nil {
			return Claim{}, fmt.Errorf("claim %q: %v", line, err)
		}
		c.Names = names
		n := 0
		for _, nm := range names {
			switch {
			case len(nm.Cols) > 0:
				n += len(nm.Cols)
			case len(names) == 1:
				n += len(c.Values)
			default:
				n++
			}
		}
		if n != len(c.Values) && len(c.Values) != 1 {
			return Claim{}, fmt.Errorf("claim %q: the text has %d numbers and the labels name %d", line, len(c.Values), n)
		}
	}
	return c, nil
}

var (
	upperRE = regexp.MustCompile(`^(below|under|at most|less than|up to|within)\b`)
	lowerRE = regexp.MustCompile(`^(above|over|at least|more than)\b`)
)

// givenRE matches the claims of settings that older lessons wrote.
var givenRE = regexp.MustCompile(`^"[^"]+"\s+given$`)

// bound says whether text states a bound: +1 upper, -1 lower, 0 none.
func bound(text string) int {
	switch {
	case upperRE.MatchString(text):
		return +1
	case lowerRE.MatchString(text):
		return -1
	}
	return 0
}

// splitTolerance splits a trailing "±x", "±x%" or "×f" off s: the last
// field, when it starts with ± or × and does not close a /REGEXP/.
func splitTolerance(s string) (string, Tolerance, error) {
	var t Tolerance
	i := strings.LastIndexAny(s, " \t")
	tail := s[i+1:]
	if !(strings.HasPrefix(tail, "±") || strings.HasPrefix(tail, "×")) || strings.HasSuffix(tail, "/") {
		return s, t, nil
	}
	head := strings.TrimSpace(s[:max(i, 0)])
	switch {
	case strings.HasPrefix(tail, "×"):
		f, err := strconv.ParseFloat(strings.TrimPrefix(tail, "×"), 64)
		if err != nil || f < 1 {
			return "", t, fmt.Errorf("tolerance %q: want ×f with f ≥ 1", tail)
		}
		t.Factor = f
	case strings.HasSuffix(tail, "%"):
		f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(tail, "±"), "%"), 64)
		if err != nil || f <= 0 {
			return "", t, fmt.Errorf("tolerance %q: want ±x%%", tail)
		}
		t.Rel = f / 100
	default:
		f, err := strconv.ParseFloat(strings.TrimPrefix(tail, "±"), 64)
		if err != nil || f <= 0 {
			return "", t, fmt.Errorf("tolerance %q: want ±x", tail)
		}
		t.Abs = f
	}
	return head, t, nil
}

// numberRE matches a number as prose writes it: an optional minus (− or
// -), digits with optional comma, thin-space or space thousands ("16 493",
// "24,034,304"), an optional fraction; a range "26–37"; "million" or
// "billion" after it scales it.
var numberRE = regexp.MustCompile(`([−-]?)(\d{1,3}(?:[,  ]\d{3})+|\d+)(\.\d+)?(?:[–-](\d+(?:\.\d+)?))?( million\b| billion\b)?`)

// Numbers returns the numbers and ranges of s, in order.
func Numbers(s string) []Range {
	var out []Range
	for _, m := range numberRE.FindAllStringSubmatchIndex(s, -1) {
		sign := s[m[2]:m[3]]
		if sign != "" && m[2] > 0 && isDigit(s[m[2]-1]) {
			sign = "" // "10-30": a hyphenated range, not a minus
		}
		digits := strings.NewReplacer(" ", "", " ", "", ",", "").Replace(s[m[4]:m[5]])
		frac := ""
		if m[6] >= 0 {
			frac = s[m[6]:m[7]]
		}
		v, _ := strconv.ParseFloat(digits+frac, 64)
		half := 0.5
		if frac != "" {
			half = 0.5 * math.Pow(10, -float64(len(frac)-1))
		}
		if sign != "" {
			v = -v
		}
		r := Range{Lo: v, Hi: v, Half: half}
		if m[8] >= 0 {
			hi, _ := strconv.ParseFloat(s[m[8]:m[9]], 64)
			r.Hi = hi
		}
		switch {
		case m[10] < 0:
		case strings.Contains(s[m[10]:m[11]], "million"):
			r = Range{r.Lo * 1e6, r.Hi * 1e6, r.Half * 1e6}
		default:
			r = Range{r.Lo * 1e9, r.Hi * 1e9, r.Half * 1e9}
		}
		out = append(out, r)
	}
	return out
}

// durationRE matches a time.Duration as Go prints it ("1m21s", "850ms").
var durationRE = regexp.MustCompile(`^\s*(\d+(\.\d+)?(h|m|s|ms|µs|ns))+\s*$`)

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// Timing reports whether c states how long something took: the
// notebook's run time, or a printed figure in seconds, milliseconds or
// minutes, or held within a factor (×f). Such a figure depends on the
// machine and on what else it is doing.
func (c Claim) Timing() bool {
	return c.Kind == RunTime || c.Kind == Printed && (c.Tol.Factor > 0 || timeUnitRE.MatchString(c.Text))
}

// timeUnitRE finds a number with a unit of time.
var timeUnitRE = regexp.MustCompile(`\d\s?(?:ms|s|min|minutes?|seconds?)\b`)

// Applies reports whether c is checked on a run on machine m: a timing
// only on the machine it was measured on, every other claim everywhere.
func (c Claim) Applies(m Machine) bool { return !c.Timing() || c.On == m }

// CheckSource checks a Source claim: every number of its text is a
// literal of its Go file, under the repository root (as written, or as a
// fraction for a percentage). Other kinds pass.
func (c Claim) CheckSource(root string) error {
	if c.Kind != Source {
		return nil
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Expr)))
	if err != nil {
		return fmt.Errorf("claim %q: %v", c.Line, err)
	}
	if !CodeSettings(string(src)).has(c.Text) {
		return fmt.Errorf("claim %q: %s writes no such number: the text is stale, or the setting moved", c.Line, c.Expr)
	}
	return nil
}

// Check compares a Printed claim with the text the notebook printed, or a
// RunTime claim with its run time in seconds; other kinds pass. A timing
// is held only against being stale (see the package comment): call Check
// for it only where it [Claim.Applies]. The run is taken to have had the
// machine to itself: [Claim.CheckShared] is for one that did not.
func (c Claim) Check(printed string, seconds float64) error {
	return c.CheckShared(printed, seconds, 1)
}

// CheckShared is [Claim.Check] for a run that shared the machine with
// other work, which may have made it up to slowdown times slower than
// alone. A timing then holds only if the run beats the text by less than
// its factor divided by slowdown: a run that comes closer cannot tell a
// stale text from a busy machine, and should be made again alone. Other
// claims are checked as Check checks them.
func (c Claim) CheckShared(printed string, seconds, slowdown float64) error {
	var got []float64
	switch c.Kind {
	case RunTime:
		got = []float64{seconds}
		if strings.Contains(c.Text, "min") {
			got[0] /= 60
		}
	case Printed:
		for _, nm := range c.Names {
			want := 1
			if len(c.Names) == 1 {
				want = len(c.Values)
			}
			vs, err := nm.values(printed, want)
			if err != nil {
				return err
			}
			for _, v := range vs {
				f, err := parseValue(v)
				if err != nil {
					return fmt.Errorf("%s: %v", nm, err)
				}
				got = append(got, f)
			}
		}
		for _, re := range c.Res {
			m := re.FindStringSubmatch(printed)
			if m == nil {
				return fmt.Errorf("the notebook printed nothing that matches /%s/", re)
			}
			groups := m[1:]
			if len(groups) == 0 {
				groups = m[:1]
			}
			for _, g := range groups {
				v, err := parseValue(g)
				if err != nil {
					return fmt.Errorf("/%s/ matched %q, which is not one number", re, g)
				}
				got = append(got, v)
			}
		}
	default:
		return nil
	}
	for i, v := range got {
		if len(c.Values) == 1 {
			i = 0 // one figure for several values: "trainings took 12–31 s"
		}
		if err := c.holdsShared(c.Values[i], v, slowdown); err != nil {
			return err
		}
	}
	return nil
}

// holds says whether v agrees with the text's r: within a bound, or
// within the tolerance.
func (c Claim) holds(r Range, v float64) error { return c.holdsShared(r, v, 1) }

// holdsShared is holds for a run that may have been up to slowdown times
// slower than alone (at least 1).
func (c Claim) holdsShared(r Range, v, slowdown float64) error {
	got := strconv.FormatFloat(v, 'g', 6, 64)
	if c.Timing() {
		// Stale only when the run beats the text by more than the factor:
		// a slower machine, or a busy one, never fails.
		f := max(c.Tol.Factor, 1)
		slowdown = max(slowdown, 1)
		switch {
		case v < r.Lo/f-1e-9:
			return fmt.Errorf("the text says %s (on %s), this run took %s: more than %g times less — measure it again and update the text", fmtRange(r), c.On, got, f)
		case v < r.Lo*slowdown/f-1e-9:
			return fmt.Errorf("the text says %s (on %s), this run took %s beside other work, which may have slowed it up to %g times: it may be stale — run it alone", fmtRange(r), c.On, got, slowdown)
		}
		return nil
	}
	// A bound holds exactly, or within a stated tolerance; a value within
	// the tolerance or the rounding.
	exact := c.Tol == Tolerance{}
	switch {
	case c.Bound > 0 && v > r.Hi && (exact || !c.Tol.Within(Range{r.Hi, r.Hi, 0}, v)),
		c.Bound < 0 && v < r.Lo && (exact || !c.Tol.Within(Range{r.Lo, r.Lo, 0}, v)):
		return fmt.Errorf("the text says %s, the notebook computed %s", c.Text, got)
	case c.Bound == 0 && !c.Tol.Within(r, v):
		return fmt.Errorf("the text says %s, the notebook computed %s (tolerance %s)", fmtRange(r), got, c.Tol)
	}
	return nil
}

func fmtRange(r Range) string {
	if r.Lo == r.Hi {
		return strconv.FormatFloat(r.Lo, 'g', -1, 64)
	}
	return strconv.FormatFloat(r.Lo, 'g', -1, 64) + "–" + strconv.FormatFloat(r.Hi, 'g', -1, 64)
}

// Eval evaluates an arithmetic expression: numbers, + − * /, parentheses,
// and the functions ln, exp, erf, sin, cos, sqrt and pow.
func Eval(expr string) (float64, error) {
	e, err := parser.ParseExpr(strings.ReplaceAll(expr, "−", "-"))
	if err != nil {
		return 0, fmt.Errorf("expression %q: %v", expr, err)
	}
	return eval(e)
}

func eval(e ast.Expr) (float64, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT || e.Kind == token.FLOAT {
			return strconv.ParseFloat(e.Value, 64)
		}
	case *ast.ParenExpr:
		return eval(e.X)
	case *ast.UnaryExpr:
		x, err := eval(e.X)
		if err == nil && e.Op == token.SUB {
			return -x, nil
		}
		if e.Op == token.ADD {
			return x, err
		}
	case *ast.BinaryExpr:
		x, err := eval(e.X)
		if err != nil {
			return 0, err
		}
		y, err := eval(e.Y)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case token.ADD:
			return x + y, nil
		case token.SUB:
			return x - y, nil
		case token.MUL:
			return x * y, nil
		case token.QUO:
			return x / y, nil
		}
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		if !ok {
			break
		}
		args := make([]float64, len(e.Args))
		for i, a := range e.Args {
			v, err := eval(a)
			if err != nil {
				return 0, err
			}
			args[i] = v
		}
		switch {
		case id.Name == "ln" && len(args) == 1:
			return math.Log(args[0]), nil
		case id.Name == "exp" && len(args) == 1:
			return math.Exp(args[0]), nil
		case id.Name == "sin" && len(args) == 1:
			return math.Sin(args[0]), nil
		case id.Name == "cos" && len(args) == 1:
			return math.Cos(args[0]), nil
		case id.Name == "erf" && len(args) == 1:
			return math.Erf(args[0]), nil
		case id.Name == "sqrt" && len(args) == 1:
			return math.Sqrt(args[0]), nil
		case id.Name == "pow" && len(args) == 2:
			return math.Pow(args[0], args[1]), nil
		}
	}
	return 0, fmt.Errorf("expression: cannot evaluate %T (numbers, + - * /, ( ), ln, exp, erf, sin, cos, sqrt, pow)", e)
}
