package check

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/attention-in-go/course/lib/check/internal/reference"
	"github.com/attention-in-go/course/lib/exercise"
	"github.com/attention-in-go/course/lib/exercise/withlib"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/vision"
)

// This file holds the checks of lesson 05's Vision Transformer exercises:
// cutting images into patches, the patch embedding, and training the ViT.

// The inputs and outputs of lesson 05's ViT exercises, defined with
// their tasks in lib/exercise and lib/exercise/withlib.
type (
	PatchIn        = exercise.PatchIn
	PatchOut       = exercise.PatchOut
	EmbedPatchesIn = withlib.EmbedPatchesIn
	ViTIn          = withlib.ViTIn
)

type patchifyFunc = func(img [][]float64, p int) ([][]float64, error)

// counting returns an h×w image whose pixel (y, x) is y·w + x, so that
// every misplaced pixel shows.
func counting(h, w int) [][]float64 {
	img := make([][]float64, h)
	for y := range img {
		img[y] = make([]float64, w)
		for x := range img[y] {
			img[y][x] = float64(y*w + x)
		}
	}
	return img
}

// patchVariant cuts patches with one of the usual mistakes: colMajor
// walks the patch grid column by column, transposed flattens each patch
// column by column.
func patchVariant(colMajor, transposed bool) func(PatchIn) PatchOut {
	return func(in PatchIn) PatchOut {
		got, err := reference.Patchify(in.Img, in.P)
		if err != nil {
			return PatchOut{Err: true}
		}
		rows, cols := len(in.Img)/in.P, len(in.Img[0])/in.P
		out := make([][]float64, len(got))
		for n := range got {
			src := n
			if colMajor {
				src = (n%rows)*cols + n/rows
			}
			out[n] = append([]float64(nil), got[src]...)
			if transposed {
				for y := range in.P {
					for x := range in.P {
						out[n][x*in.P+y] = got[src][y*in.P+x]
					}
				}
			}
		}
		return PatchOut{Patches: out}
	}
}

func comparePatches(got, want PatchOut) *Diff {
	switch {
	case want.Err && !got.Err:
		return &Diff{Msg: "expected an error (the image does not divide into p×p patches), got patches"}
	case want.Err:
		return nil
	case got.Err:
		return &Diff{Msg: "expected patches, got an error"}
	}
	if len(got.Patches) != len(want.Patches) {
		return &Diff{Msg: fmt.Sprintf("wrong number of patches: expected %d, got %d", len(want.Patches), len(got.Patches))}
	}
	for n := range want.Patches {
		if len(got.Patches[n]) != len(want.Patches[n]) {
			return &Diff{Msg: fmt.Sprintf("patch %d has %d values, expected p·p = %d", n, len(got.Patches[n]), len(want.Patches[n]))}
		}
		for i := range want.Patches[n] {
			if got.Patches[n][i] != want.Patches[n][i] {
				return &Diff{Where: fmt.Sprintf("patch %d, index %d", n, i), Want: fmtF(want.Patches[n][i]), Got: fmtF(got.Patches[n][i])}
			}
		}
	}
	return nil
}

var patchifySpec = Register(&Exercise[patchifyFunc, PatchIn, PatchOut]{
	ID: "patchify", Title: "cutting images into patches", Points: 2,
	Signature: "func Patchify(img [][]float64, p int) ([][]float64, error)",
	Task:      exercise.Patchify,
	Reference: patchVariant(false, false),
	Cases: func() []Case[PatchIn] {
		ring, _ := vision.Generate(1, 16, 3)
		return []Case[PatchIn]{
			{"4×4 pixels numbered 0…15, 2×2 patches", PatchIn{Img: counting(4, 4), P: 2}},
			{"a 16×16 shape image, 4×4 patches", PatchIn{Img: ring.Images[0], P: 4}},
			{"a 4×6 (not square) image, 2×2 patches", PatchIn{Img: counting(4, 6), P: 2}},
			{"one patch: p = the image size", PatchIn{Img: counting(3, 3), P: 3}},
			{"p = 1: every pixel a patch", PatchIn{Img: counting(2, 3), P: 1}},
			{"5×5 image, p = 2 (error)", PatchIn{Img: counting(5, 5), P: 2}},
			{"p = 0 (error)", PatchIn{Img: counting(4, 4), P: 0}},
		}
	},
	Hidden: func(r *random.Source) []Case[PatchIn] {
		p := intIn(r, 2, 4)
		h, w := p*intIn(r, 1, 4), p*intIn(r, 1, 4)
		for h == w {
			w = p * intIn(r, 1, 4)
		}
		bad := p*intIn(r, 1, 3) + intIn(r, 1, p-1)
		return []Case[PatchIn]{
			{fmt.Sprintf("random %d×%d image, %d×%d patches", h, w, p, p), PatchIn{Img: r.Normal(h, w), P: p}},
			{"pixels numbered in order", PatchIn{Img: counting(p*2, p*3), P: p}},
			{"one patch: p = the image size", PatchIn{Img: r.Normal(p, p), P: p}},
			{"p = 1: every pixel a patch", PatchIn{Img: r.Normal(intIn(r, 1, 4), intIn(r, 1, 4)), P: 1}},
			{"a side that p does not divide (error)", PatchIn{Img: counting(bad, p*2), P: p}},
			{"p below 1 (error)", PatchIn{Img: counting(4, 4), P: -intIn(r, 0, 2)}},
		}
	},
	// Nothing in the library cuts one image into patches:
	// lib/vision.Patches, the only code that applies a patchify, takes the
	// learner's as a parameter. It is denied so that the exercise's
	// program never reaches the library's patch pipeline.
	Deny:    []string{"lib/vision.Patches"},
	Allow:   StdOnly,
	Compare: comparePatches,
	Hints: []Hint[PatchIn, PatchOut]{
		{Name: "column-order", Message: "the patches go row by row over the patch grid: patch r·(W/p) + c is at patch-row r, patch-column c",
			Wrong: patchVariant(true, false)},
		{Name: "patch-transposed", Message: "flatten each patch row by row: pixel (y, x) of the patch goes to index y·p + x, not x·p + y",
			Wrong: patchVariant(false, true)},
		{Name: "no-error", Message: "return an error when p < 1 or the height or width is not a multiple of p",
			Detect: func(in PatchIn, got PatchOut) bool { return !got.Err && patchVariant(false, false)(in).Err }},
	},
})

// Patchify checks the learner's Patchify: p×p patches in row-major order,
// each flattened row by row, or an error.
func Patchify(f func(img [][]float64, p int) ([][]float64, error)) *Result {
	return patchifySpec.Check(f)
}

type patchEmbedFunc = func(patches, w, b, cls, pos *graph.Node) *graph.Node

func embedPatchesIn(seed uint32, batch, n, pd, d int) EmbedPatchesIn {
	return embedPatchesInFrom(random.New(seed), batch, n, pd, d)
}

func embedPatchesInFrom(r *random.Source, batch, n, pd, d int) EmbedPatchesIn {
	in := EmbedPatchesIn{W: r.Normal(pd, d), Pos: r.Normal(n+1, d), B: r.Normal(1, d)[0], Cls: r.Normal(1, d)[0]}
	for range batch {
		in.Patches = append(in.Patches, r.Normal(n, pd))
	}
	return in
}

// patchEmbedVariant: clsLast appends the class token; noPos and noBias
// leave out the position embeddings or the bias.
func patchEmbedVariant(clsLast, noPos, noBias bool) func(EmbedPatchesIn) [][][]float64 {
	return func(in EmbedPatchesIn) [][][]float64 {
		var out [][][]float64
		for _, p := range in.Patches {
			b, pos := in.B, in.Pos
			if noBias {
				b = make([]float64, len(in.B))
			}
			if noPos {
				pos = scaledM(in.Pos, 0)
			}
			x := reference.PatchEmbedding(p, in.W, b, in.Cls, scaledM(pos, 0)) // tokens, class token first
			if clsLast {
				x = append(x[1:], x[0])
			}
			out = append(out, reference.Add(x, pos))
		}
		return out
	}
}

var patchEmbedSpec = Register(&Exercise[patchEmbedFunc, EmbedPatchesIn, [][][]float64]{
	ID: "patch-embedding", Title: "the patch embedding", Points: 2,
	Signature: "func PatchEmbedding(patches, w, b, cls, pos *graph.Node) *graph.Node",
	Task:      withlib.PatchEmbedding,
	Reference: patchEmbedVariant(false, false, false),
	Cases: func() []Case[EmbedPatchesIn] {
		return []Case[EmbedPatchesIn]{
			{"one image, 4 patches of 4 pixels, d_model 3", embedPatchesIn(121, 1, 4, 4, 3)},
			{"a batch of 3 images, 16 patches of 16 pixels, d_model 8", embedPatchesIn(122, 3, 16, 16, 8)},
			{"one patch", embedPatchesIn(123, 2, 1, 9, 5)},
		}
	},
	Hidden: func(r *random.Source) []Case[EmbedPatchesIn] {
		batch, n, pd, d := intIn(r, 1, 3), intIn(r, 2, 9), intIn(r, 1, 9), intIn(r, 2, 8)
		return []Case[EmbedPatchesIn]{
			{fmt.Sprintf("a batch of %d, %d patches of %d pixels, d_model %d", batch, n, pd, d), embedPatchesInFrom(r, batch, n, pd, d)},
			{"one patch", embedPatchesInFrom(r, intIn(r, 1, 2), 1, intIn(r, 1, 9), intIn(r, 2, 6))},
		}
	},
	Compare: compareBatch(1e-4),
	Hints: []Hint[EmbedPatchesIn, [][][]float64]{
		{Name: "cls-last", Message: "the class token goes first: Concatenate([cls, patches·W + b], axis 1), so that position 0 is the class token", Wrong: patchEmbedVariant(true, false, false)},
		{Name: "no-positions", Message: "add the position embeddings pos [P+1, d_model] to every sequence of the batch (graph.ExpandLeftToRank(pos, 3))", Wrong: patchEmbedVariant(false, true, false)},
		{Name: "no-bias", Message: "add the bias b after the projection: patch·W + b", Wrong: patchEmbedVariant(false, false, true)},
	},
	// Nothing in the library embeds patches: lib/vision.ViT takes the
	// learner's embedding as a parameter (and is not denied: the ViT
	// exercise's solution calls it through ViTConfig.TrainViT). What is
	// denied adds position embeddings to a batch of sequences for the
	// learner: posenc.InputEmbedding (after dividing by √d_model).
	Deny:  []string{"lib/posenc.InputEmbedding"},
	Allow: GraphOps,
})

// PatchEmbedding checks the learner's PatchEmbedding: patches·W + b, the
// class token prepended, position embeddings added.
func PatchEmbedding(f func(patches, w, b, cls, pos *graph.Node) *graph.Node) *Result {
	return patchEmbedSpec.Check(f)
}

// ViTAccuracyThreshold is the test accuracy the ViT exercise asks for. The
// course's solution reaches 0.98–0.99 on every kernel class (1,500
// training images, 450 steps, 15–20 s on two AVX-512 cores or with the
// plain kernels); 0.9 leaves room for other reasonable schedules.
const ViTAccuracyThreshold = 0.9

type vitFunc = func(trainSet, testSet *vision.Dataset) []int

// vitIn generates a case: train and test images of 16×16 pixels from
// two seeds.
func vitIn(train, test int, trainSeed, testSeed uint32) ViTIn {
	tr, err := vision.Generate(train, 16, trainSeed)
	if err != nil {
		panic(err)
	}
	te, err := vision.Generate(test, 16, testSeed)
	if err != nil {
		panic(err)
	}
	return ViTIn{Train: tr, Test: te}
}

// hideLabels is the ViT's input as the learner's function gets it: the
// test labels all 0, so that they cannot be returned as predictions.
func hideLabels(in ViTIn) ViTIn {
	in.Test.Labels = make([]int, len(in.Test.Labels))
	return in
}

func compareViT(got, want []int) *Diff {
	if len(got) != len(want) {
		return &Diff{Msg: fmt.Sprintf("expected one prediction per test image, %d, got %d", len(want), len(got))}
	}
	n := 0
	for i := range want {
		if got[i] == want[i] {
			n++
		}
	}
	if acc := float64(n) / float64(len(want)); acc < ViTAccuracyThreshold {
		return &Diff{Where: "test accuracy", Want: fmt.Sprintf("≥ %.2f", ViTAccuracyThreshold), Got: fmt.Sprintf("%.3f (%d of %d)", acc, n, len(want))}
	}
	return nil
}

var vitSpec = Register(&Exercise[vitFunc, ViTIn, []int]{
	ID: "vit", Title: "training the Vision Transformer", Points: 2,
	Signature: "func TrainShapes(trainSet, testSet *vision.Dataset) []int",
	Task:      withlib.TrainShapes,
	Reference: func(in ViTIn) []int { return in.Test.Labels },
	Cases: func() []Case[ViTIn] {
		return []Case[ViTIn]{{"1,500 training images, 300 test images", vitIn(1500, 300, 1, 2)}}
	},
	// New images from the grading seed: nothing in the course source
	// regenerates them, and the learner's code never sees their labels.
	Hidden: func(r *random.Source) []Case[ViTIn] {
		return []Case[ViTIn]{{"1,500 new training images, 300 new test images", vitIn(1500, 300, r.Uint32(), r.Uint32())}}
	},
	Redact:          hideLabels,
	GradeHiddenOnly: true, // one training is enough for the grader
	Deny:            []string{"lib/vision.Generate", "lib/vision.Draw"},
	Allow:           allow(GraphOps, []string{"lib/vision.DefaultViT", "lib/vision.ViTConfig", "lib/vision.Dataset", "lib/train"}),
	Compare:         compareViT,
	Hints: []Hint[ViTIn, []int]{
		{Name: "chance", Message: "the model is no better than guessing: do the Patchify and PatchEmbedding checks pass? does the loss fall? (try more steps or a learning rate around 3e-3)",
			Detect: func(in ViTIn, got []int) bool {
				te := in.Test
				n := 0
				for i := range got {
					if i < len(te.Labels) && got[i] == te.Labels[i] {
						n++
					}
				}
				return float64(n) < 0.5*float64(len(te.Labels))
			}},
	},
})

// TrainShapes checks the learner's TrainShapes: a ViT trained on the
// training images must classify the unseen test images with an accuracy of
// at least [ViTAccuracyThreshold].
func TrainShapes(f func(trainSet, testSet *vision.Dataset) []int) *Result {
	return vitSpec.Check(f)
}
