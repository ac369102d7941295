// Package excerpt keeps a bounded part of a stream of output, its
// beginning or its end, to quote in a message however much a program
// writes.
//
// A [Head] and a [Tail] are io.Writers that never fail and never hold more
// than their limit (a Tail holds at most twice its limit while writing).
// What they show starts and ends on a whole UTF-8 character where they cut
// the output: a multi-byte character split by the limit is left out, not
// shown in part. Elsewhere the bytes are shown as written, valid UTF-8 or
// not.
package excerpt

import (
	"sync"
	"unicode/utf8"
)

// Head keeps the first bytes written to it, up to its limit. It is safe
// for concurrent use.
type Head struct {
	mu  sync.Mutex
	max int
	b   []byte
	cut bool // more was written than kept
}

// NewHead returns a Head that keeps the first max bytes written.
func NewHead(max int) *Head { return &Head{max: max} }

// Write keeps what of p fits under the limit and discards the rest. It
// always returns len(p), nil.
func (h *Head) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := min(max(h.max-len(h.b), 0), len(p))
	h.b = append(h.b, p[:n]...)
	if n < len(p) {
		h.cut = true
	}
	return len(p), nil
}

// String returns the bytes kept, without a character the limit cut in
// two at their end.
func (h *Head) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.b
	if h.cut {
		b = b[:len(b)-partialRuneAtEnd(b)]
	}
	return string(b)
}

// Truncated reports whether more was written than the Head kept.
func (h *Head) Truncated() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cut
}

// Tail keeps the last bytes written to it, up to its limit. It is safe
// for concurrent use.
type Tail struct {
	mu  sync.Mutex
	max int
	b   []byte // the last max bytes are the ones kept
	cut bool   // bytes were dropped from the front
}

// NewTail returns a Tail that keeps the last max bytes written.
func NewTail(max int) *Tail { return &Tail{max: max} }

// Write appends p and drops what falls out of the limit at the front. It
// always returns len(p), nil.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) >= t.max {
		t.cut = t.cut || len(t.b) > 0 || len(p) > t.max
		t.b = append(t.b[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
	t.b = append(t.b, p...)
	if len(t.b) > 2*t.max {
		// Move the kept bytes to the front: each byte moves at most once
		// per max bytes written, and the buffer stays within 2*max.
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
		t.cut = true
	}
	return len(p), nil
}

// String returns the last bytes written, up to the limit, without a
// character the limit cut in two at their start.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, cut := t.b, t.cut
	if len(b) > t.max {
		b, cut = b[len(b)-t.max:], true
	}
	if cut {
		// At most utf8.UTFMax-1 continuation bytes of a character whose
		// first byte was dropped.
		for i := 0; i < utf8.UTFMax-1 && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
			b = b[1:]
		}
	}
	return string(b)
}

// Truncated reports whether bytes were dropped from the front: more was
// written than the Tail keeps.
func (t *Tail) Truncated() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cut || len(t.b) > t.max
}

// partialRuneAtEnd returns the length of the incomplete UTF-8 character at
// the end of b: the first bytes of a character whose rest is missing, or 0.
func partialRuneAtEnd(b []byte) int {
	for n := 1; n < utf8.UTFMax && n <= len(b); n++ {
		if c := b[len(b)-n]; utf8.RuneStart(c) {
			if c >= utf8.RuneSelf && !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}
