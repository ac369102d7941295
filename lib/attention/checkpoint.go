package attention

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"time"
)

// AttentionLayer is one residual single-head self-attention layer,
//
//	Q = X·W_Q, K = X·W_K, V = X·W_V
//	P = softmax(Q·Kᵀ/√d) row by row, stably
//	X' = X + P·V
//
// Typical shapes: WQ, WK, WV [d][d].
//
// Part of the library behind lesson 11; the lesson does not name it.
type AttentionLayer struct {
	WQ, WK, WV [][]float64
}

// AttentionStack is L [AttentionLayer]s applied one after the other to a
// sequence X₀ [n][d], X_{l+1} = X_l + attention_l(X_l), with the loss
//
//	Loss = Σ_ij (X_L ∘ G)_ij
//
// for a fixed upstream gradient G [n][d], so that ∂Loss/∂X_L = G. It is
// the model on which [AttentionStack.Gradients] and
// [AttentionStack.CheckpointedGradients] compare plain backpropagation
// with activation checkpointing.
//
// Introduced in lesson 11 (attention in practice).
type AttentionStack struct {
	Layers []AttentionLayer
}

// StackGrads are the gradients of an [AttentionStack]'s loss.
//
// Part of the library behind lesson 11; the lesson does not name it.
type StackGrads struct {
	Loss   float64                  // Σ_ij (X_L ∘ G)_ij
	DX     [][]float64              // ∂Loss/∂X₀, [n][d]
	Layers []AttentionLayerGradient // one per layer, in order
}

// AttentionLayerGradient is ∂Loss/∂W for the three weights of one layer.
//
// Part of the library behind lesson 11; the lesson does not name it.
type AttentionLayerGradient struct {
	DWQ, DWK, DWV [][]float64
}

// StackMemory is what one gradient computation held, counted by the code
// itself (not by the garbage collector): each activation matrix is added
// when it is kept and subtracted when it is let go.
//
// Introduced in lesson 11.
type StackMemory struct {
	// PeakBytes is the most activation bytes alive at once: the X_l kept
	// for the backward pass (X₀ included) and each layer's Q, K, V and P,
	// 8 bytes a number. Gradients being formed are not counted; they need
	// the same few matrices of one layer with or without checkpoints.
	PeakBytes int
	// Forwards is how many layer forward passes (Q, K, V and P) were
	// computed: L for plain backpropagation, more when recomputing.
	Forwards int
}

// NewAttentionStack returns layers random layers of width d: every weight
// drawn from N(0, 1/d) (Glorot's variance for a d×d matrix), so Q, K and
// V have entries of the size of X's. The same seed gives the same stack
// (math/rand/v2's PCG).
//
// Typical shapes: layers 16, d 32.
//
// Introduced in lesson 11.
func NewAttentionStack(layers, d int, seed uint64) (*AttentionStack, error) {
	if layers < 1 || d < 1 {
		return nil, fmt.Errorf("attention.NewAttentionStack: want layers ≥ 1 and width d ≥ 1, got layers = %d, d = %d", layers, d)
	}
	r := rand.New(rand.NewPCG(seed, 0x636b7074)) // "ckpt"
	std := 1 / math.Sqrt(float64(d))
	w := func() [][]float64 {
		m := newMatrix(d, d)
		for i := range m {
			for j := range m[i] {
				m[i][j] = std * r.NormFloat64()
			}
		}
		return m
	}
	s := &AttentionStack{Layers: make([]AttentionLayer, layers)}
	for l := range s.Layers {
		s.Layers[l] = AttentionLayer{WQ: w(), WK: w(), WV: w()}
	}
	return s, nil
}

// Forward returns X_L, the stack applied to x.
//
// Typical shapes: x [n][d] → [n][d].
//
// Part of the library behind lesson 11; the lesson does not name it.
func (s *AttentionStack) Forward(x [][]float64) ([][]float64, error) {
	if err := s.check("Forward", x, x); err != nil {
		return nil, err
	}
	for _, ly := range s.Layers {
		a := ly.activations(x)
		x = a.output()
	}
	return x, nil
}

// Gradients is plain backpropagation through the stack: the forward pass
// keeps every layer's activations — its input X_l, and Q, K, V and P —
// and the backward pass, from the last layer to the first, uses them.
// The activations held at the end of the forward pass are
//
//	L · (4·n·d + n²) numbers   (+ n·d for X_L)
//
// 8 bytes each. Once n > d the n² of each layer's attention weights P
// outweigh each of X_l, Q, K, V (n·d), and once n > 4d all four together:
// at long lengths the memory is O(L·n²), almost all of it P.
//
// Typical shapes: x, g [n][d], g the upstream gradient ∂Loss/∂X_L.
//
// Part of the library behind lesson 11; the lesson does not name it.
func (s *AttentionStack) Gradients(x, g [][]float64) (StackGrads, StackMemory, error) {
	if err := s.check("Gradients", x, g); err != nil {
		return StackGrads{}, StackMemory{}, err
	}
	return s.gradients(x, g, len(s.Layers))
}

// CheckpointedGradients computes the same gradients as
// [AttentionStack.Gradients], bit for bit, while holding far fewer
// activations: activation (gradient) checkpointing, Chen et al. 2016,
// "Training Deep Nets with Sublinear Memory Cost" (PyTorch's
// torch.utils.checkpoint).
//
// The layers are cut into segments of every layers. The forward pass
// keeps only X at the start of each segment, the checkpoints, and lets
// everything else go — except in the last segment, which is
// differentiated first and keeps its activations like plain backprop.
// The backward pass then takes the segments from the last to the first:
// it recomputes the segment's forward pass from its checkpoint, keeping
// that segment's activations only while it backpropagates through it.
// With m = ⌈L/every⌉ segments the peak is about
//
//	m·n·d         +  every · (4·n·d + n²)   numbers
//	checkpoints      one segment's activations
//
// instead of L·(4·n·d + n²); with every = √L both terms are O(√L), so the
// memory falls from O(L) to O(√L) layers' worth. (Exactly, with r the
// last segment's length, it is the larger of m·n·d + r·(4·n·d + n²), at
// the end of the forward pass, and (m−2)·n·d + every·(4·n·d + n²), while
// the last-but-one segment is recomputed.) The price is computing
// the forward pass of every layer outside the last segment twice:
// 2L − (last segment's length) layer forward passes instead of L.
// Recomputation runs the same code on the same inputs, so it repeats the
// same floating-point operations in the same order, and the gradients
// equal Gradients' exactly. every ≥ L is one segment: plain backprop.
//
// Typical shapes: as [AttentionStack.Gradients]; every ≈ √L.
//
// Introduced in lesson 11.
func (s *AttentionStack) CheckpointedGradients(x, g [][]float64, every int) (StackGrads, StackMemory, error) {
	if err := s.check("CheckpointedGradients", x, g); err != nil {
		return StackGrads{}, StackMemory{}, err
	}
	if every < 1 {
		return StackGrads{}, StackMemory{}, fmt.Errorf("attention.CheckpointedGradients: every must be ≥ 1, got %d; pass the number of layers between checkpoints, e.g. round(√L) = %d (every ≥ L = %d is plain backprop)",
			every, max(1, int(math.Round(math.Sqrt(float64(len(s.Layers)))))), len(s.Layers))
	}
	return s.gradients(x, g, every)
}

// gradients is both algorithms: with every = L there is one segment,
// nothing is recomputed, and it is plain backpropagation.
func (s *AttentionStack) gradients(x, g [][]float64, every int) (StackGrads, StackMemory, error) {
	var mem meter
	nl := len(s.Layers)
	last := (nl - 1) / every * every // the first layer of the last segment
	acts := make([]layerActs, nl)    // the activations alive, by layer
	ckpt := make([][][]float64, nl)  // the checkpoints X_l, by layer

	// Forward: keep X at each segment's start, and the last segment whole.
	xl := x
	mem.keep(x) // X₀ counts too: the first layer's backward needs it
	for l, ly := range s.Layers {
		a := s.forward(&mem, ly, xl)
		out := a.output()
		mem.keep(out)
		switch {
		case l >= last: // the last segment is kept whole
			acts[l] = a
		case l%every == 0: // a segment's start: keep X_l, the checkpoint
			ckpt[l] = xl
			mem.drop(a.q, a.k, a.v, a.p)
		default:
			mem.drop(xl, a.q, a.k, a.v, a.p)
		}
		xl = out
	}
	grads := StackGrads{Loss: sumProduct(xl, g), Layers: make([]AttentionLayerGradient, nl)}
	mem.drop(xl) // X_L was only needed for the loss

	// Backward, segment by segment from the last.
	dx := g
	for start := last; start >= 0; start -= every {
		end := min(start+every, nl)
		if start < last { // recompute the segment from its checkpoint
			xl := ckpt[start]
			ckpt[start] = nil // it is now acts[start].x
			for l := start; l < end; l++ {
				acts[l] = s.forward(&mem, s.Layers[l], xl)
				if l+1 < end { // the segment's output was the next checkpoint
					xl = acts[l].output()
					mem.keep(xl)
				}
			}
		}
		for l := end - 1; l >= start; l-- {
			dx, grads.Layers[l] = s.Layers[l].backward(acts[l], dx)
			a := acts[l]
			mem.drop(a.x, a.q, a.k, a.v, a.p)
			acts[l] = layerActs{}
		}
	}
	grads.DX = dx
	return grads, StackMemory{PeakBytes: mem.peak, Forwards: mem.forwards}, nil
}

// forward computes one layer's activations on x and counts them, x
// included (the backward pass needs it; the caller has counted it already
// as the checkpoint or the previous layer's output, so it is not added).
func (s *AttentionStack) forward(mem *meter, ly AttentionLayer, x [][]float64) layerActs {
	a := ly.activations(x)
	mem.keep(a.q, a.k, a.v, a.p)
	mem.forwards++
	return a
}

// layerActs are what the backward pass of one layer needs.
type layerActs struct {
	x, q, k, v [][]float64 // the input X and Q, K, V, [n][d]
	p          [][]float64 // the attention weights softmax(Q·Kᵀ/√d), [n][n]
}

// activations is the forward pass of one layer, up to P.
func (ly AttentionLayer) activations(x [][]float64) layerActs {
	a := layerActs{x: x, q: matMul(x, ly.WQ), k: matMul(x, ly.WK), v: matMul(x, ly.WV)}
	a.p = matMulT(a.q, a.k) // the scores S, turned into P in place
	scale := 1 / math.Sqrt(float64(len(ly.WQ)))
	for _, row := range a.p {
		for j := range row {
			row[j] *= scale
		}
		softmaxInPlace(row)
	}
	return a
}

// output is the layer's output X + P·V.
func (a layerActs) output() [][]float64 {
	out := matMul(a.p, a.v)
	for i := range out {
		for j := range out[i] {
			out[i][j] += a.x[i][j]
		}
	}
	return out
}

// backward takes dOut = ∂Loss/∂X' and returns ∂Loss/∂X and the weights'
// gradients:
//
//	dV = Pᵀ·dOut           dP = dOut·Vᵀ
//	dS = P ∘ (dP − rowsum(dP ∘ P))         (the softmax's backward)
//	dQ = dS·K/√d           dK = dSᵀ·Q/√d
//	dW_Q = Xᵀ·dQ, dW_K = Xᵀ·dK, dW_V = Xᵀ·dV
//	dX = dOut + dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ  (dOut: the residual path)
func (ly AttentionLayer) backward(a layerActs, dOut [][]float64) ([][]float64, AttentionLayerGradient) {
	dv := tMatMul(a.p, dOut)
	ds := matMulT(dOut, a.v) // dP, turned into dS in place
	scale := 1 / math.Sqrt(float64(len(ly.WQ)))
	for i, row := range ds {
		softmaxBackwardInPlace(a.p[i], row)
		for j := range row {
			row[j] *= scale
		}
	}
	dq := matMul(ds, a.k)
	dk := tMatMul(ds, a.q)
	grad := AttentionLayerGradient{DWQ: tMatMul(a.x, dq), DWK: tMatMul(a.x, dk), DWV: tMatMul(a.x, dv)}
	dx := cloneMatrix(dOut)
	addInto(dx, matMulT(dq, ly.WQ))
	addInto(dx, matMulT(dk, ly.WK))
	addInto(dx, matMulT(dv, ly.WV))
	return dx, grad
}

// softmaxInPlace replaces row by its softmax, the maximum subtracted
// first ([Full]'s rows and the stack's).
func softmaxInPlace(row []float64) {
	m := slices.Max(row)
	sum := 0.0
	for j := range row {
		row[j] = math.Exp(row[j] - m)
		sum += row[j]
	}
	for j := range row {
		row[j] /= sum
	}
}

// softmaxBackwardInPlace turns dp = ∂Loss/∂p into ∂Loss/∂s for p =
// softmax(s): ds_j = p_j·(dp_j − Σ_k dp_k·p_k).
func softmaxBackwardInPlace(p, dp []float64) {
	sum := dot(dp, p)
	for j := range dp {
		dp[j] = p[j] * (dp[j] - sum)
	}
}

// meter counts the activation bytes alive, their peak, and the layer
// forward passes.
type meter struct {
	now, peak, forwards int
}

func (m *meter) keep(ms ...[][]float64) {
	for _, a := range ms {
		m.now += 8 * len(a) * len(a[0])
	}
	m.peak = max(m.peak, m.now)
}

func (m *meter) drop(ms ...[][]float64) {
	for _, a := range ms {
		m.now -= 8 * len(a) * len(a[0])
	}
}

// check verifies that the stack's weights are d×d and that x and g are
// [n][d].
func (s *AttentionStack) check(fn string, x, g [][]float64) error {
	if s == nil || len(s.Layers) == 0 {
		return fmt.Errorf("attention.%s: the stack has no layers; make one with NewAttentionStack(layers, d, seed)", fn)
	}
	if len(s.Layers[0].WQ) == 0 {
		return fmt.Errorf("attention.%s: layer 0's W_Q is empty; the weights must be d×d, d ≥ 1", fn)
	}
	d := len(s.Layers[0].WQ)
	for l, ly := range s.Layers {
		for _, w := range []struct {
			name string
			m    [][]float64
		}{{"W_Q", ly.WQ}, {"W_K", ly.WK}, {"W_V", ly.WV}} {
			if err := checkMatrix(fmt.Sprintf("layer %d's %s", l, w.name), w.m, d, d); err != nil {
				return fmt.Errorf("attention.%s: %w (every weight must be d×d, with d = %d like layer 0's W_Q)", fn, trimPkg(err), d)
			}
		}
	}
	if err := checkMatrix("x", x, -1, d); err != nil {
		return fmt.Errorf("attention.%s: %w (pass x as [n][d], n ≥ 1 rows of the weights' width d = %d)", fn, trimPkg(err), d)
	}
	if err := checkMatrix("g", g, len(x), d); err != nil {
		return fmt.Errorf("attention.%s: %w (pass g, the gradient of the loss with respect to the output, with x's shape [%d][%d])", fn, trimPkg(err), len(x), d)
	}
	return nil
}

// trimPkg drops checkMatrix's "attention: " prefix, to put the function's
// name in its place.
func trimPkg(err error) error {
	return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "attention: "))
}

// newMatrix returns a zero rows×cols matrix.
func newMatrix(rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
	}
	return m
}

func cloneMatrix(a [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = slices.Clone(a[i])
	}
	return out
}

// matMul returns a·b. (The [:len(row)] here and in tMatMul only tells the
// compiler the row lengths agree, so it can drop its bounds checks.)
func matMul(a, b [][]float64) [][]float64 {
	out := newMatrix(len(a), len(b[0]))
	for i, row := range out {
		for k, x := range a[i] {
			for j, y := range b[k][:len(row)] {
				row[j] += x * y
			}
		}
	}
	return out
}

// matMulT returns a·bᵀ.
func matMulT(a, b [][]float64) [][]float64 {
	out := newMatrix(len(a), len(b))
	for i := range a {
		for j := range b {
			out[i][j] = dot(a[i], b[j])
		}
	}
	return out
}

// tMatMul returns aᵀ·b.
func tMatMul(a, b [][]float64) [][]float64 {
	out := newMatrix(len(a[0]), len(b[0]))
	for k := range a {
		for i, x := range a[k] {
			row := out[i]
			for j, y := range b[k][:len(row)] {
				row[j] += x * y
			}
		}
	}
	return out
}

// addInto adds b to a.
func addInto(a, b [][]float64) {
	for i := range a {
		for j := range a[i] {
			a[i][j] += b[i][j]
		}
	}
}

// sumProduct is Σ_ij a_ij·b_ij.
func sumProduct(a, b [][]float64) float64 {
	s := 0.0
	for i := range a {
		s += dot(a[i], b[i])
	}
	return s
}

// CheckpointCost is what plain backpropagation and activation
// checkpointing cost one [AttentionStack], measured by
// [MeasureCheckpointing].
//
// Introduced in lesson 11 (attention in practice).
type CheckpointCost struct {
	Layers, Every                     int           // L, and the checkpoint spacing round(√L)
	PlainBytes, CheckpointBytes       int           // peak activation bytes ([StackMemory.PeakBytes])
	PlainTime, CheckpointTime         time.Duration // one gradient computation, fastest of 5
	PlainForwards, CheckpointForwards int           // layer forward passes computed
	MaxGradDiff                       float64       // max |Δ| over all gradients, checkpointed − plain: 0
}

// MeasureCheckpointing builds, for each depth L, a random [AttentionStack]
// of L layers of width d (seed), with x and G ~ N(0, 1) of n rows, and
// computes the gradients with [AttentionStack.Gradients] and with
// [AttentionStack.CheckpointedGradients] at every = round(√L), the classic
// choice: O(√L) memory for about one extra forward pass. It records each
// one's peak activation bytes, time (the fastest of 5 runs), forward passes,
// and the largest difference between their gradients.
//
// Typical shapes: n 256, d 32, depths {4, 16, 64}.
//
// Introduced in lesson 11.
func MeasureCheckpointing(n, d int, depths []int, seed uint64) ([]CheckpointCost, error) {
	if n < 1 || d < 1 {
		return nil, fmt.Errorf("attention.MeasureCheckpointing: want length n ≥ 1 and width d ≥ 1, got n = %d, d = %d", n, d)
	}
	if len(depths) == 0 {
		return nil, fmt.Errorf("attention.MeasureCheckpointing: no depths; pass the numbers of layers to measure, e.g. []int{4, 16, 64}")
	}
	var out []CheckpointCost
	for _, nl := range depths {
		if nl < 1 {
			return nil, fmt.Errorf("attention.MeasureCheckpointing: depth %d: a stack needs at least 1 layer", nl)
		}
		s, err := NewAttentionStack(nl, d, seed)
		if err != nil {
			return nil, err
		}
		r := rand.New(rand.NewPCG(seed, 0x78)) // "x"
		x, g := newMatrix(n, d), newMatrix(n, d)
		for i := range n {
			for j := range d {
				x[i][j], g[i][j] = r.NormFloat64(), r.NormFloat64()
			}
		}
		c := CheckpointCost{Layers: nl, Every: max(1, int(math.Round(math.Sqrt(float64(nl)))))}
		var plain, ckpt StackGrads
		var pm, cm StackMemory
		c.PlainTime = fastestTime(5, func() { plain, pm, err = s.Gradients(x, g) })
		if err != nil {
			return nil, err
		}
		c.CheckpointTime = fastestTime(5, func() { ckpt, cm, err = s.CheckpointedGradients(x, g, c.Every) })
		if err != nil {
			return nil, err
		}
		c.PlainBytes, c.CheckpointBytes = pm.PeakBytes, cm.PeakBytes
		c.PlainForwards, c.CheckpointForwards = pm.Forwards, cm.Forwards
		c.MaxGradDiff = maxGradDiff(plain, ckpt)
		out = append(out, c)
	}
	return out, nil
}

// fastestTime runs f calls times and returns the shortest duration: on a
// shared machine, the run least disturbed by anything else.
func fastestTime(calls int, f func()) time.Duration {
	fastest := time.Duration(math.MaxInt64)
	for range calls {
		runtime.GC() // not to charge this run for the garbage of the last
		start := time.Now()
		f()
		fastest = min(fastest, time.Since(start))
	}
	return fastest
}

// maxGradDiff is the largest |a − b| over dX₀ and every dW.
func maxGradDiff(a, b StackGrads) float64 {
	m := maxAbsDiff(a.DX, b.DX)
	for l := range a.Layers {
		m = max(m, maxAbsDiff(a.Layers[l].DWQ, b.Layers[l].DWQ),
			maxAbsDiff(a.Layers[l].DWK, b.Layers[l].DWK),
			maxAbsDiff(a.Layers[l].DWV, b.Layers[l].DWV))
	}
	return m
}

// CheckpointTable formats costs as a text table: per depth, the peak
// activation memory of each method and their ratio, the time of each and
// their ratio, the layer forward passes each computed, and the largest
// gradient difference (0: the same numbers).
//
// Introduced in lesson 11.
func CheckpointTable(cs []CheckpointCost) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s %6s %10s %10s %8s %10s %10s %7s %15s %12s\n", "layers", "every",
		"plain MiB", "ckpt MiB", "memory÷", "plain ms", "ckpt ms", "time×", "forwards p/c", "max |Δgrad|")
	for _, c := range cs {
		fmt.Fprintf(&b, "%-6d %6d %10.2f %10.2f %8.1f %10.1f %10.1f %7.2f %15s %12.3g\n", c.Layers, c.Every,
			mib(uint64(c.PlainBytes)), mib(uint64(c.CheckpointBytes)), float64(c.PlainBytes)/float64(c.CheckpointBytes),
			ms(c.PlainTime), ms(c.CheckpointTime), c.CheckpointTime.Seconds()/c.PlainTime.Seconds(),
			fmt.Sprintf("%d/%d", c.PlainForwards, c.CheckpointForwards), c.MaxGradDiff)
	}
	return b.String()
}
