// Tests of the attention-in-go course's patch: large element-wise
// operations split across the workers cover every element once and give
// the unsplit results bit for bit.

package ops

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
)

// splitBackend returns a backend whose operations split across 4 workers,
// whatever this machine's cores.
func splitBackend(t *testing.T) *gobackend.Backend {
	t.Helper()
	prev := runtime.GOMAXPROCS(4)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := b.(*gobackend.Backend)
	backend.Workers.SetMaxParallelism(4)
	t.Cleanup(backend.Finalize)
	return backend
}

func TestSplitAcrossCoversEachItemOnce(t *testing.T) {
	backend := splitBackend(t)
	for _, tc := range []struct{ workers, n, align int }{
		{1, 100, 512}, {4, 0, 512}, {4, 1, 512}, {4, 511, 512}, {4, 513, 512},
		{4, 1 << 15, 512}, {4, 1<<20 + 7, 512}, {2, 4096, 1}, {4, 3, 1}, {3, 1000, 7},
	} {
		var mu sync.Mutex
		seen := make([]int, tc.n)
		parts := 0
		splitAcross(backend, tc.workers, tc.n, tc.align, func(lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			parts++
			if hi < tc.n && (hi-lo)%tc.align != 0 {
				t.Errorf("%+v: part [%d, %d) is not a multiple of %d", tc, lo, hi, tc.align)
			}
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("%+v: item %d done %d times", tc, i, c)
			}
		}
		if tc.workers > 1 && tc.n >= 4*tc.align && parts < 2 {
			t.Errorf("%+v: one part, not split", tc)
		}
	}
}

func TestSplitElementwiseEqualsUnsplit(t *testing.T) {
	backend := splitBackend(t)
	if w := splitWorkers(backend, splitMinElements); w < 2 {
		t.Fatalf("splitWorkers = %d on a backend of 4 workers", w)
	}
	r := rand.New(rand.NewPCG(23, 24))
	n := 3*splitMinElements + 77 // several parts and a tail
	in := randomFloat32s(r, n)
	for _, k := range []struct {
		name   string
		kernel func(inputs, outputs []float32)
	}{{"exp", expFloat32}, {"logistic", logisticFloat32}, {"tanh", tanhFloat32}} {
		want, got := make([]float32, n), make([]float32, n)
		k.kernel(in, want)
		splitUnary(backend, k.kernel, in, got)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Fatalf("%s split: element %d = %g, want %g", k.name, i, got[i], want[i])
			}
		}
	}
}
