package posenc

import (
	"fmt"

	"github.com/attention-in-go/course/lib/random"
)

// Learned holds learned positional embeddings (as in BERT and GPT): a
// table of max_len × d_model parameters, row pos being the vector added to
// the token at position pos. Vaswani et al. (2017, §3.5) tried them too and
// found results "nearly identical" to sinusoids, which they kept because
// sinusoids may extrapolate to longer sequences.
//
// Before training the table is noise; training moves each row wherever it
// helps the loss, so neighbouring positions usually end up with similar
// vectors — but only the rows of positions seen in training are ever
// updated, and there is no row at all past max_len: a learned table cannot
// encode a longer sequence ([Learned.Rows] says so).
//
// Introduced in lesson 04.
type Learned struct {
	// Table is [max_len][d_model]: the initial values of the parameters.
	Table [][]float64
}

// NewLearned returns a table of maxLen × dModel standard normal numbers
// drawn from seed, the initial state of learned positional embeddings
// (torch.nn.Embedding draws N(0, 1) too). It panics if maxLen < 1 or
// dModel < 1.
//
// Typical shapes: → Table [max_len][d_model].
//
// Introduced in lesson 04.
func NewLearned(maxLen, dModel int, seed uint32) *Learned {
	if maxLen < 1 || dModel < 1 {
		panic(fmt.Sprintf("posenc.NewLearned: max_len and d_model must be ≥ 1, got %d and %d", maxLen, dModel))
	}
	return &Learned{Table: random.New(seed).Normal(maxLen, dModel)}
}

// MaxLen returns the number of positions the table has rows for.
func (l *Learned) MaxLen() int { return len(l.Table) }

// Rows returns the embeddings of positions 0..seqLen-1, [seqLen][d_model],
// or an error when seqLen > MaxLen(): a learned table has nothing for the
// positions it was not built with, and nothing to compute them from.
func (l *Learned) Rows(seqLen int) ([][]float64, error) {
	if seqLen < 0 {
		return nil, fmt.Errorf("posenc.Learned.Rows: sequence length must be ≥ 0, got %d", seqLen)
	}
	if seqLen > len(l.Table) {
		return nil, fmt.Errorf("posenc.Learned.Rows: a sequence of %d tokens needs positions up to %d, but the learned table has rows only for positions 0..%d (max_len = %d): "+
			"learned embeddings cannot extrapolate; train with a larger max_len, or use sinusoidal encodings (posenc.Table)",
			seqLen, seqLen-1, len(l.Table)-1, len(l.Table))
	}
	return l.Table[:seqLen:seqLen], nil
}
