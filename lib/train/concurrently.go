package train

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// Concurrently calls f(0), …, f(n-1) side by side on the machine's cores
// (runtime.GOMAXPROCS) and returns their results in the order of i. It
// waits for every call; the error joins those of the calls that failed,
// each naming its i, and a call that panics fails with the panic's value.
//
// It exists for trainings. While other graphs run, the course's backend
// runs a graph's operations one after the other (see lib/backend), so one
// training keeps one core busy, and independent trainings — other models,
// seeds or data — can run side by side instead of queueing: on two cores,
// two trainings take about the time of one. With c cores the n calls go
// in ⌊n/c⌋ rounds (one if n < c), no round leaving a core idle: at most
// ⌈n/rounds⌉ at a time. On two cores four calls go two and two, but three
// go all at once: a third training alone would keep about one core busy
// (a small model's graph has few operations to run in parallel), and
// three sharing two cores finish sooner. A training's arithmetic does not
// depend on what runs beside it, so each result is the one it would have
// been alone (the tests compare the losses step by step). f must not share
// mutable state between calls, and two calls must not save under the same
// Config.Name. Evaluations of independent models gain the same way
// (lesson 10 reads its three position models side by side).
//
// In a notebook each training shows its own progress display; they appear
// in the order the trainings start.
//
// Introduced in lesson 06.
func Concurrently[T any](n int, f func(i int) (T, error)) ([]T, error) {
	out := make([]T, n)
	errs := make([]error, n)
	slots := make(chan struct{}, atOnce(n, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i := range n {
		slots <- struct{}{} // a place is free
		wg.Go(func() {
			defer func() { <-slots }()
			defer func() {
				if r := recover(); r != nil {
					errs[i] = fmt.Errorf("train.Concurrently: call %d panicked: %v", i, r)
				}
			}()
			v, err := f(i)
			if err != nil {
				err = fmt.Errorf("train.Concurrently: call %d: %w", i, err)
			}
			out[i], errs[i] = v, err
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// atOnce is how many of n calls Concurrently runs at a time on cores
// cores: as few as spread the calls over ⌊n/cores⌋ rounds (one round when
// n < cores), at least one.
func atOnce(n, cores int) int {
	rounds := max(1, n/max(1, cores))
	return max(1, (n+rounds-1)/rounds)
}
