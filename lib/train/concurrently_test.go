package train

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Trainings run side by side give, step by step, the losses they give
// alone: nothing of one training leaks into another through the shared
// backend.
func TestConcurrentlyTrainsAsAlone(t *testing.T) {
	seeds := []uint64{9, 10, 11}
	cfg := func(i int) Config {
		return Config{Steps: 40, BatchSize: 8, LearningRate: 0.05, Seed: seeds[i], Quiet: true}
	}
	var alone []*Trained
	for i := range seeds {
		tr, err := Fit(cfg(i), mlp, bce, xorData())
		if err != nil {
			t.Fatal(err)
		}
		alone = append(alone, tr)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	together, err := Concurrently(len(seeds), func(i int) (*Trained, error) {
		return Fit(cfg(i), mlp, bce, xorData())
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range seeds {
		if got, want := together[i].History.Loss, alone[i].History.Loss; !slices.Equal(got, want) {
			t.Errorf("seed %d: losses side by side %v, alone %v", seeds[i], got[:3], want[:3])
		}
	}
}

// No more calls run at once than atOnce allows, as many as that do, and
// the results come back in the order of i whatever order the calls end in.
func TestConcurrentlyUsesEveryCoreAndKeepsOrder(t *testing.T) {
	for _, tc := range []struct{ procs, n, want int }{
		{1, 7, 1}, // one core: one at a time
		{2, 2, 2},
		{2, 4, 2}, // two rounds of two
		{2, 3, 3}, // one round of three, not two and then one alone
		{2, 7, 3}, // three rounds: 3, 3, 1 or as the calls end
		{3, 7, 4}, // two rounds
		{4, 3, 3}, // fewer calls than cores
	} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tc.procs))
		var running, most atomic.Int32
		got, err := Concurrently(tc.n, func(i int) (int, error) {
			now := running.Add(1)
			for {
				m := most.Load()
				if now <= m || most.CompareAndSwap(m, now) {
					break
				}
			}
			time.Sleep(time.Duration(tc.n-i) * 3 * time.Millisecond) // later calls end first
			running.Add(-1)
			return i * i, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int, tc.n)
		for i := range want {
			want[i] = i * i
		}
		if !slices.Equal(got, want) {
			t.Errorf("GOMAXPROCS %d, %d calls: got %v, want %v", tc.procs, tc.n, got, want)
		}
		if m := most.Load(); m != int32(tc.want) {
			t.Errorf("GOMAXPROCS %d, %d calls: at most %d calls ran at once, want %d", tc.procs, tc.n, m, tc.want)
		}
	}
}

// Every call runs even when others fail; the error names each failure,
// panics included, and keeps the callers' errors for errors.Is.
func TestConcurrentlyReportsEveryFailure(t *testing.T) {
	errBad := errors.New("bad learning rate")
	got, err := Concurrently(4, func(i int) (string, error) {
		switch i {
		case 1:
			return "", errBad
		case 3:
			panic("index out of range")
		}
		return "ok", nil
	})
	if !errors.Is(err, errBad) {
		t.Fatalf("error %v does not wrap the call's own error", err)
	}
	for _, want := range []string{"call 1: bad learning rate", "call 3 panicked: index out of range"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if want := []string{"ok", "", "ok", ""}; !slices.Equal(got, want) {
		t.Errorf("results %q, want %q", got, want)
	}
}
