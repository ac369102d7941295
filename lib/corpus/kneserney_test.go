package corpus

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// TestKneserNeyByHand checks the bigram on "abab" with D = 0.5 against
// values worked out on paper.
func TestKneserNeyByHand(t *testing.T) {
	m, err := NewKneserNey([]byte("abab"), 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	// Order 0 with continuations: "b" follows one distinct byte (a), "a"
	// one (b): counts 1 and 1 of 2, two types, so
	// P₀(a) = (1 − 0.5)/2 + 0.5·2/2·(1/256) = 0.25 + 0.5/256.
	p0 := 0.25 + 0.5/256
	// After "a": the raw counts, "b" twice of 2, one type:
	// P(b|a) = (2 − 0.5)/2 + 0.5·1/2·P₀(b).
	// At the start of a text, order 0 with raw counts: a and b twice of 4,
	// P(a) = (2 − 0.5)/4 + 0.5·2/4·(1/256).
	for _, tc := range []struct {
		name string
		ctx  string
		c    byte
		want float64
	}{
		{"P(b|a)", "a", 'b', 0.75 + 0.25*p0},
		{"P(a|a)", "a", 'a', 0.25 * p0},
		{"P(z|a)", "a", 'z', 0.25 * 0.5 / 256},
		{"P(a|z), an unseen history: order 0", "z", 'a', p0},
		{"P(a) at the start", "", 'a', 0.375 + 0.25/256},
		{"P(z) at the start", "", 'z', 0.25 / 256},
	} {
		if got := m.Dist([]byte(tc.ctx))[tc.c]; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s = %.12f, want %.12f", tc.name, got, tc.want)
		}
	}
}

// occurrences counts s in text, overlapping ones included.
func occurrences(text, s []byte) int {
	n := 0
	for i := 0; i+len(s) <= len(text); i++ {
		if bytes.Equal(text[i:i+len(s)], s) {
			n++
		}
	}
	return n
}

// bruteKneserNey is the definition, computed from substring counts of
// text for every probability asked.
func bruteKneserNey(text []byte, order int, d float64, context []byte, c byte) float64 {
	var p func(h []byte, top bool) float64
	p = func(h []byte, top bool) float64 {
		lower := 1.0 / 256 // below order 0: the uniform distribution
		if len(h) > 0 {
			lower = p(h[1:], false)
		}
		count := func(x byte) int {
			hx := append(append([]byte{}, h...), x)
			if top {
				return occurrences(text, hx)
			}
			// The distinct bytes b for which b·h·x occurs in text.
			n := 0
			var seen [256]bool
			for i := 0; i+1+len(hx) <= len(text); i++ {
				if b := text[i]; !seen[b] && bytes.Equal(text[i+1:i+1+len(hx)], hx) {
					seen[b] = true
					n++
				}
			}
			return n
		}
		total, types := 0, 0
		var counts [256]int
		for x := range 256 {
			counts[x] = count(byte(x))
			total += counts[x]
			if counts[x] > 0 {
				types++
			}
		}
		if total == 0 {
			return lower
		}
		return math.Max(float64(counts[c])-d, 0)/float64(total) + d*float64(types)/float64(total)*lower
	}
	top := min(len(context), order-1)
	return p(context[len(context)-top:], true)
}

// TestKneserNeyDefinition compares the model with the definition computed
// from scratch, and checks every distribution sums to 1.
func TestKneserNeyDefinition(t *testing.T) {
	text := []byte("func f() { return x }\nfunc g() { return y }\nfor i := range x { f(i) }\n")
	r := rand.New(rand.NewPCG(3, 4))
	for order := 1; order <= 4; order++ {
		m, err := NewKneserNey(text, order, 0.75)
		if err != nil {
			t.Fatal(err)
		}
		contexts := []string{"", "f", "func", "retu", "zzzz", " { r", "x }\n"}
		for range 6 {
			i := r.IntN(len(text) - 4)
			contexts = append(contexts, string(text[i:i+r.IntN(4)]))
		}
		for _, ctx := range contexts {
			dist := m.Dist([]byte(ctx))
			sum := 0.0
			for _, p := range dist {
				sum += p
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("order %d, context %q: the distribution sums to %.15f", order, ctx, sum)
			}
			for _, c := range []byte("fr {x\nqZ") {
				if want := bruteKneserNey(text, order, 0.75, []byte(ctx), c); math.Abs(dist[c]-want) > 1e-12 {
					t.Errorf("order %d: P(%q|%q) = %.12f, the definition gives %.12f", order, c, ctx, dist[c], want)
				}
			}
		}
	}
	if _, err := NewKneserNey(text, 0, 0.75); err == nil {
		t.Error("order 0 accepted")
	}
	if _, err := NewKneserNey(text, 3, 1); err == nil {
		t.Error("discount 1 accepted")
	}
}
