package transformer

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/random"
)

func TestLayerNormMatchesReference(t *testing.T) {
	tests := []struct {
		name        string
		rows, d     int
		scale, bias float64
		gammaBeta   bool
	}{
		{"unit rows, γ=1 β=0", 3, 8, 1, 0, false},
		{"large offset and scale, odd width", 4, 7, 50, 1000, false},
		{"tiny values", 2, 5, 1e-2, 0, false},
		{"with γ and β", 5, 6, 3, -2, true},
	}
	for n, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := random.New(uint32(10 + n))
			x := r.Normal(tc.rows, tc.d)
			for i := range x {
				for j := range x[i] {
					// Each row its own offset and scale: LayerNorm must undo both.
					x[i][j] = x[i][j]*tc.scale*float64(i+1) + tc.bias*float64(i-1)
				}
			}
			w := NewLayerNormWeights(tc.d)
			if tc.gammaBeta {
				for j := range w.Gamma {
					w.Gamma[j], w.Beta[j] = 0.5+0.25*float64(j), 0.1*float64(j)-0.3
				}
			}
			got, err := LayerNormOf(x, w)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "LayerNorm", got, refLayerNorm(x, w.Gamma, w.Beta), 2e-5*math.Max(1, tc.scale))
			if tc.gammaBeta {
				return
			}
			// Before γ and β: mean 0 and variance σ²/(σ² + ε) in every row,
			// which is 1 unless σ² is as small as ε.
			in := MeanVar(x)
			for i, mv := range MeanVar(got) {
				wantVar := in[i][1] / (in[i][1] + LayerNormEpsilon)
				if math.Abs(mv[0]) > 1e-5 || math.Abs(mv[1]-wantVar) > 1e-4 {
					t.Errorf("row %d after LayerNorm: mean %.6f, variance %.6f, want 0 and %.6f", i, mv[0], mv[1], wantVar)
				}
			}
		})
	}
}

func TestLayerNormOfConstantRowIsZero(t *testing.T) {
	got, err := LayerNormOf([][]float64{{3, 3, 3, 3}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "LayerNorm of a constant row", got, [][]float64{{0, 0, 0, 0}}, 0)
}

func TestLayerNormHandComputed(t *testing.T) {
	// x = [1, 2, 3, 4, 5]: μ = 3, σ² = (4+1+0+1+4)/5 = 2, so
	// y = (x − 3)/√(2 + 1e-5) = [-1.41421, -0.70711, 0, 0.70711, 1.41421].
	got, err := LayerNormOf([][]float64{{1, 2, 3, 4, 5}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := math.Sqrt(2 + 1e-5)
	assertClose(t, "LayerNorm", got, [][]float64{{-2 / s, -1 / s, 0, 1 / s, 2 / s}}, 1e-6)
}

func TestMeanVar(t *testing.T) {
	got := MeanVar([][]float64{{1, 2, 3, 4, 5}, {-1, 1}})
	assertClose(t, "MeanVar", got, [][]float64{{3, 2}, {0, 1}}, 1e-12)
}

func TestFFNMatchesReference(t *testing.T) {
	tests := []struct{ seq, d, dff int }{{4, 6, 10}, {1, 3, 12}, {5, 8, 32}}
	for n, tc := range tests {
		r := random.New(uint32(20 + n))
		x := r.Normal(tc.seq, tc.d)
		w := NewFFNWeights(tc.d, tc.dff, uint32(n))
		for j := range w.B1 {
			w.B1[j] = 0.3 * math.Sin(float64(j)) // non-zero biases, so that a forgotten one shows
		}
		for j := range w.B2 {
			w.B2[j] = -0.2 + 0.1*float64(j%3)
		}
		got, err := ExplainFFN(x, w)
		if err != nil {
			t.Fatal(err)
		}
		wantOut, wantHidden := refFFN(x, w)
		assertClose(t, "FFN hidden", got.Hidden, wantHidden, 1e-5)
		assertClose(t, "FFN output", got.Output, wantOut, 1e-5)
		zeros, negatives := 0, 0
		for _, row := range refLinear(x, w.W1, w.B1) {
			for _, v := range row {
				if v < 0 {
					negatives++
				}
			}
		}
		for _, row := range got.Hidden {
			for _, v := range row {
				if v == 0 {
					zeros++
				}
			}
		}
		if zeros != negatives {
			t.Errorf("%v: the ReLU zeroed %d hidden units, want the %d negative ones", tc, zeros, negatives)
		}
	}
}

// The FFN is position-wise: a token's output does not depend on the other
// tokens of the sequence.
func TestFFNIsPositionWise(t *testing.T) {
	x := random.New(3).Normal(5, 6)
	w := NewFFNWeights(6, 16, 4)
	all, err := ExplainFFN(x, w)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x {
		one, err := ExplainFFN(x[i:i+1], w)
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, "FFN of one token", one.Output, all.Output[i:i+1], 1e-6)
	}
}

func TestEncoderLayerMatchesReference(t *testing.T) {
	tests := []struct{ seq, d, heads, dff int }{{5, 8, 2, 16}, {3, 6, 3, 10}, {6, 12, 4, 24}}
	for n, tc := range tests {
		r := random.New(uint32(30 + n))
		x := r.Normal(tc.seq, tc.d)
		w := NewEncoderLayerWeights(tc.d, tc.dff, uint32(n))
		perturb(w, uint32(40+n))
		got, err := ExplainEncoderLayer(x, tc.heads, w)
		if err != nil {
			t.Fatal(err)
		}
		want, wantW := refEncoderLayer(x, tc.heads, w, nil, layerVariant{})
		assertClose(t, "encoder layer output", got.Output, want, 1e-4)
		for h := range wantW {
			assertClose(t, "attention weights", got.Weights[h], wantW[h], 1e-5)
		}
		// The reference is sensitive to the parts a wrong layer would drop:
		// without the residual or without the LayerNorm it is far from the
		// library's output, so the comparison above would fail.
		for _, v := range []layerVariant{{noResidual: true}, {noNorm: true}} {
			broken, _ := refEncoderLayer(x, tc.heads, w, nil, v)
			if d := maxDiff(got.Output, broken); d < 0.05 {
				t.Errorf("%+v: the layer's output is within %g of a layer %+v; the test cannot tell them apart", tc, d, v)
			}
		}
	}
}

// The intermediates fit together: Norm1 = LayerNorm(x + Attention) and
// Output = LayerNorm(Norm1 + FFN). Dropping the residual or the norm in
// the library fails here with a message naming the step.
func TestEncoderLayerResidualAndNorm(t *testing.T) {
	x := random.New(5).Normal(4, 8)
	w := NewEncoderLayerWeights(8, 16, 6)
	perturb(w, 7)
	got, err := ExplainEncoderLayer(x, 2, w)
	if err != nil {
		t.Fatal(err)
	}
	sum := func(a, b [][]float64) [][]float64 {
		s := make([][]float64, len(a))
		for i := range a {
			s[i] = make([]float64, len(a[i]))
			for j := range a[i] {
				s[i][j] = a[i][j] + b[i][j]
			}
		}
		return s
	}
	assertClose(t, "Norm1 = LayerNorm(x + Attention)", got.Norm1, refLayerNorm(sum(x, got.Attention), w.Norm1.Gamma, w.Norm1.Beta), 1e-4)
	assertClose(t, "Output = LayerNorm(Norm1 + FFN)", got.Output, refLayerNorm(sum(got.Norm1, got.FFN), w.Norm2.Gamma, w.Norm2.Beta), 1e-4)
	// With γ = 1, β = 0 the output rows are normalised.
	plain := NewEncoderLayerWeights(8, 16, 6)
	out, err := ExplainEncoderLayer(x, 2, plain)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range MeanVar(out.Output) {
		if math.Abs(mv[0]) > 1e-5 || math.Abs(mv[1]-1) > 1e-3 {
			t.Errorf("output row %d: mean %.6f, variance %.6f, want 0 and 1", i, mv[0], mv[1])
		}
	}
}

func tinyConfig() Config {
	return Config{Vocab: 11, DModel: 8, Heads: 2, DFF: 12, Layers: 2, MaxLen: 16}
}

func TestEncoderMatchesReference(t *testing.T) {
	w, err := NewEncoderWeights(tinyConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range w.Layers {
		perturb(l, uint32(50+i))
	}
	tokens := [][]int{{1, 2, 3, 4, 1, 5}, {6, 7, 10, 9, 0, 0}}
	for _, masked := range []bool{false, true} {
		res, err := ExplainEncoder(tokens, w, &EncoderOptions{MaskPadding: masked, PadID: 0})
		if err != nil {
			t.Fatal(err)
		}
		for b, seq := range tokens {
			var mask func(j int) bool
			if masked {
				mask = func(j int) bool { return seq[j] == 0 }
			}
			want, wantW := refEncoder(seq, w, mask)
			assertClose(t, "encoder output", res.Output[b], want, 2e-4)
			for l := range wantW {
				for h := range wantW[l] {
					assertClose(t, "encoder attention weights", res.Weights[l][b][h], wantW[l][h], 1e-4)
				}
			}
		}
		// With the padding mask, no query attends to the padding of sequence 1.
		if masked {
			for l := range res.Weights {
				for h, m := range res.Weights[l][1] {
					for i := range m {
						if m[i][4] != 0 || m[i][5] != 0 {
							t.Errorf("layer %d head %d query %d: weights on padding %g, %g, want 0", l, h, i, m[i][4], m[i][5])
						}
					}
				}
			}
		}
	}
}

// The same token at two positions gets two different first-layer inputs:
// the positional encoding is added.
func TestEncoderAddsPositions(t *testing.T) {
	w, err := NewEncoderWeights(tinyConfig(), 2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ExplainEncoder([][]int{{3, 3, 3}}, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(res.Output[0][0:1], res.Output[0][1:2]); d < 1e-2 {
		t.Errorf("the same token at positions 0 and 1 gives outputs within %g: no positional encoding?", d)
	}
}

func TestEncoderShapes(t *testing.T) {
	cfg := Config{Vocab: 50, DModel: 16, Heads: 4, DFF: 40, Layers: 3, MaxLen: 32}
	w, err := NewEncoderWeights(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ExplainEncoder([][]int{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14}}, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"tokens": "[2 7]", "embedding": "[2 7 16]", "× √d_model": "[2 7 16]", "+ positional encoding": "[2 7 16]",
		"self-attention": "[2 7 16]", "  weights": "[2 4 7 7]", "Add & Norm": "[2 7 16]", "FFN hidden": "[2 7 40]",
		"FFN": "[2 7 16]", "output": "[2 7 16]",
	}
	if got, wantN := len(res.Shapes), 4+6*cfg.Layers+1; got != wantN {
		t.Errorf("got %d shapes, want %d", got, wantN)
	}
	for _, s := range res.Shapes {
		name := s.Name
		if strings.HasPrefix(name, "layer ") {
			name = name[len("layer 1 "):]
		}
		if got := fmt.Sprint(s.Dimensions); got != want[name] {
			t.Errorf("shape of %q = %s, want %s", s.Name, got, want[name])
		}
	}
	if len(res.Output) != 2 || len(res.Output[0]) != 7 || len(res.Output[0][0]) != 16 {
		t.Errorf("output is %d×%d×%d, want 2×7×16", len(res.Output), len(res.Output[0]), len(res.Output[0][0]))
	}
	if len(res.Weights) != 3 || len(res.Weights[0]) != 2 || len(res.Weights[0][0]) != 4 || len(res.Layers) != 3 {
		t.Errorf("got weights for %d layers, %d sequences, %d heads and %d layer outputs, want 3, 2, 4 and 3",
			len(res.Weights), len(res.Weights[0]), len(res.Weights[0][0]), len(res.Layers))
	}
	assertClose(t, "last layer = output", res.Layers[2][1], res.Output[1], 0)
	for l, m := range res.HeadMean(1) {
		for i, row := range m {
			sum := 0.0
			for _, v := range row {
				sum += v
			}
			if math.Abs(sum-1) > 1e-5 {
				t.Errorf("HeadMean layer %d row %d sums to %g, want 1", l, i, sum)
			}
		}
	}
}

func TestPool(t *testing.T) {
	x := [][][]float64{
		{{1, -2, 3}, {4, 5, -6}},
		{{0, 1, 0}, {2, -1, 4}},
	}
	tests := []struct {
		how  Pooling
		want [][]float64
	}{
		{PoolCLS, [][]float64{{1, -2, 3}, {0, 1, 0}}},
		{PoolMean, [][]float64{{2.5, 1.5, -1.5}, {1, 0, 2}}},
		{PoolMax, [][]float64{{4, 5, 3}, {2, 1, 4}}},
	}
	for _, tc := range tests {
		got, err := PoolOf(x, tc.how)
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, tc.how.String()+" pooling", got, tc.want, 1e-6)
	}
}

func TestParamCountsBase(t *testing.T) {
	// The source's PyTorch TransformerEncoder(vocab_size=10000, d_model=512,
	// num_heads=8, d_ff=2048, num_layers=6), counted by hand from its
	// definition (nn.Embedding, per layer four nn.Linear(512, 512) of the
	// attention, nn.Linear(512, 2048) and nn.Linear(2048, 512) of the FFN,
	// two nn.LayerNorm(512); the positional encoding is a registered
	// buffer, dropout has no parameters, no final norm or output layer):
	//
	//   embedding    10000·512                          =  5,120,000
	//   attention    4·(512·512 + 512)                  =  1,050,624
	//   FFN          512·2048 + 2048 + 2048·512 + 512   =  2,099,712
	//   LayerNorms   2·(512 + 512)                      =      2,048
	//   one layer    1,050,624 + 2,099,712 + 2,048      =  3,152,384
	//   6 layers     6·3,152,384                        = 18,914,304
	//   total        5,120,000 + 18,914,304             = 24,034,304
	//
	// sum(p.numel() for p in encoder.parameters()) printed 24,034,304 with
	// PyTorch 1.13.1 (checked once while writing lesson 05).
	got := Base().ParamCounts()
	want := ParamCounts{Config: Base(), Embedding: 5120000, Attention: 1050624, FFN: 2099712, Norms: 2048,
		Layer: 3152384, Layers: 18914304, Total: 24034304}
	if got != want {
		t.Errorf("Base().ParamCounts() = %+v,\nwant %+v", got, want)
	}
	if n := EncoderLayerParamCount(512, 2048); n != 3152384 {
		t.Errorf("EncoderLayerParamCount(512, 2048) = %d, want 3152384", n)
	}
}

func TestParamCountsTinyMatchesWeights(t *testing.T) {
	// vocab 11, d 8, d_ff 12, 2 layers, counted by hand:
	//   embedding 11·8 = 88
	//   attention 4·(8·8 + 8) = 288
	//   FFN 8·12 + 12 + 12·8 + 8 = 212
	//   LayerNorms 2·(8 + 8) = 32
	//   layer 288 + 212 + 32 = 532, 2 layers 1064, total 1152
	cfg := tinyConfig()
	got := cfg.ParamCounts()
	want := ParamCounts{Config: cfg, Embedding: 88, Attention: 288, FFN: 212, Norms: 32, Layer: 532, Layers: 1064, Total: 1152}
	if got != want {
		t.Errorf("ParamCounts() = %+v,\nwant %+v", got, want)
	}
	w, err := NewEncoderWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.Count(); n != want.Total {
		t.Errorf("NewEncoderWeights holds %d numbers, want %d", n, want.Total)
	}
	if n := w.Layers[0].Count(); n != want.Layer {
		t.Errorf("one layer holds %d numbers, want %d", n, want.Layer)
	}
}

func TestParamCountsString(t *testing.T) {
	s := Base().ParamCounts().String()
	for _, want := range []string{"5,120,000", "1,050,624", "2,099,712", "2,048", "3,152,384", "18,914,304", "24,034,304", "6 encoder layers"} {
		if !strings.Contains(s, want) {
			t.Errorf("ParamCounts table lacks %q:\n%s", want, s)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 24034304: "24,034,304", -1234567: "-1,234,567"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		c    Config
		want string
	}{
		{"base", Base(), ""},
		{"heads do not divide d_model", Config{Vocab: 10, DModel: 10, Heads: 4, DFF: 8, Layers: 1, MaxLen: 8}, "divisible"},
		{"no layers", Config{Vocab: 10, DModel: 8, Heads: 2, DFF: 8, MaxLen: 8}, "Layers"},
		{"dropout 1", Config{Vocab: 10, DModel: 8, Heads: 2, DFF: 8, Layers: 1, MaxLen: 8, Dropout: 1}, "Dropout"},
	}
	for _, tc := range tests {
		err := tc.c.Validate()
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: Validate() = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestExplainErrors(t *testing.T) {
	w, err := NewEncoderWeights(tinyConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	long := make([]int, 17)
	tests := []struct {
		name   string
		tokens [][]int
		want   string
	}{
		{"ragged batch", [][]int{{1, 2, 3}, {1, 2}}, "pad every sequence"},
		{"id outside the vocabulary", [][]int{{1, 11}}, "outside the vocabulary"},
		{"too long", [][]int{long}, "MaxLen"},
	}
	for _, tc := range tests {
		if _, err := ExplainEncoder(tc.tokens, w, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
	x := random.New(1).Normal(3, 6)
	if _, err := ExplainEncoderLayer(x, 4, NewEncoderLayerWeights(6, 8, 1)); err == nil || !strings.Contains(err.Error(), "divisible") {
		t.Errorf("4 heads for d_model 6: error %v, want it to mention divisibility", err)
	}
	if _, err := ExplainFFN(x, NewFFNWeights(8, 8, 1)); err == nil || !strings.Contains(err.Error(), "d_model = 6") {
		t.Errorf("FFN weights of another width: error %v", err)
	}
}

func TestComplexityCurves(t *testing.T) {
	c := ComplexityCurves([]int{10, 512, 1000}, 512)
	// At n = d the two costs are equal (n³); below, self-attention is cheaper.
	if c.SelfAttention[1] != c.Recurrent[1] || c.SelfAttention[0] >= c.Recurrent[0] || c.SelfAttention[2] <= c.Recurrent[2] {
		t.Errorf("costs %v vs %v: want self-attention cheaper below n = d, equal at n = d, dearer above", c.SelfAttention, c.Recurrent)
	}
	if c.SelfAttention[0] != 10*10*512 || c.Recurrent[0] != 10*512*512 || c.PathRecurrent[2] != 1000 || c.PathSelfAttention[2] != 1 {
		t.Errorf("ComplexityCurves = %+v", c)
	}
}

func TestRandomTokens(t *testing.T) {
	ids := RandomTokens(3, 200, 7, 1)
	seen := map[int]int{}
	for _, row := range ids {
		if len(row) != 200 {
			t.Fatalf("row of %d ids, want 200", len(row))
		}
		for _, id := range row {
			if id < 0 || id >= 7 {
				t.Fatalf("id %d outside 0..6", id)
			}
			seen[id]++
		}
	}
	if len(seen) != 7 {
		t.Errorf("600 draws from 7 ids used only %d of them", len(seen))
	}
	if again := RandomTokens(3, 200, 7, 1); fmt.Sprint(again) != fmt.Sprint(ids) {
		t.Error("the same seed gave different ids")
	}
}
