// Helpers of the attention-in-go course's tests that hold a kernel to the
// release's code bit for bit.

package matmul

import (
	"math"
	"math/rand/v2"
)

// specialFloat32s are the values a kernel test mixes into some trials:
// zeros of both signs, infinities, NaNs with payloads, a subnormal and a
// large finite number.
var specialFloat32s = []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
	math.Float32frombits(0x7fc12345), math.Float32frombits(0xffc54321), 1e-40, 3e38}

// randomFloat32 returns a standard normal draw or, when specials is set,
// one time in eight one of specialFloat32s.
func randomFloat32(r *rand.Rand, specials bool) float32 {
	if specials && r.IntN(8) == 0 {
		return specialFloat32s[r.IntN(len(specialFloat32s))]
	}
	return float32(r.NormFloat64())
}

// firstBitsDifference returns the first index where got and want differ
// in their bits, or -1. A NaN against a NaN is no difference: which one
// comes out where two meet depends on the operands' order in the
// instruction.
func firstBitsDifference(got, want []float32) int {
	for i := range want {
		bothNaN := got[i] != got[i] && want[i] != want[i]
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !bothNaN {
			return i
		}
	}
	return -1
}
