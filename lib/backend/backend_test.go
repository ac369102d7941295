package backend

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// A graph of many independent batched matrix products, each large enough to
// split over the workers, finishes: with the configuration Config chooses
// (DefaultConfig, the backend's own schedule "go", with the course's copy
// of compute: operations in parallel when one graph runs), with parallel
// execution forced and with sequential execution. GoMLX compute v0.1.6's
// products waited on each other for ever in parallel (they hang without
// patch 0001 of third_party/patches, workerspool.Pool.Saturate); built
// against that release (make test-pristine), Config chooses
// SequentialConfig, and forced parallel execution is skipped.
func TestParallelProductsFinish(t *testing.T) {
	for _, config := range []string{"", "go:ops_parallel", SequentialConfig} {
		t.Run("GOMLX_BACKEND="+config, func(t *testing.T) {
			if config == "go:ops_parallel" && Config() != DefaultConfig {
				t.Skip("built against GoMLX compute's release (no replace of " + computeModule + "), whose workerspool.Pool.Saturate deadlocks when operations run in parallel (the bug third_party/patches/0001 fixes)")
			}
			t.Setenv(compute.ConfigEnvVar, config)
			if config == "" {
				os.Unsetenv(compute.ConfigEnvVar)
			}
			b, err := New()
			if err != nil {
				t.Fatal(err)
			}
			defer b.Finalize()
			done := make(chan error, 1)
			go func() {
				exec, err := graph.NewExec(b, func(x *graph.Node) *graph.Node {
					var sum *graph.Node
					for i := range 8 {
						y := graph.Einsum("bij,bjk->bik", graph.AddScalar(x, float64(i)), x) // Shape: [256, 16, 16]
						if sum == nil {
							sum = y
						} else {
							sum = graph.Add(sum, y)
						}
					}
					return graph.ReduceAllSum(sum)
				})
				if err != nil {
					done <- err
					return
				}
				for range 20 {
					x := tensors.FromFlatDataAndDimensions(make([]float32, 256*16*16), 256, 16, 16)
					if _, err := exec.Call(x); err != nil {
						done <- err
						return
					}
				}
				done <- nil
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(2 * time.Minute):
				t.Fatal("20 runs of 8 parallel matrix products did not finish in 2 minutes: the backend deadlocked")
			}
		})
	}
}

// TestConfigFor checks Config's choice on made-up build information and
// source paths: the backend's own schedule only with a replacement of
// compute (the course's go.mod replaces it with third_party/compute), one
// operation at a time with compute's release; without module information
// (a test binary), by where compute's code was compiled from.
func TestConfigFor(t *testing.T) {
	release := &debug.Module{Path: computeModule, Version: "v0.1.6", Sum: "h1:FSIIesmoOolv5NNPkCrOb3jmtxpnzEzUid9CNTcusuo="}
	patched := &debug.Module{Path: computeModule, Version: "v0.1.6",
		Replace: &debug.Module{Path: "./third_party/compute"}}
	other := &debug.Module{Path: "github.com/gomlx/gomlx", Version: "v0.28.8"}
	const (
		cached  = "/home/learner/go/pkg/mod/github.com/gomlx/compute@v0.1.6/compute.go"
		trimmed = "github.com/gomlx/compute@v0.1.6/compute.go" // -trimpath
		copied  = "/home/learner/course/third_party/compute/compute.go"
	)
	for _, tt := range []struct {
		name   string
		info   *debug.BuildInfo
		ok     bool
		source string
		want   string
	}{
		{"course's copy", &debug.BuildInfo{Deps: []*debug.Module{other, patched}}, true, copied, DefaultConfig},
		{"release", &debug.BuildInfo{Deps: []*debug.Module{other, release}}, true, cached, SequentialConfig},
		{"release, whatever the source says", &debug.BuildInfo{Deps: []*debug.Module{release}}, true, copied, SequentialConfig},
		{"test binary, course's copy", &debug.BuildInfo{}, true, copied, DefaultConfig},
		{"test binary, release", &debug.BuildInfo{}, true, cached, SequentialConfig},
		{"test binary, release, -trimpath", &debug.BuildInfo{}, true, trimmed, SequentialConfig},
		{"test binary, course's copy, -trimpath", &debug.BuildInfo{}, true, "github.com/gomlx/compute/compute.go", DefaultConfig},
		{"nothing known", nil, false, "", SequentialConfig},
	} {
		if got := configFor(tt.info, tt.ok, tt.source); got != tt.want {
			t.Errorf("%s: configFor = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestConfigOfThisBuild checks Config against where this test binary's
// compute comes from, found independently: the course's copy
// (third_party/compute, as go.mod replaces it) gives DefaultConfig, the
// module cache's release (make test-pristine) SequentialConfig.
func TestConfigOfThisBuild(t *testing.T) {
	source := computeSource()
	copyDir, err := filepath.Abs(filepath.Join("..", "..", "third_party", "compute"))
	if err != nil {
		t.Fatal(err)
	}
	var want string
	switch {
	case strings.HasPrefix(source, copyDir+string(filepath.Separator)):
		want = DefaultConfig
	case strings.Contains(source, computeModule+"@v"):
		want = SequentialConfig
	default:
		t.Fatalf("compute.New compiled from %q: neither the course's copy (%s) nor the release", source, copyDir)
	}
	if got := Config(); got != want {
		t.Errorf("Config() = %q with compute from %s, want %q", got, source, want)
	}
	t.Logf("compute from %s: Config() = %q", source, Config())
}
