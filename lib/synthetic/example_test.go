package synthetic_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/synthetic"
)

func ExampleSentences() {
	_, err := synthetic.Sentences(synthetic.Config{Count: 5, VocabSize: 1, MaxLen: 8})
	fmt.Println(err)

	s, _ := synthetic.Sentences(synthetic.Config{Count: 3, VocabSize: 10, MaxLen: 4, Seed: 1})
	b := synthetic.Pad(s)
	fmt.Println(synthetic.Check(s, 10, 4))
	for i := range b.IDs {
		fmt.Println(b.IDs[i], b.Mask[i])
	}
	// Output:
	// data: vocab size must be at least 2 (got 1): id 0 is padding, so a vocabulary needs at least one real token
	// <nil>
	// [7 1] [0 0]
	// [2 1] [0 0]
	// [4 0] [0 1]
}

func ExampleDescribe() {
	s, _ := synthetic.Describe([]float64{3, 1, 4, 1, 5, 9, 2, 6})
	fmt.Printf("mean %.3f std %.3f min %g 25%% %g 50%% %g 75%% %g max %g\n", s.Mean, s.Std, s.Min, s.Q25, s.Median, s.Q75, s.Max)
	// Output:
	// mean 3.875 std 2.748 min 1 25% 1.75 50% 3.5 75% 5.25 max 9
}
