package main

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParseBench(t *testing.T) {
	f, err := os.Open("testdata/bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := parseBench(f)
	want := []benchResult{
		{Pkg: "attention", Name: "ScaledDotProduct/batch=2,heads=8,seq=256,dk=64", N: 20,
			Metrics: map[string]float64{"ns/op": 57e6, "GFLOP/s": 2.355, "B/op": 3393864, "allocs/op": 299},
			Units:   []string{"ns/op", "GFLOP/s", "B/op", "allocs/op"}},
		{Pkg: "backend", Name: "Peak/cores=1", N: 200, Metrics: map[string]float64{"ns/op": 6834166, "GFLOP/s": 3.682}, Units: []string{"ns/op", "GFLOP/s"}},
		{Pkg: "backend", Name: "Peak/cores=2", N: 400, Metrics: map[string]float64{"ns/op": 3417083, "GFLOP/s": 7.364}, Units: []string{"ns/op", "GFLOP/s"}},
		{Pkg: "seq2seq", Name: "Lesson06", N: 1,
			Metrics: map[string]float64{"ns/op": 85768331518, "attn-acc%@12": 99.92, "attn-acc%@4": 100, "attn-ms/step": 114.4},
			Units:   []string{"ns/op", "attn-acc%@12", "attn-acc%@4", "attn-ms/step"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseBench:\ngot  %+v\nwant %+v", got, want)
	}
}

func TestBenchTable(t *testing.T) {
	f, err := os.Open("testdata/bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	writeBenchTable(&b, parseBench(f))
	for _, want := range []string{
		"Peak: 7.4 GFLOP/s on 2 cores",
		// 2.355 / 7.364 = 32 %.
		"| attention.ScaledDotProduct/batch=2,heads=8,seq=256,dk=64 | 57 ms | 2.35 | 32 % |  |",
		"| backend.Peak/cores=2 | 3.42 ms | 7.36 | 100 % |  |",
		"| seq2seq.Lesson06 | 85.8 s |  |  | 99.92 attn-acc%@12, 100 attn-acc%@4, 114.4 attn-ms/step |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestDuration(t *testing.T) {
	for _, tt := range []struct {
		ns   float64
		want string
	}{{999, "0.999 µs"}, {214767, "215 µs"}, {57e6, "57 ms"}, {85768331518, "85.8 s"}} {
		if got := duration(tt.ns); got != tt.want {
			t.Errorf("duration(%g) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}

func TestPeakGFLOPs(t *testing.T) {
	peak := func(name string, g float64) benchResult {
		return benchResult{Pkg: "backend", Name: name, Metrics: map[string]float64{"GFLOP/s": g}}
	}
	for _, tt := range []struct {
		name      string
		results   []benchResult
		wantG     float64
		wantCores int
		wantUnit  string
	}{
		{"scalar only", []benchResult{peak("Peak/cores=1", 4.9), peak("Peak/cores=2", 8.8)}, 8.8, 2, "scalar"},
		{"vector beats scalar", []benchResult{peak("Peak/cores=1", 4.9), peak("Peak/cores=2", 8.8),
			peak("Peak/AVX-512,cores=1", 151), peak("Peak/AVX-512,cores=2", 300)}, 300, 2, "AVX-512"},
		{"all cores first, whatever the unit", []benchResult{peak("Peak/AVX-512,cores=1", 151), peak("Peak/cores=2", 8.8)}, 8.8, 2, "scalar"},
		{"no peak", []benchResult{peak("MatMul/n=64", 13)}, 0, 0, ""},
	} {
		g, cores, unit := peakGFLOPs(tt.results)
		if g != tt.wantG || cores != tt.wantCores || unit != tt.wantUnit {
			t.Errorf("%s: peakGFLOPs = %g, %d, %q; want %g, %d, %q", tt.name, g, cores, unit, tt.wantG, tt.wantCores, tt.wantUnit)
		}
	}
	var b strings.Builder
	writeBenchTable(&b, []benchResult{peak("Peak/cores=2", 8.8), peak("Peak/AVX-512,cores=2", 300),
		{Pkg: "backend", Name: "MatMul/n=512", Metrics: map[string]float64{"ns/op": 6.77e6, "GFLOP/s": 39.65}, Units: []string{"ns/op", "GFLOP/s"}}})
	for _, want := range []string{
		"Peak: 300.0 GFLOP/s on 2 cores (AVX-512 float32 multiply-add",
		"| backend.MatMul/n=512 | 6.77 ms | 39.65 | 13 % |  |", // 39.65 / 300
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestClassesTable: the classes side by side, each share of its own
// class's peak (the AVX2 vector peak for AVX2; for plain Go the scalar
// one, as off amd64), a workload one class lacks left blank, and ms/step for a
// training's time.
func TestClassesTable(t *testing.T) {
	res := func(name string, metrics map[string]float64) benchResult {
		return benchResult{Pkg: "p", Name: name, Metrics: metrics}
	}
	runs := []classResults{
		{"AVX2", []benchResult{
			res("Peak/cores=2", map[string]float64{"ns/op": 1e6, "GFLOP/s": 10}),
			res("Peak/AVX2,cores=2", map[string]float64{"ns/op": 1e6, "GFLOP/s": 80}),
			res("MatMul/n=512", map[string]float64{"ns/op": 10e6, "GFLOP/s": 26}),
			res("TrainStep", map[string]float64{"ns/op": 3e9, "ms/step": 64.3}),
		}},
		{"plain Go", []benchResult{
			res("Peak/cores=2", map[string]float64{"ns/op": 1e6, "GFLOP/s": 10}),
			res("MatMul/n=512", map[string]float64{"ns/op": 52e6, "GFLOP/s": 5}),
		}},
	}
	var b strings.Builder
	writeClassesTable(&b, runs)
	for _, want := range []string{
		"AVX2: peak 80.0 GFLOP/s on 2 cores (AVX2 float32 multiply-add).",
		"plain Go: peak 10.0 GFLOP/s on 2 cores (scalar float32 multiply-add).",
		"| workload | AVX2 time | GFLOP/s (share) | plain Go time | GFLOP/s (share) |",
		"| p.MatMul/n=512 | 10 ms | 26.00 (32 %) | 52 ms | 5.00 (50 %) |",
		"| p.TrainStep | 64.3 ms/step |  | | |",
		"| p.Peak/AVX2,cores=2 | 1 ms | 80.00 | | |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
