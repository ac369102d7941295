// Package random makes the seeded random numbers of the course's examples.
//
// The source lessons the course mirrors draw their examples with numpy's
// legacy generator (np.random.seed(42); np.random.randn(...)). [Source]
// reproduces that generator bit for bit — the Mersenne Twister MT19937 with
// numpy's seeding, 53-bit doubles and the Marsaglia polar method for normal
// numbers — so a lesson can print the very matrices the source prints, and so
// every figure is the same on every machine.
//
// Introduced in lesson 01 (scaled dot-product attention).
package random

import "math"

const (
	mtN       = 624
	mtM       = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Source is a deterministic random source equal to numpy's legacy
// np.random.RandomState. It is not safe for concurrent use.
type Source struct {
	key      [mtN]uint32
	pos      int
	hasGauss bool
	gauss    float64
}

// New returns a source seeded like np.random.seed(seed).
func New(seed uint32) *Source {
	s := &Source{}
	s.key[0] = seed
	for i := 1; i < mtN; i++ {
		prev := s.key[i-1]
		s.key[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	s.pos = mtN
	return s
}

// Uint32 returns the next 32 random bits (MT19937's genrand_int32).
func (s *Source) Uint32() uint32 {
	if s.pos == mtN {
		s.twist()
	}
	y := s.key[s.pos]
	s.pos++
	// Tempering.
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

func (s *Source) twist() {
	for i := 0; i < mtN; i++ {
		y := (s.key[i] & upperMask) | (s.key[(i+1)%mtN] & lowerMask)
		next := s.key[(i+mtM)%mtN] ^ (y >> 1)
		if y&1 == 1 {
			next ^= matrixA
		}
		s.key[i] = next
	}
	s.pos = 0
}

// Float64 returns a uniform number in [0, 1) with 53 random bits, like
// np.random.random_sample.
func (s *Source) Float64() float64 {
	a := s.Uint32() >> 5
	b := s.Uint32() >> 6
	return (float64(a)*67108864 + float64(b)) / 9007199254740992
}

// NormFloat64 returns a standard normal number (mean 0, variance 1), like
// np.random.standard_normal: the Marsaglia polar method, which makes two
// numbers at a time and keeps the second for the next call.
func (s *Source) NormFloat64() float64 {
	if s.hasGauss {
		s.hasGauss = false
		return s.gauss
	}
	var x1, x2, r2 float64
	for {
		x1 = 2*s.Float64() - 1
		x2 = 2*s.Float64() - 1
		// The conversions round each square, as numpy's C does: without
		// them Go may fuse a product and the sum into one multiply-add
		// (it does on arm64), which rounds once and moves the last bits.
		r2 = float64(x1*x1) + float64(x2*x2)
		if r2 < 1 && r2 != 0 {
			break
		}
	}
	f := math.Sqrt(-2 * math.Log(r2) / r2)
	s.gauss, s.hasGauss = f*x1, true
	return f * x2
}

// Normal returns a rows×cols matrix of standard normal numbers, filled row by
// row, like np.random.randn(rows, cols).
func (s *Source) Normal(rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
		for j := range m[i] {
			m[i][j] = s.NormFloat64()
		}
	}
	return m
}

// Uniform returns a rows×cols matrix of numbers drawn uniformly from
// (−a, a), filled row by row, like np.random.uniform(-a, a, (rows, cols)).
//
// Part of the library behind lesson 03 (the weights of multi-head attention); the lesson does not name it.
func (s *Source) Uniform(rows, cols int, a float64) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
		for j := range m[i] {
			m[i][j] = (2*s.Float64() - 1) * a
		}
	}
	return m
}

// Glorot returns a rows×cols weight matrix with Glorot (Xavier) uniform
// initialisation, W ~ U(−a, a) with a = √(6 / (rows + cols)), which keeps
// the variance of activations roughly constant through a projection
// (Glorot and Bengio, "Understanding the difficulty of training deep
// feedforward neural networks", 2010).
//
// Typical shapes: [d_model, d_model] for an attention projection,
// [d_model, d_ff] and [d_ff, d_model] for a feed-forward network.
//
// Part of the library behind lesson 03 (the weights of multi-head attention); the lesson does not name it.
func (s *Source) Glorot(rows, cols int) [][]float64 {
	return s.Uniform(rows, cols, math.Sqrt(6/float64(rows+cols)))
}
