package dates

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/internal/record"
)

var ablation = flag.Bool("ablation", false, "train lesson 09's recipe ablation on this machine's kernel class and record it in testdata/recipe-ablation.json")

// ablationSeeds are the seeds of the ablation: lesson 09's and four more.
var ablationSeeds = []uint32{7, 8, 9, 10, 11}

// TestRecipeAblation, with -ablation, trains every variant of
// RecipeVariants from every seed on the kernels this run has (set
// GOMLX_SIMD_AVX512=false, and GOMLX_SIMD_AVX2=false too, for the other
// classes) and replaces that class's entry of
// testdata/recipe-ablation.json. Without the flag it checks the recorded
// file: every class has every variant and seed, in the order of
// RecipeVariants, with the recipes it names.
func TestRecipeAblation(t *testing.T) {
	path := filepath.Join("testdata", "recipe-ablation.json")
	if *ablation {
		kernels := backend.KernelsWith(os.Environ())
		a, err := Lesson09.RunAblation(RecipeVariants(), ablationSeeds, kernels)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s\n%s", kernels, AblationTable([]*Ablation{a}))
		if err := record.Replace(path, a, func(e *Ablation) string { return e.Kernels }); err != nil {
			t.Fatal(err)
		}
		return
	}
	as, err := RecipeAblations()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) == 0 {
		t.Fatal("testdata/recipe-ablation.json records no kernel class: run this test with -ablation")
	}
	variants := RecipeVariants()
	for _, a := range as {
		if !slices.Equal(a.Seeds, ablationSeeds) || len(a.Rows) != len(variants) {
			t.Fatalf("%s: seeds %v and %d rows, want %v and %d: re-run with -ablation", a.Kernels, a.Seeds, len(a.Rows), ablationSeeds, len(variants))
		}
		for i, r := range a.Rows {
			if r.Name != variants[i].Name || r.Recipe != variants[i].Recipe.String() || len(r.Exact) != len(ablationSeeds) {
				t.Errorf("%s row %d: %q (%s), %d seeds; RecipeVariants has %q (%s): re-run with -ablation", a.Kernels, i, r.Name, r.Recipe, len(r.Exact), variants[i].Name, variants[i].Recipe)
			}
		}
	}
}

// TestRecipeVariants: each "without" row differs from the recipe in
// exactly the piece it names, and Recipe.String names what is on.
func TestRecipeVariants(t *testing.T) {
	pieces := map[string]string{"warm-up": "warm-up", "clipping": "clip", "weight decay": "weight decay"}
	full := TrainingRecipe.String()
	n := 0
	for _, v := range RecipeVariants() {
		name, ok := strings.CutPrefix(v.Name, "recipe without ")
		if !ok {
			continue
		}
		n++
		s := v.Recipe.String()
		if strings.Contains(s, pieces[name]) || strings.Replace(full, pieces[name], "", 1) == full {
			t.Errorf("%q: recipe %q still has %s (full: %q)", v.Name, s, pieces[name], full)
		}
	}
	if n != 3 {
		t.Errorf("%d rows without a piece, want 3", n)
	}
	if got := (Recipe{}).String(); got != "constant rate" {
		t.Errorf("zero recipe: %q", got)
	}
	if got, want := TrainingRecipe.String(), "warm-up 100, cosine, clip 1, weight decay 0.1"; got != want {
		t.Errorf("TrainingRecipe = %q, want %q", got, want)
	}
	if TrainingRecipe != Lesson09.Recipe {
		t.Error("the row \"recipe\" is no longer lesson 09's recipe")
	}
}
