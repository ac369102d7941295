package bpe

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"x", []string{"x"}},
		{" ", []string{" "}},
		{"x := 1", []string{"x", " :=", " 1"}},
		// Two spaces: the first is a chunk, the second leads the word.
		{"x  = 1", []string{"x", " ", " =", " 1"}},
		// A newline and the indentation after it stay together.
		{"{\n\t\treturn", []string{"{", "\n\t\t", "return"}},
		{"\n\n\tx", []string{"\n\n\t", "x"}},
		// A tab before a space: the space leads the comment.
		{"x\t // y", []string{"x", "\t", " //", " y"}},
		// A space before a newline is white space, not a leading space.
		{"a \nb", []string{"a", " \n", "b"}},
		// Trailing white space is one chunk.
		{"a  ", []string{"a", "  "}},
		// Words are Go identifiers and number literals.
		{"utf8.RuneSelf_2 0x7F 1e9", []string{"utf8", ".", "RuneSelf_2", " 0x7F", " 1e9"}},
		{"f(x)) {", []string{"f", "(", "x", "))", " {"}},
		{`"héllo, 世界"`, []string{`"`, "héllo", ",", " 世界", `"`}},
		// Unicode white space: a no-break space is white space.
		{"a\u00a0 b", []string{"a", "\u00a0", " b"}},
		// Invalid UTF-8 counts as punctuation.
		{"a\xff\xfe b\xc3", []string{"a", "\xff\xfe", " b", "\xc3"}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range Split([]byte(tt.text)) {
			got = append(got, string(c))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Split(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// splitRE is Split's rule as a regular expression, written independently
// of Split: \s is spelled out as Unicode white space (Go's \s is ASCII
// only). RE2 has no look-ahead, so splitRegexp does "\s+?(?= \S)" by hand.
var splitRE = regexp.MustCompile(`^(?:( ?[\p{L}\p{N}_]+)|( ?[^\t\n\v\f\r\x{85}\p{Z}\p{L}\p{N}_]+)|([\t\n\v\f\r\x{85}\p{Z}]+))`)

func splitRegexp(text []byte) [][]byte {
	var out [][]byte
	for len(text) > 0 {
		loc := splitRE.FindSubmatchIndex(text)
		if loc == nil {
			panic("splitRE matches nothing at " + string(text))
		}
		n := loc[1]
		isSpace := loc[6] >= 0
		if isSpace && n < len(text) && text[n-1] == ' ' && len([]rune(string(text[:n]))) > 1 {
			n-- // the last space leads what follows
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

func checkSplit(t *testing.T, text []byte) {
	t.Helper()
	got := Split(text)
	if joined := bytes.Join(got, nil); !bytes.Equal(joined, text) {
		t.Fatalf("Split(%q) = %q, which joins to %q", text, got, joined)
	}
	for _, c := range got {
		if len(c) == 0 {
			t.Fatalf("Split(%q) = %q has an empty chunk", text, got)
		}
	}
	if want := splitRegexp(text); !slices.EqualFunc(got, want, bytes.Equal) {
		t.Fatalf("Split(%q) =\n%q, the regular expression gives\n%q", text, got, want)
	}
}

// TestSplitMatchesRegexp holds Split to the regular expression on lesson
// 10's text and on random strings of awkward characters.
func TestSplitMatchesRegexp(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u2028", "\u0085", "\v",
		"a", "Z", "_", "é", "世", "7", "٣", ".", ":=", "'", "\"", "€", "\xff", "\xc3", "\x00", "\ufffd"}
	for range 5000 {
		var b []byte
		for range r.IntN(12) {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		checkSplit(t, b)
	}
	checkSplit(t, lesson10(t).Train)
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", " x", "  x", "\n\t\tx", "a\xff b", "a\u00a0 b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkSplit)
}
