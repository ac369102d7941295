package train

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// Concurrently calls f(0), …, f(n-1), as many at a time as the machine has
// cores (runtime.GOMAXPROCS), and returns their results in the order of i.
// It waits for every call; the error joins those of the calls that failed,
// each naming its i, and a call that panics fails with the panic's value.
//
// It exists for trainings. While other graphs run, the course's backend
// runs a graph's operations one after the other (see lib/backend), so one
// training keeps one core busy, and independent trainings — other models,
// seeds or data — can run side by side instead of queueing: on two cores,
// two trainings take about the time of one. A training's arithmetic does not depend on what runs
// beside it, so each result is the one it would have been alone (the
// tests compare the losses step by step). f must not share mutable state
// between calls, and two calls must not save under the same Config.Name.
//
// In a notebook each training shows its own progress display; they appear
// in the order the trainings start.
//
// Introduced in lesson 06.
func Concurrently[T any](n int, f func(i int) (T, error)) ([]T, error) {
	out := make([]T, n)
	errs := make([]error, n)
	slots := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i := range n {
		slots <- struct{}{} // a core is free
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
