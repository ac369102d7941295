package check

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/attention-in-go/course/lib/exercise"
)

// The grader's process judges whatever a hostile child sends. These fuzz
// tests feed every exercise's comparison and hints arbitrary outputs —
// any shape, NaN, ±Inf, empty, nil, huge values — and every exercise's
// Grade arbitrary bytes; neither may panic, and Grade's points stay in
// [0, Max]. Run longer with, e.g.,
//
//	go test ./lib/check -run '^$' -fuzz FuzzCompare -fuzztime 60s

// filler builds values of any type from fuzz bytes.
type filler struct{ data []byte }

func (f *filler) byte() byte {
	if len(f.data) == 0 {
		return 0
	}
	b := f.data[0]
	f.data = f.data[1:]
	return b
}

func (f *filler) float() float64 {
	switch b := f.byte(); b % 10 {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1)
	case 2:
		return math.Inf(-1)
	case 3:
		return 0
	case 4:
		return 1e300
	case 5:
		return -1e-300
	default:
		var raw [8]byte
		for i := range raw {
			raw[i] = f.byte()
		}
		x := math.Float64frombits(binary.LittleEndian.Uint64(raw[:]))
		if b%10 == 6 {
			return x
		}
		return float64(int8(raw[0])) / 8
	}
}

// length is a slice length: mostly small, sometimes large.
func (f *filler) length() int {
	b := f.byte()
	if b == 255 {
		return 1000 + int(f.byte())*40
	}
	return int(b % 12)
}

func (f *filler) fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		v.SetFloat(f.float())
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(int8(f.byte())))
	case reflect.Uint32, reflect.Uint64, reflect.Uint8:
		v.SetUint(uint64(f.byte()))
	case reflect.Bool:
		v.SetBool(f.byte()%2 == 1)
	case reflect.String:
		n := int(f.byte() % 16)
		v.SetString(string(f.data[:min(len(f.data), n)]))
	case reflect.Slice:
		if f.byte()%7 == 0 || depth > 4 {
			return // nil
		}
		n := f.length()
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			f.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				f.fill(v.Field(i), depth+1)
			}
		}
	case reflect.Pointer:
		if f.byte()%3 == 0 || depth > 4 {
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	}
}

// judgeAny judges an output built from data on every grading case of
// seed, without the recover of judge: a panic of Compare or a hint
// reaches the caller.
func (e *Exercise[F, In, Out]) judgeAny(data []byte, seed uint64) {
	f := &filler{data: data}
	for _, c := range e.grading(seed) {
		var out Out
		f.fill(reflect.ValueOf(&out).Elem(), 0)
		want := e.Reference(exercise.Clone(c.In))
		e.Compare(out, want)
		for _, h := range e.Hints {
			if h.Wrong != nil {
				e.Compare(out, h.Wrong(exercise.Clone(c.In)))
			}
			if h.Detect != nil {
				h.Detect(exercise.Clone(c.In), out)
			}
		}
	}
}

// fuzzable is what the fuzz tests call on every registered exercise.
type fuzzable interface {
	Spec
	judgeAny(data []byte, seed uint64)
}

func FuzzCompare(f *testing.F) {
	f.Add([]byte{}, uint64(1))
	f.Add([]byte{7, 0, 1, 2, 3, 255, 9, 4, 5, 6, 8}, uint64(2))
	f.Add(bytes.Repeat([]byte{1, 6, 3}, 40), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		for _, id := range IDs() {
			if id == "vit" {
				continue // its cases are datasets; its compare is covered below
			}
			s, _ := Lookup(id)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("exercise %s: Compare or a hint panicked on %x: %v", id, data, p)
					}
				}()
				s.(fuzzable).judgeAny(data, seed%4+1)
			}()
		}
	})
}

func FuzzGrade(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("points: 2/2"))
	f.Add([]byte{0x1f, 0xff, 0x81, 0x03, 0x01, 0x01, 0x07})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, id := range IDs() {
			if id == "vit" {
				continue // generating its datasets per input is too slow for a fuzz loop
			}
			s, _ := Lookup(id)
			r := s.Grade(bytes.NewReader(data), 1)
			if r.Points < 0 || r.Points > float64(r.Max) || math.IsNaN(r.Points) {
				t.Fatalf("exercise %s: %v points of %d from %x", id, r.Points, r.Max, data)
			}
		}
	})
}

// TestGradeValidOutcomes: well-formed outcomes with arbitrary values
// (the usual way a buggy learner function fails) are judged without a
// panic, and the right outcomes get full marks.
func TestGradeValidOutcomes(t *testing.T) {
	for _, id := range IDs() {
		if id == "vit" {
			continue
		}
		s, _ := Lookup(id)
		for seed := range uint64(20) {
			data := []byte(fmt.Sprint(seed, id))
			for i := range 40 {
				data = append(data, byte(i*37+int(seed)))
			}
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("exercise %s: panicked on generated outputs: %v", id, p)
					}
				}()
				s.(fuzzable).judgeAny(data, seed+1)
			}()
		}
	}
}
