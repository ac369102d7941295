package gpt

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/attention-in-go/course/lib/backend"
	"github.com/attention-in-go/course/lib/corpus"
	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/train"
)

var tiny = Config{Vocab: 256, DModel: 16, Heads: 4, Layers: 2, DFF: 32, Context: 12, Positions: Sinusoidal}

// newStore returns a store with the model's variables drawn from seed.
func newStore(t *testing.T, c Config, seed int64) *model.Store {
	t.Helper()
	store := model.NewStore()
	store.SetParam(model.ParamInitialSeed, seed)
	// Build once so the variables exist (random, untrained).
	if _, err := forward(store, c, []int32{1, 2}, 1, 2); err != nil {
		t.Fatal(err)
	}
	return store
}

// forward runs Config.Forward on ids [batch, seq] and returns the logits.
func forward(store *model.Store, c Config, ids []int32, batch, seq int) ([]float32, error) {
	e, err := model.NewExec(backend.Default(), store, func(scope *model.Scope, in *graph.Node) *graph.Node {
		l, _ := c.Forward(c.Params(scope, in.Graph()), in)
		return l
	})
	if err != nil {
		return nil, err
	}
	out, err := e.Exec(tensors.FromFlatDataAndDimensions(ids, batch, seq))
	if err != nil {
		return nil, err
	}
	return tensors.MustCopyFlatData[float32](out[0]), nil
}

// TestStepEqualsForward: the logits of the cached step at every position
// equal those of the full forward pass on the whole sequence, for every
// kind of positions — and, for the kinds with no maximum length, on a
// sequence twice Context long.
func TestStepEqualsForward(t *testing.T) {
	text := []int32{'f', 'u', 'n', 'c', ' ', 'f', '(', ')', ' ', '{', '\n', '}', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'}
	const batch = 2
	for _, tc := range []struct {
		pk  Positions
		seq int
	}{
		{Sinusoidal, 12}, {Learned, 12}, {NoPositions, 12}, {Rotary, 12}, {ALiBi, 12},
		{Sinusoidal, 24}, {Rotary, 24}, {ALiBi, 24}, // longer than Context = 12
	} {
		pk, seq := tc.pk, tc.seq
		ids := make([]int32, batch*seq) // text, then text with every byte's lowest bit flipped
		for i := range ids {
			ids[i] = text[i%len(text)] ^ int32(i/len(text))
		}
		c := tiny
		c.Positions = pk
		store := newStore(t, c, 7)
		want, err := forward(store, c, ids, batch, seq)
		if err != nil {
			t.Fatal(err)
		}
		step, err := model.NewExec(backend.Default(), store, c.stepModel())
		if err != nil {
			t.Fatal(err)
		}
		dk := c.DModel / c.Heads
		args := make([]any, 2+2*c.Layers)
		for i := 2; i < len(args); i++ {
			args[i] = tensors.FromShape(tensorShape(batch, c.Heads, seq, dk))
		}
		worst := 0.0
		for pos := range seq {
			args[0], args[1] = []int32{ids[pos], ids[seq+pos]}, int32(pos)
			res, err := step.Exec(args...)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range res[1:] {
				args[2+i] = r
			}
			got := tensors.MustCopyFlatData[float32](res[0])
			for b := range batch {
				for v := range c.Vocab {
					w := want[(b*seq+pos)*c.Vocab+v]
					worst = max(worst, math.Abs(float64(got[b*c.Vocab+v]-w)))
				}
			}
		}
		if worst > 1e-4 {
			t.Errorf("%s, %d tokens: cached step and full forward differ by up to %g", pk, seq, worst)
		}
	}
}

// TestCausal: changing a later token leaves the logits of earlier
// positions as they were.
func TestCausal(t *testing.T) {
	store := newStore(t, tiny, 3)
	a := []int32{10, 20, 30, 40, 50, 60}
	b := slices.Clone(a)
	b[4] = 99
	la, err := forward(store, tiny, a, 1, 6)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := forward(store, tiny, b, 1, 6)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 * tiny.Vocab {
		if la[i] != lb[i] {
			t.Fatalf("position %d changed when token 4 changed", i/tiny.Vocab)
		}
	}
	if slices.Equal(la[4*tiny.Vocab:], lb[4*tiny.Vocab:]) {
		t.Error("positions 4 and 5 did not change when token 4 changed")
	}
}

// TestGenerateCachedEqualsFull: greedy and sampled generation give the
// same bytes with and without the KV cache.
func TestGenerateCachedEqualsFull(t *testing.T) {
	store := newStore(t, tiny, 11)
	g, err := NewGenerator(store, tiny, tiny.Context)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Sampler{{}, {Temperature: 1, TopK: 5}} {
		a, err := g.Generate([]byte("if x"), 8, 3, s, 5, true)
		if err != nil {
			t.Fatal(err)
		}
		b, err := g.Generate([]byte("if x"), 8, 3, s, 5, false)
		if err != nil {
			t.Fatal(err)
		}
		for i := range a.Samples {
			if !slices.Equal(a.Samples[i], b.Samples[i]) {
				t.Errorf("%v sample %d: cached %q, full %q", s, i, a.Samples[i], b.Samples[i])
			}
		}
		if len(a.PerToken) != 8 || !slices.Equal(a.Positions, []int{4, 5, 6, 7, 8, 9, 10, 11}) {
			t.Errorf("positions %v, %d times", a.Positions, len(a.PerToken))
		}
	}
	if _, err := g.Generate([]byte("0123456"), 6, 1, Sampler{}, 1, true); err == nil {
		t.Error("too long: no error")
	}
	learned := tiny
	learned.Positions = Learned
	if _, err := NewGenerator(store, learned, 13); err == nil {
		t.Error("learned positions beyond Context: no error")
	}
}

// TestCompareKV: the comparison's two generations agree, and each token's
// time is its fastest over the timed runs.
func TestCompareKV(t *testing.T) {
	store := newStore(t, tiny, 11)
	g, err := NewGenerator(store, tiny, tiny.Context)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := g.CompareKV([]byte("if x"), 8, 2, Sampler{Temperature: 1, TopK: 5}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !kv.Same || len(kv.Cached.PerToken) != 8 || len(kv.Full.PerToken) != 8 {
		t.Errorf("same %v, %d and %d times", kv.Same, len(kv.Cached.PerToken), len(kv.Full.PerToken))
	}

	ms := func(d ...int) []time.Duration {
		out := make([]time.Duration, len(d))
		for i, v := range d {
			out[i] = time.Duration(v) * time.Millisecond
		}
		return out
	}
	runs := []*Generation{
		{Positions: []int{4, 5, 6}, PerToken: ms(5, 1, 9)},
		{Positions: []int{4, 5, 6}, PerToken: ms(2, 7, 9)},
		{Positions: []int{4, 5, 6}, PerToken: ms(3, 4, 8)},
	}
	got := fastest(runs)
	if !slices.Equal(got.PerToken, ms(2, 1, 8)) || !slices.Equal(got.Positions, []int{4, 5, 6}) {
		t.Errorf("fastest: %v at %v, want [2ms 1ms 8ms] at [4 5 6]", got.PerToken, got.Positions)
	}
	if !slices.Equal(runs[0].PerToken, ms(5, 1, 9)) {
		t.Errorf("fastest changed its first run: %v", runs[0].PerToken)
	}
}

// TestSamplerProbs checks each filter against distributions worked out
// independently.
func TestSamplerProbs(t *testing.T) {
	z := []float32{2, 1, 0, 1, -1}
	soft := func(T float64) []float64 {
		p := make([]float64, len(z))
		s := 0.0
		for i, v := range z {
			p[i] = math.Exp(float64(v) / T)
			s += p[i]
		}
		for i := range p {
			p[i] /= s
		}
		return p
	}
	p1, p05 := soft(1), soft(0.5)
	top2 := []float64{p1[0] / (p1[0] + p1[1]), p1[1] / (p1[0] + p1[1]), 0, 0, 0} // tie 1 and 3: the first index wins
	// p1 ≈ [0.52, 0.19, 0.07, 0.19, 0.03]: top-p 0.6 keeps the first two (0.52 < 0.6 ≤ 0.71).
	for _, tc := range []struct {
		s    Sampler
		want []float64
	}{
		{Sampler{}, []float64{1, 0, 0, 0, 0}},
		{Sampler{Temperature: 1}, p1},
		{Sampler{Temperature: 0.5}, p05},
		{Sampler{Temperature: 1, TopK: 2}, top2},
		{Sampler{Temperature: 1, TopP: 0.6}, top2},
		{Sampler{Temperature: 1, TopP: 0.5}, []float64{1, 0, 0, 0, 0}},
		{Sampler{Temperature: 1, TopK: 1}, []float64{1, 0, 0, 0, 0}},
	} {
		got := tc.s.Probs(z)
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-9 {
				t.Errorf("%v: probs %v, want %v", tc.s, got, tc.want)
				break
			}
		}
	}
	// Draws follow the probabilities.
	r := random.New(1)
	s := Sampler{Temperature: 1}
	counts := make([]float64, len(z))
	const n = 20000
	for range n {
		counts[s.Pick(z, r)]++
	}
	for i := range counts {
		if math.Abs(counts[i]/n-p1[i]) > 0.01 {
			t.Errorf("token %d drawn %.3f of the time, want %.3f", i, counts[i]/n, p1[i])
		}
	}
}

// TestParamCount: the formula counts what the model creates.
func TestParamCount(t *testing.T) {
	for _, pk := range []Positions{Sinusoidal, Learned, NoPositions, Rotary, ALiBi} {
		c := tiny
		c.Positions = pk
		store := newStore(t, c, 1)
		n := 0
		for v := range store.IterVariables() {
			if v.Trainable {
				n += v.Shape().Size()
			}
		}
		if n != c.ParamCount() {
			t.Errorf("%s: the store holds %d numbers, ParamCount says %d", pk, n, c.ParamCount())
		}
	}
}

// TestTrainLearns trains a tiny GPT briefly on repetitive Go and requires
// it to beat the add-one unigram, the loss to fall, and the saved model to
// reload to the same scores.
func TestTrainLearns(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	t.Setenv("COURSE_CACHE", t.TempDir())
	var text []byte
	for i := range 200 {
		text = append(text, []byte("\tif x > 0 {\n\t\treturn x\n\t}\n")...)
		text = append(text, byte('a'+i%26), '\n')
	}
	s := &corpus.Split{Train: text, Test: text[:800]}
	e := Experiment{Name: "gpt-test", Model: Config{Vocab: 256, DModel: 16, Heads: 2, Layers: 1, DFF: 32, Context: 16, Positions: Sinusoidal},
		Stride: 8, Steps: 120, Batch: 16, LearningRate: 0.01, Seed: 1}
	tr, err := e.Train(s)
	if err != nil {
		t.Fatal(err)
	}
	if h := tr.History; h.FinalLoss() > h.Loss[0]/2 {
		t.Errorf("loss %.3f → %.3f: not halved", h.Loss[0], h.FinalLoss())
	}
	sc, err := Evaluate(tr.Store, e.Model, s.Test, 16)
	if err != nil {
		t.Fatal(err)
	}
	uni, err := corpus.NewNGram(s.Train, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, base := sc.BitsPerChar(), uni.BitsPerChar(s.Test); got > base-1 {
		t.Errorf("GPT %.2f bits per char, unigram %.2f: want at least 1 bit better", got, base)
	}
	loaded, err := e.LoadOrTrain(s)
	if err != nil {
		t.Fatal(err)
	}
	if !loaded.Loaded {
		t.Fatal("LoadOrTrain trained again")
	}
	sc2, err := Evaluate(loaded.Store, e.Model, s.Test, 16)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sc.Log2P, sc2.Log2P) {
		t.Error("the reloaded model scores differently")
	}
}

// TestEvaluateMatchesOneWindowAtATime checks Evaluate, which scores a
// batch of sliding windows on the host while the model predicts the
// next, against a plain loop: one window of seq bytes at every multiple
// of seq/2, predicted alone, its last seq/2 predictions kept (the first
// window's all). Every byte after the first must be scored once, in
// order, and each past the first window with at least seq/2 bytes of
// context.
func TestEvaluateMatchesOneWindowAtATime(t *testing.T) {
	t.Setenv("COURSE_CACHE", t.TempDir())
	const seq, batch = 8, 16
	const code = "func main() {\n\treturn x\n}\n"
	var text []byte
	for i := range (batch + 3) * seq {
		text = append(text, code[(i*7)%len(code)])
	}
	text = append(text, '\n')
	e := Experiment{Name: "gpt-evaluate-test", Model: Config{Vocab: 256, DModel: 8, Heads: 2, Layers: 1, DFF: 16, Context: seq, Positions: Sinusoidal},
		Stride: 4, Steps: 3, Batch: 8, LearningRate: 0.01, Seed: 1}
	tr, err := e.Train(&corpus.Split{Train: text, Test: text})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Evaluate(tr.Store, e.Model, text, seq)
	if err != nil {
		t.Fatal(err)
	}

	p, err := train.NewPredictor(tr.Store, e.Model.Model())
	if err != nil {
		t.Fatal(err)
	}
	var want Scores
	var context []int // bytes of context before each scored byte
	for start := 0; start+seq+1 <= len(text); start += seq / 2 {
		ids := make([]int32, batch*seq) // the compiled batch shape; window in row 0
		for j := range seq {
			ids[j] = int32(text[start+j])
		}
		out, err := p.Predict(tensors.FromFlatDataAndDimensions(ids, batch, seq))
		if err != nil {
			t.Fatal(err)
		}
		logits := tensors.MustCopyFlatData[float32](out[0])
		from := seq / 2
		if start == 0 {
			from = 0
		}
		for j := from; j < seq; j++ {
			z := logits[j*256 : (j+1)*256]
			sum := 0.0
			for _, x := range z {
				sum += math.Exp(float64(x))
			}
			target := text[start+j+1]
			want.Index = append(want.Index, start+j+1)
			want.Log2P = append(want.Log2P, math.Log2(math.Exp(float64(z[target]))/sum))
			want.Top = append(want.Top, int32(slices.Index(z, slices.Max(z))))
			context = append(context, j+1)
		}
	}
	if !slices.Equal(got.Index, want.Index) || !slices.Equal(got.Top, want.Top) {
		t.Fatalf("Index or Top differ from one window at a time:\n got %v %v\nwant %v %v", got.Index, got.Top, want.Index, want.Top)
	}
	// Here each window is row 0 of its batch, in Evaluate another row:
	// the float32 kernels may round a row's sums differently.
	for i := range want.Log2P {
		if math.Abs(got.Log2P[i]-want.Log2P[i]) > 1e-5 {
			t.Fatalf("score %d: %v, want %v", i, got.Log2P[i], want.Log2P[i])
		}
	}
	for i, idx := range got.Index {
		if idx != i+1 {
			t.Fatalf("score %d is of byte %d: want every byte from 1 scored once, in order", i, idx)
		}
		if idx > seq && context[i] < seq/2+1 {
			t.Fatalf("byte %d scored with %d bytes of context, want at least %d", idx, context[i], seq/2+1)
		}
	}
	if !slices.Equal(got.Context, context) {
		t.Errorf("Context = %v, want the bytes before each scored byte in its window, %v", got.Context, context)
	}
	if got.ScoredBytes() != len(got.Log2P) || math.Abs(got.BitsPerByte()-got.BitsPerChar()) > 1e-12 {
		t.Errorf("a byte model: %d scored bytes for %d scores, %v bits per byte against %v per character", got.ScoredBytes(), len(got.Log2P), got.BitsPerByte(), got.BitsPerChar())
	}
	if n := len(got.Index); n < len(text)-seq/2-1 {
		t.Errorf("%d bytes scored of %d: the tail left out is longer than half a window", n, len(text))
	}
}

// TestExtrapolateSideBySide: readings of independent models give the
// same bits side by side (train.Concurrently, as RunExtrapolation runs
// them) as one after the other.
func TestExtrapolateSideBySide(t *testing.T) {
	kinds := []Positions{Sinusoidal, Learned, NoPositions}
	var text []byte
	for i := range 600 {
		text = append(text, "func f(x int) int {\n\treturn x * 2\n}\n"[i%33])
	}
	s := &corpus.Split{Test: text}
	exps := make([]Experiment, len(kinds))
	stores := make([]*model.Store, len(kinds))
	for i, p := range kinds {
		c := tiny
		c.Positions = p
		exps[i] = Experiment{Model: c}
		stores[i] = newStore(t, c, int64(i+1))
	}
	var want [][]PositionResult
	for i, e := range exps {
		r, err := e.Extrapolate(stores[i], s)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r)
	}
	got, err := train.Concurrently(len(kinds), func(i int) ([]PositionResult, error) {
		return exps[i].Extrapolate(stores[i], s)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range kinds {
		if len(got[i]) != len(want[i]) || len(want[i]) == 0 {
			t.Fatalf("%s: %d readings side by side, %d one after the other", kinds[i], len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			if g, w := got[i][j], want[i][j]; g.Seq != w.Seq || !slices.Equal(g.Bits, w.Bits) {
				t.Errorf("%s, window %d: bits %v side by side, %v one after the other", kinds[i], w.Seq, g.Bits, w.Bits)
			}
		}
	}
}
