package excerpt

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

func TestTail(t *testing.T) {
	for _, tt := range []struct {
		name      string
		max       int
		writes    []string
		want      string
		truncated bool
	}{
		{"nothing written", 4, nil, "", false},
		{"under the limit", 4, []string{"ab", "c"}, "abc", false},
		{"exactly the limit", 4, []string{"ab", "cd"}, "abcd", false},
		{"a write straddles the limit", 4, []string{"abc", "def"}, "cdef", true},
		{"one write over the limit", 4, []string{"abcdefgh"}, "efgh", true},
		{"a write of the limit after others", 4, []string{"xy", "abcd"}, "abcd", true},
		{"many small writes", 3, []string{"a", "b", "c", "d", "e", "f", "g", "h"}, "fgh", true},
		{"more than twice the limit", 2, []string{"abc", "d", "e", "fg"}, "fg", true},
		{"a 2-byte character cut", 4, []string{"aé€"}, "€", true},       // a C3 A9 E2 82 AC: keeps A9 E2 82 AC
		{"a 3-byte character cut", 4, []string{"x€", "yz"}, "yz", true}, // keeps 82 AC y z
		{"a 4-byte character cut", 5, []string{"a😀", "bc"}, "bc", true}, // a F0 9F 98 80 b c: keeps 9F 98 80 b c
		{"the cut at a character's first byte", 5, []string{"ab", "é€"}, "é€", true},
		{"cut across writes byte by byte", 3, []string{"a", "\xe2", "\x82", "\xac", "\xc3", "\xa9"}, "é", true},
		{"invalid UTF-8 not at the cut stays", 5, []string{"a\xffb"}, "a\xffb", false},
		{"a zero limit", 0, []string{"abc"}, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tail := NewTail(tt.max)
			for _, w := range tt.writes {
				if n, err := tail.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want %d, nil", w, n, err, len(w))
				}
			}
			if got := tail.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if got := tail.Truncated(); got != tt.truncated {
				t.Errorf("Truncated() = %v, want %v", got, tt.truncated)
			}
		})
	}
}

func TestHead(t *testing.T) {
	for _, tt := range []struct {
		name      string
		max       int
		writes    []string
		want      string
		truncated bool
	}{
		{"nothing written", 4, nil, "", false},
		{"under the limit", 4, []string{"ab", "c"}, "abc", false},
		{"exactly the limit", 4, []string{"ab", "cd"}, "abcd", false},
		{"a write straddles the limit", 4, []string{"abc", "def"}, "abcd", true},
		{"writes after the limit", 2, []string{"ab", "c", "d"}, "ab", true},
		{"a 3-byte character cut", 4, []string{"aé€"}, "aé", true},   // keeps a C3 A9 E2
		{"a 2-byte character cut", 2, []string{"aé"}, "a", true},     // keeps a C3
		{"a 4-byte character cut", 4, []string{"a😀"}, "a", true},     // keeps a F0 9F 98
		{"a whole 4-byte character", 5, []string{"a😀b"}, "a😀", true}, // keeps a F0 9F 98 80
		{"cut after a whole character", 3, []string{"é", "€"}, "é", true},
		{"an incomplete character written, not cut", 4, []string{"ab\xe2"}, "ab\xe2", false},
		{"invalid UTF-8 before the cut stays", 3, []string{"a\xffbc"}, "a\xffb", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			head := NewHead(tt.max)
			for _, w := range tt.writes {
				if n, err := head.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want %d, nil", w, n, err, len(w))
				}
			}
			if got := head.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if got := head.Truncated(); got != tt.truncated {
				t.Errorf("Truncated() = %v, want %v", got, tt.truncated)
			}
		})
	}
}

// TestRandomWrites compares a Head and a Tail with the beginning and the
// end of everything written, for writes of random lengths (ASCII, so that
// no character is cut).
func TestRandomWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		limit := r.IntN(40)
		head, tail := NewHead(limit), NewTail(limit)
		var all bytes.Buffer
		for range r.IntN(30) {
			w := make([]byte, r.IntN(3*limit+2))
			for i := range w {
				w[i] = byte('a' + r.IntN(26))
			}
			all.Write(w)
			head.Write(w)
			tail.Write(w)
		}
		s := all.String()
		if got, want := head.String(), s[:min(limit, len(s))]; got != want {
			t.Fatalf("limit %d: head %q, want %q", limit, got, want)
		}
		if got, want := tail.String(), s[max(0, len(s)-limit):]; got != want {
			t.Fatalf("limit %d: tail %q, want %q", limit, got, want)
		}
		if got, want := tail.Truncated(), len(s) > limit; got != want {
			t.Fatalf("limit %d, %d bytes written: tail truncated = %v", limit, len(s), got)
		}
		if got := cap(tail.b); got > 4*limit+64 {
			t.Fatalf("limit %d: the tail's buffer grew to %d bytes", limit, got)
		}
	}
}

// TestConcurrentWrites: lines written from several goroutines at once
// arrive whole (run with -race).
func TestConcurrentWrites(t *testing.T) {
	tail := NewTail(1 << 10)
	line := strings.Repeat("x", 9) + "\n"
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				tail.Write([]byte(line))
			}
		})
	}
	wg.Wait()
	got := tail.String()
	if all := strings.Repeat(line, 8*100); len(got) != 1<<10 || !strings.HasSuffix(all, got) {
		t.Errorf("tail of concurrent writes: %d bytes, %q…, not the end of whole lines", len(got), got[:min(len(got), 30)])
	}
}
