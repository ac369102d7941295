package posenc

import "fmt"

// Table is a precomputed sinusoidal encoding ([Sinusoidal]) that grows on
// demand: asking for more positions than it holds extends it, so a model
// built with a table for 512 positions still encodes a sentence of 600
// tokens. Only the new rows are computed (the table at least doubles, so
// growing n times costs O(n) rows in all), and they are exactly the rows
// a table built that large from the start would have: a sinusoidal
// encoding has a formula for every position, unlike a learned one
// ([Learned]).
//
// A Table is not safe for concurrent use.
//
// Introduced in lesson 04.
type Table struct {
	dModel int
	base   float64
	rows   [][]float64
	grown  int
}

// NewTable precomputes the encoding of positions 0..length-1 in dModel
// dimensions with base n. It panics on sizes no encoding has, like
// [Sinusoidal].
//
// Introduced in lesson 04.
func NewTable(length, dModel int, base float64) *Table {
	return &Table{dModel: dModel, base: base, rows: Sinusoidal(length, dModel, base)}
}

// Len returns the number of positions the table holds now.
func (t *Table) Len() int { return len(t.rows) }

// Grown returns how many times the table has grown since [NewTable].
func (t *Table) Grown() int { return t.grown }

// Rows returns the encodings of positions 0..seqLen-1, [seqLen][d_model],
// growing the table first when seqLen > Len(): to max(seqLen, 2·Len()).
// The rows are the table's own: read them, do not modify them.
func (t *Table) Rows(seqLen int) [][]float64 {
	if seqLen < 0 {
		panic(fmt.Sprintf("posenc.Table.Rows: sequence length must be ≥ 0, got %d", seqLen))
	}
	if seqLen > len(t.rows) {
		newLen := max(seqLen, 2*len(t.rows))
		for pos := len(t.rows); pos < newLen; pos++ {
			t.rows = append(t.rows, sinusoidalRow(pos, t.dModel, t.base))
		}
		t.grown++
	}
	return t.rows[:seqLen:seqLen]
}
