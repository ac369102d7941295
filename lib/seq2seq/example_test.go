package seq2seq_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/seq2seq"
)

// Three examples of the reversal task: source → target, padded to 6.
func ExampleReverseTask() {
	e, err := seq2seq.ReverseTask(3, 2, 6, 6, 1)
	if err != nil {
		panic(err)
	}
	fmt.Print(e.Table(3))
	fmt.Println("decoder input of the first:", seq2seq.Digits(e.TgtIn[0]))
	// Output:
	// 7 0 3 1 · ·  → 1 3 0 7 · ·
	// 1 3 · · · ·  → 3 1 · · · ·
	// 5 4 6 · · ·  → 6 4 5 · · ·
	// decoder input of the first: ^ 1 3 0 · ·
}
