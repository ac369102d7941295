package backend

import (
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"k8s.io/klog/v2"

	"golang.org/x/sys/cpu"
)

// algorithmLog is what compute logs, at klog verbosity 1, when it picks
// the kernel of a float32 product: the registered algorithm's name.
var algorithmLog = regexp.MustCompile(`DotGeneral algorithm "([^"]+)" for key \{NonTransposed Float32 Float32\} found`)

// computeClass maps compute's names of its float32 product kernels to the
// course's classes.
var computeClass = map[string]string{"simd:avx512": AVX512, "simd:avx2": AVX2, "simd:nosimd": Plain}

// wantKernels says, independently of Classes and KernelsWith, which
// kernels a program uses with these switches: the CPU's best, unless it
// is switched off or the build has no vector kernels.
func wantKernels(simd bool, avx512, avx2 string) string {
	off := func(v string) bool {
		return slices.Contains([]string{"0", "false", "f", "no", "off", "disabled"}, strings.ToLower(v))
	}
	amd64 := runtime.GOARCH == "amd64"
	switch {
	case !simd || !amd64:
		return Plain
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512CD && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL && !off(avx512):
		return AVX512
	case cpu.X86.HasAVX2 && !off(avx2):
		return AVX2
	}
	return Plain
}

// TestMatMulKernelsAgreesWithCompute runs, in a child process per setting
// of GOMLX_SIMD_AVX512 and GOMLX_SIMD_AVX2, a product large enough for
// compute's large kernels, reads compute's log of the kernel it picked,
// and checks that MatMulKernels and KernelsWith say the same, that the
// setting gives what the CPU's features and the switches call for, and
// that the product is right.
//
// In a plain build (go test without GOEXPERIMENT=simd) every setting must
// use the plain kernels. In a build with the experiment (the Makefile's)
// the default must use the CPU's best kernels: AVX-512 on a CPU that has
// it, AVX2 on one that has only AVX2 (most laptops), plain Go on others.
// COURSE_WANT_SIMD=1 makes a plain build an error, so that the Makefile
// cannot lose the experiment silently.
func TestMatMulKernelsAgreesWithCompute(t *testing.T) {
	if os.Getenv("COURSE_KERNELS_CHILD") != "" {
		t.Skip("child process")
	}
	simd := builtWithSIMD()
	if os.Getenv("COURSE_WANT_SIMD") == "1" && !simd {
		t.Fatal("COURSE_WANT_SIMD=1 but this test binary was built without GOEXPERIMENT=simd")
	}
	for _, tt := range []struct{ avx512, avx2 string }{
		{"", ""},
		{"false", ""},
		{"false", "false"},
		{"", "false"}, // AVX2 off alone leaves AVX-512 on where the CPU has it
		{"0", "off"},  // compute's other spellings of false
		{"true", "yes"},
	} {
		want := wantKernels(simd, tt.avx512, tt.avx2)
		name := fmt.Sprintf("GOMLX_SIMD_AVX512=%q,GOMLX_SIMD_AVX2=%q", tt.avx512, tt.avx2)
		t.Run(name, func(t *testing.T) {
			env := append(os.Environ(), "COURSE_KERNELS_CHILD=1",
				"GOMLX_SIMD_AVX512="+tt.avx512, "GOMLX_SIMD_AVX2="+tt.avx2)
			got := kernelsChild(t, env)
			if got.matmul != want {
				t.Errorf("MatMulKernels in the child = %q, want %q", got.matmul, want)
			}
			if got.compute != want {
				t.Errorf("compute multiplied with %q, the %q kernels; want %q", got.algorithm, got.compute, want)
			}
			if simd {
				if kw := KernelsWith(env); kw != want {
					t.Errorf("KernelsWith(the child's environment) = %q, want %q", kw, want)
				}
			}
		})
	}
}

// TestClasses checks every class Classes offers on this machine against
// what compute does with its environment: the first is the fastest the
// test's environment leaves on, each later one is slower and distinct,
// plain Go comes last, and each class's environment gives that class in a
// child built as this test is.
func TestClasses(t *testing.T) {
	if os.Getenv("COURSE_KERNELS_CHILD") != "" {
		t.Skip("child process")
	}
	cs := Classes()
	if len(cs) == 0 || cs[len(cs)-1].Name != Plain {
		t.Fatalf("Classes() = %v: want the CPU's own class first and plain Go last", cs)
	}
	if first := wantKernels(true, os.Getenv("GOMLX_SIMD_AVX512"), os.Getenv("GOMLX_SIMD_AVX2")); cs[0].Name != first {
		t.Errorf("Classes()[0] = %q, but this CPU's best kernels that the environment leaves on are %q", cs[0].Name, first)
	}
	order := []string{AVX512, AVX2, Plain}
	for i, c := range cs {
		if i > 0 && slices.Index(order, c.Name) <= slices.Index(order, cs[i-1].Name) {
			t.Errorf("Classes() = %v: %q after %q", cs, c.Name, cs[i-1].Name)
		}
		// A parent that has switched kernels off itself must not leak into
		// the child: a class's Env selects it once the parent's switches are
		// removed, as the runner does.
		env := append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOMLX_SIMD_") }), c.Env...)
		if kw := KernelsWith(env); kw != c.Name {
			t.Errorf("KernelsWith(%q) = %q, want %q", c.Env, kw, c.Name)
		}
		if !builtWithSIMD() {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			got := kernelsChild(t, append(env, "COURSE_KERNELS_CHILD=1"))
			if got.compute != c.Name || got.matmul != c.Name {
				t.Errorf("with %q compute used %q (%s) and MatMulKernels says %q, want %q", c.Env, got.algorithm, got.compute, got.matmul, c.Name)
			}
		})
	}
}

// TestClassesIn: a switch turned off in the environment removes its
// class, and each class's Env still selects it.
func TestClassesIn(t *testing.T) {
	names := func(cs []Class) (out []string) {
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	all := names(CPUClasses())
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(n string) bool { return slices.Contains(drop, n) })
	}
	for _, tt := range []struct {
		env  []string
		want []string
	}{
		{nil, all},
		{[]string{"GOMLX_SIMD_AVX512=true"}, all},
		{[]string{"GOMLX_SIMD_AVX512=false"}, without(AVX512)},
		{[]string{"GOMLX_SIMD_AVX512=0", "GOMLX_SIMD_AVX2=off"}, []string{Plain}},
		{[]string{"GOMLX_SIMD_AVX2=false"}, without(AVX2)},
		{[]string{"GOMLX_SIMD_AVX512=false", "GOMLX_SIMD_AVX512=true"}, all}, // the last one wins
	} {
		cs := classesIn(tt.env)
		if !slices.Equal(names(cs), tt.want) {
			t.Errorf("classesIn(%q) = %v, want %v", tt.env, names(cs), tt.want)
		}
		for _, c := range cs {
			if got := KernelsWith(c.Env); got != c.Name {
				t.Errorf("classesIn(%q): class %s's environment %q selects %s", tt.env, c.Name, c.Env, got)
			}
		}
	}
}

func TestKernelsWith(t *testing.T) {
	best := wantKernels(true, "", "")
	for _, tt := range []struct {
		env  []string
		want string
	}{
		{nil, best},
		{[]string{"GOMLX_SIMD_AVX512=false", "GOMLX_SIMD_AVX2=false"}, Plain},
		{[]string{"GOMLX_SIMD_AVX512=FALSE", "GOMLX_SIMD_AVX2=Off"}, Plain},
		{[]string{"GOMLX_SIMD_AVX512=false"}, wantKernels(true, "false", "")},
		{[]string{"GOMLX_SIMD_AVX2=false"}, wantKernels(true, "", "false")},
		{[]string{"GOMLX_SIMD_AVX512=false", "GOMLX_SIMD_AVX512=true", "GOMLX_SIMD_AVX2=false"}, wantKernels(true, "true", "false")}, // the last wins
		{[]string{"GOMLX_SIMD_AVX512_X=false", "XGOMLX_SIMD_AVX2=false"}, best},                                                      // other names
	} {
		if got := KernelsWith(tt.env); got != tt.want {
			t.Errorf("KernelsWith(%q) = %q, want %q", tt.env, got, tt.want)
		}
	}
}

// child is what TestMatMulKernelsChild reports.
type child struct {
	matmul    string // MatMulKernels
	algorithm string // the name compute logged for its float32 product
	compute   string // that name's class
}

// kernelsChild runs TestMatMulKernelsChild with env and reads its report.
func kernelsChild(t *testing.T, env []string) child {
	t.Helper()
	// Under an emulator (make test-arm64 runs these tests for arm64 under
	// qemu-aarch64 and says so in COURSE_TEST_EXEC) the child needs it too.
	args := append(strings.Fields(os.Getenv("COURSE_TEST_EXEC")), os.Args[0], "-test.run=^TestMatMulKernelsChild$", "-test.v")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var c child
	if m := regexp.MustCompile(`(?m)^kernels: (.+)$`).FindSubmatch(out); m != nil {
		c.matmul = string(m[1])
	} else {
		t.Fatalf("the child printed no kernels:\n%s", out)
	}
	algs := algorithmLog.FindAllSubmatch(out, -1)
	if len(algs) == 0 {
		t.Fatalf("compute logged no float32 product kernel:\n%s", out)
	}
	for _, m := range algs {
		if c.algorithm != "" && c.algorithm != string(m[1]) {
			t.Fatalf("compute used both %q and %q for float32 products:\n%s", c.algorithm, m[1], out)
		}
		c.algorithm = string(m[1])
	}
	var ok bool
	if c.compute, ok = computeClass[c.algorithm]; !ok {
		t.Fatalf("compute used %q, a product kernel this test does not know", c.algorithm)
	}
	return c
}

// TestMatMulKernelsChild is the child of the tests above: with klog at
// verbosity 1 it multiplies two 256 × 256 matrices, checks the product
// against float64 loops and prints MatMulKernels.
func TestMatMulKernelsChild(t *testing.T) {
	if os.Getenv("COURSE_KERNELS_CHILD") == "" {
		t.Skip("run by TestMatMulKernelsAgreesWithCompute and TestClasses")
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
