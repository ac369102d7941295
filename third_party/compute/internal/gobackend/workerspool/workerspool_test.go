package workerspool

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomlx/compute/support/testutil"
	"github.com/gomlx/compute/support/xsync"
)

func TestPool_Saturate(t *testing.T) {
	// Test saturation.
	pool := New()
	wantTasks := 5
	pool.SetMaxParallelism(wantTasks)

	var count atomic.Int32
	doneNewTasks := xsync.NewLatch()
	doneTest := xsync.NewLatch()

	go func() {
		pool.Saturate(func() {
			got := count.Add(1)
			runtime.Gosched()
			if int(got) == wantTasks {
				doneNewTasks.Trigger()
				return
			}
			doneNewTasks.Wait()
		})
		doneTest.Trigger()
	}()

	select {
	case <-doneTest.WaitChan():
		// Success
	case <-time.After(100 * time.Millisecond):
		t.Fatal("Timeout before all tasks were executed.")
	}
	if int(count.Load()) != wantTasks {
		t.Fatalf("Expected %d tasks, got %d", wantTasks, count.Load())
	}

	// Test No Parallelism
	pool.SetMaxParallelism(0)
	count.Store(0)
	pool.Saturate(func() { count.Add(1) })
	if ok, diff := testutil.IsEqual(int32(1), count.Load()); !ok {
		t.Errorf("Pool with parallelism 0 result mismatch:\n%s", diff)
	}

	// Test Unlimited
	pool.SetMaxParallelism(-1)
	count.Store(0)
	var started atomic.Int32
	pool.Saturate(func() {
		started.Add(1)
		runtime.Gosched()
		count.Add(1)
	})
	if runtime.GOMAXPROCS(0) > 1 && started.Load() <= 1 {
		t.Errorf("Expected more than 1 started task for unlimited parallelism, got %d", started.Load())
	}
	if count.Load() != started.Load() {
		t.Errorf("Expected count %d to match started %d", count.Load(), started.Load())
	}
}

// TestPool_SaturateFromEveryWorker calls Saturate from every worker of a
// full pool, as the Go backend's matrix products do when it runs a graph's
// operations in parallel (each operation in a worker, each large product
// fanning out with Saturate). With no worker free and none started for it,
// Saturate runs its task in the caller; the release waited for a free
// worker while holding one, and the pool deadlocked.
func TestPool_SaturateFromEveryWorker(t *testing.T) {
	const workers = 2
	pool := New()
	pool.SetMaxParallelism(workers)
	var allBusy sync.WaitGroup // every worker runs before any calls Saturate
	allBusy.Add(workers)
	var ran atomic.Int32
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			pool.WaitToStart(func() {
				defer wg.Done()
				allBusy.Done()
				allBusy.Wait()
				pool.Saturate(func() { ran.Add(1) })
			})
		}
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Saturate called from every worker of a full pool did not return in 10 s: the pool deadlocked")
	}
	if got := ran.Load(); got < workers {
		t.Errorf("Saturate's task ran %d times for %d calls, want at least one each", got, workers)
	}
}
