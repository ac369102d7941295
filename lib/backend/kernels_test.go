package backend

import (
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"k8s.io/klog/v2"

	"golang.org/x/sys/cpu"
)

// avx512Log is what compute logs, at klog verbosity 1, when it multiplies
// with its AVX-512 kernels (it logs nothing for the others).
const avx512Log = "AVX512 dot-product kernel"

// TestMatMulKernelsAgreesWithCompute runs, in a child process per setting
// of GOMLX_SIMD_AVX512 and GOMLX_SIMD_AVX2, a product large enough for
// compute's large kernels, watches compute's log of the kernel it uses,
// and checks MatMulKernels says the same and the product is right.
//
// In a plain build (go test) every setting must use the plain kernels. In
// a build with GOEXPERIMENT=simd (make test-go runs this test that way
// too) on a CPU with AVX-512, the default must use AVX-512; turning
// AVX-512 and AVX2 off is how a CPU without them runs, and must give the
// same product with the plain kernels. COURSE_WANT_SIMD=1 makes a plain
// build an error, so that the Makefile cannot lose the experiment
// silently.
func TestMatMulKernelsAgreesWithCompute(t *testing.T) {
	if os.Getenv("COURSE_KERNELS_CHILD") != "" {
		t.Skip("child process")
	}
	avx512CPU := cpu.X86.HasAVX512F && cpu.X86.HasAVX512CD && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL
	simd := builtWithSIMD()
	if os.Getenv("COURSE_WANT_SIMD") == "1" && !simd {
		t.Fatal("COURSE_WANT_SIMD=1 but this test binary was built without GOEXPERIMENT=simd")
	}
	for _, tt := range []struct {
		avx512, avx2 string
		want         string // MatMulKernels in the child
	}{
		{"", "", map[bool]string{true: "AVX-512", false: "plain Go"}[simd && avx512CPU]},
		{"false", "", map[bool]string{true: "AVX2", false: "plain Go"}[simd && cpu.X86.HasAVX2]},
		{"false", "false", "plain Go"},
	} {
		if runtime.GOARCH != "amd64" {
			tt.want = "plain Go"
		}
		name := fmt.Sprintf("GOMLX_SIMD_AVX512=%q,GOMLX_SIMD_AVX2=%q", tt.avx512, tt.avx2)
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestMatMulKernelsChild$", "-test.v")
			cmd.Env = append(os.Environ(), "COURSE_KERNELS_CHILD=1",
				"GOMLX_SIMD_AVX512="+tt.avx512, "GOMLX_SIMD_AVX2="+tt.avx2)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			got := string(out)
			if !strings.Contains(got, "kernels: "+tt.want+"\n") {
				t.Errorf("MatMulKernels in the child is not %q:\n%s", tt.want, got)
			}
			if used := strings.Contains(got, avx512Log); used != (tt.want == "AVX-512") {
				t.Errorf("compute used its AVX-512 kernels: %v, but MatMulKernels says %q", used, tt.want)
			}
		})
	}
}

// TestMatMulKernelsChild is the child of TestMatMulKernelsAgreesWithCompute:
// with klog at verbosity 1 it multiplies two 256 × 256 matrices, checks the
// product against float64 loops and prints MatMulKernels.
func TestMatMulKernelsChild(t *testing.T) {
	if os.Getenv("COURSE_KERNELS_CHILD") == "" {
		t.Skip("run by TestMatMulKernelsAgreesWithCompute")
	}
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	if err := fs.Set("v", "1"); err != nil {
		t.Fatal(err)
	}
	const n = 256 // 256³ multiply-adds: above compute's 4·2²⁰ for its large kernels
	a, b := make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i] = float32(i%17) - 8
		b[i] = float32(i%13)/4 - 1.5
	}
	be, err := New()
	if err != nil {
		t.Fatal(err)
	}
	product, err := graph.NewExec(be, graph.MatMul)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := product.Call(tensors.FromFlatDataAndDimensions(a, n, n), tensors.FromFlatDataAndDimensions(b, n, n))
	if err != nil {
		t.Fatal(err)
	}
	got := tensors.MustCopyFlatData[float32](outs[0])
	for i := range n {
		for j := range n {
			var want float64
			for k := range n {
				want += float64(a[i*n+k]) * float64(b[k*n+j])
			}
			if d := math.Abs(float64(got[i*n+j]) - want); d > 1e-3*math.Max(1, math.Abs(want)) {
				t.Fatalf("product[%d][%d] = %v, want %v", i, j, got[i*n+j], want)
			}
		}
	}
	klog.Flush()
	fmt.Printf("kernels: %s\n", MatMulKernels())
}
