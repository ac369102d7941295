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

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
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

// TestSplitReduceEqualsRelease: sums and maxima along the last axis of
// operands above the split size, on 4 workers, against the release's loop.
func TestSplitReduceEqualsRelease(t *testing.T) {
	backend := splitBackend(t)
	r := rand.New(rand.NewPCG(27, 28))
	for _, dims := range [][]int{{2, 8, 64, 64}, {3, 7, 1601}, {40000, 1}, {5, 13, 509}} {
		axes := []int{len(dims) - 1}
		outDims := dims[:len(dims)-1]
		size, outSize := 1, 1
		for _, d := range dims {
			size *= d
		}
		for _, d := range outDims {
			outSize *= d
		}
		if splitWorkers(backend, size) < 2 {
			t.Fatalf("%v: not split", dims)
		}
		x := randomFloat32s(r, size)
		for _, op := range []struct {
			name  string
			isMax bool
			f     GenericReduceFn
		}{
			{"ReduceMax", true, execReduceMaxGeneric[float32]},
			{"ReduceSum", false, execReduceSumGeneric[float32]},
		} {
			in, err := backend.BufferFromFlatData(0, x, shapes.Make(dtypes.Float32, dims...))
			if err != nil {
				t.Fatal(err)
			}
			got, err := backend.GetBuffer(shapes.Make(dtypes.Float32, outDims...))
			if err != nil {
				t.Fatal(err)
			}
			if err := op.f(in.(*gobackend.Buffer), got, NewReduceOutputIterator(dims, axes), dtypes.Float32); err != nil {
				t.Fatal(err)
			}
			want := reduceRelease(x, dims, axes, outSize, op.isMax)
			for i, w := range want {
				g := got.Flat.([]float32)[i]
				if bothNaN := g != g && w != w; bothNaN && !op.isMax {
					continue
				}
				if math.Float32bits(g) != math.Float32bits(w) {
					t.Fatalf("%s of %v split: output %d is %v, want %v", op.name, dims, i, g, w)
				}
			}
		}
	}
}
