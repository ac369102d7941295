package bpe

import (
	"slices"
)

// chunks returns the sequences training and encoding work on: Split's
// chunks with the pre-split, else the whole text (none if it is empty).
func chunks(text []byte, preSplit bool) [][]byte {
	if preSplit {
		return Split(text)
	}
	if len(text) == 0 {
		return nil
	}
	return [][]byte{text}
}

// trainPlain is the reference: minbpe's training loop, which recounts every
// pair of the whole text at each step. It returns the merges and the
// chunks' tokens after the last merge. It is slow (every step reads the
// whole text) and is here to be read and to check trainFast.
func trainPlain(text []byte, vocabSize int, preSplit bool) ([]Merge, [][]int) {
	var seqs [][]int
	for _, c := range chunks(text, preSplit) {
		ids := make([]int, len(c))
		for i, b := range c {
			ids[i] = int(b)
		}
		seqs = append(seqs, ids)
	}
	var merges []Merge
	for id := 256; id < vocabSize; id++ {
		// Count every adjacent pair ("aaa" holds ("a","a") twice).
		counts := map[[2]int]int{}
		for _, ids := range seqs {
			for i := 0; i+1 < len(ids); i++ {
				counts[[2]int{ids[i], ids[i+1]}]++
			}
		}
		// The most frequent pair; of equally frequent ones, the smallest.
		var best [2]int
		bestCount := 0
		for pair, n := range counts {
			if n > bestCount || n == bestCount && (pair[0] < best[0] || pair[0] == best[0] && pair[1] < best[1]) {
				best, bestCount = pair, n
			}
		}
		if bestCount < 2 {
			break
		}
		for i, ids := range seqs {
			seqs[i] = merge(ids, best, id)
		}
		merges = append(merges, Merge{Left: best[0], Right: best[1], ID: id, Count: bestCount})
	}
	return merges, seqs
}

// merge replaces the occurrences of pair in ids by id, left to right without
// overlap, in place: merge([a a a], (a,a), Z) = [Z a].
func merge(ids []int, pair [2]int, id int) []int {
	out := ids[:0] // writing never overtakes reading
	for i := 0; i < len(ids); i++ {
		if i+1 < len(ids) && ids[i] == pair[0] && ids[i+1] == pair[1] {
			out = append(out, id)
			i++
		} else {
			out = append(out, ids[i])
		}
	}
	return out
}

// trainer is the state of trainFast. The tokens of all distinct chunks sit
// in one array of positions, linked into a list per chunk (a merge removes
// its right position); count holds every pair's count, where the positions
// at which each pair has occurred (some of them stale, checked when used),
// and queue the pairs by count.
type trainer struct {
	sym        []int32 // token at each position; −1 once merged away
	prev, next []int32 // neighbours in the chunk, −1 at its ends
	weight     []int32 // how often the position's chunk occurs in the text
	count      map[uint64]int64
	where      map[uint64][]int32
	queue      pairQueue
	touched    []uint64
}

// trainFast gives the merges of trainPlain, faster: identical chunks are
// stored once with their number of occurrences, pair counts are kept up to
// date around each replaced position instead of recounted, and the most
// frequent pair comes from a priority queue.
func trainFast(text []byte, vocabSize int, preSplit bool) []Merge {
	t := trainer{count: map[uint64]int64{}, where: map[uint64][]int32{}}
	// Distinct chunks, in order of first occurrence, with their counts.
	var distinct [][]byte
	var occurs []int32
	index := map[string]int{}
	for _, c := range chunks(text, preSplit) {
		i, ok := index[string(c)]
		if !ok {
			i = len(distinct)
			index[string(c)] = i
			distinct = append(distinct, c)
			occurs = append(occurs, 0)
		}
		occurs[i]++
	}
	index = nil
	n := 0
	for _, c := range distinct {
		n += len(c)
	}
	t.sym = make([]int32, 0, n)
	t.prev = make([]int32, 0, n)
	t.next = make([]int32, 0, n)
	t.weight = make([]int32, 0, n)
	for i, c := range distinct {
		start := int32(len(t.sym))
		for j, b := range c {
			p := start + int32(j)
			t.sym = append(t.sym, int32(b))
			t.prev = append(t.prev, p-1)
			t.next = append(t.next, p+1)
			t.weight = append(t.weight, occurs[i])
			if j > 0 {
				k := pairKey(int32(c[j-1]), int32(b))
				t.count[k] += int64(occurs[i])
				t.where[k] = append(t.where[k], p-1)
			}
		}
		t.prev[start] = -1
		t.next[len(t.next)-1] = -1
	}
	for k, c := range t.count {
		t.queue.items = append(t.queue.items, pairCount{c, k})
	}
	t.queue.init()

	var merges []Merge
	for id := 256; id < vocabSize; id++ {
		k, c := t.best()
		if c < 2 {
			break
		}
		t.apply(k, int32(id))
		merges = append(merges, Merge{Left: int(k >> 32), Right: int(uint32(k)), ID: id, Count: int(c)})
	}
	return merges
}

// best pops the pair of largest count, the smallest pair among equals, or
// a count of 0 if none is left. The queue may hold outdated entries: every
// pair of positive count has one entry with a count at least its count (an
// entry is added whenever a count grows), so an entry that is too large is
// put back with the current count, and one that is too small is dropped.
func (t *trainer) best() (uint64, int64) {
	for len(t.queue.items) > 0 {
		e := t.queue.pop()
		c := t.count[e.key]
		switch {
		case c == e.count:
			return e.key, c
		case c < e.count && c > 0:
			t.queue.push(pairCount{c, e.key})
		}
	}
	return 0, 0
}

// add changes the count of pair k by d.
func (t *trainer) add(k uint64, d int64) {
	if c := t.count[k] + d; c != 0 {
		t.count[k] = c
	} else {
		delete(t.count, k)
	}
}

// apply replaces the pair k by token z at its positions, left to right, and
// updates the counts of the pairs that change: at a position with
// neighbours a and b, (a,L) (L,R) (R,b) lose the chunk's weight and (a,z)
// (z,b) gain it.
func (t *trainer) apply(k uint64, z int32) {
	left, right := int32(k>>32), int32(uint32(k))
	at := t.where[k]
	delete(t.where, k)
	slices.Sort(at) // left to right within each chunk
	at = slices.Compact(at)
	t.touched = t.touched[:0]
	for _, p := range at {
		q := t.next[p]
		if t.sym[p] != left || q < 0 || t.sym[q] != right {
			continue // stale, or overlapped by the previous replacement
		}
		w := int64(t.weight[p])
		a, b := t.prev[p], t.next[q]
		if a >= 0 {
			t.add(pairKey(t.sym[a], left), -w)
		}
		t.add(k, -w)
		if b >= 0 {
			t.add(pairKey(right, t.sym[b]), -w)
		}
		t.sym[p], t.sym[q] = z, -1
		t.next[p] = b
		if b >= 0 {
			t.prev[b] = p
		}
		if a >= 0 {
			nk := pairKey(t.sym[a], z)
			t.add(nk, w)
			t.where[nk] = append(t.where[nk], a)
			t.touched = append(t.touched, nk)
		}
		if b >= 0 {
			nk := pairKey(z, t.sym[b])
			t.add(nk, w)
			t.where[nk] = append(t.where[nk], p)
			t.touched = append(t.touched, nk)
		}
	}
	slices.Sort(t.touched)
	for _, nk := range slices.Compact(t.touched) {
		if c := t.count[nk]; c > 0 {
			t.queue.push(pairCount{c, nk})
		}
	}
}

// pairCount is an entry of the queue.
type pairCount struct {
	count int64
	key   uint64
}

// pairQueue is a binary heap of pairs, the largest count first and, among
// equal counts, the smallest pair.
type pairQueue struct{ items []pairCount }

func (q *pairQueue) less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	return a.count > b.count || a.count == b.count && a.key < b.key
}

func (q *pairQueue) init() {
	for i := len(q.items)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}

func (q *pairQueue) push(e pairCount) {
	q.items = append(q.items, e)
	for i := len(q.items) - 1; i > 0; {
		parent := (i - 1) / 2
		if !q.less(i, parent) {
			break
		}
		q.items[i], q.items[parent] = q.items[parent], q.items[i]
		i = parent
	}
}

func (q *pairQueue) pop() pairCount {
	top := q.items[0]
	last := len(q.items) - 1
	q.items[0] = q.items[last]
	q.items = q.items[:last]
	q.down(0)
	return top
}

func (q *pairQueue) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(q.items) {
			return
		}
		m := l
		if r := l + 1; r < len(q.items) && q.less(r, l) {
			m = r
		}
		if !q.less(m, i) {
			return
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
}
