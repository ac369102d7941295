package text_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/text"
)

func ExampleTokenize() {
	fmt.Printf("%q\n", text.Tokenize("We walk when wearing what?"))
	fmt.Printf("%q\n", text.Tokenize("Sphinx of Black Quartz, Judge My Vow"))
	// Output:
	// ["we" "walk" "when" "wearing" "what" "?"]
	// ["sphinx" "of" "black" "quartz" "," "judge" "my" "vow"]
}

// A vocabulary from two sentences: the reserved tokens first, then the
// words in alphabetical order. A word it has not seen becomes <unk>.
func ExampleVocab_Encode() {
	v := text.NewVocab([]string{"The dog bites.", "A man bites the dog!"})
	fmt.Println(v.Tokens())
	ids := v.Encode("The cat bites the man.")
	fmt.Println(ids)
	tokens, _ := v.Decode(ids)
	fmt.Println(tokens)
	// Output:
	// [<pad> <unk> ! . a bites dog man the]
	// [8 1 5 8 7 3]
	// [the <unk> bites the man .]
}

// A batch padded to the longest sentence with <pad> = 0.
func ExampleVocab_EncodeBatch() {
	v := text.NewVocab([]string{"The dog bites.", "A man bites the dog!"})
	batch, _ := v.EncodeBatch([]string{"Man bites dog.", "The dog!", "Bites"}, 0)
	for _, ids := range batch {
		fmt.Println(ids)
	}
	// Output:
	// [7 5 6 3]
	// [8 6 2 0]
	// [5 0 0 0]
}
