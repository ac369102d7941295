package bpe_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/bpe"
)

// Wikipedia's example: "aa" occurs four times (counted at every position),
// so it becomes token 256; then "a"+"b" and "aa"+"a" tie at two and the
// smaller pair, (97, 98), wins; then "aa"+"ab". After that every pair
// occurs once and training stops, below the 300 tokens asked for.
func ExampleTrain() {
	text := []byte("aaabdaaabac")
	tok, err := bpe.Train(text, 300, bpe.Options{})
	if err != nil {
		panic(err)
	}
	for _, m := range tok.Merges() {
		fmt.Printf("%d = %q + %q = %q, %d times\n", m.ID, tok.Token(m.Left), tok.Token(m.Right), tok.Token(m.ID), m.Count)
	}
	fmt.Println(tok.VocabSize(), "tokens")
	fmt.Println(tok.Encode(text))
	// Output:
	// 256 = "a" + "a" = "aa", 4 times
	// 257 = "a" + "b" = "ab", 2 times
	// 258 = "aa" + "ab" = "aaab", 2 times
	// 259 tokens
	// [258 100 258 97 99]
}

// Two lines of Go, trained with and without the pre-split. Without it the
// frequent pairs run across words and spaces, up to one token for
// "x := x + ". With it, tokens stay inside Split's chunks: a word or
// operator with the space before it.
func ExampleTokenizer_Encode() {
	text := []byte("x := x + 1\nx := x + 2\n")
	for _, opts := range []bpe.Options{{}, {PreSplit: true}} {
		tok, err := bpe.Train(text, 1000, opts)
		if err != nil {
			panic(err)
		}
		ids := tok.Encode([]byte("x := x + 3\n"))
		fmt.Println(tok)
		fmt.Println(ids)
		fmt.Printf("%q\n", tok.Pieces(ids))
		fmt.Printf("%q\n", tok.Decode(ids))
	}
	// Output:
	// byte-level BPE: 263 tokens (256 bytes + 7 merges), one byte stream
	// [262 51 10]
	// ["x := x + " "3" "\n"]
	// "x := x + 3\n"
	// byte-level BPE: 260 tokens (256 bytes + 4 merges), pre-split
	// [120 259 258 256 32 51 10]
	// ["x" " :=" " x" " +" " " "3" "\n"]
	// "x := x + 3\n"
}

// The pre-split of a line of Go: words and punctuation keep the space
// before them, and a newline keeps the indentation after it.
func ExampleSplit() {
	var chunks []string
	for _, c := range bpe.Split([]byte("\tif err != nil {\n\t\treturn 0x7F, err\n\t}\n")) {
		chunks = append(chunks, string(c))
	}
	fmt.Printf("%q\n", chunks)
	// Output:
	// ["\t" "if" " err" " !=" " nil" " {" "\n\t\t" "return" " 0x7F" "," " err" "\n\t" "}" "\n"]
}

// A model with a mean loss of 1.2 nats per token on a text of 3,700 bytes
// cut into 1,000 tokens: 1.2 · 1000 / (3700 · ln 2) ≈ 0.468 bits per byte.
// A byte-level model has one token per byte: its 1.5 nats per token are
// 1.5 / ln 2 ≈ 2.164 bits per byte.
func ExampleBitsPerByte() {
	fmt.Printf("%.3f\n", bpe.BitsPerByte(1.2, 1000, 3700))
	fmt.Printf("%.3f\n", bpe.BitsPerByte(1.5, 3700, 3700))
	// Output:
	// 0.468
	// 2.164
}
