package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	gomlxtrain "github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/attention-in-go/course/lib/atomicfile"
	"github.com/attention-in-go/course/lib/backend"
)

// Model builds the graph of a model: the inputs of a batch (in the order
// of Dataset.Inputs) → predictions (usually logits). It creates its
// trainable variables in scope (scope.In("encoder").VariableWithShape…);
// the same function serves training ([Fit]) and inference ([Predict]).
//
// Typical shapes: inputs {[batch, seq] int32} → predictions [batch, seq,
// vocab].
//
// Introduced in lesson 06.
type Model func(scope *model.Scope, inputs []*graph.Node) []*graph.Node

// Loss turns the labels (in the order of Dataset.Labels) and the
// predictions of a [Model] into the scalar to minimise.
//
// Introduced in lesson 06.
type Loss func(labels, predictions []*graph.Node) *graph.Node

// Config says how [Fit] trains.
//
// Introduced in lesson 06.
type Config struct {
	// Name names the checkpoint folder, [Dir](Name). Empty: nothing is
	// saved and [Load] cannot find the model.
	Name string

	// Steps is the number of training steps (batches); BatchSize the
	// number of examples per step (default 64).
	Steps, BatchSize int

	// LearningRate of Adam (default 0.001, Kingma & Ba's value).
	LearningRate float64

	// Warmup raises the learning rate linearly from 0 over the first
	// Warmup steps (Goyal et al. 2017; Vaswani et al. 2017 §5.3): Adam's
	// first updates, made with moment estimates of a few batches, stay
	// small. 0: no warm-up.
	Warmup int

	// Decay lowers the learning rate after the warm-up: [NoDecay] (the
	// default), [Cosine] or [InverseSqrt]; [Config.Rate] gives the rate at
	// each step.
	Decay Decay

	// ClipNorm, when positive, clips the gradients by their global norm
	// before each step ([ClipByGlobalNorm]).
	ClipNorm float64

	// WeightDecay, when positive, makes the optimizer AdamW: after each
	// step every matrix θ moves by −lr·WeightDecay·θ (decoupled weight
	// decay, Loshchilov & Hutter 2019; biases and LayerNorm's γ and β are
	// not decayed).
	WeightDecay float64

	// SGD replaces Adam by plain stochastic gradient descent, θ ← θ − lr·g,
	// without momentum: every step is the gradient times the rate, so a
	// parameter whose gradient is tiny moves tiny amounts, where Adam,
	// dividing by the gradient's running root mean square, moves every
	// parameter by about the rate. Warmup, Decay, ClipNorm and WeightDecay
	// apply as with Adam.
	SGD bool

	// Seed seeds the initial weights and the order of the batches. The
	// same seed gives the same run.
	Seed uint64

	// Label names the run in the progress display, the summary line and
	// [LossCurve] (default: Name, else the dataset's name).
	Label string

	// Quiet turns off the progress display and the summary line.
	Quiet bool

	// Out receives the plain-text summary outside a notebook (default
	// os.Stdout).
	Out io.Writer
}

// History is what a training run recorded.
//
// Introduced in lesson 06.
type History struct {
	// Name labels the run in progress lines and figures: Config.Label,
	// else Config.Name, else the dataset's name.
	Name  string    `json:"name"`
	Steps int       `json:"steps"`
	Loss  []float64 `json:"loss"` // the mean loss of the batch at each step

	// Rate is the learning rate of each step (see [Config.Rate]).
	Rate []float64 `json:"rate,omitempty"`

	// Wall is the time of the whole run, compilation included; Compile is
	// the time of the first step (compiling the training graph).
	Wall    time.Duration `json:"wall_ns"`
	Compile time.Duration `json:"compile_ns"`

	// Params is the number of trainable numbers of the model.
	Params int `json:"params"`

	// Metrics are named results the caller adds after training (accuracy
	// per length, …); [SaveHistory] writes them with the rest.
	Metrics map[string]float64 `json:"metrics,omitempty"`
}

// FinalLoss returns the mean loss of the last tenth of the steps, a less
// noisy number than the last step's.
func (h *History) FinalLoss() float64 {
	if len(h.Loss) == 0 {
		return 0
	}
	k := max(1, len(h.Loss)/10)
	s := 0.0
	for _, l := range h.Loss[len(h.Loss)-k:] {
		s += l
	}
	return s / float64(k)
}

// String is a one-line summary.
func (h *History) String() string {
	return fmt.Sprintf("%s: %d steps in %s (%s compiling), %d parameters, loss %.4f → %.4f",
		h.Name, h.Steps, h.Wall.Round(100*time.Millisecond), h.Compile.Round(100*time.Millisecond), h.Params,
		first(h.Loss), h.FinalLoss())
}

func first(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return x[0]
}

// Trained is a trained model: its variables in Store, and how it got there.
//
// Introduced in lesson 06.
type Trained struct {
	Store   *model.Store
	History *History
	// Loaded is true when the weights came from a checkpoint rather than
	// from training in this process.
	Loaded bool
}

// Predict runs the model on inputs (one tensor per model input) with the
// trained weights, in inference mode.
func (t *Trained) Predict(m Model, inputs ...*tensors.Tensor) ([]*tensors.Tensor, error) {
	return Predict(t.Store, m, inputs...)
}

// Dir returns the checkpoint folder of name: $COURSE_CACHE/name when
// COURSE_CACHE is set, else the user cache folder's
// attention-in-go/name (~/.cache/attention-in-go/name on Linux).
//
// Part of the library behind lesson 06; the lesson does not name it.
func Dir(name string) (string, error) {
	if !validName.MatchString(name) {
		return "", fmt.Errorf("train: model name %q must be letters, digits, '-', '_' or '.'", name)
	}
	base := os.Getenv("COURSE_CACHE")
	if base == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("train: no cache folder (%v): set COURSE_CACHE to a writable folder", err)
		}
		base = filepath.Join(cache, "attention-in-go")
	}
	return filepath.Join(base, name), nil
}

var validName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// Fit trains m from scratch on data for cfg.Steps steps with Adam and the
// loss, showing progress, and returns the trained model. With cfg.Name set
// it saves the weights and the history under that name, for [Load],
// replacing the checkpoint of an earlier training only once the new one is
// written: re-running a cell that calls Fit retrains, and a training that
// fails or is interrupted leaves the earlier model in place.
//
// Introduced in lesson 06.
func Fit(cfg Config, m Model, lossFn Loss, data *Dataset) (*Trained, error) {
	if cfg.Steps < 1 {
		return nil, fmt.Errorf("train.Fit: Steps must be ≥ 1, got %d", cfg.Steps)
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = 64
	}
	cfg.LearningRate = cfg.learningRate()
	if err := cfg.checkRecipe(); err != nil {
		return nil, err
	}
	ds, err := data.Batches(cfg.BatchSize, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("train.Fit: %w", err)
	}
	var dir string
	if cfg.Name != "" {
		if dir, err = Dir(cfg.Name); err != nil {
			return nil, err
		}
	}
	name := cfg.Label
	if name == "" {
		name = cfg.Name
	}
	if name == "" {
		name = data.Name
	}

	store := newStore(cfg.Seed)
	// GoMLX's Trainer recognises model functions by their exact type, not a named one.
	modelFn := (func(*model.Scope, []*graph.Node) []*graph.Node)(m)
	if cfg.Decay != NoDecay || cfg.Warmup > 0 {
		modelFn = func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
			cfg.schedule(scope, inputs[0].Graph()) // only in the training graph
			return m(scope, inputs)
		}
	}
	var opt optimizer.Interface = optimizer.Adam().LearningRate(cfg.LearningRate).Done()
	if cfg.SGD {
		opt = optimizer.StochasticGradientDescent().WithLearningRate(cfg.learningRate()).WithDecay(false).Done()
	}
	if cfg.ClipNorm > 0 || cfg.WeightDecay > 0 {
		opt = adamW{adam: opt, clip: cfg.ClipNorm, lambda: cfg.WeightDecay}
	}
	trainer := gomlxtrain.NewTrainer(backend.Default(), store, modelFn, loss.LossFn(lossFn), opt, nil, nil)
	loop := gomlxtrain.NewLoop(trainer)
	hist := &History{Name: name, Steps: cfg.Steps, Loss: make([]float64, 0, cfg.Steps)}
	prog := newProgress(name, cfg)
	start := time.Now()
	var rate *model.Variable // the optimizer's learning rate, created with the training graph
	var diverged error       // said to the learner as is, without the loop's context
	// metrics[0] is the loss of the step's batch; the Trainer always puts it first.
	loop.OnStep("course progress", 0, func(_ *gomlxtrain.Loop, metrics []*tensors.Tensor) error {
		l := float64(tensors.ToScalar[float32](metrics[0]))
		if math.IsNaN(l) || math.IsInf(l, 0) {
			diverged = fmt.Errorf("train.Fit: the loss became %v at step %d: lower the learning rate", l, len(hist.Loss)+1)
			return diverged
		}
		hist.Loss = append(hist.Loss, l)
		if rate == nil {
			rate = rateVariable(store)
		}
		hist.Rate = append(hist.Rate, valueOf(rate))
		if len(hist.Loss) == 1 {
			hist.Compile = time.Since(start)
		}
		prog.step(hist, time.Since(start))
		return nil
	})
	if _, err := loop.RunSteps(ds, cfg.Steps); err != nil {
		if diverged != nil {
			return nil, diverged
		}
		return nil, fmt.Errorf("train.Fit: %w", err)
	}
	hist.Wall = time.Since(start)
	hist.Params = countParams(store)
	prog.end(hist)
	t := &Trained{Store: store, History: hist}
	if dir != "" {
		if err := replace(dir, func(tmp string) error {
			if err := save(store, tmp); err != nil {
				return err
			}
			return writeHistory(hist, tmp)
		}); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// rateVariable finds the optimizer's learning-rate variable, which holds
// the rate of the step that just ran.
func rateVariable(store *model.Store) *model.Variable {
	for v := range store.IterVariables() {
		if v.Name() == optimizer.ParamLearningRate {
			return v
		}
	}
	return nil
}

// valueOf reads a scalar float32 variable (NaN when there is none).
func valueOf(v *model.Variable) float64 {
	if v == nil {
		return math.NaN()
	}
	t, err := v.Value()
	if err != nil {
		return math.NaN()
	}
	return float64(tensors.ToScalar[float32](t))
}

// replace writes a new checkpoint folder dir with write, into a sibling
// folder first, and only then puts it in the place of the old one: a
// training that fails, diverges or is interrupted leaves the model saved
// before it, and a reader never sees a folder half written.
func replace(dir string, write func(tmp string) error) error {
	parent, name := filepath.Split(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+name+".new-")
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	defer os.RemoveAll(tmp) // gone after the rename; left over after an error
	if err := write(tmp); err != nil {
		return err
	}
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("train: moving the previous checkpoint aside: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.Rename(old, dir) // put the previous one back, if there was one
		return fmt.Errorf("train: saving the checkpoint: %w", err)
	}
	return os.RemoveAll(old)
}

// newStore returns an empty store whose initialisers draw from seed.
func newStore(seed uint64) *model.Store {
	store := model.NewStore()
	// 0 would mean "random seed" to GoMLX: shift it.
	store.SetParam(model.ParamInitialSeed, int64(seed%(1<<62))+1)
	return store
}

// countParams counts the numbers in the model's variables, leaving out the
// optimiser's and the trainer's bookkeeping.
func countParams(store *model.Store) int {
	n := 0
	for v := range store.IterVariables() {
		p := v.Path()
		if len(p) > 0 && (isBookkeeping(p)) {
			continue
		}
		if !v.Trainable {
			continue
		}
		n += v.Shape().Size()
	}
	return n
}

// save writes the model's variables to dir (see [writeWeights]).
func save(store *model.Store, dir string) error {
	if err := writeWeights(store, dir); err != nil {
		return fmt.Errorf("train: saving the weights in %s: %w", dir, err)
	}
	return nil
}

// SaveHistory writes h as history.json in the checkpoint folder of name,
// for example after adding Metrics.
//
// Part of the library behind lesson 06; the lesson does not name it.
func SaveHistory(h *History, name string) error {
	dir, err := Dir(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return writeHistory(h, dir)
}

// writeHistory writes h as dir/history.json, through a temporary file
// renamed into place.
func writeHistory(h *History, dir string) error {
	b, err := json.MarshalIndent(h, "", " ")
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "history.json"), b, 0o644); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// ErrNotTrained is returned by [Load] when no checkpoint of that name
// exists.
var ErrNotTrained = errors.New("model not trained yet")

// Load reads the model saved by [Fit] under name: its weights and its
// history. When there is none the error wraps [ErrNotTrained] and says to
// run the training cell first.
//
// Introduced in lesson 06.
func Load(name string) (*Trained, error) {
	dir, err := Dir(name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "history.json"))
	if err != nil {
		return nil, fmt.Errorf("train.Load: %w: no saved model %q in %s — run the cell that trains it first", ErrNotTrained, name, dir)
	}
	hist := &History{}
	if err := json.Unmarshal(b, hist); err != nil {
		return nil, fmt.Errorf("train.Load: %s: %w", dir, err)
	}
	if saved, _ := filepath.Glob(filepath.Join(dir, "checkpoint-*.json")); len(saved) == 0 {
		// A folder from an older version of the course, or one cut short.
		return nil, fmt.Errorf("train.Load: %w: %s has no GoMLX checkpoint of %q — run the cell that trains it again", ErrNotTrained, dir, name)
	}
	store := newStore(0)
	if err := readWeights(store, dir); err != nil {
		return nil, fmt.Errorf("train.Load: reading the checkpoint in %s: %w", dir, err)
	}
	return &Trained{Store: store, History: hist, Loaded: true}, nil
}

// LoadOrFit loads the model saved under cfg.Name, or trains it with [Fit]
// when there is none: what a cell that needs a trained model calls, so
// that it also works when run on its own.
//
// Introduced in lesson 06.
func LoadOrFit(cfg Config, m Model, loss Loss, data *Dataset) (*Trained, error) {
	if cfg.Name == "" {
		return nil, fmt.Errorf("train.LoadOrFit: Config.Name is empty")
	}
	t, err := Load(cfg.Name)
	if err == nil {
		return t, nil
	}
	if !errors.Is(err, ErrNotTrained) {
		return nil, err
	}
	return Fit(cfg, m, loss, data)
}

// Predict runs m on inputs (one tensor per model input, in the order of
// Dataset.Inputs) with the variables of store, which it does not change.
// Inputs may have any batch size.
//
// Introduced in lesson 06.
func Predict(store *model.Store, m Model, inputs ...*tensors.Tensor) ([]*tensors.Tensor, error) {
	exec, err := NewPredictor(store, m)
	if err != nil {
		return nil, err
	}
	return exec.Predict(inputs...)
}

// Predictor runs a model's inference graph repeatedly, compiling it once
// per input shape.
//
// Part of the library behind lesson 06; the lesson does not name it.
type Predictor struct {
	exec *model.Exec
}

// NewPredictor prepares m for inference with the variables of store.
func NewPredictor(store *model.Store, m Model) (*Predictor, error) {
	exec, err := model.NewExec(backend.Default(), store, func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
		return m(scope, inputs)
	})
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return &Predictor{exec: exec}, nil
}

// Predict runs the model on inputs.
func (p *Predictor) Predict(inputs ...*tensors.Tensor) ([]*tensors.Tensor, error) {
	args := make([]any, len(inputs))
	for i, t := range inputs {
		args[i] = t
	}
	out, err := p.exec.Call(args...)
	if err != nil {
		return nil, fmt.Errorf("train.Predict: %w", err)
	}
	return out, nil
}
