package exercise

// The tasks of lesson 12's exercises: one training step of byte-level
// BPE, encoding a text with a learned merge list, and a language model's
// loss per token as bits per byte.

// MergeIn is an input of the merge-step exercise: a sequence of token ids
// (at least two) and the id the merged pair becomes.
type MergeIn struct {
	IDs  []int
	Next int
}

// MergeOut is MergeStep's result: the sequence after the merge and the
// pair merged.
type MergeOut struct {
	Merged      []int
	Left, Right int
}

// MergeStep: func MergeStep(ids []int, next int) (merged []int, left, right int).
var MergeStep = &Task[func(ids []int, next int) (merged []int, left, right int), MergeIn, MergeOut]{
	ID: "bpe-merge",
	Call: func(f func(ids []int, next int) (merged []int, left, right int), in MergeIn) MergeOut {
		m, l, r := f(in.IDs, in.Next)
		return MergeOut{Merged: m, Left: l, Right: r}
	},
}

// EncodeIn is an input of the encoding exercise: a text and a merge list,
// Merges[i] = {left, right} making token 256+i.
type EncodeIn struct {
	Text   []byte
	Merges [][2]int
}

// Encode: func Encode(text []byte, merges [][2]int) []int.
var Encode = &Task[func(text []byte, merges [][2]int) []int, EncodeIn, []int]{
	ID:   "bpe-encode",
	Call: func(f func(text []byte, merges [][2]int) []int, in EncodeIn) []int { return f(in.Text, in.Merges) },
}

// BitsIn is an input of the bits-per-byte exercise: a model's loss in
// nats on each token of a text and each token's length in bytes.
type BitsIn struct {
	Losses     []float64
	TokenBytes []int
}

// BitsPerByte: func BitsPerByte(losses []float64, tokenBytes []int) float64.
var BitsPerByte = &Task[func(losses []float64, tokenBytes []int) float64, BitsIn, float64]{
	ID: "bits-per-byte",
	Call: func(f func(losses []float64, tokenBytes []int) float64, in BitsIn) float64 {
		return f(in.Losses, in.TokenBytes)
	},
}
