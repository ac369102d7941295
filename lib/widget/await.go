package widget

import (
	"errors"
	"fmt"
	"time"
)

// AnswerWait is how long [Await] gives the browser to answer a cell's
// widgets: a few round trips through Jupyter, well under a second when
// all is well.
const AnswerWait = 20 * time.Second

// ErrNoAnswer is the error [Await] returns (wrapped, with what to do) when
// the browser does not answer a cell's widgets.
var ErrNoAnswer = errors.New("the page did not answer the cell's widgets")

// Await runs show, which shows widgets and waits in their Done methods
// for the browser's first message, and returns what show returns, or
// ErrNoAnswer if the browser has not answered within wait.
//
// GoNB's widgets wait for that message forever. It very rarely never
// comes: GoNB's script in the page gives the kernel half a second to
// acknowledge their connection, and closes it when a busy machine takes
// longer. Without Await the cell would then show its widgets and hang;
// with it, the cell stops with an error that says to run it again, which
// opens a new connection. show goes on waiting in the background after
// Await returns; the cell should end.
//
// Introduced in the appendix's exercises.
func Await[T any](wait time.Duration, show func() T) (T, error) {
	done := make(chan T, 1)
	go func() { done <- show() }()
	select {
	case v := <-done:
		return v, nil
	case <-time.After(wait):
		var zero T
		return zero, fmt.Errorf("%w within %v (GoNB's connection to the browser did not open): "+
			"run the cell again; if that fails too, restart the kernel (Kernel › Restart) and run the notebook's cells again",
			ErrNoAnswer, wait)
	}
}
