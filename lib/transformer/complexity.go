package transformer

import (
	"fmt"
	"strings"
)

// Complexity compares, for sequences of n tokens of width d, one
// self-attention layer with one recurrent layer (Vaswani et al. 2017,
// §4 and Table 1):
//
//	                      self-attention   recurrent
//	operations per layer  O(n²·d)          O(n·d²)
//	sequential steps      O(1)             O(n)
//	maximum path length   O(1)             O(n)
//
// Self-attention compares every pair of positions (n² dot products of
// length d); a recurrent layer multiplies a d×d matrix by the state once
// per position, one position after the other. Self-attention is cheaper
// while n < d — true of most sentences with d = 512 — and every pair of
// tokens is one step apart instead of up to n.
//
// Introduced in lesson 05.
type Complexity struct {
	D                 int
	N                 []float64 // sequence lengths
	SelfAttention     []float64 // n²·d multiply-adds per layer
	Recurrent         []float64 // n·d² multiply-adds per layer
	PathSelfAttention []float64 // 1: any token reaches any other in one step
	PathRecurrent     []float64 // n: the first token reaches the last after n steps
}

// ComplexityCurves returns the costs of [Complexity] for each length in ns
// with width d, as float64 slices ready to plot.
//
// Introduced in lesson 05.
func ComplexityCurves(ns []int, d int) *Complexity {
	c := &Complexity{D: d}
	for _, n := range ns {
		nf, df := float64(n), float64(d)
		c.N = append(c.N, nf)
		c.SelfAttention = append(c.SelfAttention, nf*nf*df)
		c.Recurrent = append(c.Recurrent, nf*df*df)
		c.PathSelfAttention = append(c.PathSelfAttention, 1)
		c.PathRecurrent = append(c.PathRecurrent, nf)
	}
	return c
}

// String formats the curves as a table, one row per length.
func (c *Complexity) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%6s  %16s  %16s  %8s  %8s   (d = %d)\n", "n", "self-attn n²·d", "recurrent n·d²", "path SA", "path RNN", c.D)
	for i, n := range c.N {
		fmt.Fprintf(&b, "%6.0f  %16s  %16s  %8.0f  %8.0f\n", n, Thousands(int(c.SelfAttention[i])), Thousands(int(c.Recurrent[i])),
			c.PathSelfAttention[i], c.PathRecurrent[i])
	}
	return b.String()
}
