package grade

import (
	"testing"
)

// TestTokensLessonDenied: the exercises of lesson 12 flag a program that
// links lib/bpe (whose Train, Tokenizer.Encode and BitsPerByte do them
// in one call), bits per byte lib/gpt's scores too, and not the
// initialisation of a package nor what another package does.
func TestTokensLessonDenied(t *testing.T) {
	expectDenied(t, []string{"lessons/exercises/12-tokens.md"}, []denyCase{
		{"bpe-merge", "lib/bpe.Train", "lib/bpe"},
		{"bpe-merge", "lib/bpe.(*Tokenizer).Merges", "lib/bpe"},
		{"bpe-merge", "lib/bpe.init", ""},
		{"bpe-merge", "lib/corpus.BitsPerChar", ""},
		{"bpe-encode", "lib/bpe.(*Tokenizer).Encode", "lib/bpe"},
		{"bpe-encode", "lib/bpe.Split", "lib/bpe"},
		{"bpe-encode", "lib/gpt.Config.Step", ""},
		{"bits-per-byte", "lib/bpe.BitsPerByte", "lib/bpe"},
		{"bits-per-byte", "lib/gpt.(*Scores).BitsPerByte", "lib/gpt"},
		{"bits-per-byte", "lib/corpus.BitsPerChar", ""},
	})
}

// TestTokensLessonLibraryCalls grades, through the sandbox, a submission
// of exercise 12 whose bits per byte come from bpe.BitsPerByte with the
// mean loss: right numbers, flagged, 0 points, while the honest
// exercises beside it keep theirs.
func TestTokensLessonLibraryCalls(t *testing.T) {
	body := "func BitsPerByte(losses []float64, tokenBytes []int) float64 {\n" +
		"\tnats, n := 0.0, 0\n\tfor i, l := range losses {\n\t\tnats += l\n\t\tn += tokenBytes[i]\n\t}\n" +
		"\treturn bpe.BitsPerByte(nats/float64(len(losses)), len(losses), n)\n}"
	rows := gradeCheat(t, "12-tokens", "bits-per-byte", "import \""+lib+"/bpe\"", body)
	expectFlagged(t, rows, "bits-per-byte", "lib/bpe", map[string]string{"bpe-merge": "3", "bpe-encode": "3"})
}
