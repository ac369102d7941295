package dates

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/attention-in-go/course/lib/train"
)

// Recipe is how a [TransformerExperiment] trains beyond Adam at a
// constant learning rate — the pieces of the training recipe of "Attention
// Is All You Need" (§5.3–5.4) and of nanoGPT:
//
//   - Warmup and Decay shape the learning rate ([train.Config.Rate]);
//   - Dropout is the paper's residual dropout
//     ([transformer.EncoderDecoder].Dropout);
//   - LabelSmoothing is ε of [seq2seq.SmoothedLoss];
//   - ClipNorm clips the gradients by their global norm
//     ([train.ClipByGlobalNorm]);
//   - WeightDecay makes Adam AdamW ([train.Config].WeightDecay).
//
// The zero Recipe is plain Adam at a constant rate.
//
// Introduced in lesson 09.
type Recipe struct {
	Warmup                                         int
	Decay                                          train.Decay
	Dropout, LabelSmoothing, ClipNorm, WeightDecay float64
}

// TrainingRecipe is the recipe lesson 09's model trains with: a warm-up
// of a tenth of its 1 000 steps, the cosine decay, and clipping at 1 and
// weight decay 0.1 as nanoGPT does. The paper's two regularisers, label
// smoothing and dropout (0.1 each), are left out: in the ablation
// ([RecipeVariants]) neither helps this model on this task.
//
// Introduced in lesson 09.
var TrainingRecipe = Recipe{Warmup: 100, Decay: train.Cosine, ClipNorm: 1, WeightDecay: 0.1}

// String lists the pieces that are on, as "warm-up 100, cosine, dropout
// 0.1, …"; the zero Recipe is "constant rate".
func (r Recipe) String() string {
	var parts []string
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	if r.Warmup > 0 {
		parts = append(parts, fmt.Sprintf("warm-up %d", r.Warmup))
	}
	if r.Decay != train.NoDecay {
		parts = append(parts, r.Decay.String())
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"dropout", r.Dropout}, {"label smoothing", r.LabelSmoothing}, {"clip", r.ClipNorm}, {"weight decay", r.WeightDecay}} {
		if p.v != 0 {
			parts = append(parts, p.name+" "+g(p.v))
		}
	}
	if len(parts) == 0 {
		return "constant rate"
	}
	return strings.Join(parts, ", ")
}

// slug names the recipe in a checkpoint name.
func (r Recipe) slug() string {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return fmt.Sprintf("w%d-%d-d%s-ls%s-c%s-wd%s", r.Warmup, int(r.Decay), g(r.Dropout), g(r.LabelSmoothing), g(r.ClipNorm), g(r.WeightDecay))
}

// Variant is one row of an ablation: a recipe and its name.
//
// Introduced in lesson 09.
type Variant struct {
	Name   string
	Recipe Recipe
}

// RecipeVariants are the rows of lesson 09's ablation: Adam at a constant
// rate, the cosine decay alone, [TrainingRecipe] (lesson 09's model), the
// recipe without each of its pieces in turn, the recipe with the paper's
// schedule in place of the cosine, and the recipe with each of the
// paper's regularisers added.
//
// Introduced in lesson 09.
func RecipeVariants() []Variant {
	change := func(name string, f func(r *Recipe)) Variant {
		r := TrainingRecipe
		f(&r)
		return Variant{Name: name, Recipe: r}
	}
	return []Variant{
		{Name: "constant rate", Recipe: Recipe{}},
		{Name: "cosine decay", Recipe: Recipe{Decay: train.Cosine}},
		{Name: "recipe", Recipe: TrainingRecipe},
		change("recipe without warm-up", func(r *Recipe) { r.Warmup = 0 }),
		change("recipe without clipping", func(r *Recipe) { r.ClipNorm = 0 }),
		change("recipe without weight decay", func(r *Recipe) { r.WeightDecay = 0 }),
		change("recipe, paper's schedule", func(r *Recipe) { r.Decay = train.InverseSqrt }),
		change("recipe + label smoothing", func(r *Recipe) { r.LabelSmoothing = 0.1 }),
		change("recipe + dropout", func(r *Recipe) { r.Dropout = 0.1 }),
	}
}

// Ablation is the exact match of every variant over seeds, measured on
// one kernel class.
//
// Introduced in lesson 09.
type Ablation struct {
	// Kernels names the kernel class the trainings ran on
	// (backend.KernelClass); Seeds the seeds of the initial weights and
	// of the order of the batches (the dates are the same for all).
	Kernels string        `json:"kernels"`
	Seeds   []uint32      `json:"seeds"`
	Rows    []AblationRow `json:"rows"`
}

// AblationRow is one variant's exact match on the test dates, one entry
// per seed (in %).
type AblationRow struct {
	Name   string    `json:"name"`
	Recipe string    `json:"recipe"`
	Exact  []float64 `json:"exact"`
}

// Mean, Min and Max summarise a row.
func (r AblationRow) Mean() float64 {
	s := 0.0
	for _, v := range r.Exact {
		s += v
	}
	return s / float64(len(r.Exact))
}
func (r AblationRow) Min() float64 { return slices.Min(r.Exact) }
func (r AblationRow) Max() float64 { return slices.Max(r.Exact) }

// RunAblation trains x with every variant's recipe from every seed (the
// same dates, x's DataSeed or else its Seed), as many at a time as the
// machine has cores, decodes the test dates greedily and returns the exact
// match of each. Nothing is saved. kernels labels the result.
//
// Part of the library behind lesson 09; the lesson does not name it.
func (x TransformerExperiment) RunAblation(variants []Variant, seeds []uint32, kernels string) (*Ablation, error) {
	if x.DataSeed == 0 {
		x.DataSeed = x.Seed
	}
	test := x.Task().Test
	n := len(variants) * len(seeds)
	exact, err := train.Concurrently(n, func(i int) (float64, error) {
		y := x
		y.Recipe, y.Seed = variants[i/len(seeds)].Recipe, seeds[i%len(seeds)]
		t, err := y.fit("")
		if err != nil {
			return 0, err
		}
		ts, err := y.TranslateTransformer(t.Store, test)
		if err != nil {
			return 0, err
		}
		plain := make([]Translation, len(ts))
		for j, tr := range ts {
			plain[j] = tr.Translation
		}
		return 100 * Accuracy(plain), nil
	})
	if err != nil {
		return nil, err
	}
	a := &Ablation{Kernels: kernels, Seeds: seeds}
	for v, variant := range variants {
		a.Rows = append(a.Rows, AblationRow{Name: variant.Name, Recipe: variant.Recipe.String(), Exact: exact[v*len(seeds) : (v+1)*len(seeds)]})
	}
	return a, nil
}

//go:embed testdata/recipe-ablation.json
var ablationJSON []byte

// RecipeAblations returns lesson 09's ablation as measured on each kernel
// class (testdata/recipe-ablation.json, written by `go test ./lib/dates
// -run TestRecipeAblation -ablation`, about 4 minutes per kernel class on
// two cores).
//
// Introduced in lesson 09.
func RecipeAblations() ([]*Ablation, error) {
	var as []*Ablation
	if err := json.Unmarshal(ablationJSON, &as); err != nil {
		return nil, fmt.Errorf("dates: testdata/recipe-ablation.json: %w", err)
	}
	return as, nil
}

// AblationTable formats ablations of the same variants side by side: per
// variant, the mean exact match and its range over the seeds on each
// kernel class, and the range over all of them.
//
// Introduced in lesson 09.
func AblationTable(as []*Ablation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-28s", "variant")
	for _, a := range as {
		fmt.Fprintf(&b, "  %-25s", a.Kernels+": mean (min–max)")
	}
	fmt.Fprintf(&b, "  %s\n", "all: min–max, spread")
	for i := range as[0].Rows {
		fmt.Fprintf(&b, "%-28s", as[0].Rows[i].Name)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, a := range as {
			r := a.Rows[i]
			fmt.Fprintf(&b, "  %-25s", fmt.Sprintf("%.1f%% (%.1f–%.1f)", r.Mean(), r.Min(), r.Max()))
			lo, hi = min(lo, r.Min()), max(hi, r.Max())
		}
		fmt.Fprintf(&b, "  %.1f–%.1f%%, %.1f pts\n", lo, hi, hi-lo)
	}
	return b.String()
}
