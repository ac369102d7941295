package bpe

import (
	"unicode"
	"unicode/utf8"
)

// Split cuts text into the chunks that training and encoding with
// [Options.PreSplit] work on: pairs are counted, and merges made, only
// inside a chunk, so no token ever spans two of them. It is GPT-2's
// pre-split regular expression adapted to Go source. Each chunk is one of
//
//   - a word: a run of letters, digits and underscores — a Go identifier,
//     keyword or number literal such as 0x7F (GPT-2 splits letters from
//     digits; Go's "utf8" and "x2" stay whole here) — with the single space
//     before it, if any: " err";
//   - punctuation: a run of characters that are neither white space nor word
//     characters, with the single space before it: " :=", "){", " //".
//     Bytes that are not valid UTF-8 count as punctuation;
//   - white space: a run of spaces, tabs and newlines, kept together, so a
//     newline and the next line's indentation, "\n\t\t", is one chunk —
//     except that a space right before a word or punctuation is left to
//     that chunk, as its leading space: "x  = 1" is "x", " ", " =", " 1".
//
// White space is Unicode's (unicode.IsSpace), letters and digits are
// \p{L} and \p{N}. As a regular expression with a look-ahead, which Go's
// regexp (RE2) does not have, and \s meaning Unicode white space (the
// leading space of the first two groups is optional):
//
//	( ?[\p{L}\p{N}_]+)|( ?[^\s\p{L}\p{N}_]+)|(\s+?(?= \S))|(\s+)
//
// GPT-2's expression also splits off English contractions ('s, 't, 're, …)
// and leaves any last white-space character, not only a space, to the next
// chunk; neither helps Go source, whose indentation is tabs.
//
// Split never loses or adds a byte: the chunks, concatenated, are text.
// They are sub-slices of text (capacity trimmed), not copies. An empty
// text has no chunks.
//
// Introduced in lesson 12.
func Split(text []byte) [][]byte {
	var chunks [][]byte
	for len(text) > 0 {
		n := chunkLen(text)
		chunks = append(chunks, text[:n:n])
		text = text[n:]
	}
	return chunks
}

// The three classes of characters Split tells apart.
const (
	classSpace = iota // unicode.IsSpace
	classWord         // \p{L}, \p{N} or '_'
	classOther        // everything else, invalid UTF-8 included
)

// asciiClass is the class of each ASCII byte, the fast path of classAt.
var asciiClass [utf8.RuneSelf]uint8

func init() {
	for b := range asciiClass {
		asciiClass[b] = classOfRune(rune(b))
	}
}

func classOfRune(r rune) uint8 {
	switch {
	case unicode.IsSpace(r):
		return classSpace
	case unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_':
		return classWord
	}
	return classOther
}

// classAt returns the class of the character text starts with and its
// length in bytes. A byte that does not start valid UTF-8 is a character
// of one byte, of class classOther. text must not be empty.
func classAt(text []byte) (class uint8, size int) {
	if b := text[0]; b < utf8.RuneSelf {
		return asciiClass[b], 1
	}
	r, size := utf8.DecodeRune(text)
	if r == utf8.RuneError && size == 1 {
		return classOther, 1
	}
	return classOfRune(r), size
}

// chunkLen returns the length of the first chunk of a non-empty text, by
// Split's rules.
func chunkLen(text []byte) int {
	i := 0
	// A single space before a word or punctuation belongs to it.
	if text[0] == ' ' && len(text) > 1 {
		if c, _ := classAt(text[1:]); c != classSpace {
			i = 1
		}
	}
	class, size := classAt(text[i:])
	i += size
	for i < len(text) {
		c, size := classAt(text[i:])
		if c != class {
			break
		}
		i += size
	}
	// A white-space run of two or more characters followed by something
	// else leaves its last space to that something.
	if class == classSpace && i < len(text) && i > 1 && text[i-1] == ' ' {
		i--
	}
	return i
}
