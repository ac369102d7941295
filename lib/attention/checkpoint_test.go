package attention_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/attention"
)

// randomInput returns x and g, [n][d], from N(0, 1).
func randomInput(n, d int, seed uint64) (x, g [][]float64) {
	r := rand.New(rand.NewPCG(seed, 7))
	x, g = make([][]float64, n), make([][]float64, n)
	for i := range n {
		x[i], g[i] = make([]float64, d), make([]float64, d)
		for j := range d {
			x[i][j], g[i][j] = r.NormFloat64(), r.NormFloat64()
		}
	}
	return x, g
}

func newStack(t *testing.T, layers, d int, seed uint64) *attention.AttentionStack {
	t.Helper()
	s, err := attention.NewAttentionStack(layers, d, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// referenceLoss is Σ(X_L ∘ G) computed independently of the stack's own
// forward pass: X_{l+1} = X_l + Full(X_l·W_Q, X_l·W_K, X_l·W_V).
func referenceLoss(t *testing.T, s *attention.AttentionStack, x, g [][]float64) float64 {
	t.Helper()
	mul := func(a, b [][]float64) [][]float64 {
		out := make([][]float64, len(a))
		for i := range a {
			out[i] = make([]float64, len(b[0]))
			for j := range b[0] {
				for k := range b {
					out[i][j] += a[i][k] * b[k][j]
				}
			}
		}
		return out
	}
	for _, ly := range s.Layers {
		a, err := attention.Full(mul(x, ly.WQ), mul(x, ly.WK), mul(x, ly.WV))
		if err != nil {
			t.Fatal(err)
		}
		next := make([][]float64, len(x))
		for i := range x {
			next[i] = make([]float64, len(x[i]))
			for j := range x[i] {
				next[i][j] = x[i][j] + a[i][j]
			}
		}
		x = next
	}
	loss := 0.0
	for i := range x {
		for j := range x[i] {
			loss += x[i][j] * g[i][j]
		}
	}
	return loss
}

// TestGradientsFiniteDifferences checks the hand-written backward pass
// against central differences of an independently computed loss, for
// every entry of dX₀ and several of each layer's dW_Q, dW_K, dW_V.
func TestGradientsFiniteDifferences(t *testing.T) {
	const nl, n, d, h, tol = 3, 5, 4, 1e-6, 1e-6
	s := newStack(t, nl, d, 1)
	x, g := randomInput(n, d, 2)
	grads, _, err := s.Gradients(x, g)
	if err != nil {
		t.Fatal(err)
	}
	if want := referenceLoss(t, s, x, g); math.Abs(grads.Loss-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("Loss = %.15g, want %.15g", grads.Loss, want)
	}
	// check compares the analytic derivative with respect to *p with a
	// central difference.
	check := func(name string, p *float64, analytic float64) {
		t.Helper()
		keep := *p
		*p = keep + h
		up := referenceLoss(t, s, x, g)
		*p = keep - h
		down := referenceLoss(t, s, x, g)
		*p = keep
		numeric := (up - down) / (2 * h)
		if math.Abs(analytic-numeric) > tol*math.Max(1, math.Abs(numeric)) {
			t.Errorf("%s: backprop %.10g, finite difference %.10g", name, analytic, numeric)
		}
	}
	for i := range n {
		for j := range d {
			check(fmt.Sprintf("dX₀[%d][%d]", i, j), &x[i][j], grads.DX[i][j])
		}
	}
	entries := [][2]int{{0, 0}, {1, 2}, {3, 1}, {2, 3}}
	for l, ly := range s.Layers {
		gl := grads.Layers[l]
		for _, e := range entries {
			i, j := e[0], e[1]
			check(fmt.Sprintf("layer %d dW_Q[%d][%d]", l, i, j), &ly.WQ[i][j], gl.DWQ[i][j])
			check(fmt.Sprintf("layer %d dW_K[%d][%d]", l, i, j), &ly.WK[i][j], gl.DWK[i][j])
			check(fmt.Sprintf("layer %d dW_V[%d][%d]", l, i, j), &ly.WV[i][j], gl.DWV[i][j])
		}
	}
}

// TestAttentionStackForward checks Forward against the reference forward pass.
func TestAttentionStackForward(t *testing.T) {
	s := newStack(t, 4, 3, 5)
	x, g := randomInput(6, 3, 6)
	out, err := s.Forward(x)
	if err != nil {
		t.Fatal(err)
	}
	loss := 0.0
	for i := range out {
		for j := range out[i] {
			loss += out[i][j] * g[i][j]
		}
	}
	if want := referenceLoss(t, s, x, g); math.Abs(loss-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("Σ Forward(x)∘g = %.15g, want %.15g", loss, want)
	}
}

// sameGrads reports where a and b first differ in any bit, or "".
func sameGrads(a, b attention.StackGrads) string {
	eq := func(p, q [][]float64) bool {
		for i := range p {
			for j := range p[i] {
				if p[i][j] != q[i][j] {
					return false
				}
			}
		}
		return true
	}
	if a.Loss != b.Loss {
		return fmt.Sprintf("Loss %v vs %v", a.Loss, b.Loss)
	}
	if !eq(a.DX, b.DX) {
		return "dX₀"
	}
	for l := range a.Layers {
		x, y := a.Layers[l], b.Layers[l]
		if !eq(x.DWQ, y.DWQ) || !eq(x.DWK, y.DWK) || !eq(x.DWV, y.DWV) {
			return fmt.Sprintf("layer %d's dW", l)
		}
	}
	return ""
}

// TestCheckpointedGradientsExact checks that recomputation changes no bit
// of the gradients, for every checkpoint spacing, dividing L or not.
func TestCheckpointedGradientsExact(t *testing.T) {
	const n, d = 6, 4
	x, g := randomInput(n, d, 3)
	for _, nl := range []int{1, 2, 5, 8} {
		s := newStack(t, nl, d, uint64(nl))
		plain, _, err := s.Gradients(x, g)
		if err != nil {
			t.Fatal(err)
		}
		for every := 1; every <= nl+1; every++ {
			ckpt, _, err := s.CheckpointedGradients(x, g, every)
			if err != nil {
				t.Fatal(err)
			}
			if len(ckpt.Layers) != nl {
				t.Fatalf("L = %d, every = %d: %d layer gradients, want %d", nl, every, len(ckpt.Layers), nl)
			}
			if where := sameGrads(plain, ckpt); where != "" {
				t.Errorf("L = %d, every = %d: checkpointed gradients differ from plain ones at %s", nl, every, where)
			}
		}
	}
}

// wantPeak is the peak activation bytes derived by hand. Each layer keeps
// its input X_l and Q, K, V (n·d each) and P (n²). Plain backprop holds all
// L layers and X_L at the end of the forward pass. With m = ⌈L/every⌉
// segments, the last of length r, checkpointing holds at the end of the
// forward pass the m−1 earlier segments' checkpoints, the last segment's
// layers and X_L; while it recomputes segment m−2 it holds the m−2
// checkpoints before it and that segment's every layers (its checkpoint
// is its first layer's X; its output is not recomputed).
func wantPeak(nl, every, n, d int) (plain, ckpt int) {
	nd, layer := n*d, 4*n*d+n*n
	plain = 8 * (nl*layer + nd)
	m := (nl + every - 1) / every
	r := nl - (m-1)*every
	ckpt = 8 * ((m-1)*nd + r*layer + nd)
	if m >= 2 {
		ckpt = max(ckpt, 8*((m-2)*nd+every*layer))
	}
	return plain, ckpt
}

// TestCheckpointMemory checks the counted peak bytes and forward passes
// against the formulas: checkpointing with every = √L holds less than
// plain backprop, at the price of the layers outside the last segment
// computed twice.
func TestCheckpointMemory(t *testing.T) {
	check := func(nl, every, n, d int) (plainPeak, ckptPeak int) {
		t.Helper()
		s := newStack(t, nl, d, 9)
		x, g := randomInput(n, d, 10)
		_, pm, err := s.Gradients(x, g)
		if err != nil {
			t.Fatal(err)
		}
		_, cm, err := s.CheckpointedGradients(x, g, every)
		if err != nil {
			t.Fatal(err)
		}
		wantPlain, wantCkpt := wantPeak(nl, every, n, d)
		if pm.PeakBytes != wantPlain {
			t.Errorf("L = %d, n = %d, d = %d: plain peak %d bytes, want %d", nl, n, d, pm.PeakBytes, wantPlain)
		}
		if cm.PeakBytes != wantCkpt {
			t.Errorf("L = %d, every = %d, n = %d, d = %d: checkpointed peak %d bytes, want %d", nl, every, n, d, cm.PeakBytes, wantCkpt)
		}
		m := (nl + every - 1) / every
		if r := nl - (m-1)*every; pm.Forwards != nl || cm.Forwards != 2*nl-r {
			t.Errorf("L = %d, every = %d: %d plain and %d checkpointed forward passes, want %d and %d", nl, every, pm.Forwards, cm.Forwards, nl, 2*nl-r)
		}
		return pm.PeakBytes, cm.PeakBytes
	}
	plain, ckpt := check(16, 4, 64, 16)
	if ckpt >= plain {
		t.Errorf("L = 16, every = 4: checkpointed peak %d bytes, not below plain %d", ckpt, plain)
	}
	if plain != 8*(16*(4*64*16+64*64)+64*16) || ckpt != 8*(4*64*16+4*(4*64*16+64*64)) {
		t.Errorf("L = 16, every = 4, n = 64, d = 16: peaks %d and %d bytes, want 1056768 and 294912", plain, ckpt)
	}
	for _, nl := range []int{1, 2, 5, 8} {
		for every := 1; every <= nl+1; every++ {
			for _, nd := range [][2]int{{3, 5}, {7, 2}} {
				p, c := check(nl, every, nd[0], nd[1])
				if c > p {
					t.Errorf("L = %d, every = %d: checkpointed peak %d bytes above plain %d", nl, every, c, p)
				}
			}
		}
	}
}

// TestCheckpointErrors checks that bad input is refused with a message
// that says what to pass.
func TestCheckpointErrors(t *testing.T) {
	s := newStack(t, 2, 3, 1)
	x, g := randomInput(4, 3, 2)
	xWide, _ := randomInput(4, 5, 2)
	gShort, _ := randomInput(3, 3, 2)
	ragged := [][]float64{{1, 2, 3}, {1, 2}}
	badW := &attention.AttentionStack{Layers: []attention.AttentionLayer{s.Layers[0], {WQ: s.Layers[1].WQ, WK: s.Layers[1].WK, WV: [][]float64{{1, 2}}}}}
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"every 0", func() error { _, _, err := s.CheckpointedGradients(x, g, 0); return err }, "every must be ≥ 1"},
		{"every −3", func() error { _, _, err := s.CheckpointedGradients(x, g, -3); return err }, "pass the number of layers between checkpoints"},
		{"empty x", func() error { _, _, err := s.Gradients(nil, g); return err }, "x is empty"},
		{"x too wide", func() error { _, _, err := s.Gradients(xWide, g); return err }, "pass x as [n][d]"},
		{"ragged x", func() error { _, _, err := s.CheckpointedGradients(ragged, g, 1); return err }, "x row 1"},
		{"g too short", func() error { _, _, err := s.Gradients(x, gShort); return err }, "with x's shape [4][3]"},
		{"empty g", func() error { _, _, err := s.CheckpointedGradients(x, [][]float64{}, 1); return err }, "g is empty"},
		{"no layers", func() error { _, _, err := (&attention.AttentionStack{}).Gradients(x, g); return err }, "NewAttentionStack"},
		{"nil stack", func() error { _, err := (*attention.AttentionStack)(nil).Forward(x); return err }, "no layers"},
		{"bad weight", func() error { _, _, err := badW.Gradients(x, g); return err }, "layer 1's W_V"},
		{"zero layers", func() error { _, err := attention.NewAttentionStack(0, 4, 1); return err }, "layers ≥ 1"},
		{"zero width", func() error { _, err := attention.NewAttentionStack(2, 0, 1); return err }, "width d ≥ 1"},
		{"measure n 0", func() error { _, err := attention.MeasureCheckpointing(0, 4, []int{2}, 1); return err }, "length n ≥ 1"},
		{"measure no depths", func() error { _, err := attention.MeasureCheckpointing(4, 4, nil, 1); return err }, "pass the numbers of layers"},
		{"measure depth 0", func() error { _, err := attention.MeasureCheckpointing(4, 4, []int{2, 0}, 1); return err }, "at least 1 layer"},
	}
	for _, tt := range tests {
		err := tt.run()
		switch {
		case err == nil:
			t.Errorf("%s: no error", tt.name)
		case !strings.Contains(err.Error(), tt.want):
			t.Errorf("%s: error %q, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

// TestMeasureCheckpointing runs the measurement on a tiny case: the
// gradients agree exactly, the memory falls, and the table says so.
func TestMeasureCheckpointing(t *testing.T) {
	cs, err := attention.MeasureCheckpointing(16, 4, []int{1, 4, 9}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ layers, every int }{{1, 1}, {4, 2}, {9, 3}} {
		c := cs[i]
		if c.Layers != want.layers || c.Every != want.every {
			t.Errorf("cost %d: L = %d, every = %d, want %d and %d", i, c.Layers, c.Every, want.layers, want.every)
		}
		if c.MaxGradDiff != 0 {
			t.Errorf("L = %d: max |Δgrad| = %g, want 0", c.Layers, c.MaxGradDiff)
		}
		if p, k := wantPeak(c.Layers, c.Every, 16, 4); c.PlainBytes != p || c.CheckpointBytes != k {
			t.Errorf("L = %d: peaks %d and %d bytes, want %d and %d", c.Layers, c.PlainBytes, c.CheckpointBytes, p, k)
		}
	}
	if cs[2].CheckpointBytes >= cs[2].PlainBytes {
		t.Errorf("L = 9: checkpointed %d bytes, not below plain %d", cs[2].CheckpointBytes, cs[2].PlainBytes)
	}
	table := attention.CheckpointTable(cs)
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "plain MiB") || !strings.Contains(lines[0], "max |Δgrad|") {
		t.Fatalf("table:\n%s", table)
	}
	for _, line := range lines[1:] {
		if f := strings.Fields(line); f[len(f)-1] != "0" {
			t.Errorf("table row %q: last column %q, want 0", line, f[len(f)-1])
		}
	}
}

// Checkpointing every 2 layers of 4 holds about half the activations of
// plain backpropagation, for 2 more layer forward passes, and gives the
// same gradients to the last bit.
func ExampleAttentionStack_CheckpointedGradients() {
	s, err := attention.NewAttentionStack(4, 8, 1)
	if err != nil {
		panic(err)
	}
	x, g := randomInput(32, 8, 2)
	plain, pm, err := s.Gradients(x, g)
	if err != nil {
		panic(err)
	}
	ckpt, cm, err := s.CheckpointedGradients(x, g, 2)
	if err != nil {
		panic(err)
	}
	diff := math.Abs(plain.Loss - ckpt.Loss)
	for i := range plain.DX {
		for j := range plain.DX[i] {
			diff = max(diff, math.Abs(plain.DX[i][j]-ckpt.DX[i][j]))
		}
	}
	for l := range plain.Layers {
		for _, w := range [][2][][]float64{{plain.Layers[l].DWQ, ckpt.Layers[l].DWQ},
			{plain.Layers[l].DWK, ckpt.Layers[l].DWK}, {plain.Layers[l].DWV, ckpt.Layers[l].DWV}} {
			for i := range w[0] {
				for j := range w[0][i] {
					diff = max(diff, math.Abs(w[0][i][j]-w[1][i][j]))
				}
			}
		}
	}
	fmt.Printf("plain:        peak %6d bytes, %d layer forward passes\n", pm.PeakBytes, pm.Forwards)
	fmt.Printf("checkpointed: peak %6d bytes, %d layer forward passes\n", cm.PeakBytes, cm.Forwards)
	fmt.Println("max |Δ| over the loss and all gradients:", diff)
	// Output:
	// plain:        peak  67584 bytes, 4 layer forward passes
	// checkpointed: peak  36864 bytes, 6 layer forward passes
	// max |Δ| over the loss and all gradients: 0
}
