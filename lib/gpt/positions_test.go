package gpt

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/corpus"
)

// attentionKinds are the kinds of positions that act inside attention.
var attentionKinds = []Positions{Rotary, ALiBi}

// TestGenerateInAttentionBeyondContext: with RoPE and ALiBi, generation
// with the KV cache gives the same bytes as full recomputation, up to
// twice Context (no table limits them).
func TestGenerateInAttentionBeyondContext(t *testing.T) {
	for _, pk := range attentionKinds {
		c := tiny
		c.Positions = pk
		store := newStore(t, c, 13)
		maxLen := 2 * c.Context
		g, err := NewGenerator(store, c, maxLen)
		if err != nil {
			t.Fatalf("%s: NewGenerator for %d positions (Context %d): %v", pk, maxLen, c.Context, err)
		}
		prompt := []byte("if x")
		n := maxLen - len(prompt)
		for _, s := range []Sampler{{}, {Temperature: 1, TopK: 5}} {
			a, err := g.Generate(prompt, n, 3, s, 5, true)
			if err != nil {
				t.Fatal(err)
			}
			b, err := g.Generate(prompt, n, 3, s, 5, false)
			if err != nil {
				t.Fatal(err)
			}
			for i := range a.Samples {
				if len(a.Samples[i]) != maxLen || !slices.Equal(a.Samples[i], b.Samples[i]) {
					t.Errorf("%s, %v, sample %d: cached %q, full %q (want %d bytes each)", pk, s, i, a.Samples[i], b.Samples[i], maxLen)
				}
			}
		}
	}
}

// TestInAttentionPositionsReachTheLogits: on the same weights, RoPE and
// ALiBi leave position 0 as without positions (a rotation by angle 0, a
// bias of 0 on the only key it sees) and change every later position —
// they are not silently ignored — and differently from each other.
func TestInAttentionPositionsReachTheLogits(t *testing.T) {
	ids := []int32{'f', 'o', 'r', ' ', 'i', ' ', ':', '=', ' ', '0', ';', ' '}
	seq := len(ids)
	none := tiny
	none.Positions = NoPositions
	store := newStore(t, none, 21)
	logits := map[Positions][]float32{}
	for _, pk := range []Positions{NoPositions, Rotary, ALiBi} {
		c := tiny
		c.Positions = pk
		l, err := forward(store, c, ids, 1, seq)
		if err != nil {
			t.Fatal(err)
		}
		logits[pk] = l
	}
	diff := func(a, b []float32, pos int) float64 {
		worst := 0.0
		for v := range tiny.Vocab {
			worst = max(worst, math.Abs(float64(a[pos*tiny.Vocab+v]-b[pos*tiny.Vocab+v])))
		}
		return worst
	}
	for _, pk := range attentionKinds {
		if d := diff(logits[pk], logits[NoPositions], 0); d > 1e-5 {
			t.Errorf("%s: position 0 differs from no positions by %g, want the same logits", pk, d)
		}
		for pos := 1; pos < seq; pos++ {
			if d := diff(logits[pk], logits[NoPositions], pos); d < 1e-3 {
				t.Errorf("%s: position %d has the logits of no positions (difference %g)", pk, pos, d)
			}
		}
	}
	for pos := 1; pos < seq; pos++ {
		if d := diff(logits[Rotary], logits[ALiBi], pos); d < 1e-3 {
			t.Errorf("position %d: RoPE and ALiBi give the same logits (difference %g)", pos, d)
		}
	}
}

// TestInAttentionCausal: RoPE and ALiBi keep the model causal — changing
// token 4 changes nothing before it.
func TestInAttentionCausal(t *testing.T) {
	for _, pk := range attentionKinds {
		c := tiny
		c.Positions = pk
		store := newStore(t, c, 3)
		a := []int32{10, 20, 30, 40, 50, 60}
		b := slices.Clone(a)
		b[4] = 99
		la, err := forward(store, c, a, 1, 6)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := forward(store, c, b, 1, 6)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(la[:4*c.Vocab], lb[:4*c.Vocab]) {
			t.Errorf("%s: positions 0–3 changed when token 4 changed", pk)
		}
		if slices.Equal(la[4*c.Vocab:], lb[4*c.Vocab:]) {
			t.Errorf("%s: positions 4 and 5 did not change when token 4 changed", pk)
		}
	}
}

// TestInAttentionNoParameters: RoPE and ALiBi add no parameter — the same
// count as no positions, and as sinusoids — and the models name them.
func TestInAttentionNoParameters(t *testing.T) {
	none := tiny
	none.Positions = NoPositions
	for _, tc := range []struct {
		pk   Positions
		name string
	}{{Rotary, "rotary (RoPE) positions"}, {ALiBi, "ALiBi positions"}} {
		c := tiny
		c.Positions = tc.pk
		if c.ParamCount() != none.ParamCount() {
			t.Errorf("%s: %d parameters, no positions %d", tc.pk, c.ParamCount(), none.ParamCount())
		}
		if s := c.String(); !strings.Contains(s, ", "+tc.name+", ") {
			t.Errorf("String() = %q, want it to say %q", s, tc.name)
		}
	}
	if s := tiny.String(); !strings.Contains(s, ", sinusoidal positions, ") {
		t.Errorf("String() = %q: the existing kinds keep their names", s)
	}
}

// TestUnknownPositions: the error lists every kind.
func TestUnknownPositions(t *testing.T) {
	none := tiny
	none.Positions = NoPositions
	store := newStore(t, none, 1)
	c := tiny
	c.Positions = "relative"
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%v", r)
			}
		}()
		_, err = forward(store, c, []int32{1, 2}, 1, 2)
		return err
	}()
	if err == nil {
		t.Fatal("unknown positions: no error")
	}
	for _, kind := range []Positions{"relative", Sinusoidal, Learned, NoPositions, Rotary, ALiBi} {
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", kind)) {
			t.Errorf("error %q does not name %q", err, kind)
		}
	}
}

// TestInAttentionTrains: the gradient flows through the rotation and past
// the bias — a tiny RoPE or ALiBi GPT halves its loss on repetitive Go,
// and evaluates on windows twice as long as it was trained on.
func TestInAttentionTrains(t *testing.T) {
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
	for _, pk := range attentionKinds {
		e := Experiment{Name: "gpt-test-" + string(pk), Model: Config{Vocab: 256, DModel: 16, Heads: 2, Layers: 1, DFF: 32, Context: 16, Positions: pk},
			Stride: 8, Steps: 120, Batch: 16, LearningRate: 0.01, Seed: 1}
		tr, err := e.Train(s)
		if err != nil {
			t.Fatal(err)
		}
		if h := tr.History; h.FinalLoss() > h.Loss[0]/2 {
			t.Errorf("%s: loss %.3f → %.3f: not halved", pk, h.Loss[0], h.FinalLoss())
		}
		rs, err := e.Extrapolate(tr.Store, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 2 || rs[1].Seq != 32 {
			t.Errorf("%s: Extrapolate gave %d windows, want Context and 2·Context", pk, len(rs))
		}
	}
}
