package vision

import (
	"fmt"

	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"

	"github.com/attention-in-go/course/lib/attention"
	"github.com/attention-in-go/course/lib/transformer"
)

// ViTConfig sizes the small Vision Transformer of the exercise.
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
type ViTConfig struct {
	// Size is the width and height of the images, Patch the width and
	// height of a patch; Size must be a multiple of Patch.
	Size, Patch int
	// DModel, Heads, DFF and Layers size the encoder as in
	// transformer.Config.
	DModel, Heads, DFF, Layers int
}

// DefaultViT is the configuration the exercise trains: 16×16 images in
// 16 patches of 4×4, an encoder of width 32 with 4 heads and 2 layers.
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
var DefaultViT = ViTConfig{Size: 16, Patch: 4, DModel: 32, Heads: 4, DFF: 64, Layers: 2}

// NumPatches is (Size/Patch)², the number of patches of an image.
func (c ViTConfig) NumPatches() int { return (c.Size / c.Patch) * (c.Size / c.Patch) }

// PatchDim is Patch², the number of pixels of a patch.
func (c ViTConfig) PatchDim() int { return c.Patch * c.Patch }

// Validate reports a configuration that cannot be built.
func (c ViTConfig) Validate() error {
	switch {
	case c.Patch < 1 || c.Size < c.Patch || c.Size%c.Patch != 0:
		return fmt.Errorf("vision: image size %d is not a multiple of the patch size %d", c.Size, c.Patch)
	case c.DModel < 1 || c.Heads < 1 || c.DModel%c.Heads != 0:
		return fmt.Errorf("vision: d_model %d must be a positive multiple of the %d heads", c.DModel, c.Heads)
	case c.DFF < 1 || c.Layers < 1:
		return fmt.Errorf("vision: d_ff (%d) and layers (%d) must be ≥ 1", c.DFF, c.Layers)
	}
	return nil
}

// EmbedFunc turns patches [batch, P, patch_dim] into the encoder's input
// [batch, P+1, d_model]: x_i = patch_i·W + b, the class token cls [d_model]
// prepended, position embeddings pos [P+1, d_model] added. The learner
// writes it in the exercise; [ViT] calls it with trainable parameters.
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
type EmbedFunc func(patches, w, b, cls, pos *graph.Node) *graph.Node

// ViT is a Vision Transformer classifier (Dosovitskiy et al., 2020), small
// enough to train on a CPU:
//
//	x      = embed(patches, W, b, cls, pos)       patches → tokens, class token first
//	x      = EncoderLayer_l(x), l = 1..Layers      lesson 05's post-norm encoder
//	logits = x[:, 0, :]·W_head + b_head            the class token's output
//
// Its parameters are variables of scope (created on first use, so the same
// function trains and predicts). Weights start Glorot-uniform, LayerNorm
// gains at 1, biases at 0, the class token and position embeddings
// normal with σ = 0.02 as in ViT.
//
// Typical shapes: patches [batch, 16, 16] → logits [batch, 3].
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
func ViT(scope *model.Scope, patches *graph.Node, cfg ViTConfig, embed EmbedFunc) *graph.Node {
	g := patches.Graph()
	dt := patches.DType()
	d, p := cfg.DModel, cfg.NumPatches()
	matrix := func(s *model.Scope, name string, dims ...int) *graph.Node {
		return s.WithInitializer(initializer.GlorotUniformFn(s)).VariableWithShape(name, shapes.Make(dt, dims...)).NodeValue(g)
	}
	vector := func(s *model.Scope, name string, n int, ones bool) *graph.Node {
		init := initializer.Zero
		if ones {
			init = initializer.One
		}
		return s.WithInitializer(init).VariableWithShape(name, shapes.Make(dt, n)).NodeValue(g)
	}

	emb := scope.In("embed")
	small := emb.WithInitializer(initializer.RandomNormalFn(emb, 0.02))
	x := embed(patches, // Shape: [batch, P, patch_dim]
		matrix(emb, "w", cfg.PatchDim(), d),
		vector(emb, "b", d, false),
		small.VariableWithShape("cls", shapes.Make(dt, d)).NodeValue(g),
		small.VariableWithShape("pos", shapes.Make(dt, p+1, d)).NodeValue(g),
	) // Shape: [batch, P+1, d_model]
	for l := range cfg.Layers {
		s := scope.In("layer%d", l)
		a, n1, n2, f := s.In("attention"), s.In("norm1"), s.In("norm2"), s.In("ffn")
		mh := attention.MultiHeadParams{
			WQ: matrix(a, "wq", d, d), WK: matrix(a, "wk", d, d), WV: matrix(a, "wv", d, d), WO: matrix(a, "wo", d, d),
			BQ: vector(a, "bq", d, false), BK: vector(a, "bk", d, false), BV: vector(a, "bv", d, false), BO: vector(a, "bo", d, false),
		}
		ffn := transformer.FFNParams{
			W1: matrix(f, "w1", d, cfg.DFF), B1: vector(f, "b1", cfg.DFF, false),
			W2: matrix(f, "w2", cfg.DFF, d), B2: vector(f, "b2", d, false),
		}
		// Post-norm encoder layer, as transformer.EncoderLayer, with a
		// LayerNorm that GoMLX can differentiate (see layerNorm).
		att, _ := attention.MultiHead(x, x, x, cfg.Heads, mh).Done()                                 // Shape: [batch, P+1, d_model]
		x = layerNorm(graph.Add(x, att), vector(n1, "gamma", d, true), vector(n1, "beta", d, false)) // LayerNorm(x + attention)
		x = layerNorm(graph.Add(x, transformer.FFN(x, ffn)), vector(n2, "gamma", d, true), vector(n2, "beta", d, false))
	}
	cls := transformer.Pool(x, transformer.PoolCLS) // Shape: [batch, d_model]
	head := scope.In("head")
	logits := graph.MatMul(cls, matrix(head, "w", d, NumClasses)) // Shape: [batch, d_model] x [d_model, classes] → [batch, classes]
	return graph.Add(logits, graph.ExpandLeftToRank(vector(head, "b", NumClasses, false), 2))
}

// Patches applies patchify to every image of d and returns the patches as
// one flat float32 array [n, P, patch_dim] (row-major), ready for a
// tensor, with its dimensions. It returns patchify's first error, or an
// error if the images do not all give the same number of patches.
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
func Patches(d *Dataset, patch int, patchify func(img [][]float64, patch int) ([][]float64, error)) (flat []float32, dims []int, err error) {
	for i, img := range d.Images {
		ps, err := patchify(img, patch)
		if err != nil {
			return nil, nil, fmt.Errorf("vision: image %d: %w", i, err)
		}
		if len(ps) == 0 {
			return nil, nil, fmt.Errorf("vision: image %d gave no patches", i)
		}
		if i == 0 {
			dims = []int{d.Len(), len(ps), len(ps[0])}
		}
		if len(ps) != dims[1] {
			return nil, nil, fmt.Errorf("vision: image %d gave %d patches, image 0 gave %d", i, len(ps), dims[1])
		}
		for j, row := range ps {
			if len(row) != dims[2] {
				return nil, nil, fmt.Errorf("vision: image %d, patch %d has %d values, want %d", i, j, len(row), dims[2])
			}
			for _, v := range row {
				flat = append(flat, float32(v))
			}
		}
	}
	return flat, dims, nil
}

// layerNorm is transformer.LayerNorm written with Sqrt and Div instead of
// Rsqrt: GoMLX v0.28.8 defines no gradient for Rsqrt, so a model trained
// through transformer.LayerNorm fails to build its gradient graph.
//
//	LayerNorm(x) = (x − μ)/√(σ² + ε)·γ + β     over the last axis
func layerNorm(x, gamma, beta *graph.Node) *graph.Node {
	mean := graph.ReduceAndKeep(x, graph.ReduceMean, -1) // Shape: [..., 1]
	centered := graph.Sub(x, mean)
	variance := graph.ReduceAndKeep(graph.Square(centered), graph.ReduceMean, -1) // Shape: [..., 1]
	normed := graph.Div(centered, graph.Sqrt(graph.AddScalar(variance, transformer.LayerNormEpsilon)))
	return graph.Add(graph.Mul(normed, graph.ExpandLeftToRank(gamma, x.Rank())), graph.ExpandLeftToRank(beta, x.Rank()))
}
