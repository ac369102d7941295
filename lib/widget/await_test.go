package widget

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestAwait(t *testing.T) {
	t.Run("answered", func(t *testing.T) {
		got, err := Await(time.Minute, func() int { time.Sleep(10 * time.Millisecond); return 7 })
		if err != nil || got != 7 {
			t.Errorf("Await(a show that returns 7) = %d, %v; want 7, nil", got, err)
		}
	})
	t.Run("no answer", func(t *testing.T) {
		never := make(chan struct{})
		defer close(never)
		start := time.Now()
		got, err := Await(50*time.Millisecond, func() string { <-never; return "shown" })
		if !errors.Is(err, ErrNoAnswer) || got != "" {
			t.Fatalf("Await(a show that never returns) = %q, %v; want \"\", ErrNoAnswer", got, err)
		}
		if waited := time.Since(start); waited < 50*time.Millisecond {
			t.Errorf("Await gave up after %v, before its wait of 50ms", waited)
		}
		if msg := err.Error(); !strings.Contains(msg, "run the cell again") || !strings.Contains(msg, "50ms") {
			t.Errorf("the error %q should give the wait and say to run the cell again", msg)
		}
	})
}
