package attention

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/viz"
)

// Cost is what one length costs [Full], [Blocked] and [Linear] on random
// inputs, measured by [MeasureCosts].
//
// Introduced in lesson 11 (attention in practice).
type Cost struct {
	N                              int           // sequence length (queries = keys)
	FullBytes, BlockedBytes        uint64        // heap bytes allocated by the call ([AllocatedBytes])
	FullTime, BlockedTime, LinTime time.Duration // the fastest of 3 calls each
	BlockedDiff                    float64       // max |Blocked − Full| over the outputs
	LinearError                    float64       // ‖Linear − Full‖ / ‖Full‖ (Frobenius norms)
	ScoreBytes                     uint64        // 8·N², the float64 score matrix Full keeps
}

// MeasureCosts runs [Full], [Blocked] (block) and [Linear] on
// self-attention inputs of each length, q, k, v ~ N(0, 1) of width d
// drawn from seed, and measures the bytes each allocates, its time (the
// fastest of 3 calls, so that a busy moment elsewhere on the machine does
// not double a call of a few milliseconds), and how far Blocked and
// Linear are from Full.
//
// Introduced in lesson 11.
func MeasureCosts(lengths []int, d, block int, seed uint32) ([]Cost, error) {
	var out []Cost
	for _, n := range lengths {
		r := random.New(seed)
		q, k, v := r.Normal(n, d), r.Normal(n, d), r.Normal(n, d)
		c := Cost{N: n, ScoreBytes: uint64(8 * n * n)}
		var full, blocked, lin [][]float64
		var err error
		c.FullTime = fastestTime(3, func() { c.FullBytes = AllocatedBytes(func() { full, err = Full(q, k, v) }) })
		if err != nil {
			return nil, err
		}
		c.BlockedTime = fastestTime(3, func() { c.BlockedBytes = AllocatedBytes(func() { blocked, err = Blocked(q, k, v, block) }) })
		if err != nil {
			return nil, err
		}
		c.LinTime = fastestTime(3, func() { lin, err = Linear(q, k, v) })
		if err != nil {
			return nil, err
		}
		c.BlockedDiff = maxAbsDiff(blocked, full)
		c.LinearError = relError(lin, full)
		out = append(out, c)
	}
	return out, nil
}

func maxAbsDiff(a, b [][]float64) float64 {
	m := 0.0
	for i := range a {
		for j := range a[i] {
			m = max(m, math.Abs(a[i][j]-b[i][j]))
		}
	}
	return m
}

// relError is ‖a − b‖ / ‖b‖ in the Frobenius norm.
func relError(a, b [][]float64) float64 {
	num, den := 0.0, 0.0
	for i := range a {
		for j := range a[i] {
			num += (a[i][j] - b[i][j]) * (a[i][j] - b[i][j])
			den += b[i][j] * b[i][j]
		}
	}
	return math.Sqrt(num / den)
}

// CostTable formats costs as a text table.
//
// Introduced in lesson 11.
func CostTable(cs []Cost) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%6s %12s %12s %10s %10s %10s %12s %10s\n", "n", "full MiB", "blocked MiB", "full", "blocked", "linear", "|blk−full|", "lin. err")
	for _, c := range cs {
		fmt.Fprintf(&b, "%6d %12.2f %12.3f %10s %10s %10s %12.1e %9.0f%%\n", c.N, mib(c.FullBytes), mib(c.BlockedBytes),
			c.FullTime.Round(time.Millisecond), c.BlockedTime.Round(time.Millisecond), c.LinTime.Round(time.Millisecond), c.BlockedDiff, 100*c.LinearError)
	}
	return b.String()
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// MemoryFigure plots the bytes allocated against the length, log–log, with
// the n² score matrix for reference.
//
// Introduced in lesson 11.
func MemoryFigure(cs []Cost, block int) *viz.Lines {
	f := &viz.Lines{Title: "Memory of one attention (float64, d = 32)", XLabel: "sequence length n", YLabel: "MiB allocated (log scale)",
		LogX: true, LogY: true, Points: true}
	var x, full, blocked, scores []float64
	for _, c := range cs {
		x = append(x, float64(c.N))
		full = append(full, mib(c.FullBytes))
		blocked = append(blocked, mib(c.BlockedBytes))
		scores = append(scores, mib(c.ScoreBytes))
	}
	f.Series = []viz.Series{{Name: "full: softmax(QKᵀ/√d)·V", X: x, Y: full}, {Name: fmt.Sprintf("blocked, %d×%d, online softmax", block, block), X: x, Y: blocked},
		{Name: "the n×n scores alone: 8·n² bytes", X: x, Y: scores, Dashed: true}}
	return f
}

// TimeFigure plots the time of each method against the length, log–log.
//
// Introduced in lesson 11.
func TimeFigure(cs []Cost) *viz.Lines {
	f := &viz.Lines{Title: "Time of one attention (float64 loops, d = 32)", XLabel: "sequence length n", YLabel: "ms (log scale)",
		LogX: true, LogY: true, Points: true}
	var x, full, blocked, lin []float64
	for _, c := range cs {
		x = append(x, float64(c.N))
		full = append(full, ms(c.FullTime))
		blocked = append(blocked, ms(c.BlockedTime))
		lin = append(lin, ms(c.LinTime))
	}
	f.Series = []viz.Series{{Name: "full O(n²·d)", X: x, Y: full}, {Name: "blocked O(n²·d)", X: x, Y: blocked}, {Name: "linear O(n·d²)", X: x, Y: lin}}
	return f
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Sharpness is how linear attention compares with softmax attention when
// the queries are multiplied by Scale, measured by [LinearVersusSoftmax].
//
// Introduced in lesson 11.
type Sharpness struct {
	Scale float64
	// Entropy of the softmax and of the linear weights, mean over the
	// queries, in nats (ln n for uniform weights).
	SoftmaxEntropy, LinearEntropy float64
	// Error is ‖Linear − Full‖ / ‖Full‖ of the outputs.
	Error float64
}

// LinearVersusSoftmax compares [Linear] with [Full] on n random queries,
// keys and values of width d (seed) as the queries are scaled up: the
// softmax sharpens (its entropy falls towards 0) and linear attention,
// whose kernel grows only linearly, cannot follow.
//
// Introduced in lesson 11.
func LinearVersusSoftmax(n, d int, scales []float64, seed uint32) ([]Sharpness, error) {
	r := random.New(seed)
	q0, k, v := r.Normal(n, d), r.Normal(n, d), r.Normal(n, d)
	var out []Sharpness
	for _, s := range scales {
		q := make([][]float64, n)
		for i := range q {
			q[i] = make([]float64, d)
			for j := range q[i] {
				q[i][j] = s * q0[i][j]
			}
		}
		full, err := Full(q, k, v)
		if err != nil {
			return nil, err
		}
		lin, err := Linear(q, k, v)
		if err != nil {
			return nil, err
		}
		lw, err := LinearWeights(q, k)
		if err != nil {
			return nil, err
		}
		out = append(out, Sharpness{Scale: s, SoftmaxEntropy: meanEntropy(softmaxWeights(q, k)), LinearEntropy: meanEntropy(lw), Error: relError(lin, full)})
	}
	return out, nil
}

// softmaxWeights returns softmax(QKᵀ/√d) row by row in float64.
func softmaxWeights(q, k [][]float64) [][]float64 {
	scale := 1 / math.Sqrt(float64(len(q[0])))
	w := make([][]float64, len(q))
	for i := range q {
		w[i] = make([]float64, len(k))
		m := math.Inf(-1)
		for j := range k {
			w[i][j] = dot(q[i], k[j]) * scale
			m = max(m, w[i][j])
		}
		sum := 0.0
		for j := range w[i] {
			w[i][j] = math.Exp(w[i][j] - m)
			sum += w[i][j]
		}
		for j := range w[i] {
			w[i][j] /= sum
		}
	}
	return w
}

func meanEntropy(w [][]float64) float64 {
	h := 0.0
	for _, row := range w {
		h += RowEntropy(row)
	}
	return h / float64(len(w))
}
