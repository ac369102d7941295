// Copyright 2026 The attention-in-go course authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCleanChunks checks that a loop run in clean chunks writes every
// output, bit for bit as the loop run at once, whatever the length's
// position against the chunk size.
func TestCleanChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, cleanChunk - 1, cleanChunk, cleanChunk + 1, 3*cleanChunk + 7} {
		in := make([]float32, n)
		for i := range in {
			in[i] = float32(r.NormFloat64() * 10)
		}
		for name, f := range map[string]func(in, out []float32){
			"Exp": execExpGeneric[float32], "Logistic": execLogisticGeneric[float32], "Tanh": execTanhGeneric[float32],
		} {
			want, got := make([]float32, n), make([]float32, n)
			for i := range got {
				got[i] = float32(math.NaN()) // an output left unwritten shows
			}
			f(in, want)
			cleanChunks(f)(in, got)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s of %d elements in chunks: element %d = %g, want %g", name, n, i, got[i], want[i])
				}
			}
		}
	}
}
