package seq2seq

import (
	"fmt"
	"strings"

	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/train"
)

// Token ids of the reversal task: 0 padding, 1 start, 2…11 the digits 0…9.
//
// Part of the library behind lesson 06; the lesson does not name it.
const (
	Start  = 1
	Digit0 = 2
	Vocab  = 12
)

// Examples is a batch of source and target sequences, padded to Width with
// [Pad]. TgtIn is what the decoder reads under teacher forcing: [Start]
// then the target without its last token.
//
// Typical shapes: Src, TgtIn, TgtOut [n][width], Lens [n].
//
// Introduced in lesson 06.
type Examples struct {
	Src, TgtIn, TgtOut [][]int32
	Lens               []int
	Width              int
}

// ReverseTask draws n digit sequences with lengths uniform in
// [minLen, maxLen], padded to width, whose targets are the same digits in
// reverse order: 3 1 4 1 5 → 5 1 4 1 3. Every output token depends on one
// input token, the first output on the last input and the last output on
// the first input, so a model must carry the whole sequence. Digits and
// lengths come from lib/random seeded with seed, so the same call gives the
// same examples everywhere.
//
// Typical shapes: n = 4000, lengths 3…16, width 16.
//
// Introduced in lesson 06.
func ReverseTask(n, minLen, maxLen, width int, seed uint32) (*Examples, error) {
	if n < 1 || minLen < 1 || maxLen < minLen || width < maxLen {
		return nil, fmt.Errorf("seq2seq.ReverseTask: want n ≥ 1 and 1 ≤ minLen ≤ maxLen ≤ width, got n=%d, lengths %d…%d, width %d", n, minLen, maxLen, width)
	}
	r := random.New(seed)
	e := &Examples{Width: width}
	for range n {
		l := minLen + int(r.Float64()*float64(maxLen-minLen+1))
		l = min(l, maxLen)
		src := make([]int32, width)
		for i := range l {
			src[i] = Digit0 + int32(r.Float64()*10)%10
		}
		out := make([]int32, width)
		for i := range l {
			out[i] = src[l-1-i]
		}
		in := make([]int32, width)
		in[0] = Start
		copy(in[1:l], out[:l-1])
		e.Src, e.TgtIn, e.TgtOut = append(e.Src, src), append(e.TgtIn, in), append(e.TgtOut, out)
		e.Lens = append(e.Lens, l)
	}
	return e, nil
}

// Dataset returns the examples as a training set: inputs source and
// decoder input, label the target.
//
// Part of the library behind lesson 06; the lesson does not name it.
func (e *Examples) Dataset(name string) *train.Dataset {
	return &train.Dataset{Name: name,
		Inputs: []train.Column{train.Ints(flat(e.Src), e.Width), train.Ints(flat(e.TgtIn), e.Width)},
		Labels: []train.Column{train.Ints(flat(e.TgtOut), e.Width)}}
}

func flat(m [][]int32) []int32 {
	var v []int32
	for _, row := range m {
		v = append(v, row...)
	}
	return v
}

// Digits formats token ids as digits, "·" for padding and "^" for start.
//
// Part of the library behind lesson 06; the lesson does not name it.
func Digits(ids []int32) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case id == Pad:
			b.WriteString("·")
		case id == Start:
			b.WriteString("^")
		default:
			fmt.Fprintf(&b, "%d", id-Digit0)
		}
	}
	return b.String()
}
