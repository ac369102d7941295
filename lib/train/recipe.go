package train

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/gomlx/gomlx/ml/train/optimizer/cosineschedule"
)

// Decay is how the learning rate falls over a run, after the warm-up
// ([Config].Warmup).
//
// Introduced in lesson 06 (Cosine); the others in lesson 09.
type Decay int

const (
	// NoDecay keeps the learning rate at Config.LearningRate.
	NoDecay Decay = iota

	// Cosine lowers the rate along half a cosine, from LearningRate at the
	// end of the warm-up to 0 at the last step (Loshchilov & Hutter 2017,
	// one cycle without restarts): the large steps of the start find the
	// solution, the small ones of the end settle in it instead of jumping
	// around it.
	Cosine

	// InverseSqrt is the schedule of "Attention Is All You Need" (Vaswani
	// et al. 2017, §5.3): after the warm-up the rate falls as 1/√step,
	//
	//	rate(s) = LearningRate · min(s/w, √(w/s))     s = 1, 2, …; w = Warmup
	//
	// which is the paper's d_model^−0.5 · min(s^−0.5, s·w^−1.5) with
	// LearningRate = (d_model·w)^−0.5, its value at the peak. It never
	// reaches 0: the last steps are still large.
	InverseSqrt
)

// String names the decay as the lessons do.
func (d Decay) String() string {
	switch d {
	case NoDecay:
		return "none"
	case Cosine:
		return "cosine"
	case InverseSqrt:
		return "inverse square root"
	}
	return fmt.Sprintf("Decay(%d)", int(d))
}

// Rate returns the learning rate [Fit] uses at step (1 … cfg.Steps) with
// cfg's LearningRate, Warmup and Decay: the warm-up raises it linearly
// over the first Warmup steps, then Decay lowers it.
//
//	none:         rate = LR · min(1, s/w)
//	cosine:       rate = LR · k/w                       for k = s−1 < w
//	              rate = LR · (1 + cos(π·(k−w)/(S−w)))/2  after
//	inverse sqrt: rate = LR · min(s/w, √(w/s))
//
// (s the step from 1, S = cfg.Steps; with w = 0 there is no warm-up.)
// The cosine is GoMLX's cosineschedule, which counts steps from 0, so its
// first step of warm-up has rate 0; the others count from 1. Fit computes
// these in float32 inside the training graph; a test holds them to this
// float64 formula.
//
// Introduced in lesson 09.
func (cfg Config) Rate(step int) float64 {
	lr, w, s := cfg.learningRate(), float64(cfg.Warmup), float64(step)
	switch cfg.Decay {
	case Cosine:
		k := s - 1
		if k < w {
			return lr * k / w
		}
		return lr * (1 + math.Cos(math.Pi*(k-w)/(float64(cfg.Steps)-w))) / 2
	case InverseSqrt:
		if w == 0 {
			return lr / math.Sqrt(s)
		}
		return lr * min(s/w, math.Sqrt(w/s))
	}
	if w == 0 {
		return lr
	}
	return lr * min(1, s/w)
}

// learningRate is LearningRate with its default.
func (cfg Config) learningRate() float64 {
	if cfg.LearningRate == 0 {
		return 0.001
	}
	return cfg.LearningRate
}

// checkRecipe reports settings Fit cannot follow.
func (cfg Config) checkRecipe() error {
	switch {
	case cfg.Decay < NoDecay || cfg.Decay > InverseSqrt:
		return fmt.Errorf("train.Fit: unknown Decay %d: use train.NoDecay, train.Cosine or train.InverseSqrt", int(cfg.Decay))
	case cfg.Warmup < 0 || (cfg.Warmup >= cfg.Steps && cfg.Warmup > 0):
		return fmt.Errorf("train.Fit: Warmup = %d must be between 0 and Steps − 1 = %d", cfg.Warmup, cfg.Steps-1)
	case cfg.ClipNorm < 0:
		return fmt.Errorf("train.Fit: ClipNorm = %g must be ≥ 0 (0 turns clipping off)", cfg.ClipNorm)
	case cfg.WeightDecay < 0:
		return fmt.Errorf("train.Fit: WeightDecay = %g must be ≥ 0 (0 turns it off)", cfg.WeightDecay)
	}
	return nil
}

// schedule sets the learning-rate variable of the optimizer to cfg.Rate of
// the current step, in the training graph g.
func (cfg Config) schedule(scope *model.Scope, g *graph.Graph) {
	if cfg.Decay == NoDecay && cfg.Warmup == 0 || !scope.IsTraining(g) {
		return
	}
	lr := cfg.learningRate()
	if cfg.Decay == Cosine {
		cosineschedule.New(scope, g, dtypes.Float32).LearningRate(lr).WarmUpSteps(cfg.Warmup).PeriodSteps(cfg.Steps - cfg.Warmup).Done()
		return
	}
	counter := scope.Store().Scope("/" + optimizer.Scope + "/schedule")
	s := optimizer.IncrementCounter(counter, g, "step", dtypes.Float32) // 1 at the first step
	w := float32(max(cfg.Warmup, 1))
	rate := graph.MinScalar(graph.DivScalar(s, w), 1) // min(1, s/w); 1 without warm-up
	if cfg.Decay == InverseSqrt {
		rate = graph.Min(graph.DivScalar(s, w), graph.Sqrt(graph.Div(graph.Scalar(g, dtypes.Float32, w), s))) // min(s/w, √(w/s))
	}
	optimizer.LearningRateVarWithValue(scope, dtypes.Float32, lr).SetNodeValue(graph.MulScalar(rate, lr))
}

// adamW is Adam with the two additions of the lesson 09 recipe, both
// optional:
//
//   - clipping by the global norm (Pascanu et al. 2013): when the
//     gradients of all parameters together have a norm ‖g‖ above c, all
//     are scaled by c/‖g‖ before Adam sees them, so one bad batch moves
//     the weights no further than a normal one;
//   - decoupled weight decay (AdamW, Loshchilov & Hutter 2019): after
//     Adam's step, every matrix (parameter of rank ≥ 2: weights and
//     embeddings, not biases or LayerNorm's γ and β, as nanoGPT does) is
//     pulled towards 0 by lr·λ·θ — outside Adam's scaling by the second
//     moment, which would otherwise shrink the decay of the parameters
//     with large gradients.
type adamW struct {
	adam         optimizer.Interface
	clip, lambda float64
}

// withGradients is Adam's entry point for gradients computed elsewhere.
type withGradients interface {
	UpdateGraphWithGradients(scope *model.Scope, grads []*graph.Node, lossDType dtypes.DType)
}

// UpdateGraph implements optimizer.Interface.
func (o adamW) UpdateGraph(scope *model.Scope, g *graph.Graph, loss *graph.Node) {
	var vars []*model.Variable // in the order of the gradients
	for v := range scope.IterVariables() {
		if v.Trainable && v.InUseByGraph(g) {
			vars = append(vars, v)
		}
	}
	grads := scope.BuildTrainableVariablesGradientsGraph(loss)
	if o.clip > 0 {
		grads = ClipByGlobalNorm(grads, o.clip)
	}
	before := make([]*graph.Node, len(vars))
	for i, v := range vars {
		before[i] = v.NodeValue(g)
	}
	o.adam.(withGradients).UpdateGraphWithGradients(scope, grads, loss.DType())
	if o.lambda == 0 {
		return
	}
	lr := optimizer.LearningRateVar(scope, dtypes.Float32, 0).NodeValue(g) // the rate of this step, after any schedule
	for i, v := range vars {
		if before[i].Rank() < 2 {
			continue
		}
		decay := graph.Mul(graph.MulScalar(before[i], o.lambda), lr) // lr·λ·θ, with θ before the step
		v.SetNodeValue(graph.Sub(v.NodeValue(g), decay))
	}
}

// Clear implements optimizer.Interface.
func (o adamW) Clear(scope *model.Scope) error { return o.adam.Clear(scope) }

// ClipByGlobalNorm scales the gradients so that their global norm, the
// norm of all of them as one vector,
//
//	‖g‖ = √(Σ_i Σ g_i²)
//
// is at most c: each g_i becomes g_i · c / max(‖g‖, c). Their directions
// are kept, and gradients already within the bound are unchanged. This is
// PyTorch's clip_grad_norm_ (without its small ε) and what nanoGPT uses
// with c = 1.
//
// Typical shapes: any list of gradients → the same shapes.
//
// Introduced in lesson 09.
func ClipByGlobalNorm(grads []*graph.Node, c float64) []*graph.Node {
	if len(grads) == 0 {
		return grads
	}
	g := grads[0].Graph()
	sq := graph.Scalar(g, grads[0].DType(), 0)
	for _, gr := range grads {
		sq = graph.Add(sq, graph.ReduceAllSum(graph.Square(gr)))
	}
	norm := graph.Sqrt(sq)
	scale := graph.Div(graph.Scalar(g, norm.DType(), c), graph.MaxScalar(norm, c)) // c / max(‖g‖, c)
	out := make([]*graph.Node, len(grads))
	for i, gr := range grads {
		out[i] = graph.Mul(gr, scale)
	}
	return out
}
