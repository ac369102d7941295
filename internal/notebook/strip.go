package notebook

import (
	"bytes"
	"encoding/json"
)

// StripOutputs returns data with the outputs of every cell replaced by an
// empty list, for a reader that needs the sources and metadata only (a
// grader): a notebook's outputs, its images above all, are most of its
// bytes. It works in place — the result shares data's array — and never
// allocates a copy of it. Data that is not a JSON object whose "cells"
// is a list of objects, or nested deeper than encoding/json allows, is
// returned as it is, for the decoder to judge.
func StripOutputs(data []byte) []byte {
	s := scanner{data: data}
	i := s.space(0)
	if i >= len(data) || data[i] != '{' {
		return data
	}
	var cuts [][2]int
	_, ok := s.object(i, 0, func(key []byte, start, end int) bool {
		if !keyIs(key, "cells") || data[start] != '[' {
			return true
		}
		_, ok := s.array(start, 1, func(es, ee int) bool {
			if data[es] != '{' {
				return true
			}
			_, ok := s.object(es, 2, func(k []byte, vs, ve int) bool {
				if keyIs(k, "outputs") {
					cuts = append(cuts, [2]int{vs, ve})
				}
				return true
			})
			return ok
		})
		return ok
	})
	if !ok || len(cuts) == 0 {
		return data
	}
	w, r := 0, 0
	for _, c := range cuts {
		w += copy(data[w:], data[r:c[0]])
		w += copy(data[w:], "[]")
		r = c[1]
	}
	w += copy(data[w:], data[r:])
	return data[:w]
}

// keyIs reports whether the undecoded key means name (escapes such as
// \u0073 decoded, as encoding/json would).
func keyIs(key []byte, name string) bool {
	if !bytes.Contains(key, []byte{'\\'}) {
		return string(key) == name
	}
	var k string
	return json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &k) == nil && k == name
}

// maxDepth is encoding/json's limit on nesting.
const maxDepth = 10000

// scanner finds the extent of JSON values without decoding them.
type scanner struct{ data []byte }

// space returns the index of the first non-space byte at or after i.
func (s scanner) space(i int) int {
	for i < len(s.data) {
		switch s.data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value returns the end of the value starting at i.
func (s scanner) value(i, depth int) (int, bool) {
	if i >= len(s.data) || depth > maxDepth {
		return i, false
	}
	switch s.data[i] {
	case '"':
		return s.str(i)
	case '{':
		return s.object(i, depth+1, nil)
	case '[':
		return s.array(i, depth+1, nil)
	}
	j := i
	for j < len(s.data) {
		switch s.data[j] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return j, j > i
		}
		j++
	}
	return j, j > i
}

// str returns the end of the string starting at i (after its quote).
func (s scanner) str(i int) (int, bool) {
	for j := i + 1; j < len(s.data); j++ {
		switch s.data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(s.data), false
}

// object returns the end of the object starting at i, calling member (if
// not nil) with each key (undecoded) and the extent of its value.
func (s scanner) object(i, depth int, member func(key []byte, start, end int) bool) (int, bool) {
	if depth > maxDepth {
		return i, false
	}
	i = s.space(i + 1)
	if i < len(s.data) && s.data[i] == '}' {
		return i + 1, true
	}
	for i < len(s.data) {
		if s.data[i] != '"' {
			return i, false
		}
		ke, ok := s.str(i)
		if !ok {
			return ke, false
		}
		key := s.data[i+1 : ke-1]
		i = s.space(ke)
		if i >= len(s.data) || s.data[i] != ':' {
			return i, false
		}
		vs := s.space(i + 1)
		ve, ok := s.value(vs, depth)
		if !ok || (member != nil && !member(key, vs, ve)) {
			return ve, false
		}
		var done bool
		if i, done, ok = s.after(ve, '}'); done || !ok {
			return i, ok
		}
	}
	return i, false
}

// array returns the end of the array starting at i, calling element (if
// not nil) with the extent of each element.
func (s scanner) array(i, depth int, element func(start, end int) bool) (int, bool) {
	if depth > maxDepth {
		return i, false
	}
	i = s.space(i + 1)
	if i < len(s.data) && s.data[i] == ']' {
		return i + 1, true
	}
	for i < len(s.data) {
		ve, ok := s.value(i, depth)
		if !ok || (element != nil && !element(i, ve)) {
			return ve, false
		}
		var done bool
		if i, done, ok = s.after(ve, ']'); done || !ok {
			return i, ok
		}
	}
	return i, false
}

// after reads what follows a member or an element ending at i: the
// closing byte (done, and the end of the object or array) or a comma (the
// start of the next one).
func (s scanner) after(i int, closing byte) (next int, done, ok bool) {
	i = s.space(i)
	switch {
	case i >= len(s.data):
		return i, false, false
	case s.data[i] == closing:
		return i + 1, true, true
	case s.data[i] == ',':
		return s.space(i + 1), false, true
	}
	return i, false, false
}
