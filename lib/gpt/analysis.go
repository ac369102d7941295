package gpt

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"math"
	"strings"

	"github.com/attention-in-go/course/lib/corpus"
	"github.com/attention-in-go/course/lib/random"
)

// Class is a kind of byte to predict, for [Breakdown].
//
// Introduced in lesson 10.
type Class struct {
	Name string
	// In says whether the byte at text[i] belongs to the class.
	In func(text []byte, i int) bool
}

// Keywords are Go's 25 keywords.
//
// Part of the library behind lesson 10; the lesson does not name it.
var Keywords = []string{"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
	"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select",
	"struct", "switch", "type", "var"}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// inKeyword says whether text[i] is a letter after the first of a whole-word
// Go keyword: the letters a model can complete once it has seen the word
// start.
func inKeyword(text []byte, i int) bool {
	if !isWordByte(text[i]) {
		return false
	}
	s := i
	for s > 0 && isWordByte(text[s-1]) {
		s--
	}
	e := i
	for e < len(text) && isWordByte(text[e]) {
		e++
	}
	if s == i {
		return false
	}
	w := string(text[s:e])
	for _, k := range Keywords {
		if w == k {
			return true
		}
	}
	return false
}

// Classes are the kinds of byte lesson 10 breaks the test text into.
//
// Introduced in lesson 10.
var Classes = []Class{
	{"all bytes", func([]byte, int) bool { return true }},
	{"closing ) ] }", func(t []byte, i int) bool { return t[i] == ')' || t[i] == ']' || t[i] == '}' }},
	{"keyword, after its 1st letter", inKeyword},
	{"tab after a newline", func(t []byte, i int) bool { return t[i] == '\t' && i > 0 && (t[i-1] == '\n' || t[i-1] == '\t') }},
	{"other letters and digits", func(t []byte, i int) bool { return isWordByte(t[i]) && !inKeyword(t, i) }},
}

// ClassScore is one model's result on one class of bytes.
//
// Introduced in lesson 10.
type ClassScore struct {
	Class           string
	Count           int
	Bits            float64 // bits per character on the class
	Accuracy        float64 // share of the class the model ranks first
	NGramBits       float64 // the same for the n-gram baseline
	NGramAccuracy   float64
	NGramName, Name string
}

// Breakdown scores the GPT and an n-gram model on each class of the bytes
// the GPT was evaluated on ([Evaluate]): bits per character and how often
// the byte is the model's first choice.
//
// Introduced in lesson 10.
func Breakdown(text []byte, s *Scores, ng *corpus.NGram, classes []Class) []ClassScore {
	out := make([]ClassScore, len(classes))
	for k, c := range classes {
		out[k].Class, out[k].NGramName, out[k].Name = c.Name, ng.String(), "GPT"
	}
	for j, i := range s.Index {
		var p []float64
		for k, c := range classes {
			if !c.In(text, i) {
				continue
			}
			if p == nil {
				p = ng.Dist(text[max(0, i-ng.Order+1):i])
			}
			o := &out[k]
			o.Count++
			o.Bits -= s.Log2P[j]
			if s.Top[j] == int32(text[i]) {
				o.Accuracy++
			}
			o.NGramBits -= math.Log2(p[text[i]])
			top := 0
			for v := range p {
				if p[v] > p[top] {
					top = v
				}
			}
			if byte(top) == text[i] {
				o.NGramAccuracy++
			}
		}
	}
	for k := range out {
		if n := float64(out[k].Count); n > 0 {
			out[k].Bits /= n
			out[k].Accuracy /= n
			out[k].NGramBits /= n
			out[k].NGramAccuracy /= n
		}
	}
	return out
}

// BreakdownTable prints [Breakdown]'s result, one class a line.
//
// Introduced in lesson 10.
func BreakdownTable(rs []ClassScore) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-30s %7s   %-22s   %-22s\n", "bytes", "count", "GPT bits, top-1", rs[0].NGramName+" bits, top-1")
	for _, r := range rs {
		fmt.Fprintf(&b, "%-30s %7d   %5.2f  %5.1f%%           %5.2f  %5.1f%%\n", r.Class+":", r.Count, r.Bits, 100*r.Accuracy, r.NGramBits, 100*r.NGramAccuracy)
	}
	return b.String()
}

// Parses says whether generated Go text is syntactically valid Go once cut
// to whole lines and given the closing brackets it still owes: the text up
// to its last newline, followed by the closers of the brackets left open
// (found with go/scanner, so brackets in strings and comments do not
// count), must parse with go/parser either as the declarations of a file
// ("package p" before it) or as the statements of a function body. A
// closer without its opener, or an unterminated string, fails.
//
// Introduced in lesson 10.
func Parses(text []byte) bool {
	if k := bytes.LastIndexByte(text, '\n'); k >= 0 {
		text = text[:k+1]
	}
	if len(bytes.TrimSpace(text)) == 0 {
		return false
	}
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(text))
	bad := false
	s.Init(file, text, func(token.Position, string) { bad = true }, scanner.ScanComments)
	var open []token.Token
	for {
		_, tok, _ := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			open = append(open, tok)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(open) == 0 || open[len(open)-1] != tok-5 { // LPAREN+5 = RPAREN, …
				return false
			}
			open = open[:len(open)-1]
		}
	}
	if bad {
		return false
	}
	closers := ""
	for i := len(open) - 1; i >= 0; i-- {
		closers += "\n" + (open[i] + 5).String()
	}
	src := string(text) + closers + "\n"
	if _, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, parser.SkipObjectResolution); err == nil {
		return true
	}
	_, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+src+"}\n", parser.SkipObjectResolution)
	return err == nil
}

// ParseRate is how many of a set of samples [Parses]: K of N.
//
// Introduced in lesson 10.
type ParseRate struct{ K, N int }

// CountParses counts the samples for which [Parses] holds.
//
// Introduced in lesson 10.
func CountParses(samples [][]byte) ParseRate {
	r := ParseRate{N: len(samples)}
	for _, s := range samples {
		if Parses(s) {
			r.K++
		}
	}
	return r
}

// Share is K/N (0 without samples).
func (r ParseRate) Share() float64 {
	if r.N == 0 {
		return 0
	}
	return float64(r.K) / float64(r.N)
}

// Interval is the 95 % Wilson score interval of the share (Wilson 1927):
// the shares p for which K of N is within 1.96 standard deviations,
// (K + z²/2 ± z·√(K(N−K)/N + z²/4)) / (N + z²) with z = 1.96. Unlike
// p̂ ± 1.96·√(p̂(1−p̂)/N) it stays inside [0, 1] and is not empty at K = 0:
// 0 of 20 allows up to 16 %, 1 of 20 anything from 0.9 % to 24 %.
func (r ParseRate) Interval() (lo, hi float64) {
	if r.N == 0 {
		return 0, 1 // no sample: any share
	}
	const z = 1.959963984540054
	k, n := float64(r.K), float64(r.N)
	centre := k + z*z/2
	half := z * math.Sqrt(k*(n-k)/n+z*z/4)
	return max(0, (centre-half)/(n+z*z)), min(1, (centre+half)/(n+z*z))
}

// String is "5% (95% interval 2–11%, 5 of 100)".
func (r ParseRate) String() string {
	lo, hi := r.Interval()
	return fmt.Sprintf("%3.0f%% (95%% interval %.0f–%.0f%%, %d of %d)", 100*r.Share(), 100*lo, 100*hi, r.K, r.N)
}

// SampleNGram continues prompt with n bytes drawn from the n-gram model,
// batch samples from the random source seeded with seed: the baseline of
// [CountParses].
//
// Introduced in lesson 10.
func SampleNGram(ng *corpus.NGram, prompt []byte, n, batch int, seed uint32) [][]byte {
	r := random.New(seed)
	out := make([][]byte, batch)
	for b := range out {
		s := append([]byte(nil), prompt...)
		for range n {
			p := ng.Dist(s[max(0, len(s)-ng.Order+1):])
			u := r.Float64()
			c := 255
			for v, x := range p {
				u -= x
				if u < 0 {
					c = v
					break
				}
			}
			s = append(s, byte(c))
		}
		out[b] = s
	}
	return out
}
