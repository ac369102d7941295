package bpe

// encodePlain is the reference encoder, minbpe's: in each chunk, find the
// adjacent pair that was merged first in training, replace it everywhere,
// and repeat until no pair of the chunk is a merge. It reads the chunk once
// per merge applied, so it is slow on long chunks, and is here to be read
// and to check Encode.
func (t *Tokenizer) encodePlain(text []byte) []int {
	var out []int
	for _, c := range chunks(text, t.preSplit) {
		ids := make([]int, len(c))
		for i, b := range c {
			ids[i] = int(b)
		}
		for len(ids) >= 2 {
			first := -1 // the lowest rank of a pair of ids
			for i := 0; i+1 < len(ids); i++ {
				if r, ok := t.rank[pairKey(int32(ids[i]), int32(ids[i+1]))]; ok && (first < 0 || int(r) < first) {
					first = int(r)
				}
			}
			if first < 0 {
				break
			}
			m := t.merges[first]
			ids = merge(ids, [2]int{m.Left, m.Right}, m.ID)
		}
		out = append(out, ids...)
	}
	return out
}

// encoder holds the buffers of one Encode call, reused from chunk to chunk.
type encoder struct {
	sym, prev, next []int32
	queue           []uint64 // rank<<32 | position, a min-heap
}

// encode appends the tokens of one chunk to out. Each position holds a
// token and links to its neighbours; the queue holds (rank, position) of
// the pairs that are merges, smallest first, so merges are applied in the
// order learned and each left to right — minbpe's result, in
// O(n log n) rather than O(n · merges). A merged pair can only make pairs
// with the new token, whose ranks are higher, so no rank is seen again
// after its turn. Entries whose pair has changed since are skipped.
func (e *encoder) encode(t *Tokenizer, chunk []byte, out []int) []int {
	n := len(chunk)
	if n <= 1 {
		for _, b := range chunk {
			out = append(out, int(b))
		}
		return out
	}
	e.sym = e.sym[:0]
	e.prev = e.prev[:0]
	e.next = e.next[:0]
	e.queue = e.queue[:0]
	for i, b := range chunk {
		e.sym = append(e.sym, int32(b))
		e.prev = append(e.prev, int32(i-1))
		e.next = append(e.next, int32(i+1))
	}
	e.next[n-1] = -1
	for i := 0; i+1 < n; i++ {
		if r, ok := t.rank[pairKey(e.sym[i], e.sym[i+1])]; ok {
			e.queue = append(e.queue, uint64(r)<<32|uint64(i))
		}
	}
	for i := len(e.queue)/2 - 1; i >= 0; i-- {
		e.down(i)
	}
	for len(e.queue) > 0 {
		top := e.queue[0]
		last := len(e.queue) - 1
		e.queue[0] = e.queue[last]
		e.queue = e.queue[:last]
		e.down(0)

		m := &t.merges[top>>32]
		p := int32(uint32(top))
		q := e.next[p]
		if e.sym[p] != int32(m.Left) || q < 0 || e.sym[q] != int32(m.Right) {
			continue // the pair at p has changed
		}
		e.sym[p], e.sym[q] = int32(m.ID), -1
		b := e.next[q]
		e.next[p] = b
		if b >= 0 {
			e.prev[b] = p
		}
		if a := e.prev[p]; a >= 0 {
			if r, ok := t.rank[pairKey(e.sym[a], e.sym[p])]; ok {
				e.push(uint64(r)<<32 | uint64(a))
			}
		}
		if b >= 0 {
			if r, ok := t.rank[pairKey(e.sym[p], e.sym[b])]; ok {
				e.push(uint64(r)<<32 | uint64(p))
			}
		}
	}
	for p := int32(0); p >= 0; p = e.next[p] {
		out = append(out, int(e.sym[p]))
	}
	return out
}

func (e *encoder) push(v uint64) {
	e.queue = append(e.queue, v)
	for i := len(e.queue) - 1; i > 0; {
		parent := (i - 1) / 2
		if e.queue[parent] <= v {
			break
		}
		e.queue[i] = e.queue[parent]
		i = parent
		e.queue[i] = v
	}
}

func (e *encoder) down(i int) {
	h := e.queue
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r] < h[l] {
			m = r
		}
		if h[i] <= h[m] {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
