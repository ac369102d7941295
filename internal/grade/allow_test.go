package grade

import (
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/check"
)

// TestEveryExerciseHasAnAllowList: the grader refuses by default, so an
// exercise must say what a solution may use; an entry must name a
// package of the course, GoMLX or compute.
func TestEveryExerciseHasAnAllowList(t *testing.T) {
	for _, id := range check.IDs() {
		spec, _ := check.Lookup(id)
		info := spec.Info()
		if info.Allow == nil {
			t.Errorf("exercise %s has no allow list (check.StdOnly for the standard library alone)", id)
		}
		for _, e := range info.Allow {
			if !strings.HasPrefix(e, "lib/") && !strings.HasPrefix(e, "github.com/gomlx/") {
				t.Errorf("exercise %s allows %q: want lib/… or a GoMLX package", id, e)
			}
			if strings.HasPrefix(e, "lib/check") {
				t.Errorf("exercise %s allows %q, the checks and references", id, e)
			}
		}
	}
}

func TestSplitSymbol(t *testing.T) {
	for _, tc := range []struct{ sym, pkg, member string }{
		{"github.com/gomlx/gomlx/core/graph.(*Node).Shape", "github.com/gomlx/gomlx/core/graph", ""},
		{"github.com/gomlx/gomlx/core/graph.Scalar[go.shape.float32]", "github.com/gomlx/gomlx/core/graph", "Scalar"},
		{"gonum.org/v1/plot.New", "gonum.org/v1/plot", "New"},
		{module + "/lib/attention.LookAhead.func1", module + "/lib/attention", "LookAhead"},
		{module + "/lib/attention.glob..func1", module + "/lib/attention", "glob"},
		{module + "/lib/attention.init.0", module + "/lib/attention", "init"},
		{module + "/lib/posenc.Table.Row", module + "/lib/posenc", ""},
		{"github.com/x/p.F[github.com/y/q.T]", "github.com/x/p", "F"},
		{"main.Softmax", "main", "Softmax"},
	} {
		pkg, rest := splitSymbol(tc.sym)
		member, method := memberOf(rest)
		if pkg != tc.pkg || (tc.member == "") != method || (!method && member != tc.member) {
			t.Errorf("%s: package %q, member %q (method %v); want %q, %q", tc.sym, pkg, member, method, tc.pkg, tc.member)
		}
	}
}

// TestUnallowedLink: what a program links beyond its harness must be the
// standard library's, a method, an allowed member, or an unexported
// helper of a package the harness or the list reaches.
func TestUnallowedLink(t *testing.T) {
	const graph = "github.com/gomlx/gomlx/core/graph"
	base := map[string]bool{
		module + "/lib/exercise.Serve":                  true,
		graph + ".Exp":                                  true,
		graph + ".Const":                                true,
		graph + ".Scalar[go.shape.float64]":             true,
		"github.com/gomlx/compute/shapes.Make":          true,
		"gonum.org/v1/plot.New":                         true,
		module + "/lib/viz.(*Heatmap).Draw":             true,
		module + "/lib/attention.softmaxWeights":        true,
		"github.com/gomlx/compute/dtypes.DType.String":  true,
		"github.com/gomlx/gomlx/core/graph.helperOfExp": true,
	}
	allow := newAllowList(module, []string{graph + ".Exp", graph + ".Const", graph + ".Scalar", graph + ".Node", "lib/viz"})
	for _, tc := range []struct {
		name string
		syms []string
		want string
	}{
		{"the harness alone", []string{module + "/lib/exercise.Serve"}, ""},
		{"the standard library", []string{"math.Exp", "sort.Float64s", "fmt.Sprintf", "internal/abi.X", "type:.eq.main.T"}, ""},
		{"the learner's own", []string{"main.Softmax", "main.helper.func1"}, ""},
		{"a method on a value the harness gave", []string{graph + ".(*Node).String", "github.com/gomlx/compute/shapes.Shape.String"}, ""},
		{"an allowed member's new instance", []string{graph + ".Scalar[go.shape.float32]"}, ""},
		{"an allowed package's helper", []string{module + "/lib/viz.newFigure"}, ""},
		{"GoMLX doing the exercise", []string{graph + ".MaskedReduceMean"}, "github.com/gomlx/gomlx/core/graph.MaskedReduceMean"},
		{"a course package no entry names", []string{module + "/lib/precision.Softmax"}, "lib/precision.Softmax"},
		{"its helper alone", []string{module + "/lib/precision.round"}, "lib/precision.round"},
		{"the checks' initialisation", []string{module + "/lib/check.init"}, "lib/check.init"},
		{"a blank import names the course's package", []string{"codeberg.org/go-latex/latex/font/ttf.init", module + "/lib/precision.init", "gonum.org/v1/plot/vg.init"}, "lib/precision.init"},
		{"the course's exported function first", []string{module + "/lib/precision.round", module + "/lib/precision.Softmax", "gonum.org/v1/plot/vg.New"}, "lib/precision.Softmax"},
		{"an exported function of a reached package", []string{module + "/lib/attention.Explain"}, "lib/attention.Explain"},
	} {
		syms := map[string]bool{}
		for _, s := range tc.syms {
			syms[s] = true
		}
		if got := unallowedLink(syms, base, allow, module); got != tc.want {
			t.Errorf("%s: unallowedLink = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestAllowText(t *testing.T) {
	if got := allowText(check.StdOnly); got != "the standard library only" {
		t.Errorf("StdOnly: %q", got)
	}
	if got := allowText(append([]string{"lib/viz"}, check.GraphOps...)); !strings.Contains(got, "GoMLX's graph operations") || !strings.HasSuffix(got, ", lib/viz") {
		t.Errorf("GraphOps and lib/viz: %q", got)
	}
}

// TestNotAllowed grades, through the sandbox, what the deny lists let
// through: another course package computing the answer (named), a course
// function reached through a dot import (linked: the names cannot tell),
// and GoMLX doing a plain-Go exercise's job.
func TestNotAllowed(t *testing.T) {
	for _, tc := range []struct {
		slug, exercise, imports, body, want string
		honest                              []string // exercises that keep full points
	}{
		{"01-scaled-dot-product-attention", "softmax", "import \"" + lib + "/precision\"",
			"func Softmax(logits []float64, temperature float64) []float64 {\n\tx := make([]float64, len(logits))\n\tfor i, l := range logits {\n\t\tx[i] = l / temperature\n\t}\n\treturn precision.Softmax(precision.Float64, x, precision.Options{})\n}",
			"flagged: uses lib/precision.", []string{"padding-mask", "causal-mask"}},
		// A dot import hides the name from the type check (its package is
		// not loaded); the program's symbols still show the call.
		{"02-bahdanau-luong", "dot-score", "import . \"" + lib + "/random\"",
			"func DotScores(query []float64, keys [][]float64) []float64 {\n\tscores := make([]float64, len(keys))\n\tfor j, h := range keys {\n\t\tfor i := range h {\n\t\t\tscores[j] += query[i] * h[i]\n\t\t}\n\t}\n\tif len(scores) > 1000 {\n\t\t_ = New(1)\n\t}\n\treturn scores\n}",
			"flagged: uses lib/random.New", nil},
		// The sampler through lib/attention's softmax: the issue's
		// Explain with one-wide keys.
		{"10-gpt-writes-go", "sample", "import \"" + lib + "/attention\"",
			"func Sample(logits []float64, temperature float64, topK int, u float64) int {\n\tk := make([][]float64, len(logits))\n\tfor i, l := range logits {\n\t\tk[i] = []float64{l / temperature}\n\t}\n\tsteps, err := attention.Explain([][]float64{{1}}, k, k, nil)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tcum := 0.0\n\tfor i, p := range steps.Weights[0] {\n\t\tcum += p\n\t\tif cum > u {\n\t\t\treturn i\n\t\t}\n\t}\n\treturn len(logits) - 1\n}",
			"flagged: uses lib/attention.Explain", []string{"lm-targets", "kv-cache"}},
		{"08-transformer-classifier", "masked-mean", "import \"github.com/gomlx/gomlx/core/graph\"",
			"func MaskedMean(x [][]float64, keep []bool) []float64 {\n\tif len(x) < 0 {\n\t\t_ = graph.MaskedReduceMean\n\t}\n\tout := make([]float64, len(x[0]))\n\tn := 0\n\tfor t, row := range x {\n\t\tif keep[t] {\n\t\t\tn++\n\t\t\tfor j, v := range row {\n\t\t\t\tout[j] += v\n\t\t\t}\n\t\t}\n\t}\n\tfor j := range out {\n\t\tif n > 0 {\n\t\t\tout[j] /= float64(n)\n\t\t}\n\t}\n\treturn out\n}",
			"flagged: uses github.com/gomlx/gomlx/core/graph.MaskedReduceMean", []string{"masked-max", "cls-pool"}},
	} {
		t.Run(tc.slug, func(t *testing.T) {
			rows := gradeCheat(t, tc.slug, tc.exercise, tc.imports, tc.body)
			if r := rows["cheat/"+tc.exercise]; r == nil || r[2] != "0" || !strings.HasPrefix(r[4], tc.want) {
				t.Errorf("%s: %v; want 0 points, %q", tc.exercise, r, tc.want)
			}
			for _, ex := range tc.honest {
				if r := rows["cheat/"+ex]; r == nil || r[2] != r[3] {
					t.Errorf("honest %s: %v; want full points", ex, r)
				}
			}
		})
	}
}
